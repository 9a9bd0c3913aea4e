"""The detail pane in a narrow terminal: a link too long for the pane is cut with an
ellipsis, never folded onto a line the pane may not show (an OpenReview forum URL is 42
characters; in a terminal of 44 columns the pane, stacked under the list, is 40 wide)."""

from __future__ import annotations

from pathlib import Path

from reader.library import Library
from reader.ui.app import ReaderApp
from reader.ui.widgets.paper_detail import PaperDetail
from tests.test_app import screen_text, settle
from tests.test_signals_ui import go_to, paper_of

ICLR2017 = Path(__file__).parent / "data" / "iclr2017-workshop-4.json"
URL = "https://openreview.net/forum?id=B16Jem9xe"


async def test_a_long_link_is_cut_with_an_ellipsis_at_44_columns(empty_library: Library) -> None:
    empty_library.import_files([ICLR2017])
    empty_library.sync_index()
    app = ReaderApp(empty_library)
    async with app.run_test(size=(44, 60)) as pilot:
        await settle(app, pilot)
        await go_to(app, pilot, paper_of(empty_library, "B16Jem9xe"))
        detail = app.query_one(PaperDetail)
        assert len(URL) > detail.size.width
        lines = detail.text.splitlines()
        (link,) = [line for line in lines if line.startswith("https://")]
        assert link.endswith("…") and URL.startswith(link[:-1]), link
        assert len(link) <= detail.size.width
        # Nothing of it folded onto the next line.
        assert lines[lines.index(link) + 1] == ""
        assert link in screen_text(app)


async def test_a_link_that_fits_is_shown_whole(empty_library: Library) -> None:
    empty_library.import_files([ICLR2017])
    empty_library.sync_index()
    app = ReaderApp(empty_library)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await go_to(app, pilot, paper_of(empty_library, "B16Jem9xe"))
        assert URL in app.query_one(PaperDetail).text.splitlines()
