"""Snapshots of the main views. Review every change to these SVGs as you would a diff."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from textual.widgets import TextArea

from reader.library import Library
from reader.ui.app import ReaderApp
from reader.ui.screens.note import AUTOSAVE_AFTER
from tests.conftest import SEEDS

SIZE = (120, 40)


@pytest.fixture
def seeded(tmp_path: Path) -> Library:
    library = Library(tmp_path / "snap")
    library.import_files(SEEDS)
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
        await asyncio.sleep(AUTOSAVE_AFTER + 0.3)
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()

    assert snap_compare(ReaderApp(seeded), terminal_size=SIZE, run_before=write)


def test_reading_view(snap_compare, seeded: Library) -> None:
    assert snap_compare(ReaderApp(seeded), terminal_size=SIZE, press=["enter"])


def test_help_screen(snap_compare, seeded: Library) -> None:
    assert snap_compare(ReaderApp(seeded), terminal_size=SIZE, press=["question_mark"])
