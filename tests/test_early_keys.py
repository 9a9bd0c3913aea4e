"""Keys typed in one burst with the key that opens a dialog (``t``, ``n``, ``i``, ``e``) go
to that dialog, in order, and never act as commands on the list below it; the keys after
the one that closes it act on the list again."""

from __future__ import annotations

from textual import events
from textual.widgets import Input, TextArea

from reader.library import Library
from reader.ui.app import ReaderApp
from reader.ui.paste import PasteSafeParser
from reader.ui.screens.metadata import MetadataForm
from reader.ui.screens.note import NoteScreen
from reader.ui.screens.prompts import PromptScreen
from reader.ui.screens.reading import ReadingScreen
from reader.ui.screens.tags import TagEditor
from reader.ui.widgets.search_box import SearchBox
from tests.test_app import SIZE, settle
from tests.test_focus import burst
from tests.waiting import until


async def test_tags_typed_with_t_are_the_tags(library: Library) -> None:
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        first = app.paper_list.current_id
        assert first is not None
        # f, o and a letter of the list's own (j) would be commands on the list: here they
        # are the tag typed; s and j, after enter closed the dialog, act on the list.
        burst(app, "t", *"fojo", "enter", "s", "j")
        await settle(app, pilot)
        assert not isinstance(app.screen, TagEditor)
        assert app.paper_list.current_id != first
    assert library.store.paper(first).tags == ["fojo"]
    assert library.store.marks.flagged_ids("starred") == {first}


async def test_tags_typed_before_ctrl_q_are_kept(library: Library) -> None:
    # They went with the window, where a note editor's text is kept.
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        first = app.paper_list.current_id
        assert first is not None
        burst(app, "t", *"later", "ctrl+q")
        await until(pilot, lambda: not app.is_running, "ctrl+q quits from the tag editor")
    app.writes.finish()
    assert library.store.paper(first).tags == ["later"]


async def test_a_note_typed_with_n_is_in_the_note(library: Library) -> None:
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        burst(app, "n", *"read this first")
        await settle(app, pilot)
        assert isinstance(app.screen, NoteScreen)
        assert app.screen.query_one(TextArea).text == "read this first"


async def test_a_path_typed_with_i_is_in_the_prompt(library: Library) -> None:
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        burst(app, "i", *"~/papers.bib")
        await settle(app, pilot)
        assert isinstance(app.screen, PromptScreen)
        assert app.screen.query_one(Input).value == "~/papers.bib"
        await pilot.press("escape")
        await settle(app, pilot)


async def test_escape_typed_with_e_closes_the_form_and_the_next_key_acts_on_the_list(
    library: Library,
) -> None:
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        first = app.paper_list.current_id
        assert first is not None
        title = library.store.paper(first).title
        burst(app, "e", "escape", "r")
        await settle(app, pilot)
        assert not isinstance(app.screen, MetadataForm)
    paper = library.store.paper(first)
    assert paper.title == title and paper.read


async def test_a_path_starting_with_slash_typed_with_i_is_in_the_prompt(
    library: Library,
) -> None:
    """``/`` is a priority key (it opens the search at once), yet typed behind ``i`` it
    waits for ``i``, and so is the start of the path, not a search."""
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        burst(app, "i", "slash", *"tmp", "slash", *"nope")
        await settle(app, pilot)
        assert isinstance(app.screen, PromptScreen)
        assert app.screen.query_one(Input).value == "/tmp/nope"
        assert app.query_one(SearchBox).value == ""
        await pilot.press("escape")
        await settle(app, pilot)


async def test_slash_typed_behind_a_command_waits_for_it(library: Library) -> None:
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        first = app.paper_list.current_id
        burst(app, "t", "slash", "a", "enter", "slash", *"graph")
        await settle(app, pilot)
        assert app.query_one(SearchBox).value == "graph"
    assert first is not None and library.store.paper(first).tags == ["/a"]


async def test_letters_typed_with_e_edit_the_title(library: Library) -> None:
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        first = app.paper_list.current_id
        assert first is not None
        title = library.store.paper(first).title
        burst(app, "e", *"ABC")
        await settle(app, pilot)
        assert isinstance(app.screen, MetadataForm)
        # Added where the cursor is, the end: the title is never replaced whole.
        assert app.screen.query_one("#field-title", Input).value == title + "ABC"
        await pilot.press("escape")
        await settle(app, pilot)


async def test_a_paste_with_t_is_in_the_tags(library: Library) -> None:
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        first = app.paper_list.current_id
        burst(app, "t")
        driver = app._driver
        assert driver is not None
        paste = events.Paste("pasted, tags")
        paste.set_sender(app)
        driver.send_message(paste)
        burst(app, "enter")
        await settle(app, pilot)
        assert not isinstance(app.screen, TagEditor)
    assert first is not None and library.store.paper(first).tags == ["pasted", "tags"]


async def test_keys_typed_with_enter_act_in_the_reading_view(library: Library) -> None:
    """``)`` and ``h`` typed right behind the enter that opens the reading view select and
    highlight there, the note typed behind ``h`` is the highlight's, and the keys after the
    view closes act on the list: none lost, none taken by the list under the view."""
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        first = app.paper_list.current_id
        assert first is not None
        burst(app, "enter", "right_parenthesis", "h", *"hl", "enter", "escape", "j")
        await settle(app, pilot)
        assert not isinstance(app.screen, ReadingScreen)
        assert app.paper_list.current_id != first
    assert [h.note for h in library.store.paper(first).highlights] == ["hl"]


def sent_raw(app: ReaderApp, data: str) -> None:
    """Send ``data`` as the terminal's bytes arrive in one read (over SSH, from tmux
    send-keys): through the window's own parser, every key queued at once."""
    driver = app._driver
    assert driver is not None
    for event in PasteSafeParser().feed(data):
        event.set_sender(app)
        driver.send_message(event)


async def test_escape_typed_with_the_keys_after_it_closes_the_editor(library: Library) -> None:
    """esc then enter, and esc then j, arrive from the terminal as one burst (which its
    parser would read as alt+enter, alt+j or a ``^``): the editor closes and the keys after
    esc act where it leaves the focus, in order; the note is what was typed before esc."""
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        first = app.paper_list.current_id
        assert first is not None
        sent_raw(app, "nquick note\x1b\r)hhl1\r\x1bjs")
        await settle(app, pilot)
        assert app.screen is app.screen_stack[0]
        second = app.paper_list.current_id
        assert second is not None and second != first
    assert library.store.paper(first).note == "quick note"
    assert [h.note for h in library.store.paper(first).highlights] == ["hl1"]
    assert library.store.marks.flagged_ids("starred") == {second}


def test_the_terminal_s_own_two_byte_sequences_stay_what_they_are() -> None:
    """ESC and a letter nothing names is esc and the letter; the two-byte sequences Textual
    names stay theirs: iTerm's word motions (option+arrows in the note editor) and esc esc."""
    keys = [e.key for e in PasteSafeParser().feed("\x1bj\x1bb\x1bf") if isinstance(e, events.Key)]
    assert keys == ["escape", "j", "ctrl+left", "ctrl+right"]


async def test_keys_held_for_a_closed_form_open_and_close_the_reading_view(
    library: Library,
) -> None:
    """enter and esc held behind a form's own esc act on what is on top once each is up:
    the reading view opens, closes (never before it is drawn, which failed), and j moves
    the list."""
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        first = app.paper_list.current_id
        burst(app, "e", "escape", "enter", "escape", "j")
        await settle(app, pilot)
        assert app.screen is app.screen_stack[0]
        assert app.paper_list.current_id != first
