"""Another process writing the index (a `reader import` indexing its papers, a window
catching up): a search, a sync, `reader doctor` and `reader reindex` leave the index to it,
at once and without harm, instead of waiting for its lock or replacing its files."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from whoosh.filedb.filestore import FileStorage

from reader.library import Library
from tests.test_index_build import write_openreview

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture
def held(library: Library) -> Iterator[None]:
    """The index's write lock, taken as another process writing the index holds it."""
    lock = FileStorage(str(library.paths.index)).lock("MAIN_WRITELOCK")
    assert lock.acquire(blocking=False)
    try:
        yield
    finally:
        lock.release()


def reader(library: Library, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "reader", "--library", str(library.paths.root), *args],
        capture_output=True, text=True, cwd=REPO, timeout=120,
    )


def test_a_sync_leaves_a_stale_index_to_the_process_writing_it(
    library: Library, tmp_path: Path, held: None
) -> None:
    before = library.index.generation
    library.imports.write_files([write_openreview(tmp_path / "new.jsonl", 30)])
    assert library.index_state() == "stale"
    assert library.sync_index() == 0
    assert library.index.generation == before
    assert library.search("transport").ids  # what is indexed still answers


def test_a_missing_index_is_not_replaced_under_another_writer(
    library: Library, held: None
) -> None:
    index = library.paths.index
    (index / "reader-generation.json").unlink()
    files = sorted(p.name for p in index.iterdir())
    assert library.index_state() == "missing"
    assert library.sync_index() == 0  # no rebuild: it would replace the other's files
    assert sorted(p.name for p in index.iterdir()) == files

    reindex = reader(library, "reindex")
    assert reindex.returncode == 1
    assert "being written by another process" in reindex.stderr
    assert "Traceback" not in reindex.stderr
    doctor = reader(library, "doctor")
    assert doctor.returncode == 0, doctor.stderr
    assert "search index: being written by another process" in doctor.stdout
    assert sorted(p.name for p in index.iterdir()) == files
