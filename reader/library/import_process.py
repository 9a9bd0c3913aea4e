"""An import run by a process of its own, as the reader runs one: the process
(:mod:`reader.library.import_main`) reports its progress, its summary and any failure as
JSON lines on its standard output, and the process that started it reads them.

An import of twenty thousand records keeps a core busy for seconds, and then the index is
built. Run on a thread of the reader, it holds the interpreter a typing user needs; in a
process of its own it leaves the reader free, which learns of each committed batch the way
it learns of any other process's writes (``reader.store.watch``), and of the progress and the
summary from these events.

Starting that process (the interpreter, its modules, the library opened) takes a third of
a second or more, so the reader starts it while the user is still naming the file
(:class:`ImportProcess` with no paths yet): the process gets ready, then waits for the
paths on its standard input.
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass
from dataclasses import fields as dataclass_fields
from enum import StrEnum
from pathlib import Path
from typing import Any

from reader.import_summary import ImportSummary
from reader.library.door import translated

#: How much less of the processor an import started by a window gets than the window.
NICENESS = 5


class Event(StrEnum):
    """What an import process reports, named as its JSON lines name it (``"event"``)."""

    #: Records read.
    PROGRESS = "progress"
    #: Every paper written, with its signals.
    PAPERS = "papers"
    #: Papers indexed.
    INDEXING = "indexing"
    #: Records whose replies' text is written, on reading the file again.
    REPLIES = "replies"
    #: Every record written (with the summary).
    IMPORTED = "imported"
    #: The papers' index caught up.
    INDEXED = "indexed"
    #: The import failed (with a message and the kind of failure).
    FAILED = "failed"


@dataclass(frozen=True, slots=True)
class ImportEvent:
    """One report of an import process: ``progress`` (records read), ``papers`` (every
    paper written, with its signals), ``indexing`` (papers indexed), ``replies`` (records
    whose replies' text is written, on reading the file again), ``imported`` (every record
    written: ``summary``), ``indexed``, or ``failed`` (``message``, in one line as the
    command line says it)."""

    kind: Event
    done: int = 0
    total: int = 0
    summary: ImportSummary | None = None
    message: str = ""


def summary_to_json(summary: ImportSummary) -> dict[str, Any]:
    """An import summary as JSON data (see summary_from_json)."""
    return asdict(summary)


def summary_from_json(data: dict[str, Any]) -> ImportSummary:
    """The import summary that summary_to_json wrote."""
    fields = dict(data)
    fields["reports"] = [summary_from_json(r) for r in fields.get("reports", [])]
    # JSON has no tuples: the pairs and triples come back as lists, which the summary's
    # lines then could not take as keys (a Zotero CSV's tag "To Read" ended the window).
    for name in _TUPLE_LISTS:
        fields[name] = [tuple(item) for item in fields.get(name, [])]
    return ImportSummary(**fields)


#: The summary's fields that are lists of tuples.
_TUPLE_LISTS = tuple(
    f.name for f in dataclass_fields(ImportSummary) if str(f.type).startswith("list[tuple")
)


#: The directory holding the reader package that is running. The import process runs in
#: it, so that ``-m reader…`` finds this same code first: run from the user's directory, it
#: would take any ``reader`` found there (a checkout not installed again after a pull, say).
PACKAGE_HOME = str(Path(__file__).resolve().parent.parent.parent)


def import_argv(
    root: Path, paths: Sequence[Path], batch: int, *, paths_later: bool = False
) -> list[str]:
    """The command that imports ``paths`` into the library at ``root`` in batches of
    ``batch`` records, reporting events and stopping once its standard input ends without
    ``go on``; with ``paths_later``, the command that gets ready and then reads the paths
    from its standard input first."""
    argv = [
        sys.executable, "-m", "reader.library.import_main",
        "--library", str(Path(root).absolute()), "--batch", str(batch), "--followed",
    ]
    if paths_later:
        return [*argv, "--paths-from-stdin"]
    return [*argv, "--", *(str(Path(p).absolute()) for p in paths)]


class ImportProcess:
    """An import process, started with its paths or told them later (:meth:`give`).

    It follows this process through its standard input, which stays open while the import
    runs: this process quitting lets it finish on its own (:meth:`let_go`); this process
    dying (killed, its terminal closed) closes the pipe without a word, and the import
    stops as Ctrl-C stops ``reader import``, with what it committed kept.
    """

    def __init__(self, root: Path, batch: int, paths: Sequence[Path] | None = None) -> None:
        self.waiting = paths is None
        self._let_go = threading.Lock()
        # A process that cannot start (no file descriptor or memory left) is said as the
        # door says any OS error: the front end that started it catches a ReaderError.
        with translated():
            # Its standard error goes to a file, never to the reader's terminal (nor to the
            # reader's sys.stderr, which inside the app has no descriptor).
            self.errors = tempfile.TemporaryFile("w+", encoding="utf-8")
            try:
                # The process's own session: a reader that quits leaves it to finish, and a
                # terminal's hang-up is not sent to it (the closed pipe tells it instead).
                self.proc = subprocess.Popen(
                    import_argv(root, paths or [], batch, paths_later=self.waiting),
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=self.errors,
                    start_new_session=True,
                    env={**os.environ, "PYTHONUNBUFFERED": "1"},
                    cwd=PACKAGE_HOME,
                )
            except BaseException:
                self.errors.close()  # its descriptor, held by no process
                raise
        # The import (and the processes it starts) yields the processor to the window that
        # started it: keys are echoed at once while both cores parse, write and index.
        with contextlib.suppress(OSError, AttributeError):
            os.setpriority(os.PRIO_PROCESS, self.proc.pid, NICENESS)

    def give(self, paths: Sequence[Path]) -> None:
        """Tell a process started without paths what to import."""
        assert self.waiting and self.proc.stdin is not None
        self.waiting = False
        # A process that died meanwhile is reported by its exit status (see run_import).
        with contextlib.suppress(OSError, ValueError):
            named = [str(Path(p).absolute()) for p in paths]
            self.proc.stdin.write(json.dumps(named).encode() + b"\n")
            self.proc.stdin.flush()

    def let_go(self) -> None:
        """Leave the import to finish on its own (this process quits): tell it to go on
        once this process is gone. Safe to call again, and from any thread."""
        stdin = self.proc.stdin
        if stdin is None or self.waiting:
            return
        with self._let_go:
            if stdin.closed:
                return
            with contextlib.suppress(OSError, ValueError):
                stdin.write(b"go on\n")
                stdin.flush()
            with contextlib.suppress(OSError, ValueError):
                stdin.close()

    def done(self) -> None:
        """The import ended (its output read to the end): its standard input is closed."""
        stdin = self.proc.stdin
        if stdin is not None:
            with self._let_go, contextlib.suppress(OSError, ValueError):
                stdin.close()

    def cancel(self) -> None:
        """Let a process still waiting for its paths go: it exits, having imported
        nothing."""
        if self.waiting and self.proc.stdin is not None:
            self.waiting = False
            with contextlib.suppress(OSError):
                self.proc.stdin.close()
            if self.proc.stdout is not None:
                self.proc.stdout.close()
            self.errors.close()
            # Waited for beside the caller (a window's thread), so that the process, which
            # exits at once, does not stay behind as a zombie until the next import.
            threading.Thread(target=self.proc.wait, daemon=True).start()


def run_import(
    root: Path,
    paths: Sequence[Path],
    batch: int,
    stopped: Callable[[], bool] = lambda: False,
    started: ImportProcess | None = None,
) -> Iterator[ImportEvent]:
    """Import files into the library at ``root`` in a process of its own (``started``
    already, waiting for its paths, or started now), and yield its events as they come; a
    failure is a last ``failed`` event.

    Once ``stopped()`` is true (looked at a few times a second), or the events are no longer
    asked for, no more are read and the process is left to finish on its own.
    """
    if started is not None:
        process = started
        if process.waiting:
            process.give(paths)
    else:
        process = ImportProcess(root, batch, paths)
    proc, errors = process.proc, process.errors
    with errors:
        assert proc.stdout is not None
        failed = False
        with selectors.DefaultSelector() as selector:
            selector.register(proc.stdout, selectors.EVENT_READ)
            pending = b""
            while True:
                if stopped():
                    # Closed, so that the process's next report fails (and it stops
                    # reporting) rather than blocking on a full pipe; told to go on
                    # without this process.
                    proc.stdout.close()
                    process.let_go()
                    return
                if not selector.select(timeout=0.25):
                    continue
                chunk = os.read(proc.stdout.fileno(), 65536)
                if not chunk:
                    break
                *lines, pending = (pending + chunk).split(b"\n")
                for line in lines:
                    event = _event(line)
                    if event is not None:
                        failed = failed or event.kind == "failed"
                        try:
                            yield event
                        except GeneratorExit:
                            # No longer read: left to finish on its own, as when stopped.
                            proc.stdout.close()
                            process.let_go()
                            raise
        proc.stdout.close()
        code = proc.wait()
        process.done()
        if code != 0 and not failed:
            errors.seek(0)
            yield ImportEvent(Event.FAILED, message=_failure(errors.read(), code))


def _event(line: bytes) -> ImportEvent | None:
    """The event of one line (None for a line that is not one)."""
    try:
        data = json.loads(line)
    except ValueError:
        return None
    if not isinstance(data, dict) or data.get("event") not in set(Event):
        return None
    summary = data.get("summary")
    return ImportEvent(
        Event(data["event"]),
        int(data.get("done", 0)),
        int(data.get("total", 0)),
        summary_from_json(summary) if isinstance(summary, dict) else None,
        str(data.get("message", "")),
    )


def _failure(stderr: str, code: int) -> str:
    """Why a process that reported no failure stopped: the last line it wrote on its
    standard error (a traceback's), else its exit status."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    return lines[-1] if lines else f"the import stopped (exit status {code})"
