"""What a key costs the library: the real app, its real library, and each library method
wrapped to count its calls (the method still runs).

One press of `s` is one write and at most one row read, with no search and no index sync
by the window; a query typed quickly is searched once, parsed once, and the papers stored
as seen are read once for the session, not once per search.
"""

from __future__ import annotations

import sys
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


@pytest.mark.parametrize("command", [
    ["search", "graph"], ["search", "graph", "--limit", "1"], ["export", "-q", "graph"],
    ["cite", "--format", "key", "title:SC"],
])
def test_a_command_parses_its_query_once(
    library: Library, monkeypatch: pytest.MonkeyPatch, command: list[str]
) -> None:
    from click.testing import CliRunner

    import reader.cli.citing
    import reader.cli.papers  # noqa: F401 - bound to parse_query before it is counted
    from reader.cli import cli

    root = str(library.paths.root)
    library.close()
    calls: Counter[str] = Counter()
    count_parses(monkeypatch, calls)
    result = CliRunner().invoke(cli, ["--library", root, *command], obj={})
    assert result.exit_code == 0, result.output
    assert calls["parse_query"] == 1
