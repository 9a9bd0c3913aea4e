"""No note is ever overwritten: every save is a version, and concurrent writers merge.

The writers are real: `reader note` runs as its own process while a Pilot-driven editor
types, and two reader windows (two app instances, each with its own connections) edit one
note at once.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from textual.pilot import Pilot
from textual.widgets import TextArea

from reader.intake.merge import import_records
from reader.library import Library
from reader.store.database import Store
from reader.store.notes import CLI, HEAD
from reader.text.notemerge import CONFLICT_END, CONFLICT_START, merge
from reader.ui.app import ReaderApp
from reader.ui.screens.note import NoteScreen
from reader.ui.screens.note_versions import VersionsScreen
from reader.ui.widgets.paper_list import PaperList
from tests.test_app import settle
from tests.waiting import until

ROOT = Path(__file__).resolve().parent.parent
SIZE = (100, 30)


def reader_cli(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run the real `reader` command on a library."""
    return subprocess.run(
        [sys.executable, "-m", "reader", "--library", str(root), *args],
        cwd=ROOT, capture_output=True, text=True, timeout=60, check=False,
    )


async def type_text(pilot: Pilot, text: str) -> None:  # type: ignore[type-arg]
    await pilot.press(*("space" if c == " " else c for c in text))


async def saved_now(app: ReaderApp, pilot: Pilot) -> None:  # type: ignore[type-arg]
    """Wait for the autosave and the write it starts: the library holds the editor's text."""
    screen = app.screen
    assert isinstance(screen, NoteScreen)
    await until(pilot, lambda: screen.stored, "the note is stored")
    await settle(app, pilot)


# -- the merge itself ---------------------------------------------------------------------


def test_merge_keeps_both_writers_edits() -> None:
    # The CLI appended while the editor typed at the end: both kept, the editor's first.
    assert merge("hello", "hello\n\nCLIX", "hello more").text == "hello more\n\nCLIX"
    # Different words of one line changed by each: word-level merge, no conflict.
    both = merge("fast model on GPU", "fast model on TPU", "slow model on GPU")
    assert (both.text, both.conflicts) == ("slow model on TPU", 0)
    # Different lines: line-level merge.
    assert merge("a\nb\nc\n", "A\nb\nc\n", "a\nb\nC\n").text == "A\nb\nC\n"
    # Two windows typing into an empty note (or a new last line): a line each, not one.
    assert merge("", "from one", "from two").text == "from two\nfrom one"
    assert merge("intro\n", "intro\nfrom one", "intro\nfrom two").text == (
        "intro\nfrom two\nfrom one")


def test_words_typed_after_a_space_stay_before_a_paragraph_appended_there() -> None:
    # The editor stored "one. " and went on typing; the CLI appended after the space.
    merged = merge("one. ", "one. \n\nCLI appended line.", "one. two.")
    assert merged.text == "one. two.\n\nCLI appended line."


def test_an_append_from_the_command_line_leaves_the_note_as_it_was_before_it(
    library: Library,
) -> None:
    paper = next(library.store.iter_papers())
    library.save_note(paper.id, "one. ")
    library.close()
    done = reader_cli(library.paths.root, "note", paper.citekey, "--append", "--text", "two")
    assert done.returncode == 0, done.stderr
    again = Library(library.paths.root)
    try:
        assert again.store.edits.note(paper.id).text == "one. \n\ntwo"
    finally:
        again.close()


def test_merge_marks_a_conflict_and_keeps_both_texts() -> None:
    merged = merge("the result is 3", "the result is 4", "the result is 5",
                   theirs_label="saved by the CLI", ours_label="yours")
    assert merged.conflicts == 1
    assert "the result is 4" in merged.text and "the result is 5" in merged.text
    assert f"{CONFLICT_START}saved by the CLI" in merged.text
    assert f"{CONFLICT_END}yours" in merged.text


# -- versions in the store and the CLI ------------------------------------------------------


def test_every_save_is_a_version_and_a_stale_save_merges(library: Library) -> None:
    store = library.store
    paper = store.all_ids()[0]
    first = store.edits.save_note(paper, "hello", None, "window 1.1")
    store.edits.save_note(paper, "hello\n\nCLIX", first.version, CLI)
    late = store.edits.save_note(paper, "hello more", first.version, "window 1.1")
    assert late.text == "hello more\n\nCLIX"
    assert late.merged_with == CLI
    versions = store.edits.note_versions(paper)
    assert [v.text for v in versions] == [
        "hello", "hello\n\nCLIX", "hello more", "hello more\n\nCLIX",
    ]
    assert [v.kind for v in versions] == ["save", "save", "save", "merge"]
    assert store.edits.note(paper).text == late.text
    # Saving from the stored version, or replacing it, needs no merge.
    again = store.edits.save_note(paper, "replaced", HEAD, CLI)
    assert again.merged_with is None and store.edits.note(paper).text == "replaced"


def test_cli_history_show_and_restore(library: Library) -> None:
    root = library.paths.root
    paper = library.store.paper(library.store.all_ids()[0])
    assert paper is not None
    library.close()
    assert reader_cli(root, "note", paper.citekey, "--text", "first words").returncode == 0
    replaced = reader_cli(root, "note", paper.citekey, "--text", "second words")
    assert "--history" in replaced.stderr  # the replaced text is kept, and it says where
    history = reader_cli(root, "note", paper.citekey, "--history")
    assert history.returncode == 0
    lines = history.stdout.splitlines()
    assert "1 " in lines[0] and "first words" in lines[0] and "the CLI" in lines[0]
    assert "second words" in lines[1]
    shown = reader_cli(root, "note", paper.citekey, "--show", "1")
    assert shown.stdout == "first words\n"
    restored = reader_cli(root, "note", paper.citekey, "--restore", "1")
    assert restored.returncode == 0, restored.stderr
    assert Library(root).store.edits.note(paper.id).text == "first words"
    missing = reader_cli(root, "note", paper.citekey, "--show", "9")
    assert missing.returncode == 1 and "no version 9" in missing.stderr


def test_migration_keeps_existing_notes_as_their_first_version(tmp_path: Path) -> None:
    store = Store(tmp_path / "lib.sqlite")
    import_records(store, [], "x", "seed")
    assert store.edits.note_versions(1) == []
    assert store.edits.note(1).version is None


# -- the editor beside other writers --------------------------------------------------------


async def test_cli_appends_while_the_editor_types_are_all_kept(library: Library) -> None:
    root = library.paths.root
    app = ReaderApp(library, load_sample=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        paper_id = app.query_one(PaperList).current_id
        assert paper_id is not None
        citekey = library.store.paper(paper_id).citekey  # type: ignore[union-attr]
        await pilot.press("n")
        await pilot.pause()
        editor = app.screen.query_one(TextArea)
        await type_text(pilot, "hello")
        await saved_now(app, pilot)
        for n in range(3):
            done = reader_cli(root, "note", citekey, "--append", "--text", f"CLI{n}")
            assert done.returncode == 0, done.stderr
            await type_text(pilot, f" more{n}")
            await saved_now(app, pilot)
        await until(pilot, lambda: "CLI2" in editor.text, "the editor shows the last append")
        await saved_now(app, pilot)
        stored = library.store.edits.note(paper_id).text
        for word in ("hello", "more0", "more1", "more2", "CLI0", "CLI1", "CLI2"):
            assert word in stored, (word, stored)
        assert editor.text == stored
        await pilot.press("escape")
        await settle(app, pilot)
        assert not isinstance(app.screen, NoteScreen)


async def test_an_unchanged_editor_follows_the_stored_note(library: Library) -> None:
    root = library.paths.root
    app = ReaderApp(library, load_sample=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        paper_id = app.query_one(PaperList).current_id
        citekey = library.store.paper(paper_id).citekey  # type: ignore[arg-type,union-attr]
        await pilot.press("n")
        await pilot.pause()
        editor = app.screen.query_one(TextArea)
        assert reader_cli(root, "note", citekey, "--text", "written elsewhere").returncode == 0
        await until(pilot, lambda: editor.text == "written elsewhere", "the editor follows")
        status = str(app.screen.query_one("#note-status").render())
        assert "the CLI changed this note" in status
        # Following is not a change of its own: nothing new is saved.
        await saved_now(app, pilot)
        assert len(library.store.edits.note_versions(paper_id)) == 1  # type: ignore[arg-type]


async def test_two_windows_on_one_note_lose_nothing(library: Library) -> None:
    root = library.paths.root
    other = Library(root)
    first, second = ReaderApp(library, load_sample=False), ReaderApp(other, load_sample=False)
    try:
        async with first.run_test(size=SIZE) as one, second.run_test(size=SIZE) as two:
            await settle(first, one)
            await settle(second, two)
            paper_id = first.query_one(PaperList).current_id
            assert paper_id == second.query_one(PaperList).current_id
            await one.press("n")
            await two.press("n")
            await one.pause()
            await two.pause()
            # Both type before either save lands: the second save meets the first.
            await type_text(one, "alpha")
            await type_text(two, "omega")
            await saved_now(first, one)
            await saved_now(second, two)
            await until(two, lambda: "alpha" in second.screen.query_one(TextArea).text,
                        "the second window merges the first's text")
            await until(one, lambda: "omega" in first.screen.query_one(TextArea).text,
                        "the first window follows the merge")
            stored = library.store.edits.note(paper_id).text  # type: ignore[arg-type]
            assert "alpha" in stored and "omega" in stored
            # The versions say who wrote what.
            await two.press("ctrl+o")
            await two.pause()
            assert isinstance(second.screen, VersionsScreen)
            listing = "\n".join(
                str(o.prompt) for o in second.screen.query_one("#versions-list").options
            )
            assert "this window" in listing and "another window" in listing
            await two.press("escape")
            await two.pause()
            assert isinstance(second.screen, NoteScreen)
    finally:
        other.close()


async def test_overlapping_edits_are_kept_as_a_conflict_and_the_editor_says_so(
    library: Library,
) -> None:
    store = library.store
    paper_id = store.all_ids()[0]
    store.edits.save_note(paper_id, "the result is 3")
    app = ReaderApp(library, load_sample=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("n")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, NoteScreen)
        await pilot.press("backspace", "5")  # not saved yet
        other = Library(library.paths.root)
        try:
            other.save_note(paper_id, "the result is 4", base=screen.base, writer=CLI)
        finally:
            other.close()
        screen.follow()
        await saved_now(app, pilot)
        text = screen.query_one(TextArea).text
        assert "the result is 4" in text and "the result is 5" in text
        assert CONFLICT_START in text and CONFLICT_END in text
        status = str(screen.query_one("#note-status").render())
        assert "1 conflict" in status and "the CLI" in status
        assert store.edits.note(paper_id).text == text


async def test_a_version_is_restored_from_the_editor(library: Library) -> None:
    store = library.store
    paper_id = store.all_ids()[0]
    store.edits.save_note(paper_id, "the old thought")
    store.edits.save_note(paper_id, "a new thought")
    app = ReaderApp(library, load_sample=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("n")
        await pilot.pause()
        await pilot.press("ctrl+o")
        await pilot.pause()
        assert isinstance(app.screen, VersionsScreen)
        await pilot.press("down", "enter")  # newest first: down is the older one
        await settle(app, pilot)
        assert isinstance(app.screen, NoteScreen)
        assert app.screen.query_one(TextArea).text == "the old thought"
        await saved_now(app, pilot)
        assert store.edits.note(paper_id).text == "the old thought"
        assert [v.kind for v in store.edits.note_versions(paper_id)][-1] == "restore"


async def test_esc_while_a_save_is_on_its_way_waits_for_it(library: Library) -> None:
    app = ReaderApp(library, load_sample=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        paper_id = app.query_one(PaperList).current_id
        await pilot.press("n")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, NoteScreen)
        # Another process holds the database's write lock: the save waits for it.
        blocker = sqlite3.connect(library.paths.database)
        blocker.execute("BEGIN IMMEDIATE")
        try:
            await type_text(pilot, "typed")
            await pilot.press("escape")
            await pilot.pause()
            assert app.screen is screen  # not stored yet: the editor stays
            assert "closes when the note is stored" in str(
                screen.query_one("#note-status").render()
            )
        finally:
            blocker.execute("COMMIT")
            blocker.close()
        await settle(app, pilot)
        assert not isinstance(app.screen, NoteScreen)
        assert library.store.edits.note(paper_id).text == "typed"  # type: ignore[arg-type]


# -- the property ---------------------------------------------------------------------------


class _Editor:
    """An editor as NoteScreen behaves: a buffer, the version it is based on, and the
    stored text of that version."""

    def __init__(self, store: Store, paper: int, name: str) -> None:
        state = store.edits.note(paper)
        self.store, self.paper, self.name = store, paper, name
        self.text, self.base, self.stored = state.text, state.version, state.text

    def type(self, word: str) -> None:
        self.text = f"{self.text} {word}".strip()

    def save(self) -> None:
        if self.text == self.stored:
            return
        sent = self.text
        result = self.store.edits.save_note(self.paper, sent, self.base, self.name)
        self.base, self.stored = result.version, result.text
        self.text = result.text  # nothing typed in between here

    def follow(self) -> None:
        state = self.store.edits.note(self.paper)
        if state.version == self.base:
            return
        self.text = merge(self.stored, state.text, self.text).text
        self.base, self.stored = state.version, state.text


_step = st.tuples(st.sampled_from(["a", "b", "cli"]), st.sampled_from(["type", "save", "follow"]))


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(_step, min_size=1, max_size=30))
def test_any_interleaving_keeps_every_typed_word(tmp_path_factory, steps) -> None:  # type: ignore[no-untyped-def]
    store = Store(tmp_path_factory.mktemp("prop") / "library.sqlite")
    try:
        import_records(store, [], "x", "seed")
        store.conn.execute(
            "INSERT INTO papers (title, abstract, citekey, added_at, updated_at) "
            "VALUES ('t', 'a', 'k', '', '')"
        )
        paper = store.all_ids()[0]
        editors = {
            "a": _Editor(store, paper, "window 1.1"), "b": _Editor(store, paper, "window 2.1"),
        }
        typed: list[str] = []
        for n, (who, what) in enumerate(steps):
            word = f"w{n}{who}"
            if who == "cli":
                if what == "type":
                    start = store.edits.note(paper)
                    store.edits.save_note(
                        paper, f"{start.text}\n\n{word}".strip(), start.version, CLI
                    )
                    typed.append(word)
                continue
            editor = editors[who]
            if what == "type":
                editor.type(word)
                typed.append(word)
            elif what == "save":
                editor.save()
            else:
                editor.follow()
        for editor in editors.values():
            editor.save()
        kept = store.edits.note(paper).text + "\n".join(
            v.text for v in store.edits.note_versions(paper)
        )
        for word in typed:
            assert word in kept, (word, steps)
    finally:
        store.close()


@pytest.mark.parametrize("paste", ["AAA \x1b[31mBBB CCC"])
def test_a_paste_with_escape_keeps_its_order(paste: str) -> None:
    from reader.ui.paste import PasteSafeParser

    parser = PasteSafeParser()
    events = list(parser.feed(f"\x1b[200~{paste}\x1b[201~"))
    pasted = [e.text for e in events if type(e).__name__ == "Paste"]
    assert pasted == ["AAA \u241b[31mBBB CCC"]
    assert [e for e in events if type(e).__name__ == "Key"] == []


async def test_a_pasted_escape_is_shown_not_typed_and_the_paste_stays_whole(
    library: Library,
) -> None:
    from textual import events

    app = ReaderApp(library, load_sample=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        paper_id = app.query_one(PaperList).current_id
        await pilot.press("n")
        await pilot.pause()
        editor = app.screen.query_one(TextArea)
        app.post_message(events.Paste("AAA \x1b[31mBBB\x07 CCC\r\nDDD"))  # as the driver does
        await pilot.pause()
        assert editor.text == "AAA \u241b[31mBBB\u2407 CCC\nDDD"
        await pilot.press("escape")
        await settle(app, pilot)
    assert library.store.edits.note(paper_id).text == "AAA \u241b[31mBBB\u2407 CCC\nDDD"  # type: ignore[arg-type]


async def test_a_merge_made_as_the_editor_closes_is_said(
    library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another writer's change met by the save of esc: the editor has closed, so the window
    says the note was merged, and both texts are stored."""
    # Neither saved nor followed by the editor before esc: on a busy machine its autosave
    # (0.6 s after the typing) met the other writer's change first, merged in the editor.
    monkeypatch.setattr("reader.ui.screens.note.AUTOSAVE_AFTER", 3600.0)
    monkeypatch.setattr("reader.ui.screens.note.FOLLOW_EVERY", 3600.0)
    app = ReaderApp(library, load_sample=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        paper_id = app.query_one(PaperList).current_id
        assert paper_id is not None
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, NoteScreen)
        # Not followed into the editor first (the window looks for commits every 0.3 s):
        # the save made on closing is the one that meets the other writer's.
        app.live.close()
        await type_text(pilot, "mine")
        other = Library(library.paths.root)
        try:
            other.save_note(paper_id, "theirs", writer=CLI)
        finally:
            other.close()
        await pilot.press("escape")
        await until(pilot, lambda: any("merged with the CLI's change" in n.message
                                       for n in app._notifications), "the merge is said")
        assert not isinstance(app.screen, NoteScreen)
    stored = library.store.edits.note(paper_id).text
    assert "mine" in stored and "theirs" in stored
