"""The rail at the list's right edge: its thumb shows where the screen is in the list, and
a click on it moves there."""

from __future__ import annotations

from reader.library import Library
from reader.ui.app import ReaderApp
from reader.ui.widgets.list_lines import RAIL, THUMB
from reader.ui.widgets.paper_list import PaperList
from tests.test_app import screen_text, settle

#: Short enough that the sample's 38 papers do not fit.
SIZE = (100, 24)


def rail(app: ReaderApp) -> str:
    """The rail's cells from the list's top line to its bottom one, as shown."""
    papers = app.query_one(PaperList)
    lines = screen_text(app).splitlines()
    column = papers.region.right - 1
    return "".join(lines[y][column] for y in range(papers.region.y, papers.region.bottom))


async def test_the_thumb_follows_the_screen_down_the_list(library: Library) -> None:
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        papers = app.query_one(PaperList)
        height = papers.region.height
        assert len(papers.ids) > height
        at_top = rail(app)
        assert set(at_top) == {THUMB, RAIL}
        size = at_top.count(THUMB)
        # As much of the rail as the screen is of the list.
        assert size == round(height * height / len(papers.ids))
        assert at_top.startswith(THUMB * size)
        await pilot.press("G")
        await pilot.pause()
        assert rail(app).endswith(THUMB * size)
        assert rail(app).count(THUMB) == size
        assert papers.cursor == len(papers.ids) - 1


async def test_a_list_that_fits_has_no_thumb(library: Library) -> None:
    app = ReaderApp(library)
    async with app.run_test(size=(100, 60)) as pilot:
        await settle(app, pilot)
        papers = app.query_one(PaperList)
        assert len(papers.ids) <= papers.region.height
        assert rail(app) == RAIL * papers.region.height


async def test_a_click_on_the_rail_moves_as_far_down_the_list(library: Library) -> None:
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        papers = app.query_one(PaperList)
        bottom = papers.region.height - 1
        await pilot.click(PaperList, offset=(papers.region.width - 1, bottom))
        await pilot.pause()
        assert papers.cursor == len(papers.ids) - 1
        assert rail(app).endswith(THUMB)
        await pilot.click(PaperList, offset=(papers.region.width - 1, bottom // 2))
        await pilot.pause()
        assert papers.cursor == round((bottom // 2) / bottom * (len(papers.ids) - 1))
        # A click on a row still moves the cursor to that row.
        await pilot.click(PaperList, offset=(10, 0))
        await pilot.pause()
        assert papers.cursor == round(papers.scroll_y)
