"""The main screens as a user meets them: where the cursor stays, what a notice covers, how
the list fits a narrow terminal, what `/` does to the query typed."""

from __future__ import annotations

from textual.pilot import Pilot

from reader.library import Library
from reader.ui.app import ReaderApp
from reader.ui.widgets.paper_list import PaperList
from reader.ui.widgets.search_box import SearchBox

SIZE = (120, 40)


async def settle(app: ReaderApp, pilot: Pilot) -> None:
    """Wait for workers (searches, writes, indexing) and the redraw after them."""
    for _ in range(3):
        await app.workers.wait_for_complete()
        await pilot.pause()


async def test_slash_from_the_results_extends_the_query(library: Library) -> None:
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("slash", *"bench", "enter")
        await settle(app, pilot)
        assert app.focused is app.query_one(PaperList)
        await pilot.press("slash", *"mark")
        await settle(app, pilot)
        box = app.query_one(SearchBox)
        assert box.value == "benchmark"
        assert box.cursor_position == len("benchmark")
