"""The reader's sort cycle (``O``) and its search box over conference signals: the sorts by
mean rating, spread and confidence-weighted rating, and a signal filter typed."""

from __future__ import annotations

from reader.library import SORT_KEYS, Library
from reader.ui.app import ReaderApp
from reader.ui.widgets.paper_list import PaperList
from tests.test_app import SIZE, screen_text, settle
from tests.test_signals_search import _signals, _write_signals


async def test_o_cycles_to_the_signal_sorts_and_filters_apply(library: Library) -> None:
    ids = library.all_ids()[:3]
    _write_signals(library, {
        ids[0]: _signals([4, 4], [3, 3]),
        ids[1]: _signals([8, 6], [3, 3], "Accept (Oral)"),
        ids[2]: _signals([2, 10], [5, 1]),
    })
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        orders = list(SORT_KEYS)
        for _ in range(orders.index("rating")):
            await pilot.press("O")
            await settle(app, pilot)
        assert app.views.order == "rating"
        assert app.query_one(PaperList).ids[:3] == [ids[1], ids[2], ids[0]]
        assert "sorted by mean rating" in screen_text(app)
        await pilot.press("O")
        await settle(app, pilot)
        assert app.views.order == "spread"
        assert app.query_one(PaperList).ids[:3] == [ids[2], ids[1], ids[0]]
        await pilot.press("O")
        await settle(app, pilot)
        assert app.views.order == "weighted"
        assert app.query_one(PaperList).ids[:3] == [ids[1], ids[0], ids[2]]
        await pilot.press("slash", *"decision:oral", "enter")
        await settle(app, pilot)
        assert app.query_one(PaperList).ids == [ids[1]]
