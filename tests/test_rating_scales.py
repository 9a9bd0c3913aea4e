"""A view of venues rated on different scales: ICLR 2017 and COLM 2025 rate 1–10, ICLR
2026 rates 0–10 in steps of two. The overview draws each scale apart and names the venues
it is of, a paper's standing is among the papers of its own scale, and the rating sorts
compare where each mean stands on its own scale, never the bare numbers across scales.
Real files: paperlists' ICLR 2017 and COLM 2025 slices, OpenReview ICLR 2026 notes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reader.library import Library
from reader.signals import RatingScale
from reader.ui.app import ReaderApp
from reader.ui.screens.overview import OverviewScreen
from reader.ui.start import _first_view
from reader.ui.widgets.paper_detail import PaperDetail
from tests.conftest import SEEDS
from tests.test_app import SIZE, screen_text, settle
from tests.test_signals_ui import go_to, paper_of

DATA = Path(__file__).parent / "data"
ONE_TO_TEN = RatingScale(1, 10)
ICLR_2026 = RatingScale(0, 10, (0, 2, 4, 6, 8, 10))
#: ICLR 2017, invited to the workshop: 4, 4 and 5 of 1–10, a mean of 4.33 (37% up).
LOW_2017 = "B1jnyXXJx"
#: ICLR 2026: four reviews, made 4 of 0–10 each in the tests' copy, a mean of 4 (40% up).
EVEN_2026 = "DkHt2K1g2Y"


@pytest.fixture
def mixed(empty_library: Library, tmp_path: Path) -> Library:
    """Four ICLR 2017 papers, fifteen of COLM 2025 and three of ICLR 2026."""
    papers = [json.loads(line) for line in (DATA / "openreview-replies-3.jsonl").open()]
    for reply in papers[0]["replies"]:
        if "rating" in reply["content"]:
            reply["content"]["rating"] = {"value": 4}
    iclr2026 = tmp_path / "iclr2026.jsonl"
    iclr2026.write_text("".join(json.dumps(paper) + "\n" for paper in papers))
    empty_library.import_files(
        [DATA / "iclr2017-workshop-4.json", DATA / "colm2025-15.json", iclr2026]
    )
    empty_library.sync_index()
    return empty_library


def test_the_view_is_summed_up_a_scale_at_a_time(mixed: Library) -> None:
    view = mixed.conference.view_signals(mixed.all_ids(), ratings=True)
    assert (view.papers, view.rated) == (22, 22)
    ten, iclr = view.groups
    assert (ten.scale, ten.rated, ten.venues) == (ONE_TO_TEN, 19, ("COLM 2025", "ICLR 2017"))
    assert (iclr.scale, iclr.rated, iclr.venues) == (ICLR_2026, 3, ("ICLR 2026",))
    assert iclr.means == (2.0, 4.0, 5.0)
    assert set(iclr.ratings) <= {0, 2, 4, 6, 8, 10}
    assert sum(iclr.ratings.values()) == 12  # four reviews each
    assert view.group(ICLR_2026) is iclr and view.group(None) is None


def test_the_whole_library_summed_up_by_sqlite_is_the_view_of_all_its_papers(
    mixed: Library,
) -> None:
    every = mixed.all_ids()
    for venues in (True, False):
        whole = mixed.conference.library_signals(every, venues=venues)
        view = mixed.conference.view_signals(every, venues=venues)
        assert whole == view
        # In the same order too: the venues of a scale, and the decisions as they come.
        assert list(whole.decisions) == list(view.decisions)
    assert [group.venues for group in whole.groups] == [(), ()]


async def test_the_first_view_takes_what_the_command_read_beside_it(
    mixed: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    every = mixed.all_ids()
    app = ReaderApp(mixed, ids=every, signals=mixed.conference.library_signals(every))
    asked: list[object] = []
    monkeypatch.setattr(mixed.conference, "view_signals", lambda ids, **_: asked.append(ids))
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await go_to(app, pilot, paper_of(mixed, EVEN_2026))
        assert "Standing   50th percentile of 3 rated on 0–10 in view" in (
            app.query_one(PaperDetail).text
        )
        assert asked == []


def test_the_first_view_sums_ratings_only_where_a_paper_has_one(
    mixed: Library, tmp_path: Path
) -> None:
    ids, counts, signals = _first_view(mixed)
    assert signals == mixed.conference.library_signals(ids, venues=False)
    assert counts["papers"] == len(ids) > 0
    # None rated: nothing to stand among, so nothing summed before the first frame.
    unrated = Library(tmp_path / "unrated")
    unrated.import_files(SEEDS)
    ids, counts, signals = _first_view(unrated)
    unrated.close()
    assert signals is None and len(ids) == counts["papers"] == 38


def test_the_rating_sorts_compare_positions_on_each_scale(mixed: Library) -> None:
    every = mixed.all_ids()
    low_2017, even_2026 = paper_of(mixed, LOW_2017), paper_of(mixed, EVEN_2026)
    by_rating = mixed.queries.sort_ids(every, "rating")
    # By the bare numbers 4.33 would lead 4; on their scales 4 of 0–10 stands higher.
    assert by_rating.index(even_2026) < by_rating.index(low_2017)
    signals = mixed.signals(every)
    positions = [
        signals[i].scale.fraction(signals[i].rating_mean)  # type: ignore[union-attr,arg-type]
        for i in by_rating
    ]
    assert positions == sorted(positions, reverse=True)
    by_weighted = mixed.queries.sort_ids(every, "weighted")
    assert by_weighted.index(even_2026) < by_weighted.index(low_2017)


async def test_the_overview_draws_each_scale_apart(mixed: Library) -> None:
    app = ReaderApp(mixed)
    # Tall enough for both scales' pictures at once.
    async with app.run_test(size=(120, 90)) as pilot:
        await settle(app, pilot)
        await pilot.press("R")
        await settle(app, pilot)
        assert isinstance(app.screen, OverviewScreen)
        text = screen_text(app)
        assert "Ratings on 2 scales, drawn apart" in text
        assert "Scale 1–10  COLM 2025, ICLR 2017" in text
        assert "Mean ratings of 19 of 22 papers" in text
        assert "Every review's rating on 1–10" in text
        assert "Scale 0–10  ICLR 2026" in text
        assert "Mean ratings of 3 of 22 papers" in text
        assert "Every review's rating on 0–10 (12 reviews)" in text


async def test_a_paper_stands_among_the_papers_of_its_scale(mixed: Library) -> None:
    app = ReaderApp(mixed)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await go_to(app, pilot, paper_of(mixed, EVEN_2026))
        text = app.query_one(PaperDetail).text
        # Of 2, 4 and 5 on 0–10, 4 is the middle one.
        assert "Standing   50th percentile of 3 rated on 0–10 in view" in text, text
        await go_to(app, pilot, paper_of(mixed, LOW_2017))
        assert "percentile of 19 rated on 1–10 in view" in app.query_one(PaperDetail).text
