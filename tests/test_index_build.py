"""The index build on every core, paging through the store, and search while indexing.

Real SQLite and Whoosh in a temporary directory; the parallel build really starts its
worker processes.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from functools import partial
from pathlib import Path

import pytest
from textual.app import App, ComposeResult

import reader.library.indexing as library_module
from reader.library import Library
from reader.resources import sample_files
from reader.store.database import read_papers
from reader.text.render import render, to_plain
from reader.ui.app import ReaderApp
from reader.ui.features.imports import Importing
from reader.ui.index_status import IndexStatus
from reader.ui.widgets.paper_list import CACHE_SIZE, PAGE, PaperList

ROOT = Path(__file__).resolve().parent.parent

QUERIES = [
    "transport",
    "graph neural",
    '"language models"',
    "spars*",
    "benchmrak~",
    "title:learning",
    "learning is:starred",
    "learning -is:starred",
]


def write_openreview(path: Path, count: int, offset: int = 0) -> Path:
    """``count`` small OpenReview records with distinct abstracts (seeded, so stable)."""
    words = [
        "transport", "graph", "neural", "language", "models", "sparse", "sparsity",
        "benchmark", "benchmarks", "learning", "diffusion", "reasoning", "memory", "optimal",
        "agents", "vision", "robust", "causal", "kernel", "tokens", "policy", "reward",
        "privacy", "federated", "quantum", "protein", "molecule", "retrieval", "alignment",
    ]
    with path.open("w", encoding="utf-8") as out:
        for i in range(offset, offset + count):
            rng = random.Random(i)
            picked = [rng.choice(words) for _ in range(24)]
            record = {
                "id": f"paper{i:05d}",
                "content": {
                    "title": f"On {picked[0]} and {picked[1]} number {i}",
                    "abstract": f"In setting {i} we study {' '.join(picked)}.",
                    "keywords": [picked[2], picked[3]],
                },
            }
            out.write(json.dumps(record) + "\n")
    return path


def results(library: Library) -> dict[str, list[tuple[int, float]]]:
    """Every query's ids, best first, with their scores (rounded against float noise)."""
    out = {}
    for query in QUERIES:
        found = library.search(query)
        scores = [round(s, 6) for s in found.scores] or [0.0] * len(found.ids)
        out[query] = list(zip(found.ids, scores, strict=True))
    return out


def found(ranked: dict[str, list[tuple[int, float]]]) -> dict[str, set[int]]:
    """Just which papers each query found."""
    return {query: {i for i, _ in hits} for query, hits in ranked.items()}


@pytest.fixture
def parallel(monkeypatch: pytest.MonkeyPatch) -> None:
    """Build every index on two processes, however small the library."""
    monkeypatch.setattr(library_module, "PARALLEL_MIN", 1)
    monkeypatch.setattr(library_module, "INDEX_PROCS", 2)


def test_parallel_rebuild_matches_an_incremental_index(
    tmp_path: Path, empty_library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An index built on two processes finds what one kept up to date paper by paper
    finds, and ranks exactly as one built in a single process."""
    library = empty_library
    library.import_files([write_openreview(tmp_path / "a.jsonl", 150)])
    library.import_files([write_openreview(tmp_path / "b.jsonl", 90, offset=150)])
    # Incremental work: stars and a note re-index single papers.
    for paper_id in (3, 77, 160):
        library.set_starred(paper_id, True)
    library.save_note(42, "a note on optimal transport")
    incremental = results(library)
    assert library.index.count() == 240

    monkeypatch.setattr(library_module, "PARALLEL_MIN", 10**9)
    assert library.rebuild_index() == 240
    serial = results(library)

    monkeypatch.setattr(library_module, "PARALLEL_MIN", 1)
    monkeypatch.setattr(library_module, "INDEX_PROCS", 2)
    progress: list[tuple[int, int]] = []
    assert library.rebuild_index(lambda done, total: progress.append((done, total))) == 240
    parallel = results(library)

    assert all(parallel.values())
    assert parallel == serial
    # Scores of the incremental index differ in the last digits: its statistics still
    # count the old versions of re-indexed papers. Which papers match does not.
    assert found(parallel) == found(incremental)
    assert 42 in found(parallel)["transport"]
    assert progress[-1] == (240, 240)
    assert library.index.count() == 240
    assert library.index_state() == "ok"


def test_updates_after_a_parallel_rebuild(
    tmp_path: Path, empty_library: Library, parallel: None
) -> None:
    """Stars, notes, new papers and an undone import reach an index built in parallel,
    without leaving a paper in it twice."""
    library = empty_library
    library.import_files([write_openreview(tmp_path / "a.jsonl", 60)])
    library.rebuild_index()
    library.save_note(5, "zyxwvut remark")
    library.set_starred(6, True)
    assert library.search("zyxwvut").ids == [5]
    assert 6 in library.search("is:starred learning OR transport").ids + [
        i for i in library.search("is:starred").ids
    ]
    library.import_files([write_openreview(tmp_path / "b.jsonl", 10, offset=60)])
    assert library.index.count() == 70
    assert library.search("setting 65").ids[:1] == [66]
    library.imports.undo_last_import()
    assert library.index.count() == 60
    assert 66 not in library.search("setting").ids
    library.save_note(5, "")
    assert library.search("zyxwvut").ids == []


def test_a_failed_parallel_rebuild_leaves_an_index_that_is_rebuilt(
    tmp_path: Path, library: Library
) -> None:
    """A build that fails half-way raises, and the index it leaves counts as missing (not
    merely behind), so the next start builds it again."""
    broken = [partial(read_papers, tmp_path / "no-such.sqlite", 0, 10)]
    with pytest.raises(RuntimeError, match="indexing failed"):
        library.index.rebuild([], library.store.generation(), parts=broken)
    assert library.index_state() == "missing"
    # Nor does it leave a claim that other processes would wait on while this one lives.
    meta = json.loads((library.index.path / "reader-generation.json").read_text())
    assert "building" not in meta
    library.rebuild_index()
    assert library.index_state() == "ok"
    assert library.index.count() == library.store.count()


def test_a_build_in_processes_starts_under_a_print_capture(tmp_path: Path) -> None:
    """Inside the running reader, sys.stderr is Textual's print capture (descriptor -1):
    an index build on two processes still starts and completes there."""
    script = f"""
import sys
from pathlib import Path
import reader.library.indexing as library_module
from reader.library import Library

class Capture:
    def write(self, text): return len(text)
    def flush(self): pass
    def fileno(self): return -1

library_module.PARALLEL_MIN = 1
library_module.INDEX_PROCS = 2
library = Library(Path({str(tmp_path / "lib")!r}))
library.imports.import_sample_if_empty()
sys.stderr = Capture()
count = library.rebuild_index()
sys.stderr = sys.__stderr__
print(count, library.index_state(), library.index.count())
"""
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["38", "ok", "38"]


def test_id_ranges_cover_every_paper_once(tmp_path: Path, empty_library: Library) -> None:
    """The id ranges given to the indexing processes cover every paper once, in order, in
    parts of about equal size, even with holes in the ids."""
    library = empty_library
    assert library.store.id_ranges(2) == []
    library.imports.write_files([write_openreview(tmp_path / "a.jsonl", 50)])
    library.imports.write_files([write_openreview(tmp_path / "b.jsonl", 51, offset=50)])
    with library.store.transaction() as conn:
        conn.execute("DELETE FROM papers WHERE id BETWEEN 10 AND 30")
    all_ids = library.store.all_ids()
    for parts in (1, 2, 3, 7):
        ranges = library.store.id_ranges(parts)
        assert len(ranges) == parts
        covered = [
            [p.id for p in read_papers(library.paths.database, first, last)]
            for first, last in ranges
        ]
        assert [i for part in covered for i in part] == all_ids
        sizes = [len(part) for part in covered]
        assert max(sizes) - min(sizes) <= 1
    papers = list(read_papers(library.paths.database, 0, 2**63 - 1))
    assert papers == library.store.papers(all_ids)


class ListApp(App[None]):
    """Just the paper list, over a real store, counting the rows it fetches."""

    def __init__(self, library: Library) -> None:
        super().__init__()
        self.library = library
        self.fetched: list[int] = []

    def fetch(self, ids: object) -> dict:
        """Fetch through the store, keeping count."""
        wanted = list(ids)  # type: ignore[call-overload]
        self.fetched.extend(wanted)
        return self.library.store.rows(wanted)

    def compose(self) -> ComposeResult:
        yield PaperList(self.fetch)


async def test_the_list_fetches_rows_a_page_at_a_time(
    tmp_path: Path, empty_library: Library
) -> None:
    """Opening a long list reads one page of rows, not the library; jumping to the end
    reads one more; the cache stays bounded."""
    library = empty_library
    library.imports.write_files([write_openreview(tmp_path / "a.jsonl", 3 * CACHE_SIZE)])
    ids = library.store.all_ids()
    app = ListApp(library)
    async with app.run_test(size=(100, 30)) as pilot:
        papers = app.query_one(PaperList)
        papers.set_ids(ids)
        papers.focus()
        await pilot.pause()
        assert 0 < len(app.fetched) <= PAGE
        assert set(app.fetched) <= set(ids[:PAGE])
        app.fetched.clear()
        await pilot.press("G")
        await pilot.pause()
        assert papers.current_id == ids[-1]
        assert 0 < len(app.fetched) <= PAGE
        lines = ["".join(s.text for s in papers.render_line(y)) for y in range(30)]
        assert any(f"number {len(ids) - 1}" in line for line in lines)
        for _ in range(40):
            await pilot.press("pageup")
        await pilot.pause()
        assert len(papers._cache) <= CACHE_SIZE


async def test_search_while_the_index_builds_says_so(
    library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While the index is being built, browsing works and a search says it is still
    indexing (N of M) instead of waiting on the index; it runs when the index is done."""
    app = ReaderApp(library, load_sample=False)
    # Hold the start-up work, so the app stays in the "index being built" state.
    monkeypatch.setattr(Importing, "prepare_library", lambda self: None)
    async with app.run_test(size=(120, 40)) as pilot:
        app.following.index_reported(IndexStatus.Progress(12, 38))
        await pilot.press("j")
        assert app.paper_list.cursor == 1
        await pilot.press("slash", *"transport")
        await app.workers.wait_for_complete()
        await pilot.pause()
        status = str(app.query_one("#status").render())
        assert "Still indexing (12 of 38 papers)" in status
        assert app.paper_list.ids == []
        app.following.index_reported(IndexStatus.Built())
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.paper_list.ids == library.search("transport").ids
        assert app.paper_list.ids


async def test_stale_search_results_are_dropped(library: Library) -> None:
    """Results that come back after a newer query was typed are never shown."""
    app = ReaderApp(library, load_sample=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.press("slash", *"transport")
        await app.workers.wait_for_complete()
        await pilot.pause()
        shown = list(app.paper_list.ids)
        assert shown == library.search("transport").ids
        stale = library.search("memory")
        app.searching.show_results(app.search.generation - 1, stale)
        assert app.paper_list.ids == shown


@pytest.mark.parametrize(
    "text",
    [
        "Plain prose, with commas; colons: and (parentheses) stays as it is.",
        "A list\n- first\n- second",
        "1. numbered\n2. items",
        "Costs $O(n^2)$ time",
        "An *emphasised* word and `code`",
        "Dashes -- and ``quotes''",
        "Escaped \\& ampersand and 50% of it",
        "Two paragraphs.\n\nThe second one.",
    ],
)
def test_plain_text_skips_rendering_with_the_same_result(text: str) -> None:
    """The shortcut that hands plain prose back unrendered (half of all abstracts, when
    indexing) gives what the full rendering gives."""
    assert to_plain(text) == render(text).text


def test_plain_text_shortcut_agrees_on_the_bundled_sample() -> None:
    """Every bundled abstract comes out of the shortcut as out of the full rendering."""
    for path in sample_files():
        for paragraph in path.read_text(encoding="utf-8").split("\n\n"):
            assert to_plain(paragraph) == render(paragraph).text


def test_indexing_workers_yield_the_processor_to_the_process_that_started_them() -> None:
    """A window's own index workers run below it, so its keys and drawing come first; a
    worker of a process already yielding (the reader's import) yields as much, not more."""
    from reader.search.build_processes import WORKER_NICENESS, _yield_processor

    worker = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        _yield_processor(worker.pid)
        own = os.getpriority(os.PRIO_PROCESS, 0)
        assert os.getpriority(os.PRIO_PROCESS, worker.pid) == max(own, WORKER_NICENESS)
    finally:
        worker.kill()
        worker.wait()
