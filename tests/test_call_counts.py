"""What a key costs the library: the real app, its real library, and each library method
wrapped to count its calls (the method still runs).

One press of `s` is one write and at most one row read, with no search and no index sync
by the window; a query typed quickly is searched once, parsed once, and the papers stored
as seen are read once for the session, not once per search.
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from collections.abc import Callable
from functools import wraps
from typing import Any

import pytest

from reader.library import Library
from reader.search import query as query_module
from reader.ui.app import ReaderApp
from reader.ui.live import POLL_SECONDS
from reader.ui.widgets.paper_list import PaperList
from tests.test_app import SIZE, settle

COUNTED = ("set_starred", "sync_index", "paper", "rows", "search", "flagged_ids")


def count_calls(library: Library, names: tuple[str, ...] = COUNTED) -> Counter[str]:
    """Wrap ``names`` of ``library`` so that each call is counted, then made as before."""
    calls: Counter[str] = Counter()

    def counting(name: str, method: Callable[..., Any]) -> Callable[..., Any]:
        @wraps(method)
        def call(*args: Any, **kwargs: Any) -> Any:
            calls[name if name != "flagged_ids" else f"flagged_ids:{args[0]}"] += 1
            return method(*args, **kwargs)

        return call

    for name in names:
        # flagged_ids is the queries' (library.queries), the others the door's own.
        owner: Any = library.queries if name == "flagged_ids" else library
        setattr(owner, name, counting(name, getattr(owner, name)))
    return calls


def count_parses(monkeypatch: pytest.MonkeyPatch, calls: Counter[str]) -> None:
    """Count parse_query wherever reader bound it."""
    real = query_module.parse_query

    def parse(query: str) -> Any:
        calls["parse_query"] += 1
        return real(query)

    for module in list(sys.modules.values()):
        if (module is not None and module.__name__.startswith("reader")
                and getattr(module, "parse_query", None) is real):
            monkeypatch.setattr(module, "parse_query", parse)


async def quiet(app: ReaderApp, pilot: Any) -> None:
    """Wait for workers, then for the live library to have looked at what was written."""
    await settle(app, pilot)
    await pilot.pause(3 * POLL_SECONDS)
    await settle(app, pilot)


@pytest.mark.parametrize("query", ["", "learning"])
async def test_a_star_is_one_write_one_row_and_no_search(library: Library, query: str) -> None:
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        if query:
            await pilot.press("slash", *query)
            await app.searching.results_shown(query)
            await pilot.press("enter")
        await quiet(app, pilot)
        paper_id = app.query_one(PaperList).current_id
        assert paper_id is not None
        calls = count_calls(library)
        await pilot.press("s")
        await quiet(app, pilot)
    assert library.store.paper(paper_id).starred  # type: ignore[union-attr]
    assert calls["set_starred"] == 1
    assert calls["rows"] <= 1
    assert calls["paper"] == 0
    assert calls["search"] == 0
    assert calls["sync_index"] == 0


async def test_a_star_in_a_view_of_starred_papers_runs_it_again(library: Library) -> None:
    library.set_starred(library.all_ids()[0], True)
    library.set_starred(library.all_ids()[1], True)
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("slash", *"is:starred")
        await app.searching.results_shown("is:starred")
        await pilot.press("enter")
        await quiet(app, pilot)
        assert len(app.query_one(PaperList).ids) == 2
        calls = count_calls(library)
        await pilot.press("s")  # unstars it: the view loses it
        await quiet(app, pilot)
        assert len(app.query_one(PaperList).ids) == 1
    assert calls["set_starred"] == 1
    assert calls["search"] == 1


async def test_a_query_typed_quickly_is_searched_once(
    library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = ReaderApp(library)
    # Longer than a key takes on a machine busy with other tests: every key here is quick.
    app.search.settle_seconds = 1.0
    async with app.run_test(size=SIZE) as pilot:
        await quiet(app, pilot)
        calls = count_calls(library)
        count_parses(monkeypatch, calls)
        await pilot.press("slash", *"graph")
        await app.searching.results_shown("graph")
        await quiet(app, pilot)
        assert app.search.outcome is not None and app.search.outcome.ids
        first = dict(calls)
        await pilot.press(*" neural")
        await app.searching.results_shown("graph neural")
        await quiet(app, pilot)
    assert first["search"] == 1
    assert first["parse_query"] == 1
    assert first.get("flagged_ids:seen", 0) == 1  # read once, then kept
    assert calls["search"] == 2
    assert calls["parse_query"] == 2
    assert calls["flagged_ids:seen"] == 1


async def test_a_long_query_typed_quickly_is_answered_a_pause_after_its_last_key(
    library: Library,
) -> None:
    """Each key's wait for the next one took one of the window's few threads: a long query
    typed quickly queued its keys' waits, and its results (and quitting) came a minute late
    (48 keys here, six threads: 8 s of waits)."""
    app = ReaderApp(library)
    app.search.settle_seconds = 1.0
    query = "graph neural networks " * 2 + "graphs"
    async with app.run_test(size=SIZE) as pilot:
        await quiet(app, pilot)
        await pilot.press("slash", *query)
        typed = time.monotonic()
        await app.searching.results_shown(query, timeout=60)
        waited = time.monotonic() - typed
        assert app.search.outcome is not None and app.search.outcome.query == query
    assert waited < 4


def count_every_call(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """Wrap every method of the library, its parts, the store and its parts, and the search
    index (on their classes, so every connection and thread counts), each call counted as
    ``Class.method`` and then made as before."""
    from reader.library import (
        annotations,
        base,
        core,
        fetching,
        imports,
        indexing,
        queries,
        recovery,
        reviews,
        searching,
        signals,
        upkeep,
    )
    from reader.search.index import SearchIndex
    from reader.store import base as store_base
    from reader.store import database, edits, marks, reading, revisions

    classes = [
        core.Library, base.LibraryBase, indexing.Indexing, searching.Searching,
        queries.Queries, annotations.Annotations, imports.Imports, reviews.ReviewIndexing,
        signals.SignalReads, upkeep.Upkeep, recovery.Recovery, fetching.OpenReviewFetching,
        database.Store, reading.Reading, store_base.StoreBase, marks.Marks, edits.Edits,
        revisions.Revisions, SearchIndex,
    ]
    calls: Counter[str] = Counter()

    def counting(name: str, method: Callable[..., Any]) -> Callable[..., Any]:
        @wraps(method)
        def call(*args: Any, **kwargs: Any) -> Any:
            calls[name] += 1
            return method(*args, **kwargs)

        return call

    for cls in classes:
        for name, member in vars(cls).items():
            if callable(member) and not name.startswith("__") and not isinstance(
                member, (staticmethod, classmethod, type)
            ):
                monkeypatch.setattr(cls, name, counting(f"{cls.__name__}.{name}", member))
    return calls


@pytest.mark.parametrize("query", ["", "learning"])
async def test_a_star_costs_one_write_one_row_read_and_nothing_of_the_index(
    library: Library, query: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every call of the library, the store and the index one press of `s` makes: the
    write (which reads the row it changes), and the library's state read once by the
    window's watch on commits; no search, no index catch-up, no count of the library."""
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        if query:
            await pilot.press("slash", *query)
            await app.searching.results_shown(query)
            await pilot.press("enter")
        await quiet(app, pilot)
        paper_id = app.query_one(PaperList).current_id
        assert paper_id is not None
        before = app.status.counts["starred"]
        calls = count_every_call(monkeypatch)
        await pilot.press("s")
        await quiet(app, pilot)
        counted = dict(calls)
        assert app.status.counts["starred"] == before + 1
        monkeypatch.undo()
    assert library.store.paper(paper_id).starred  # type: ignore[union-attr]
    store = {name for name in counted if name.startswith(("Marks.", "Edits.", "Revisions."))}
    assert store <= {"Marks.set_starred", "Marks.triage_counts", "Marks.count_unseen"}, store
    assert counted["Marks.set_starred"] == 1
    # The library's counts are read by the window's watch on commits alone, in its one read.
    watched = counted.get("Queries.state", 0)
    assert counted.get("Marks.triage_counts", 0) == counted.get("Marks.count_unseen", 0) == watched
    assert not [name for name in counted if name.startswith("SearchIndex.")]
    parts = ("Queries.", "SignalReads.", "Searching.", "Indexing.", "ReviewIndexing.",
             "Upkeep.", "Imports.", "Recovery.", "OpenReviewFetching.", "Reading.")
    asked = {name for name in counted if name.startswith(parts)}
    assert asked <= {"Indexing.follow", "Queries.state", "Queries.rows"}, asked
    assert counted.get("Queries.rows", 0) <= 1
    assert watched <= 1


def test_a_star_is_searchable_at_the_next_search_and_kept_by_the_index_at_close(
    library: Library,
) -> None:
    """A star costs the index nothing as it is stored: the next search indexes it first,
    and a library closed before any search indexes it as it closes."""
    first, second = library.all_ids()[:2]
    generation = library.index.generation
    library.set_starred(first, True)
    assert library.index.generation == generation  # not indexed as it was stored
    assert library.search("learning is:starred").ids in ([first], [])
    assert library.index.generation == library.generation()
    assert library.search("is:starred").ids == [first]
    library.set_starred(second, True)
    root = library.paths.root
    library.close()
    again = Library(root)
    try:
        assert again.index.generation == again.generation()
    finally:
        again.close()


@pytest.mark.parametrize("command", [
    ["search", "graph"], ["search", "graph", "--limit", "1"], ["export", "-q", "graph"],
    ["cite", "--format", "key", "title:SC"],
])
def test_a_command_parses_its_query_once(
    library: Library, monkeypatch: pytest.MonkeyPatch, command: list[str]
) -> None:
    from click.testing import CliRunner

    import reader.cli.citing
    import reader.cli.papers
    import reader.library.searching  # noqa: F401 - each binds parse_query before it is counted
    from reader.cli import cli

    root = str(library.paths.root)
    library.close()
    calls: Counter[str] = Counter()
    count_parses(monkeypatch, calls)
    result = CliRunner().invoke(cli, ["--library", root, *command], obj={})
    assert result.exit_code == 0, result.output
    assert calls["parse_query"] == 1


async def test_a_did_you_mean_in_the_window_parses_the_query_once(
    library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The query typed is parsed once, for its search and its "did you mean" alike (the
    query suggested is parsed as the search it runs)."""
    parsed: Counter[str] = Counter()
    real = query_module.parse_query

    def parse(query: str) -> Any:
        parsed[query] += 1
        return real(query)

    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await quiet(app, pilot)
        for module in list(sys.modules.values()):
            if (module is not None and module.__name__.startswith("reader")
                    and getattr(module, "parse_query", None) is real):
                monkeypatch.setattr(module, "parse_query", parse)
        await pilot.press("slash", *"nulearning")
        await app.searching.results_shown("nulearning")
        for _ in range(50):
            await quiet(app, pilot)
            if app.search.outcome is not None and app.search.outcome.suggestion:
                break
        assert app.search.outcome is not None
        assert app.search.outcome.suggestion == "unlearning"
    assert parsed["nulearning"] == 1


def test_a_fetch_by_query_parses_its_query_once(
    library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`reader fetch openreview -q` searches the library for the papers to fetch: its query
    is parsed once (a query that finds none stops before anything is fetched)."""
    from click.testing import CliRunner

    import reader.cli.fetching  # noqa: F401 - bound to parse_query before it is counted
    from reader.cli import cli

    root = str(library.paths.root)
    library.close()
    calls: Counter[str] = Counter()
    count_parses(monkeypatch, calls)
    result = CliRunner().invoke(
        cli, ["fetch", "openreview", "--library", root, "-q", "zzyzxnothing"], obj={}
    )
    assert "nothing fetched" in result.output, result.output
    assert calls["parse_query"] == 1


async def test_a_large_library_searches_once_per_settled_key(
    library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where a new query shows its best matches first (50,000 papers and more: here from
    none, the first 3), the rest and the count follow from the same search: the index is
    searched once per query typed, not once for the first matches and again for all."""
    every = library.search("language models").ids
    assert len(every) > 3
    app = ReaderApp(library)
    app.search.first_results, app.search.first_results_from = 3, 0
    app.search.settle_seconds = 1.0
    async with app.run_test(size=SIZE) as pilot:
        await quiet(app, pilot)
        calls = count_every_call(monkeypatch)
        await pilot.press("slash", *"language")
        await app.searching.results_shown("language")
        await quiet(app, pilot)
        first = dict(calls)
        await pilot.press(*" models")
        await app.searching.results_shown("language models")
        await quiet(app, pilot)
        counted = dict(calls)
        assert app.query_one(PaperList).ids == every
        assert app.search.outcome is not None and app.search.outcome.complete
        monkeypatch.undo()
    assert first["Searching.search"] == 1
    assert first["SearchIndex.search"] == 1
    assert counted["Searching.search"] == 2
    assert counted["SearchIndex.search"] == 2
    assert counted["Searching.complete"] == 2  # the rest of each, looked up


async def test_counts_read_after_a_star_are_not_moved_by_it_again(library: Library) -> None:
    """The window's watch may read the counts after a star is stored and before the window
    takes the star's Change: those counts hold it already, and the Change leaves them."""
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await quiet(app, pilot)
        starred = app.status.counts["starred"]
        change = library.set_starred(library.all_ids()[0], True)
        await quiet(app, pilot)  # the watch has read the counts since
        assert app.status.counts["starred"] == starred + 1
        assert app.status.adjust(change)
        assert app.status.counts["starred"] == starred + 1
