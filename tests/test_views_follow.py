"""What the reader shows follows an import made from inside it: the list rows and the
results of a search typed while the new papers were being indexed."""

from __future__ import annotations

import json
from pathlib import Path

from reader.library import Library
from reader.ui.app import ReaderApp
from reader.ui.features.views import SORT_KEY
from reader.ui.widgets.paper_list import PaperList
from tests.test_app import SIZE, screen_text, settle
from tests.waiting import until

OPENREVIEW_40 = Path(__file__).parent / "data" / "openreview-40.jsonl"


async def test_list_rows_follow_an_import_that_retitles_papers(
    library: Library, tmp_path: Path
) -> None:
    store = library.store
    papers = store.papers(store.all_ids()[:4])
    assert all(p.title_derived for p in papers)
    # The OpenReview list of the same papers: the same abstracts, real titles.
    listing = tmp_path / "submissions.jsonl"
    listing.write_text(
        "".join(
            json.dumps({"id": f"real{n}", "content": {
                "title": f"Real Title Number {n} Given By OpenReview", "abstract": p.abstract,
            }}) + "\n"
            for n, p in enumerate(papers)
        ),
        encoding="utf-8",
    )
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert papers[2].title[:30] in screen_text(app)
        app.importing.import_files([listing])
        await settle(app, pilot)
        assert len(app.query_one(PaperList).ids) == 38
        shown = screen_text(app)
        # Rows 1 to 3 are only in the list (the detail pane shows row 0).
        for n in (1, 2, 3):
            assert f"Real Title Number {n}" in shown, shown
            assert papers[n].title[:30] not in shown


async def test_a_search_typed_while_indexing_runs_again_when_indexing_ends(
    library: Library,
) -> None:
    before = len(library.search("diffusion").ids)
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        papers = app.query_one(PaperList)
        # The index is held back (its writer lock taken) until the search below has
        # answered from what was indexed before the import (as a slow index build does on
        # a large list); the import, in a process of its own, waits for the lock.
        writer = library.index._writer()
        try:
            app.importing.import_files([OPENREVIEW_40])
            await until(pilot, lambda: library.store.count() == 78, "the import", 3000)
            await pilot.press("slash", *"diffusion")
            await until(
                pilot,
                lambda: app.search.outcome is not None and app.search.outcome.query == "diffusion",
                "the search while indexing",
            )
            assert len(papers.ids) == before
        finally:
            writer.cancel()
        await settle(app, pilot)
        after = len(library.search("diffusion").ids)
        assert after > before
        assert len(papers.ids) == after
        assert f"{after:,} matches" in screen_text(app)


def _more_papers(path: Path, count: int) -> Path:
    """A list of ``count`` new papers, as OpenReview gives them."""
    path.write_text(
        "".join(
            json.dumps({"id": f"more{n}", "content": {
                "title": f"Wombat Burrow Survey Number {n}",
                "abstract": f"Burrow {n} of the wombat colony is surveyed with radar.",
            }}) + "\n"
            for n in range(count)
        ),
        encoding="utf-8",
    )
    return path


async def test_the_cursor_stays_on_its_paper_as_another_process_adds_papers_above_it(
    library: Library, tmp_path: Path
) -> None:
    source = _more_papers(tmp_path / "more.jsonl", 60)
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        app.views.set_sort("added")  # the newest first: the new papers come in above
        await settle(app, pilot)
        papers = app.query_one(PaperList)
        await pilot.press("g", "j", "j", "j")
        await settle(app, pilot)
        chosen, line = papers.current_id, papers.cursor - papers.scroll_offset.y
        shown = app.current_paper
        assert line == 3 and shown is not None
        other = Library(library.paths.root)
        try:
            other.import_files([source])
        finally:
            other.close()
        await until(pilot, lambda: len(papers.ids) == 98, "the new papers are listed")
        await settle(app, pilot)
        assert papers.current_id == chosen
        assert papers.cursor == 63
        assert papers.cursor - papers.scroll_offset.y == line
        assert shown.title[:30] in screen_text(app)


async def test_a_list_the_user_has_not_moved_in_keeps_its_top_as_papers_come_in(
    library: Library, tmp_path: Path
) -> None:
    source = _more_papers(tmp_path / "more.jsonl", 60)
    library.queries.set_meta(SORT_KEY, "added")
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        papers = app.query_one(PaperList)
        assert papers.cursor == 0 and papers.scroll_offset.y == 0
        other = Library(library.paths.root)
        try:
            other.import_files([source])
        finally:
            other.close()
        await until(pilot, lambda: len(papers.ids) == 98, "the new papers are listed")
        await settle(app, pilot)
        # The newest paper is on top, under the cursor, and shown.
        assert papers.cursor == 0 and papers.scroll_offset.y == 0
        assert papers.current_id == max(papers.ids)
        assert "Wombat Burrow Survey Number 59" in screen_text(app)



def _wombats(path: Path, word: str, count: int) -> Path:
    """``count`` new papers about wombats, titled "Wombat {word} …" (sorted by title)."""
    path.write_text(
        "".join(
            json.dumps({"id": f"{word}{n}", "content": {
                "title": f"Wombat {word} Census Number {n}",
                "abstract": f"Tunnel {n} of the wombat colony is counted by {word}.",
            }}) + "\n"
            for n in range(count)
        ),
        encoding="utf-8",
    )
    return path


async def test_a_search_result_keeps_its_line_as_more_results_come_in_above(
    library: Library, tmp_path: Path
) -> None:
    library.queries.set_meta(SORT_KEY, "title")
    library.import_files([_more_papers(tmp_path / "first.jsonl", 2)])
    library.sync_index()
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("slash", *"wombat", "enter")
        await until(pilot, lambda: app.search.outcome is not None and len(app.paper_list.ids) == 2,
                    "the two matches")
        await settle(app, pilot)
        papers = app.paper_list
        papers.focus()
        await pilot.press("j")
        await settle(app, pilot)
        chosen = papers.current_id
        assert papers.cursor == 1 and papers.scroll_offset.y == 0
        other = Library(library.paths.root)
        try:
            # Above it (sorted by title), then below it: once there are rows enough below
            # it, it is back on the line it was on.
            other.import_files([_wombats(tmp_path / "a.jsonl", "Aardvark", 60)])
            other.sync_index()
            await until(pilot, lambda: len(papers.ids) == 62, "the matches above")
            await settle(app, pilot)
            assert papers.current_id == chosen and papers.cursor == 61
            other.import_files([_wombats(tmp_path / "z.jsonl", "Zebra", 60)])
            other.sync_index()
        finally:
            other.close()
        await until(pilot, lambda: len(papers.ids) == 122, "the matches below")
        await settle(app, pilot)
        assert papers.current_id == chosen
        assert papers.cursor == 61
        assert papers.cursor - papers.scroll_offset.y == 1
