"""Keys typed in one burst with the key that opens a dialog (``t``, ``n``, ``i``, ``e``) go
to that dialog, in order, and never act as commands on the list below it; the keys after
the one that closes it act on the list again."""

from __future__ import annotations

from textual.widgets import Input, TextArea

from reader.library import Library
from reader.ui.app import ReaderApp
from reader.ui.screens.metadata import MetadataForm
from reader.ui.screens.note import NoteScreen
from reader.ui.screens.prompts import PromptScreen
from reader.ui.screens.tags import TagEditor
from tests.test_app import SIZE, settle
from tests.test_focus import burst


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
    assert library.store.flagged_ids("starred") == {first}


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
