"""A query's best matches are shown before every match is ranked; the rest and the count
follow, and a search a newer query replaced is given up."""

from __future__ import annotations

from pathlib import Path

import pytest

from reader.library import Library
from reader.search.query import SearchCancelled
from reader.ui.app import ReaderApp
from reader.ui.widgets.paper_list import PaperList
from tests.test_app import SIZE, screen_text, settle

QUERY = "language models"


def test_the_first_matches_are_the_best_of_all(library: Library) -> None:
    every = library.search(QUERY)
    assert len(every.ids) > 5 and every.complete
    first = library.search(QUERY, first=5)
    assert first.ids == every.ids[:5] and not first.complete
    assert first.terms == every.terms
    assert library.search(QUERY, first=len(every.ids) + 1).complete
    # Filters the database answers, and other orders, rank every match at once.
    assert library.search(f"{QUERY} is:unseen", first=5).complete
    assert library.search(QUERY, order="title", first=5).complete


def test_a_search_of_every_match_can_be_cancelled(library: Library) -> None:
    with pytest.raises(SearchCancelled):
        library.search(QUERY, cancelled=lambda: True)
    assert library.search(QUERY, cancelled=lambda: False).ids == library.search(QUERY).ids


async def test_the_list_shows_every_match_once_they_are_ranked(library: Library) -> None:
    every = library.search(QUERY).ids
    app = ReaderApp(library)
    app.search.first_results, app.search.first_results_from = 3, 0
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("slash", *QUERY)
        await settle(app, pilot)
        papers = app.query_one(PaperList)
        assert papers.ids == every
        assert papers.current_id == every[0]
        assert f"{len(every):,} matches" in screen_text(app)
        assert "counting" not in screen_text(app)


async def test_the_query_shown_run_again_keeps_the_cursor_below_the_first_matches(
    library: Library,
) -> None:
    every = library.search(QUERY).ids
    app = ReaderApp(library)
    app.search.first_results, app.search.first_results_from = 3, 0
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("slash", *QUERY, "enter")
        await settle(app, pilot)
        papers = app.query_one(PaperList)
        await pilot.press("j", "j", "j", "j", "j")
        assert papers.current_id == every[5]
        # As after a write elsewhere, or when indexing ends.
        app.searching.run_search(QUERY)
        await settle(app, pilot)
        assert papers.ids == every
        assert papers.current_id == every[5]


def test_a_search_while_papers_are_written_but_not_yet_indexed_says_it_is_partial(
    library: Library, tmp_path: Path
) -> None:
    """An import still writing (its index build not begun) leaves papers the index does not
    hold: a search over the rest says so, as it does during a build, and stops saying it
    once they are indexed."""
    from tests.test_index_build import write_openreview

    assert library.search("model").notice is None
    library.imports.write_files([write_openreview(tmp_path / "new.jsonl", 20)])
    total = library.store.count()
    assert library.search("model").notice == f"partial: {total - 20:,} of {total:,} indexed"
    library.sync_index()
    assert library.search("model").notice is None


def test_the_rest_of_the_first_matches_is_every_match_without_a_second_search(
    library: Library,
) -> None:
    every = library.search(QUERY)
    first = library.search(QUERY, first=5)
    assert not first.complete and first.rest is not None
    rest = library.searching.complete(first)
    assert rest.complete and rest.rest is None
    assert (rest.ids, rest.scores, rest.terms) == (every.ids, every.scores, every.terms)
    # The index changed in between: its searcher is gone, and the query is searched again.
    first = library.search(QUERY, first=5)
    library.save_note(every.ids[-1], "a note about language models")
    again = library.search(QUERY)
    rest = library.searching.complete(first)
    assert rest.complete and (rest.ids, rest.scores) == (again.ids, again.scores)
