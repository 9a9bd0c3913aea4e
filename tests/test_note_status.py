"""The note editor tells the truth about its text: "Saving…" from the first unsaved keystroke
until the write, "Saved" only after it; a failing autosave keeps one draft per editor,
rewritten, not one per change; drafts left waiting are named when the reader starts."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from rich.text import Text
from textual.widgets import Static

from reader.library import Library
from reader.ui.app import ReaderApp
from reader.ui.screens.note import AUTOSAVE_AFTER, NoteScreen
from tests.test_app import settle
from tests.waiting import until

SIZE = (100, 30)


def status(app: ReaderApp) -> str:
    shown = app.screen.query_one("#note-status", Static).render()
    return shown.plain if isinstance(shown, Text) else str(shown)


def messages(app: ReaderApp) -> list[str]:
    return [n.message for n in app._notifications]


async def test_saving_is_said_from_the_first_keystroke_until_the_write(library: Library) -> None:
    app = ReaderApp(library, load_sample=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("n")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, NoteScreen)
        await pilot.press("a")
        await until(pilot, lambda: screen.stored, "the first word is stored")
        await settle(app, pilot)
        assert status(app) == "Saved · esc closes"
        await pilot.press("b")  # the autosave waits AUTOSAVE_AFTER: the word is not stored
        # (On a machine too busy to look before the autosave, the word may be stored already.)
        assert screen.stored or status(app) == "Saving…", status(app)
        await until(pilot, lambda: screen.stored, "the second word is stored")
        await settle(app, pilot)
        assert status(app) == "Saved · esc closes"
        assert library.note(screen.paper.id).text == "ab"


async def test_a_failing_autosave_rewrites_one_draft(
    library: Library, refuse_writes: Callable[[Library], None]
) -> None:
    app = ReaderApp(library, load_sample=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        refuse_writes(library)
        await pilot.press("n")
        await pilot.pause()
        for word in ("one", "two", "three"):
            await pilot.press(*word)
            await until(pilot, lambda: any(m.startswith("Could not save the note")
                                           for m in messages(app)), "the failed save is told")
            app._notifications.clear()
            # Saves a second or more apart: a draft named by the time would be a new file.
            await asyncio.sleep(max(1.1, AUTOSAVE_AFTER * 2))
        await settle(app, pilot)
        drafts = list(library.paths.drafts.glob("*.md"))
        assert len(drafts) == 1, drafts
        assert drafts[0].read_text(encoding="utf-8") == "onetwothree"


async def test_drafts_waiting_are_named_at_start(library: Library) -> None:
    library.paths.drafts.mkdir(parents=True, exist_ok=True)
    draft = library.paths.drafts / "note-3-20260101-120000.md"
    draft.write_text("words the database would not take", encoding="utf-8")
    app = ReaderApp(library, load_sample=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        said = [m for m in messages(app) if m.startswith("Note drafts wait to be restored")]
        assert len(said) == 1 and str(draft) in said[0]
    assert draft.exists()


async def test_a_draft_is_said_when_its_note_is_opened_and_goes_once_saved(
    library: Library,
) -> None:
    """A second editor on the note says a draft of it waits; an editor whose failed save
    left a draft deletes it once its text is stored."""
    app = ReaderApp(library, load_sample=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        for store in library._stores:
            store.conn.execute("PRAGMA query_only = ON")
        await pilot.press("n")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, NoteScreen)
        await pilot.press(*"kept")
        await until(pilot, lambda: any(m.startswith("Could not save the note")
                                       for m in messages(app)), "the failed save is told")
        [draft] = library.paths.drafts.glob("*.md")
        await pilot.press("escape")  # the editor stays open: its text is unsaved
        await pilot.pause()
        # Another window opens the same note meanwhile: it is told of the draft.
        other = ReaderApp(library, load_sample=False)
        async with other.run_test(size=SIZE) as second:
            await settle(other, second)
            await second.press("n")
            await until(second, lambda: any(str(draft) in m and m.startswith("A draft of this")
                                            for m in messages(other)), "the draft named")
        for store in library._stores:
            store.conn.execute("PRAGMA query_only = OFF")
        await pilot.press("x")
        await until(pilot, lambda: screen.stored, "the text stored")
        await until(pilot, lambda: not draft.exists(), "the draft deleted")
        assert library.note(screen.paper.id).text == "keptx"


async def test_an_edit_is_said_unsaved_before_it_is_drawn(library: Library) -> None:
    """The status changes with the edit itself, not a message later: no frame shows the
    new text beside "Saved"."""
    from reader.ui.widgets.note_editor import NoteEditor

    app = ReaderApp(library, load_sample=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("n")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, NoteScreen)
        await pilot.press("a")
        await until(pilot, lambda: screen.stored, "the first word is stored")
        await settle(app, pilot)
        assert status(app) == "Saved · esc closes"
        screen.query_one(NoteEditor).insert("b")  # no await: nothing else has run yet
        assert status(app) == "Saving…"
