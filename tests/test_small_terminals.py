"""Small terminals: the reader is usable at 80×24 and 60×20, and resizing never breaks it.

Review a changed SVG as you would a diff (``pytest --snapshot-update`` regenerates them).
"""

from __future__ import annotations

import random
import re

import pytest
from textual.containers import VerticalScroll

from reader.library import Library
from reader.ui.app import ReaderApp
from reader.ui.bindings import SECTIONS
from reader.ui.screens.help import HelpScreen, help_rows
from reader.ui.widgets.paper_list import PaperList
from tests.test_app import screen_text, settle

SMALL = [(80, 24), (60, 20)]


@pytest.fixture
def seeded(library: Library) -> Library:
    """The sample library (a name kept from when these tests built their own)."""
    return library


@pytest.mark.parametrize("size", SMALL, ids=lambda s: f"{s[0]}x{s[1]}")
def test_main_screen_small(snap_compare, seeded: Library, size: tuple[int, int]) -> None:
    assert snap_compare(ReaderApp(seeded), terminal_size=size, press=["j", "j"])


@pytest.mark.parametrize("size", SMALL, ids=lambda s: f"{s[0]}x{s[1]}")
def test_reading_view_small(snap_compare, seeded: Library, size: tuple[int, int]) -> None:
    assert snap_compare(ReaderApp(seeded), terminal_size=size, press=["enter"])


@pytest.mark.parametrize("size", SMALL, ids=lambda s: f"{s[0]}x{s[1]}")
def test_help_small(snap_compare, seeded: Library, size: tuple[int, int]) -> None:
    assert snap_compare(ReaderApp(seeded), terminal_size=size, press=["question_mark"])


@pytest.mark.parametrize("size", [*SMALL, (100, 30), (120, 40)], ids=lambda s: f"{s[0]}x{s[1]}")
async def test_help_rows_are_read_whole_at_every_size(
    library: Library, size: tuple[int, int]
) -> None:
    """Every key and its description on one line, never wrapped into the other column's."""
    app = ReaderApp(library)
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        body = app.screen.query_one("#help-body", VerticalScroll)
        lines: list[str] = []
        while True:
            lines += screen_text(app).splitlines()
            if body.scroll_y >= body.max_scroll_y:
                break
            # Half a screen at a time, as j would (j itself is tested with the help keys).
            body.scroll_to(y=body.scroll_y + size[1] // 2, animate=False)
            await pilot.pause()
        for _title, section in SECTIONS:
            for keys, description in help_rows(section):
                row = re.compile(rf"(^|\s){re.escape(keys)}  {re.escape(description)}(\s|$)")
                assert any(row.search(line) for line in lines), (keys, description)
        if size[0] < 100:  # one column: no line holds two sections' titles
            titles = [title for title, _ in SECTIONS]
            assert not [line for line in lines if sum(t in line for t in titles) > 1]


async def test_resizing_again_and_again_never_breaks(library: Library) -> None:
    rng = random.Random(5)
    app = ReaderApp(library, load_sample=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        keys = ["j", "enter", "escape", "n", "escape", "question_mark", "escape", "G", "g"]
        for step in range(12):
            # Down to absurd sizes and back; keys in between, on every screen.
            size = (rng.randint(1, 200), rng.randint(1, 60))
            await pilot.resize_terminal(*size)
            await pilot.press(keys[step % len(keys)])
            await pilot.pause()
        await pilot.resize_terminal(80, 24)
        await settle(app, pilot)
        assert app.is_running
        papers = app.query_one(PaperList)
        await pilot.press("j")
        assert papers.current_id is not None
