"""An open reader's view follows what other processes write while it is open: its
cursor, its counts and what it has marked seen."""

from __future__ import annotations

import json
from pathlib import Path

from reader.library import Library
from reader.ui.app import ReaderApp
from reader.ui.features.views import PAPER_KEY, SORT_KEY
from tests.test_app import SIZE, screen_text, settle
from tests.test_live import cli, status
from tests.waiting import until


def _wombats(path: Path, count: int) -> Path:
    """``count`` new papers about wombats, as OpenReview lists them."""
    path.write_text(
        "".join(
            json.dumps({"id": f"wombat{n}", "content": {
                "title": f"Wombat Burrow Survey Number {n}",
                "abstract": f"Burrow {n} of the wombat colony is surveyed with radar.",
            }}) + "\n"
            for n in range(count)
        ),
        encoding="utf-8",
    )
    return path


async def test_a_restored_paper_is_not_a_move_newest_papers_come_in_on_top(
    library: Library, tmp_path: Path
) -> None:
    newest = max(library.store.all_ids())
    library.queries.set_meta(SORT_KEY, "added")
    library.queries.set_meta(PAPER_KEY, str(newest))  # the last session ended on the top paper
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        papers = app.paper_list
        assert papers.current_id == newest and papers.cursor == 0
        other = Library(library.paths.root)
        try:
            other.import_files([_wombats(tmp_path / "more.jsonl", 60)])
        finally:
            other.close()
        await until(pilot, lambda: len(papers.ids) == 98, "the new papers are listed")
        await settle(app, pilot)
        assert papers.cursor == 0 and papers.scroll_offset.y == 0
        assert papers.current_id == max(papers.ids)
        assert "Wombat Burrow Survey Number 59" in screen_text(app)
        assert status(app).startswith("1 / 98")


async def test_counts_and_cursor_follow_an_import_undone_elsewhere(
    library: Library, tmp_path: Path
) -> None:
    cli(library.paths.root, "import", str(_wombats(tmp_path / "more.jsonl", 5)))
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("slash", *"wombat", "enter")
        await until(pilot, lambda: "5 matches" in status(app), "the five matches")
        await settle(app, pilot)
        # The index is held while the undo runs, as by a process catching it up: the
        # window searches again before the index has let go of the papers removed.
        writer = library.index._writer()
        try:
            cli(library.paths.root, "import", "--undo")
            await until(pilot, lambda: "1 / 38 seen" in status(app)
                        and "0 matches" in status(app),
                        "the status line follows the undo")
            await settle(app, pilot)
        finally:
            writer.cancel()
        assert app.paper_list.ids == []
        assert status(app).startswith("0 matches"), status(app)
        await pilot.press("j", "s")
        await settle(app, pilot)
        assert status(app).startswith("0 matches") and "0 starred" in status(app)


def _seen(app: ReaderApp) -> int:
    """The library's seen count, as the status line gives it."""
    return app.status.counts["seen"]


async def test_only_papers_the_user_has_been_on_are_seen(
    library: Library, tmp_path: Path
) -> None:
    library.queries.set_meta(SORT_KEY, "added")
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        papers = app.paper_list
        assert _seen(app) == 1  # the paper under the cursor of the list in focus
        # Papers an import brings to the top of a list the user has not moved in are
        # shown, not looked at.
        other = Library(library.paths.root)
        try:
            other.import_files([_wombats(tmp_path / "more.jsonl", 60)])
        finally:
            other.close()
        await until(pilot, lambda: len(papers.ids) == 98, "the new papers are listed")
        await settle(app, pilot)
        assert papers.current_id == max(papers.ids) and _seen(app) == 1
        # space passes over the paper it is on: it counts as seen, and so does the next.
        await pilot.press("space")
        await settle(app, pilot)
        assert _seen(app) == 3 and papers.cursor == 1
        # Typed a letter at a time: each partial query's top result is not looked at.
        await pilot.press("slash")
        for n, letter in enumerate("model"):
            await pilot.press(letter)
            typed = "model"[: n + 1]
            await until(pilot, lambda q=typed: app.search.outcome is not None  # type: ignore[misc]
                        and app.search.outcome.query == q, "the partial results")
            await settle(app, pilot)
        assert _seen(app) == 3
        await pilot.press("enter")  # to the list: the top result is being looked at
        await settle(app, pilot)
        assert papers.has_focus and _seen(app) == 4
        assert "4 / 98 seen" in status(app)


async def test_progress_wins_over_the_counts_in_a_small_terminal(library: Library) -> None:
    app = ReaderApp(library)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        note = "Importing conference-papers.jsonl: 12,345/19,630"
        app.status.note(note)
        await pilot.pause()
        shown = status(app)
        assert shown.endswith(note) and len(shown) <= 78, shown
        assert shown.startswith("1 / 38")
        app.status.note("")
        await pilot.pause()
        assert "0 with notes" in status(app)  # the counts come back with the room
