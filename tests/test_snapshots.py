"""Snapshots of the main views. Review every change to these SVGs as you would a diff."""

from __future__ import annotations

import pytest
from textual.widgets import Input, TextArea

from reader.library import Library
from reader.ui.app import ReaderApp
from reader.ui.screens.metadata import MetadataForm
from tests.waiting import until

SIZE = (120, 40)


@pytest.fixture
def seeded(library: Library) -> Library:
    """The sample library (a name kept from when these tests built their own)."""
    return library


def test_main_screen(snap_compare, seeded: Library) -> None:
    assert snap_compare(ReaderApp(seeded), terminal_size=SIZE, press=["j", "j"])


def test_search_results(snap_compare, seeded: Library) -> None:
    async def search(pilot) -> None:
        await pilot.press("slash", *"optimal transport")
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        await pilot.press("enter")

    assert snap_compare(ReaderApp(seeded), terminal_size=SIZE, run_before=search)


def test_note_editor(snap_compare, seeded: Library) -> None:
    async def write(pilot) -> None:
        await pilot.press("n")
        pilot.app.screen.query_one(TextArea).cursor_blink = False
        await pilot.press(*"A **strong** baseline; compare with ")
        screen = pilot.app.screen
        await until(pilot, lambda: screen.stored, "the autosave")
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()

    assert snap_compare(ReaderApp(seeded), terminal_size=SIZE, run_before=write)


def test_reading_view(snap_compare, seeded: Library) -> None:
    assert snap_compare(ReaderApp(seeded), terminal_size=SIZE, press=["enter"])


def test_help_screen(snap_compare, seeded: Library) -> None:
    assert snap_compare(ReaderApp(seeded), terminal_size=SIZE, press=["question_mark"])


def test_reading_view_with_highlights(snap_compare, seeded: Library) -> None:
    from reader.store.highlights import display_text, sentences

    first = seeded.store.all_ids()[0]
    text = display_text(seeded.store.paper(first).abstract)
    start, end = sentences(text)[1]
    seeded.add_highlight(first, start, end, note="The claim to check against the baselines.")

    assert snap_compare(
        ReaderApp(seeded), terminal_size=SIZE, press=["enter", "right_parenthesis"]
    )


def test_tag_editor(snap_compare, seeded: Library) -> None:
    ids = seeded.store.all_ids()
    seeded.set_tags(ids[1], ["benchmarks", "to-read"])
    seeded.set_tags(ids[2], ["benchmarks"])
    assert snap_compare(
        ReaderApp(seeded), terminal_size=SIZE, press=["j", "t", "b", "e"]
    )


def test_more_like_this(snap_compare, seeded: Library) -> None:
    async def similar(pilot) -> None:
        await pilot.app.workers.wait_for_complete()
        await pilot.press("j", "m")
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()

    assert snap_compare(ReaderApp(seeded), terminal_size=SIZE, run_before=similar)


def test_metadata_form(snap_compare, seeded: Library) -> None:
    async def edit(pilot) -> None:
        await pilot.press("e")
        # The form is pushed after the key: wait for it, or the next keys reach the list.
        await until(pilot, lambda: isinstance(pilot.app.screen, MetadataForm), "the form")
        # A blinking cursor would be drawn or not by the moment of the shot.
        for field in pilot.app.screen.query(Input):
            field.cursor_blink = False
        # The year field, emptied, then a year that fails validation.
        await pilot.press("tab", "tab", "end", "ctrl+u", *"19x")
        await pilot.pause()

    assert snap_compare(ReaderApp(seeded), terminal_size=SIZE, run_before=edit)
