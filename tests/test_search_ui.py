"""Search in the real app: what the status line says about a query, typed key by key."""

from __future__ import annotations

import pytest
from textual.widgets import Static

from reader.library import Library
from reader.ui.app import ReaderApp, SearchBox
from reader.ui.widgets.paper_list import PaperList
from tests.test_app import SIZE, screen_text, settle
from tests.waiting import until


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


async def test_a_typo_offers_did_you_mean_and_one_key_accepts_it(library: Library) -> None:
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("slash", *"machine unlearnign")
        # The footer offers the key once it has redrawn its bindings, a frame after the
        # status line says so.
        await until(pilot, lambda: "Did you mean" in status(app)
                    and "Did you mean" in screen_text(app).rstrip().splitlines()[-1])
        assert app.query_one(PaperList).ids == []
        assert "Did you mean “machine unlearning”? ctrl+g searches it" in status(app)
        await pilot.press("ctrl+g")
        await settle(app, pilot)
        assert app.query_one(SearchBox).value == "machine unlearning"
        assert app.query_one(PaperList).ids == library.search("machine unlearning").ids != []
        assert "Did you mean" not in status(app)
        # Typing goes on in the box: the letters mend the query, none acts on a paper.
        assert isinstance(app.focused, SearchBox)
        await pilot.press(*" method")
        assert app.query_one(SearchBox).value == "machine unlearning method"
        assert len(app.screen_stack) == 1  # no dialog opened
        # Nothing near: no suggestion, and the key does nothing.
        await pilot.press("slash", "ctrl+u", *"zzzzqqqq")
        await settle(app, pilot)
        await pilot.press("ctrl+g")
        await settle(app, pilot)
        assert app.query_one(SearchBox).value == "zzzzqqqq"
        assert "Did you mean" not in screen_text(app)


async def test_the_notice_shows_on_a_narrow_terminal(library: Library) -> None:
    app = ReaderApp(library)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("slash", *"unlearning)")
        await settle(app, pilot)
        assert "Could not read that query" in screen_text(app)


@pytest.mark.parametrize("size", [(120, 40), (80, 24)])
async def test_a_did_you_mean_is_read_whole_at_120_and_80_columns(
    library: Library, size: tuple[int, int]
) -> None:
    app = ReaderApp(library)
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        await pilot.press("slash", *"machine unlearnign")
        await until(pilot, lambda: "Did you mean" in status(app))
        await settle(app, pilot)  # and the screen drawn with it
        # The whole status line is on screen, the suggestion and the key that takes it.
        line = status(app)
        assert "Did you mean “machine unlearning”? ctrl+g searches it" in line
        assert len(line) <= size[0] - 2, line
        assert line in screen_text(app)
        # The library's counts shrink first, and go only where they would cut the line.
        assert ("/ 38 seen" in line) == (size[0] == 120) and "starred" not in line


async def test_keys_typed_faster_than_a_search_run_one_search_at_a_time(
    library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each key starts a search; while one runs, the others wait, and only the newest
    query asked runs next: the words typed in between are never searched."""
    import threading
    import time

    running: list[str] = []
    most = 0
    searched: list[str] = []
    lock = threading.Lock()
    search = library.search

    def slow_search(query: str, **kwargs: object) -> object:
        nonlocal most
        with lock:
            running.append(query)
            most = max(most, len(running))
            searched.append(query)
        try:
            time.sleep(0.05)  # a search that takes longer than a key
            return search(query, **kwargs)  # type: ignore[arg-type]
        finally:
            with lock:
                running.remove(query)

    monkeypatch.setattr(library, "search", slow_search)
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("slash")
        box = app.query_one(SearchBox)
        box.value = "t"
        await until(pilot, lambda: bool(running))  # its search is under way
        for n in range(2, len("transport") + 1):
            box.value = "transport"[:n]  # faster than a search: no pause between keys
        await until(pilot, lambda: app.search.outcome is not None
                    and app.search.outcome.query == "transport")
        await settle(app, pilot)
        assert most == 1
        assert searched[-1] == "transport"
        assert searched == ["t", "transport"]
        assert app.query_one(PaperList).ids == search("transport").ids


async def test_esc_goes_back_to_the_paper_of_before_the_search(library: Library) -> None:
    """A search looked at and cleared with esc leaves the list where it was, and the
    paper its results showed first stays unseen; a paper chosen in the results stays."""
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        papers = app.query_one(PaperList)
        for _ in range(20):
            await pilot.press("j")
        await settle(app, pilot)
        before = papers.current_id
        seen_before = app.status.counts["seen"]
        await pilot.press("slash", *"benchmark")
        await settle(app, pilot)
        top = papers.current_id
        assert top != before and before not in papers.ids
        await pilot.press("escape")
        await settle(app, pilot)
        assert papers.current_id == before and papers.cursor == 20
        assert app.status.counts["seen"] == seen_before
        assert top not in app.seen.now
        # The box emptied by hand, then esc: the same.
        await pilot.press("slash", *"benchmark", "ctrl+u")
        await settle(app, pilot)
        await pilot.press("escape")
        await settle(app, pilot)
        assert papers.current_id == before and app.status.counts["seen"] == seen_before
        # Moved in the results: esc keeps the paper chosen.
        await pilot.press("slash", *"benchmark", "enter", "j")
        await settle(app, pilot)
        chosen = papers.current_id
        await pilot.press("escape")
        await settle(app, pilot)
        assert papers.current_id == chosen


async def test_a_new_query_starts_at_its_best_match(library: Library) -> None:
    """The paper under the cursor does not hold a new query's list to itself: the list
    opens at the best match, also when that paper is among the results."""
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        papers = app.query_one(PaperList)
        await pilot.press("G")
        await settle(app, pilot)
        last = papers.current_id
        assert last is not None
        paper = library.paper(last)
        assert paper is not None
        word = next(
            w for w in paper.abstract.lower().split()
            if w.isalpha() and len(w) > 5
            and last in (ids := library.search(w).ids) and len(ids) > 3 and ids[0] != last
        )
        await pilot.press("slash")
        app.query_one(SearchBox).value = word  # typed in one go (or pasted)
        await settle(app, pilot)
        assert last in papers.ids
        assert papers.cursor == 0 and papers.current_id == library.search(word).ids[0]
