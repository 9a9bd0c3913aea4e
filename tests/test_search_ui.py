"""Search in the real app: what the status line says about a query, typed key by key."""

from __future__ import annotations

from textual.widgets import Static

from reader.library import Library
from reader.ui.app import ReaderApp
from reader.ui.widgets.paper_list import PaperList
from tests.test_app import SIZE, settle


def status(app: ReaderApp) -> str:
    return str(app.query_one("#status", Static).render())


async def test_a_broken_query_is_searched_as_words_and_the_status_line_says_so(
    library: Library,
) -> None:
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("slash", *'"optimal transport')
        await settle(app, pilot)
        assert "searched its words" in status(app)
        assert app.query_one(PaperList).ids == library.search("optimal transport").ids
        await pilot.press('"')
        await settle(app, pilot)
        assert "searched its words" not in status(app)
        await pilot.press("ctrl+u", *"AND OR NOT")
        await settle(app, pilot)
        assert "searched its words" in status(app)
        assert len(app.query_one(PaperList).ids) < 38
