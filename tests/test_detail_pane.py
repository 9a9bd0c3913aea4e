"""The detail pane and the list draw from caches; each cache must follow what changed."""

from __future__ import annotations

from reader.library import Library
from reader.ui.app import ReaderApp
from reader.ui.widgets.paper_detail import PaperDetail
from reader.ui.widgets.paper_list import PaperList
from tests.test_app import SIZE, screen_text, settle


def cursor_row(app: ReaderApp) -> str:
    """The list's line under the cursor, as shown."""
    papers = app.query_one(PaperList)
    top = papers.region.y
    return screen_text(app).splitlines()[top + papers.cursor - round(papers.scroll_y)]


async def test_the_pane_shows_each_paper_whole_with_its_scroll_range(library: Library) -> None:
    """Stepping through the list, the pane shows each paper's title and the end of its
    abstract, and its scroll range is its number of lines (kept without a layout pass)."""
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        detail = app.query_one(PaperDetail)
        for _ in range(12):
            paper = detail.paper
            assert paper is not None
            lines = detail.text.splitlines()
            assert detail.virtual_size.height == len(lines)
            height = detail.scrollable_content_region.height
            assert detail.max_scroll_y == max(0, len(lines) - height)
            shown = " ".join(" ".join(lines).split())
            assert paper.abstract.split()[-1] in shown
            assert all(len(line) <= detail.scrollable_content_region.width for line in lines)
            await pilot.press("j")
            await pilot.pause()


async def test_the_pane_wraps_again_when_the_terminal_narrows(library: Library) -> None:
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        detail = app.query_one(PaperDetail)
        wide = len(detail.text.splitlines())
        # Still side by side (from 100 columns the panes are stacked), the pane narrower.
        await pilot.resize_terminal(100, 30)
        await pilot.pause()
        await pilot.pause()
        width = detail.scrollable_content_region.width
        lines = detail.text.splitlines()
        assert len(lines) > wide
        assert all(len(line) <= width for line in lines)
        assert detail.virtual_size.height == len(lines)


async def test_a_cached_row_is_drawn_again_when_its_paper_changes(library: Library) -> None:
    """Rows are drawn once and reused while scrolling; a star, a mark or a read flag shows
    at once all the same."""
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        for _ in range(40):  # down and back up: every row is drawn and cached
            await pilot.press("j")
        await pilot.press("g")
        await settle(app, pilot)
        assert "★" not in cursor_row(app)
        await pilot.press("s")
        await settle(app, pilot)
        assert "★" in cursor_row(app)
        await pilot.press("r")
        await settle(app, pilot)
        assert "✓" in cursor_row(app)
        await pilot.press("s")
        await settle(app, pilot)
        assert "★" not in cursor_row(app)


async def test_tab_reaches_the_pane_and_the_keys_scroll_it(library: Library) -> None:
    """A paper longer than the pane ends in "more below"; Tab and the arrow keys read on."""
    app = ReaderApp(library)
    async with app.run_test(size=(100, 16)) as pilot:
        await settle(app, pilot)
        detail = app.query_one(PaperDetail)
        assert detail.max_scroll_y > 0
        assert "▼ more below" in screen_text(app)
        await pilot.press("tab")
        assert detail.has_focus
        await pilot.press("down", "down")
        await pilot.pause()
        assert detail.scroll_y == 2
        await pilot.press("end")
        await pilot.pause()
        assert detail.scroll_y == detail.max_scroll_y
        assert "▼ more below" not in screen_text(app)


async def test_a_search_counts_the_paper_it_shows_first_as_seen(library: Library) -> None:
    """The status line's view count includes the paper a new search puts under the cursor."""
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("slash", *"transport", "enter")
        await settle(app, pilot)
        shown = len(app.query_one(PaperList).ids)
        assert shown >= 1
        assert f"{shown:,} {'match' if shown == 1 else 'matches'}, 1 seen" in screen_text(app)
