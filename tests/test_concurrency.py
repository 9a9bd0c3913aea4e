"""Two at once: processes writing stars and notes to one library at the same time.

No write may be lost, none may fail with "database is locked", and the search index's
writer lock may slow a write's indexing but never a search, nor lose the write itself.
``READER_CONCURRENT_WRITES`` (1,000 by default) and ``READER_CONCURRENT_INDEXED_WRITES``
(40) set how many writes each process makes.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from whoosh import index as whoosh_index

import reader.search.index
import reader.search.index_base
from reader.library import Library
from reader.ui.app import ReaderApp
from reader.ui.widgets.paper_list import PaperList
from tests.conftest import SEEDS
from tests.crash_driver import note_text, write_plan
from tests.test_app import settle
from tests.test_crash import assert_index_agrees
from tests.waiting import until

WRITES = int(os.environ.get("READER_CONCURRENT_WRITES", "1000"))
INDEXED_WRITES = int(os.environ.get("READER_CONCURRENT_INDEXED_WRITES", "40"))
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("concurrent") / "base"
    library = Library(root)
    library.import_files(SEEDS)
    library.close()
    return root


@pytest.fixture
def lib(base: Path, tmp_path: Path) -> Path:
    root = tmp_path / "lib"
    shutil.copytree(base, root)
    return root


def writer(root: Path, count: int, seed: int, part: str, *flags: str) -> subprocess.Popen[str]:
    """A driver process writing ``count`` stars and notes to its part of the papers."""
    return subprocess.Popen(
        [sys.executable, "-m", "tests.crash_driver", str(root), "writes", str(count), str(seed),
         f"--part={part}", *flags],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )


def finish(proc: subprocess.Popen[str], count: int) -> None:
    """The process reported every write and ended cleanly, with nothing on stderr."""
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    assert "locked" not in err and "Traceback" not in err and not err.strip(), err
    lines = out.splitlines()
    assert lines[0] == "ready" and lines[-1] == "done" and len(lines) == count + 2


def expected(ids: list[int], count: int, seed: int) -> tuple[set[int], dict[int, str]]:
    """The stars and notes a writer's plan leaves on its papers."""
    stars: set[int] = set()
    notes: dict[int, str] = {}
    for kind, paper_id, value in write_plan(ids, count, seed):
        if kind == "star":
            (stars.add if value else stars.discard)(paper_id)
        else:
            notes[paper_id] = note_text(paper_id, value, seed)
    return stars, notes


def assert_all_writes_there(root: Path, plans: list[tuple[str, int, int]]) -> None:
    """Every writer's last word on each of its papers is in the database."""
    library = Library(root)
    try:
        ids = library.store.all_ids()
        stars = {p.id for p in library.store.iter_papers() if p.starred}
        notes = {p.id: p.note for p in library.store.iter_papers() if p.note}
        want_stars: set[int] = set()
        want_notes: dict[int, str] = {}
        for part, count, seed in plans:
            first, parts = map(int, part.split("/"))
            s, n = expected(ids[first::parts], count, seed)
            want_stars |= s
            want_notes |= n
        assert stars == want_stars
        assert notes == want_notes
        assert_index_agrees(library)
    finally:
        library.close()


def test_two_processes_write_at_once_and_lose_nothing(lib: Path) -> None:
    plans = [("0/2", WRITES, 1), ("1/2", WRITES, 2)]
    procs = [writer(lib, count, seed, part, "--no-index") for part, count, seed in plans]
    for proc in procs:
        finish(proc, WRITES)
    assert_all_writes_there(lib, plans)


def test_indexing_writers_never_block_a_search(lib: Path) -> None:
    plans = [("0/2", INDEXED_WRITES, 3), ("1/2", INDEXED_WRITES, 4)]
    procs = [writer(lib, count, seed, part) for part, count, seed in plans]
    # A third party searching all along, as the app does while the CLI writes. (That a
    # search never waits for a writer's lock is checked with the lock held, below.)
    library = Library(lib)
    searches = 0
    try:
        while any(p.poll() is None for p in procs):
            outcome = library.search("graph OR noteword3x1 OR noteword4x1")
            searches += 1
            assert outcome.ids
            time.sleep(0.01)  # a search every so often, not a wait for anything
    finally:
        library.close()
    for proc in procs:
        finish(proc, INDEXED_WRITES)
    assert searches > 5
    assert_all_writes_there(lib, plans)


def test_a_held_writer_lock_delays_indexing_but_loses_no_write(
    lib: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(reader.search.index_base, "_WRITER_TIMEOUT", 0.5)
    library = Library(lib)
    paper_id = library.store.all_ids()[5]
    # Another process's writer, stuck: it holds the index's lock.
    stuck = whoosh_index.open_dir(str(lib / "index")).writer()
    try:
        # Each write waits for the index at most _WRITER_TIMEOUT, then is stored anyway.
        library.save_note(paper_id, "written while the index was locked: lockedword")
        library.set_starred(paper_id, True)
        paper = library.store.paper(paper_id)
        assert paper is not None and paper.starred and "lockedword" in paper.note
        # A search answers from what the index holds (not yet the note) while the lock
        # stays held: one that waited for the lock would wait an hour.
        monkeypatch.setattr(reader.search.index_base, "_WRITER_TIMEOUT", 3600.0)
        found: list[list[int]] = []
        searching = threading.Thread(target=lambda: found.append(library.search("lockedword").ids))
        searching.start()
        searching.join(timeout=60)
        assert found == [[]], "the search waited for the writer's lock"
        assert library.index_state() == "stale"
    finally:
        stuck.cancel()
    library.sync_index()  # the next sync catches up
    assert library.search("lockedword").ids == [paper_id]
    assert_index_agrees(library)
    library.close()


async def test_the_app_and_a_command_write_at_once(lib: Path) -> None:
    """The reader open and starring while another process writes 1,000 times."""
    library = Library(lib)
    app = ReaderApp(library, load_sample=False)
    proc = writer(lib, WRITES, 5, "1/2", "--no-index")
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(app, pilot)
            papers = app.query_one(PaperList)
            starred = []
            # The app's user stars the even-numbered rows (part 0/2), ten of them.
            for row in range(0, 20, 2):
                papers.cursor = row
                await pilot.press("s")
                starred.append(papers.ids[row])
            messages: list[str] = []
            await until(pilot, lambda: proc.poll() is not None, "the writer ends")
            await settle(app, pilot)
            messages = [n.message for n in app._notifications]
            assert not any("locked" in m or "Could not" in m for m in messages), messages
            assert app.is_running
    finally:
        library.close()
    finish(proc, WRITES)
    check = Library(lib)
    try:
        got = {p.id for p in check.store.iter_papers() if p.starred}
        ids = check.store.all_ids()
        theirs, _ = expected(ids[1::2], WRITES, 5)
        assert got == set(starred) | theirs
    finally:
        check.close()


def test_threads_of_one_process_share_the_library(lib: Path) -> None:
    """The app's worker threads borrow connections: many at once, nothing lost."""
    library = Library(lib)
    ids = library.store.all_ids()
    errors: list[BaseException] = []

    def work(part: int) -> None:
        try:
            for k in range(100):
                paper_id = ids[(part + 4 * k) % len(ids)]
                library.save_note(paper_id, f"thread {part} wrote {k}")
        except BaseException as exc:  # noqa: BLE001 - collected and asserted on below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    library.sync_index()
    notes = {p.id: p.note for p in library.store.iter_papers() if p.note}
    assert len(notes) == len(ids)
    assert all(note.startswith("thread") for note in notes.values())
    assert_index_agrees(library)
    library.close()


def test_closing_the_library_leaves_a_worker_its_connection(lib: Path) -> None:
    """A window closed while a write's thread still runs: the thread's write is stored and
    its connection closed as it gives it back (SQLite closed under it could crash)."""
    library = Library(lib)
    paper_id = library.store.all_ids()[0]
    with library.session() as store:
        library.close()
        store.edits.save_note(paper_id, "written after the window closed")
    with pytest.raises(sqlite3.ProgrammingError):
        store.conn.execute("SELECT 1")
    reopened = Library(lib)
    assert reopened.store.paper(paper_id).note == "written after the window closed"
    reopened.close()
