"""Copying citations from the reader: the basket, the style picker, export."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reader.library import Library
from reader.ui.app import ReaderApp
from reader.ui.screens.cite_picker import CitePicker
from reader.ui.widgets.paper_list import PaperList
from tests.test_app import SIZE, screen_text, settle


async def test_v_marks_papers_and_y_copies_them_as_one_bibliography(library: Library) -> None:
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("v", "v", "v")
        assert len(app.citations.marked) == 3
        assert app.query_one(PaperList).cursor == 3
        assert "3 marked" in screen_text(app)
        assert screen_text(app).count("▌") >= 3
        await pilot.press("y")
        assert app.clipboard.count("@inproceedings{") == 3
        assert any("3 papers as BibTeX" in n.message for n in app._notifications)
        await pilot.press("V")
        assert not app.citations.marked


async def test_Y_picks_a_style_with_a_preview_and_remembers_it(library: Library) -> None:
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("Y")
        assert isinstance(app.screen, CitePicker)
        await pilot.press("j", "j", "down")  # IEEE: j moves as the arrow does
        await pilot.pause()
        assert "[1]" in screen_text(app)
        assert "⏎ Copy" in screen_text(app)  # the footer says what enter does
        await pilot.press("enter")
        assert app.clipboard.startswith("[1]")
        assert library.store.get_meta("ui.last_citation_choice") == "text:ieee"
        await pilot.press("Y")
        await pilot.pause()
        picker = app.screen
        assert isinstance(picker, CitePicker)
        assert picker.query_one("#picker-choices").highlighted == 3  # type: ignore[attr-defined]
        await pilot.press("k")
        assert picker.query_one("#picker-choices").highlighted == 2  # type: ignore[attr-defined]


async def test_x_exports_the_view_to_a_file(
    library: Library, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # a short name: a path is typed key by key
    out = Path("view.json")
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("slash", *"benchmark", "enter")
        await settle(app, pilot)
        shown = len(app.query_one(PaperList).ids)
        await pilot.press("x", *str(out), "enter")
        await settle(app, pilot)
    data = json.loads(out.read_text(encoding="utf-8"))
    assert len(data) == shown and all("abstract" in p for p in data)


def test_style_picker_snapshot(snap_compare, library: Library) -> None:
    assert snap_compare(ReaderApp(library), terminal_size=SIZE, press=["j", "Y", "down"])
