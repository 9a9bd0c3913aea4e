"""Where keys go, and where the user is: leaving the search box, what the footer and the
box's border say, command keys acting on the highlighted paper, and the cursor's place in
the list and in the reading view."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual import events
from textual.widgets import Input, Static

from reader.library import Library
from reader.ui.app import KEYS_ON_PAPER, TYPING_HERE, ReaderApp, SearchBox
from reader.ui.screens.note import NoteScreen
from reader.ui.screens.prompts import PromptScreen
from reader.ui.screens.reading import ReadingScreen
from reader.ui.screens.tags import TagEditor
from reader.ui.widgets.note_editor import NoteEditor
from reader.ui.widgets.paper_list import PaperList
from tests.test_app import SIZE, screen_text, settle
from tests.test_live import status
from tests.waiting import until


def burst(app: ReaderApp, *keys: str) -> None:
    """Send keys all at once, as a fast typist or a paste does: each is queued before the
    app has handled the one before it."""
    names = {"slash": "/", "enter": "\r", "tab": "\t", "down": None, "escape": "\x1b",
             "right_parenthesis": ")", "backspace": "\x7f", "left": None, "ctrl+w": "\x17",
             "ctrl+e": "\x05", "ctrl+u": "\x15"}
    driver = app._driver
    assert driver is not None
    for key in keys:
        event = events.Key(key, names.get(key, key))
        event.set_sender(app)
        driver.send_message(event)


@pytest.mark.parametrize("key", ["enter", "down", "tab"])
async def test_enter_down_and_tab_leave_the_box_for_the_list(library: Library, key: str) -> None:
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        burst(app, "slash", *"transport", key, "t")  # t: a command, not a letter typed
        await settle(app, pilot)
        assert isinstance(app.screen, TagEditor)
        await pilot.press("escape")
        assert isinstance(app.focused, PaperList)
        assert app.query_one(SearchBox).value == "transport"


async def test_escape_clears_the_box_and_leaves_it(library: Library) -> None:
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        burst(app, "slash", *"transport", "escape", "s")
        await settle(app, pilot)
        assert app.query_one(SearchBox).value == ""
        assert isinstance(app.focused, PaperList)
        assert len(app.paper_list.ids) == 38
        first = app.paper_list.current_id
        await pilot.press("slash", "escape")  # an empty box: just leave
        assert isinstance(app.focused, PaperList)
    assert library.store.marks.flagged_ids("starred") == {first}


async def test_editing_keys_typed_in_a_burst_act_in_the_order_typed(library: Library) -> None:
    # Textual ran the box's editing keys as they came back up from it, after the letters
    # typed behind them: "abc", backspace, "d" gave "abc"; "abc", ctrl+u, "Omega" nothing.
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        box = app.query_one(SearchBox)
        burst(app, "slash", *"abc", "backspace", "d", "left", "X", "ctrl+w", "q")
        await until(pilot, lambda: box.value == "qd")
        burst(app, "ctrl+e", "ctrl+u", *"Omega")
        await until(pilot, lambda: box.value == "Omega")
        await settle(app, pilot)
        assert box.value == "Omega" and box.has_focus


async def test_a_dialogs_field_takes_editing_keys_in_the_order_typed(
    library: Library,
) -> None:
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("t")
        await until(pilot, lambda: isinstance(app.screen, TagEditor))
        field = app.screen.query_one(Input)
        await until(pilot, lambda: field.has_focus)
        burst(app, "ctrl+u", *"ab", "backspace", "c")
        await until(pilot, lambda: field.value == "ac")
        await pilot.press("escape")


async def test_the_note_editor_takes_editing_keys_in_the_order_typed(library: Library) -> None:
    """A backspace sent with the next letter (one write of a terminal) deleted that letter:
    " hello", then backspace and "x" at once, left " hello"."""
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, NoteScreen))
        editor = app.screen.query_one(NoteEditor)
        await until(pilot, lambda: editor.has_focus)
        burst(app, *"hello", "backspace", "x", "left", "left", "backspace", "Y")
        await until(pilot, lambda: editor.text == "heYlx", "the note typed in order")
        await pilot.press("escape")


async def test_the_palettes_field_takes_editing_keys_in_the_order_typed(
    library: Library,
) -> None:
    """The command palette's field is Textual's own: "nor", then backspace and "d" at once,
    left "nor" (the backspace, a binding, ran after the "d" and took it away)."""
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("ctrl+p")
        await until(pilot, lambda: isinstance(app.focused, Input), "the palette's field")
        field = app.focused
        assert isinstance(field, Input)
        burst(app, *"nor", "backspace", "d", "left", "left", "backspace", "X")
        await until(pilot, lambda: field.value == "Xod", "the query typed in order")
        await pilot.press("escape")


async def test_footer_and_border_say_where_keys_go(library: Library) -> None:
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        text = screen_text(app)
        assert KEYS_ON_PAPER in text and "Star" in text.splitlines()[-1]
        await pilot.press("slash")
        await pilot.pause()
        text = screen_text(app)
        footer = text.splitlines()[-1]
        assert TYPING_HERE in text
        assert "To the list" in footer and "Star" not in footer and "Note" not in footer
        await pilot.press("enter")
        await pilot.pause()
        assert KEYS_ON_PAPER in screen_text(app)


async def test_a_command_key_acts_on_the_paper_highlighted_in_the_new_results(
    library: Library,
) -> None:
    """Keys typed right behind enter wait for the results of the query: ``s`` stars the
    first match, the paper highlighted when the list shows it, never the paper that was
    highlighted before the results came in."""
    expected = library.search("transport").ids[0]
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("j", "j", "j")
        before = app.paper_list.current_id
        assert before != expected
        burst(app, "slash", *"transport", "enter", "s")
        await settle(app, pilot)
        assert app.query_one(SearchBox).value == "transport"
        assert app.paper_list.current_id == expected
    starred = library.store.marks.flagged_ids("starred")
    assert starred == {expected}


async def test_the_list_and_the_reading_view_show_the_place(library: Library) -> None:
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert status(app).startswith("1 / 38  ·")
        await pilot.press("j", "j")
        assert status(app).startswith("3 / 38  ·")
        await pilot.press("enter")
        await settle(app, pilot)
        assert isinstance(app.screen, ReadingScreen)
        line = str(app.screen.query_one("#reading-status", Static).content)
        assert line.startswith("3 / 38  ·") and "/ 38 seen" in line
        assert "3 / 38  ·" in screen_text(app)
        await pilot.press("j")
        line = str(app.screen.query_one("#reading-status", Static).content)
        assert line.startswith("4 / 38  ·")
        await pilot.press("escape")
        await pilot.press("slash", *"transport", "enter")
        await settle(app, pilot)
        shown = len(app.paper_list.ids)
        assert status(app).startswith(f"1 / {shown}  ·")


async def test_keys_typed_right_behind_enter_in_a_prompt_act_on_the_view(
    library: Library, tmp_path: Path
) -> None:
    """Enter answers a prompt at once: a key that came with it (a fast typist's, or a
    terminal's over a slow link) acts on the list below, not on the line answered."""
    missing = tmp_path / "nothing-here.ris"
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        first = app.paper_list.current_id
        await pilot.press("i")
        app.screen.query_one(Input).value = str(missing)
        burst(app, "enter", "j")
        await until(pilot, lambda: not isinstance(app.screen, PromptScreen), "the prompt")
        await settle(app, pilot)
        assert app.paper_list.current_id != first  # j moved down
        # The import names the file it could not read: the name as typed, nothing after it.
        await until(pilot, lambda: app._notifications, "the import's failure said")
        (failed,) = app._notifications
        assert f"{missing}:" in failed.message
        await pilot.press("t")
        await until(pilot, lambda: isinstance(app.screen, TagEditor), "the tag editor")
        app.screen.query_one(Input).value = ""
        burst(app, *"foo", "enter", "s")
        await until(pilot, lambda: not isinstance(app.screen, TagEditor), "the tags saved")
        await settle(app, pilot)
        paper = app.paper_list.current_id
    assert paper is not None
    assert library.store.paper(paper).tags == ["foo"]
    assert library.store.marks.flagged_ids("starred") == {paper}
