"""Quitting while the index is built: the window closes at once, and the build is finished
by whoever runs next, with nothing lost and nothing held twice."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from reader.library import Library, indexing
from reader.search import build_processes
from reader.ui.app import ReaderApp
from tests.test_app import SIZE, settle
from tests.test_live import status
from tests.waiting import until, wait_for

WORDS = [
    "transport", "graph", "neural", "language", "models", "sparse", "benchmark", "learning",
    "diffusion", "reasoning", "memory", "optimal", "agents", "vision", "robust", "causal",
    "kernel", "tokens", "policy", "reward", "privacy", "federated", "quantum", "protein",
]


def write_long_records(path: Path, count: int, words: int, topic: str = "") -> Path:
    """``count`` OpenReview records whose abstracts are ``words`` words long (seeded), so
    that indexing them takes a while; ``topic`` is written into every abstract."""
    with path.open("w", encoding="utf-8") as out:
        for i in range(count):
            rng = random.Random(i)
            text = " ".join(rng.choice(WORDS) for _ in range(words))
            out.write(json.dumps({
                "id": f"long{i:05d}",
                "content": {
                    "title": f"On {rng.choice(WORDS)} number {i}",
                    "abstract": f"In setting {i} {topic} we study {text}.",
                },
            }) + "\n")
    return path


@pytest.fixture
def in_parts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hundreds of changed papers are indexed as thousands are: in worker processes, in
    segments published as they are written (the first after a few papers)."""
    monkeypatch.setattr(indexing, "PARALLEL_MIN", 50)
    monkeypatch.setattr(build_processes, "FIRST_SEGMENT", 5)


@pytest.mark.parametrize("keys", [("q",), ("q", "q")])
async def test_quitting_while_indexing_another_process_import_stops_the_build(
    library: Library, tmp_path: Path, in_parts: None, keys: tuple[str, ...]
) -> None:
    """Another process imports many papers; the open window indexes them. `q` (or `q q`)
    closes the window without waiting for the build: what it indexed is kept, the index is
    left behind the database but whole, and the next window finishes it."""
    root = library.paths.root
    total = 300
    source = write_long_records(tmp_path / "long.jsonl", total, 1_000)
    before = library.store.count()
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        other = Library(root)
        try:
            other.imports.write_files([source])
        finally:
            other.close()
        await until(pilot, lambda: (
            (built := library.indexing.index_partial()) is not None and 0 < built[0] < total
        ), "the window publishes part of the new papers")
        await pilot.press(*keys)
        await until(pilot, lambda: not app.is_running, "the window closes")
    library.close()

    after = Library(root)
    try:
        assert after.store.count() == before + total
        # The build was stopped, not finished: the index is behind the database, holds
        # what was published, and reads through.
        assert after.index_state() == "stale"
        assert before < after.index.count() < before + total
        assert after.index.check() is None
        window = ReaderApp(after)
        async with window.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: after.index_state() == "ok", "the next window catches up")
            await settle(window, pilot)
            await pilot.press("slash", *"number 299")
            await until(pilot, lambda: window.search.outcome is not None
                        and window.search.outcome.query == "number 299"
                        and len(window.paper_list.ids) >= 1, "a search finds the new papers")
        assert after.index.count() == before + total  # every paper, each once
        assert after.search("setting 123").ids
    finally:
        after.close()


def test_a_catch_up_stopped_midway_leaves_no_paper_twice(
    library: Library, tmp_path: Path, in_parts: None
) -> None:
    """Papers re-imported with new abstracts: a catch-up stopped once it has published
    some of their new versions (their old ones still there) is finished by the next sync,
    which leaves each paper once, found by its new words only."""
    total = 120
    library.import_files([write_long_records(tmp_path / "old.jsonl", total, 50, "walrus")])
    assert library.index_state() == "ok"
    count = library.index.count()
    library.imports.write_files(
        [write_long_records(tmp_path / "new.jsonl", total, 50, "narwhal")]
    )

    def published() -> bool:
        built = library.index.partial()
        return built is not None and built[0] > 0

    library.sync_index(stopped=published)
    assert library.index_state() == "stale"
    assert library.index.check() is None
    assert library.index.count() > count  # new versions beside their old ones
    library.sync_index()
    assert library.index_state() == "ok"
    assert library.index.count() == count
    assert len(library.search("narwhal").ids) == total
    assert library.search("walrus").ids == []


async def test_a_second_q_quits_while_a_write_waits_and_the_write_is_stored(
    library: Library,
) -> None:
    """`q` waits for a star still waiting on another process's lock, and says so; a second
    `q` closes the window at once, and the star is stored all the same once the lock goes."""
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        paper_id = app.paper_list.current_id
        assert paper_id is not None
        blocker = Library(library.paths.root)
        blocker.store.conn.execute("BEGIN IMMEDIATE")  # another process writing
        try:
            await pilot.press("s", "q")
            await until(pilot, lambda: "(q quits now) once your changes" in status(app),
                        "the window says what it waits for")
            assert app.is_running
            await pilot.press("q")
            await until(pilot, lambda: not app.is_running, "the second q quits")
        finally:
            blocker.store.conn.execute("ROLLBACK")
            blocker.close()
    reader = Library(library.paths.root)
    try:
        wait_for(lambda: (paper := reader.store.paper(paper_id)) is not None and paper.starred,
                 "the star is stored")
    finally:
        reader.close()
