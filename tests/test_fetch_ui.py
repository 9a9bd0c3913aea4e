"""Fetching reviews from OpenReview in the app: ``F`` for the current paper, the palette for
the starred papers or the view; the fetch runs in a worker with its progress in the status
line, esc stops it (what came is kept and imported), and a refusal (403
ChallengeRequiredError) or an unreachable server is said with what to do.

Against the loopback server of tests/test_fetch_openreview.py, which answers from real
recorded notes; the library holds the recorded papers without their replies.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from textual.pilot import Pilot

from reader.library import Library
from reader.sources.remote import openreview_notes
from reader.ui.app import ReaderApp
from reader.ui.widgets.paper_list import PaperList
from tests.test_app import SIZE, settle

# The loopback server, a fixture used by its name.
from tests.test_fetch_openreview import (
    IDS,
    RECORDING,
    NotesServer,
    server,  # noqa: F401
)
from tests.test_fetch_openreview import _loopback_only as _loopback_only  # noqa: F401
from tests.test_remote import Reply
from tests.waiting import until


@pytest.fixture
def bare(tmp_path: Path) -> Library:
    """A library holding the recorded papers, without any of their replies."""
    with gzip.open(RECORDING, "rt", encoding="utf-8") as handle:
        papers = [json.loads(line) for line in handle if line.strip()]
    for paper in papers:
        paper["replies"] = []
    path = tmp_path / "bare.jsonl"
    path.write_text("".join(json.dumps(p) + "\n" for p in papers))
    library = Library(tmp_path / "lib")
    library.import_files([path])
    library.sync_index()
    return library


def _paper(library: Library, forum: str) -> int:
    row = library.store.conn.execute(
        "SELECT id FROM papers WHERE openreview_id = ?", (forum,)).fetchone()
    return int(row[0])


def _said(app: ReaderApp) -> str:
    return "\n".join(n.message for n in app._notifications)


def _imported(app: ReaderApp) -> bool:
    """Whether the import of what was fetched is over (its summary said)."""
    return any(n.title == "Imported" for n in app._notifications)


def _status(app: ReaderApp) -> str:
    return str(app.query_one("#status").render())


def _replies_count(library: Library) -> int:
    return int(library.store.conn.execute(
        "SELECT count(*) FROM replies").fetchone()[0])


async def _go_to(app: ReaderApp, pilot: Pilot, paper_id: int) -> None:
    papers = app.query_one(PaperList)
    await until(pilot, lambda: paper_id in papers.ids, "the paper listed")
    papers.cursor = papers.ids.index(paper_id)
    await settle(app, pilot)


async def test_f_fetches_the_current_papers_reviews_and_imports_them(
    server: NotesServer, bare: Library  # noqa: F811
) -> None:
    paper_id = _paper(bare, IDS[0])
    assert bare.replies(paper_id) == []
    app = ReaderApp(bare)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await _go_to(app, pilot, paper_id)
        await pilot.press("F")
        await until(pilot, lambda: "Fetched 1 paper with" in _said(app), "the fetch said")
        await until(pilot, lambda: bare.replies(paper_id), "the replies imported")
        await until(pilot, lambda: _imported(app), "the import said")
    asked = [q["forum"] for q in server.notes_asked()]
    assert asked == [[IDS[0]]]  # this paper's forum, and nothing else
    assert len(bare.replies(paper_id)) == len(server.replies[IDS[0]])


async def test_the_view_is_fetched_with_progress_and_esc_stops_it(
    server: NotesServer, bare: Library  # noqa: F811
) -> None:
    # The second forum's answer waits until the test lets it go.
    second = json.dumps({"notes": [server.notes[IDS[1]], *server.replies[IDS[1]]],
                         "count": 1 + len(server.replies[IDS[1]])}).encode()
    server.troubles[IDS[1]] = [Reply(body=second, stall=True)]
    app = ReaderApp(bare)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        order = [bare.paper(i).openreview_id for i in app.query_one(PaperList).ids]
        first, following = order[0], order[1]
        if following != IDS[1]:  # the view's second paper is the one that waits
            server.troubles = {following: server.troubles.pop(IDS[1])}
            body = json.dumps({"notes": [server.notes[following], *server.replies[following]],
                               "count": 1}).encode()
            server.troubles[following] = [Reply(body=body, stall=True)]
        await pilot.press("ctrl+p")
        await pilot.press(*"papers of this view")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await until(pilot, lambda: "OpenReview: 1/12 (esc stops)" in _status(app),
                    "the progress shown")
        await pilot.press("escape")
        assert "Stopping the fetch" in _status(app)
        server.release.set()
        await until(pilot, lambda: "Stopped (esc)" in _said(app), "the stop said")
        await until(pilot, lambda: _replies_count(bare) > 0, "what came imported")
        await until(pilot, lambda: _imported(app), "the import said")
        await settle(app, pilot)
    # The two forums that came are kept and imported; no other was asked for.
    assert [q["forum"][0] for q in server.notes_asked()] == [first, following]
    fetched = {p for p, in bare.store.conn.execute(
        "SELECT DISTINCT forum FROM replies")}
    assert fetched == {f for f in (first, following) if server.replies[f]}
    assert fetched


async def test_a_challenge_says_how_to_log_in(
    server: NotesServer, bare: Library  # noqa: F811
) -> None:
    server.require_login = True
    app = ReaderApp(bare)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("F")
        await until(pilot, lambda: "Nothing fetched" in _said(app), "the refusal said")
        said = _said(app)
        assert "403 ChallengeRequiredError" in said and "OPENREVIEW_USERNAME" in said
        assert _status(app).count("Fetching") == 0
    assert _replies_count(bare) == 0


async def test_esc_stops_the_waits_between_tries(
    bare: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A wait long enough to be stopped in (an unreachable host is asked once more).
    monkeypatch.setattr(openreview_notes, "_backoff", lambda attempt: 30.0)
    app = ReaderApp(bare)  # READER_OPENREVIEW_API: a closed port on the loopback
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("F")
        await pilot.pause(1.5)  # refused, and waiting to try again
        assert app.fetches.running
        await pilot.press("escape")
        await until(pilot, lambda: "Nothing fetched" in _said(app), "the stop said",
                    timeout=5)
        assert "stopped before any paper came" in _said(app)
        assert not app.fetches.running


async def test_an_unreachable_server_is_said(
    bare: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The fetcher's real retries, without their waiting between them.
    monkeypatch.setattr(openreview_notes, "_backoff", lambda attempt: 0.05)
    app = ReaderApp(bare)  # READER_OPENREVIEW_API: a closed port on the loopback
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("F")
        await until(pilot, lambda: "Nothing fetched" in _said(app), "the failure said")
        assert "OpenReview" in _said(app)
    assert _replies_count(bare) == 0


async def test_the_palette_fetches_the_starred_papers(
    server: NotesServer, bare: Library  # noqa: F811
) -> None:
    starred = _paper(bare, IDS[2])
    bare.set_starred(starred, True)
    app = ReaderApp(bare)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("ctrl+p")
        await pilot.press(*"the starred papers")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await until(pilot, lambda: "Fetched 1 paper with" in _said(app), "the fetch said")
        await until(pilot, lambda: bare.replies(starred), "the replies imported")
        await until(pilot, lambda: _imported(app), "the import said")
        await settle(app, pilot)
    assert [q["forum"] for q in server.notes_asked()] == [[IDS[2]]]
