"""An import run by a process of its own, as the reader runs one: ``reader import`` with
``--events`` reports its progress as JSON lines on its standard output, and the process
that started it reads them.

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
import importlib
import json
import os
import selectors
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import IO, Any

from reader.models import ImportSummary

#: Records read between two progress events (and at most this many are reported late).
EVENT_EVERY = 500
#: How much less of the processor an import started by a window gets than the window.
NICENESS = 5


@dataclass(frozen=True, slots=True)
class ImportEvent:
    """One report of an import process: ``progress`` (records read), ``imported`` (every
    record written: ``summary``), ``indexing`` (papers indexed), ``indexed``, or ``failed``
    (``message``, as the command line said it)."""

    kind: str
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
    fields["renamed_keys"] = [tuple(pair) for pair in fields.get("renamed_keys", [])]
    return ImportSummary(**fields)


class EventWriter:
    """Writes an import's events as JSON lines (the import process's side).

    Once the reader that reads them has gone (it quit while the import ran), writing fails:
    the import goes on without reporting, so a list is never left half imported because
    its window closed.
    """

    def __init__(self, out: IO[str]) -> None:
        self._out: IO[str] | None = out
        self._last: dict[str, int] = {}

    def send(self, kind: str, **fields: Any) -> None:
        """Write one event."""
        if self._out is None:
            return
        try:
            self._out.write(json.dumps({"event": kind, **fields}, ensure_ascii=False) + "\n")
            self._out.flush()
        except (OSError, ValueError):
            self._out = None

    def progress(self, kind: str) -> Callable[[int, int], None]:
        """A progress callback sending ``kind`` events at the first step, every EVENT_EVERY
        steps and at the last."""

        def report(done: int, total: int) -> None:
            # The first at once: for the index, it says its first part is published, and a
            # search typed meanwhile can answer from it.
            last = self._last.get(kind)
            if last is None or done >= total or done - last >= EVENT_EVERY:
                self._last[kind] = done
                self.send(kind, done=done, total=total)

        return report


#: The directory holding the reader package that is running. The import process runs in
#: it, so that ``-m reader`` finds this same code first: run from the user's directory, it
#: would take any ``reader`` found there (a checkout not installed again after a pull, say).
PACKAGE_HOME = str(Path(__file__).resolve().parent.parent.parent)


def import_argv(
    root: Path, paths: Sequence[Path], batch: int, *, paths_later: bool = False
) -> list[str]:
    """The command that imports ``paths`` into the library at ``root`` in batches of
    ``batch`` records, reporting events; with ``paths_later``, the command that gets ready
    and then reads the paths from its standard input."""
    argv = [
        sys.executable, "-m", "reader", "--library", str(Path(root).absolute()), "import",
        "--events", "--batch", str(batch),
    ]
    if paths_later:
        return [*argv, "--paths-from-stdin"]
    return [*argv, "--", *(str(Path(p).absolute()) for p in paths)]


def get_ready() -> None:
    """Load the modules an import runs on (every format's reader among them): what a
    process started before its file is named does while it waits."""
    from reader.search.build_processes import warm_up
    from reader.sources import READERS

    # The index is built once the papers are in: its workers are made ready too.
    warm_up()
    for module in (
        "reader.library.read_ahead", "reader.intake.merge", "reader.sources.jsonsniff",
        "reader.sources.textsniff", "reader.sources.seed", *READERS.values(),
    ):
        importlib.import_module(module)


def paths_given(line: str) -> list[Path]:
    """The paths of the JSON list that :meth:`ImportProcess.give` writes (none for an
    empty line: the process was let go); ValueError for anything else."""
    if not line.strip():
        return []
    try:
        named = json.loads(line)
    except ValueError:
        named = None
    if not isinstance(named, list) or not all(isinstance(p, str) for p in named):
        raise ValueError("expected a JSON list of paths")
    return [Path(p) for p in named]


class ImportProcess:
    """An import process, started with its paths or told them later (:meth:`give`)."""

    def __init__(self, root: Path, batch: int, paths: Sequence[Path] | None = None) -> None:
        # Its standard error goes to a file, never to the reader's terminal (nor to the
        # reader's sys.stderr, which inside the app has no descriptor).
        self.errors = tempfile.TemporaryFile("w+", encoding="utf-8")
        self.waiting = paths is None
        # The process's own session: it outlives a reader that quits or a terminal that
        # closes.
        self.proc = subprocess.Popen(
            import_argv(root, paths or [], batch, paths_later=self.waiting),
            stdin=subprocess.PIPE if self.waiting else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=self.errors,
            start_new_session=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
            cwd=PACKAGE_HOME,
        )
        # The import (and the processes it starts) yields the processor to the window that
        # started it: keys are echoed at once while both cores parse, write and index.
        with contextlib.suppress(OSError, AttributeError):
            os.setpriority(os.PRIO_PROCESS, self.proc.pid, NICENESS)

    def give(self, paths: Sequence[Path]) -> None:
        """Tell a process started without paths what to import."""
        assert self.waiting and self.proc.stdin is not None
        self.waiting = False
        # A process that died meanwhile is reported by its exit status (see run_import).
        with contextlib.suppress(OSError):
            named = [str(Path(p).absolute()) for p in paths]
            self.proc.stdin.write(json.dumps(named).encode() + b"\n")
        with contextlib.suppress(OSError):
            self.proc.stdin.close()

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

    Once ``stopped()`` is true (looked at a few times a second), no more events are read and
    the process is left to finish on its own.
    """
    if started is not None and started.waiting:
        process = started
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
                    # reporting) rather than blocking on a full pipe.
                    proc.stdout.close()
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
                        yield event
        proc.stdout.close()
        code = proc.wait()
        if code != 0 and not failed:
            errors.seek(0)
            yield ImportEvent("failed", message=_failure(errors.read(), code))


def _event(line: bytes) -> ImportEvent | None:
    """The event of one line (None for a line that is not one)."""
    try:
        data = json.loads(line)
    except ValueError:
        return None
    if not isinstance(data, dict) or not isinstance(data.get("event"), str):
        return None
    summary = data.get("summary")
    return ImportEvent(
        data["event"],
        int(data.get("done", 0)),
        int(data.get("total", 0)),
        summary_from_json(summary) if isinstance(summary, dict) else None,
        str(data.get("message", "")),
    )


def _failure(stderr: str, code: int) -> str:
    """What the command line said when it failed (its ``Error:`` line), else its last
    line."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    for line in reversed(lines):
        if line.startswith("Error: "):
            return line.removeprefix("Error: ")
    return lines[-1] if lines else f"the import stopped (exit status {code})"

