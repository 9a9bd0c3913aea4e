"""Every process an import starts ends with it, whatever ends it.

A real ``reader import`` of a few thousand records (read ahead by a forked child, indexed
by worker processes) is killed with TERM, HUP or KILL while it writes or indexes; within
seconds no process it started is alive and none holds the database or its log open, the
library opens, ``reader doctor`` says what it finds, and the next import finishes the
index. The same for the import process a reader window starts, when the window's process
dies; a window that quits instead leaves its import to finish.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from reader.library import Library
from tests.test_index_build import write_openreview

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="walks /proc for the processes left"
)

ROOT = Path(__file__).resolve().parent.parent
RECORDS = 6_000
#: Seconds within which every process must be gone once its parent is.
GONE_WITHIN = 5.0


def _stat(pid: int) -> tuple[str, int] | None:
    """A process's state letter and parent, or None once it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2:].split()
    return fields[0], int(fields[1])


def alive(pid: int) -> bool:
    """Whether the process runs (a zombie has ended: it only waits to be reaped)."""
    state = _stat(pid)
    return state is not None and state[0] != "Z"


def descendants(pid: int) -> set[int]:
    """The processes started by ``pid`` and by those, now."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (state := _stat(int(entry.name))) is not None:
            parents[int(entry.name)] = state[1]
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier}
        frontier -= found
        found |= frontier
    return found


def holders(database: Path) -> set[int]:
    """The live processes holding the database or its log open."""
    names = {str(database), f"{database}-wal"}
    held: set[int] = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fds = list((entry / "fd").iterdir())
        except OSError:
            continue
        for fd in fds:
            try:
                if os.readlink(fd) in names and alive(int(entry.name)):
                    held.add(int(entry.name))
            except OSError:
                continue
    return held


def wait_for(condition: Callable[[], bool], seconds: float, what: str) -> None:
    """Poll ``condition`` until it holds; fail naming ``what`` after ``seconds``."""
    end = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > end:
            raise AssertionError(f"never happened within {seconds} s: {what}")
        time.sleep(0.02)


def papers(database: Path) -> int:
    """How many papers another process sees committed."""
    try:
        conn = sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=1)
        try:
            return int(conn.execute("SELECT count(*) FROM papers").fetchone()[0])
        finally:
            conn.close()
    except sqlite3.Error:
        return 0


def run_reader(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run the ``reader`` command on the library at ``root`` to its end."""
    return subprocess.run(
        [sys.executable, "-m", "reader", "--library", str(root), *args],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )


@pytest.fixture(scope="module")
def big_list(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An OpenReview list long enough to be read ahead and indexed by workers."""
    return write_openreview(tmp_path_factory.mktemp("kills") / "big.jsonl", RECORDS)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """An empty library, and no process holding it."""
    library = Library(tmp_path / "lib")
    library.close()
    return tmp_path / "lib"


def kill_and_check(
    proc: subprocess.Popen[bytes], database: Path, signum: int, ready: Callable[[], bool],
    what: str,
) -> set[int]:
    """Once ``ready()``, send ``signum`` to ``proc``; then every process it started (seen
    until the kill) is gone within GONE_WITHIN seconds, and none holds the database open.
    The processes seen."""
    seen: set[int] = set()

    def watched() -> bool:
        seen.update(descendants(proc.pid))
        if proc.poll() is not None:
            raise AssertionError(f"the import ended before {what}")
        return ready()

    wait_for(watched, 120, what)
    seen.update(descendants(proc.pid))
    proc.send_signal(signum)
    proc.wait(timeout=30)
    wait_for(lambda: not any(alive(p) for p in seen), GONE_WITHIN,
             f"the processes it started ended: {sorted(p for p in seen if alive(p))}")
    wait_for(lambda: not holders(database), GONE_WITHIN, "nobody holds the database")
    return seen


def finishes_next_time(root: Path, big_list: Path, before: int, signum: int) -> None:
    """The library opens with every committed batch whole; doctor says what it finds; the
    next import brings in the rest and finishes the index. (The last two, a minute of the
    suite's time in all, after KILL only: TERM and HUP end the import as Ctrl-C does, a
    cleaner end than KILL's, and leave the same library.)"""
    library = Library(root)
    try:
        check = library.store.conn.execute("PRAGMA integrity_check").fetchone()[0]
        assert check == "ok"
        committed = library.store.count()
        assert before <= committed <= before + RECORDS
    finally:
        library.close()
    if signum != signal.SIGKILL:
        return
    doctor = run_reader(root, "doctor")
    assert "Traceback" not in doctor.stdout + doctor.stderr
    assert "database: ok" in doctor.stdout, doctor.stdout
    again = run_reader(root, "import", str(big_list))
    assert again.returncode == 0, again.stderr
    library = Library(root)
    try:
        assert library.store.count() == before + RECORDS
        assert library.index_state() == "ok"
        assert library.search("number 5999").ids
    finally:
        library.close()


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGKILL],
                         ids=["TERM", "HUP", "KILL"])
def test_an_import_killed_while_writing_leaves_no_process(
    root: Path, big_list: Path, signum: int
) -> None:
    """Killed while its batches commit (a child reading the file ahead): the child ends
    with it, nothing holds the library, and the next import finishes the work."""
    database = root / "library.sqlite"
    before = papers(database)
    proc = subprocess.Popen(
        [sys.executable, "-m", "reader", "--library", str(root), "import", "--batch", "50",
         str(big_list)],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    try:
        seen = kill_and_check(
            proc, database, signum,
            lambda: bool(descendants(proc.pid)) and papers(database) > before,
            "the first batches committed",
        )
        assert seen, "the file was read ahead by a child"
        if signum != signal.SIGKILL:
            # Stopped as Ctrl-C stops it: no traceback, and it says what stopped it and
            # what is kept, with the shell's status for a death by that signal.
            said = (proc.stderr.read() if proc.stderr else b"").decode()
            assert "Traceback" not in said and "Aborted!" not in said
            name = signal.Signals(signum).name
            kept = papers(database) - before
            assert kept > 0
            assert f"Stopped by {name}: the {kept:,} papers committed are kept" in said
            assert proc.returncode == 128 + signum
    finally:
        if proc.poll() is None:
            proc.kill()
    finishes_next_time(root, big_list, before, signum)


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGKILL], ids=["TERM", "KILL"])
def test_an_import_killed_while_indexing_leaves_no_process(
    root: Path, big_list: Path, signum: int
) -> None:
    """Killed while its worker processes build the index: the workers end with it."""
    database = root / "library.sqlite"
    before = papers(database)
    proc = subprocess.Popen(
        [sys.executable, "-m", "reader", "--library", str(root), "import", str(big_list)],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )

    def indexing() -> bool:
        # The papers are all in, and workers run (beside the resource tracker).
        return papers(database) == before + RECORDS and len(descendants(proc.pid)) >= 2

    try:
        kill_and_check(proc, database, signum, indexing, "the index build under way")
        if signum != signal.SIGKILL:
            # Every paper is in: no "the rest" for an import again to bring in.
            said = (proc.stderr.read() if proc.stderr else b"").decode()
            assert "Stopped by SIGTERM while indexing: every paper of the import is in" in said
            assert "the rest" not in said and "Traceback" not in said
            assert proc.returncode == 128 + signum
            # The doctor says what happened: a build stopped, not an index damaged.
            doctor = run_reader(root, "doctor")
            assert "search index: a build from scratch was stopped before its end" in (
                doctor.stdout), doctor.stdout
    finally:
        if proc.poll() is None:
            proc.kill()
    finishes_next_time(root, big_list, before, signum)


# What a reader window does with an import: start its process and follow its reports,
# then (with "quit") let it go as the window quits; killed, the window says nothing.
_WINDOW = """
import sys
from pathlib import Path
from reader.library.import_process import ImportProcess, run_import
root, path, then = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
process = ImportProcess(root, 50, [path])
print(process.proc.pid, flush=True)
for event in run_import(root, [path], 50, started=process):
    if event.kind == "progress" and event.done >= 500 and then == "quit":
        process.let_go()
        break
    print(event.kind, flush=True)
"""


def start_window(root: Path, big_list: Path, then: str) -> tuple[subprocess.Popen[str], int]:
    """A process following an import as a window does; the import process's pid."""
    proc = subprocess.Popen(
        [sys.executable, "-c", _WINDOW, str(root), str(big_list), then],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )
    assert proc.stdout is not None
    return proc, int(proc.stdout.readline())


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGKILL],
                         ids=["TERM", "HUP", "KILL"])
def test_the_import_a_window_started_ends_when_the_window_dies(
    root: Path, big_list: Path, signum: int
) -> None:
    """The window's process killed while its import process writes: the import process
    (in a session of its own, so no hang-up reaches it) sees the window gone, stops as
    Ctrl-C stops an import, and every process it started ends with it."""
    database = root / "library.sqlite"
    before = papers(database)
    window, importing = start_window(root, big_list, "follow")
    seen: set[int] = set()
    try:
        def writing() -> bool:
            seen.update(descendants(importing), {importing})
            return papers(database) > before

        wait_for(writing, 120, "the first batches committed")
        window.send_signal(signum)
        window.wait(timeout=30)
        wait_for(lambda: not any(alive(p) for p in seen), GONE_WITHIN,
                 f"the import's processes ended: {sorted(p for p in seen if alive(p))}")
        wait_for(lambda: not holders(database), GONE_WITHIN, "nobody holds the database")
    finally:
        for pid in (window.pid, importing):
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
    assert papers(database) < before + RECORDS, "the import stopped before its end"
    finishes_next_time(root, big_list, before, signum)


def test_the_import_a_window_lets_go_finishes_after_it(root: Path, big_list: Path) -> None:
    """A window that quits tells its import to go on: the import finishes and indexes
    every paper after the window's process has ended, and then ends too."""
    database = root / "library.sqlite"
    before = papers(database)
    window, importing = start_window(root, big_list, "quit")
    window.wait(timeout=120)
    wait_for(lambda: not alive(importing), 300, "the import's end")
    assert not holders(database)
    library = Library(root)
    try:
        assert library.store.count() == before + RECORDS
        assert library.index_state() == "ok"
    finally:
        library.close()
