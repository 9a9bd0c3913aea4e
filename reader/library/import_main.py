"""The import process's own entry point: ``python -m reader.library.import_main``, which
the reader starts for its imports (:mod:`reader.library.import_process`).

It speaks JSON lines only, one object a line on its standard output, each with an
``event``: ``progress``, ``indexing`` and ``replies`` (``done`` of ``total``), ``papers``
(for files whose replies' text is written after their papers: every paper is in, with its
signals; the papers are indexed, then the replies written), ``imported`` (the
``summary``), ``indexed``, and ``failed``, whose ``message`` says what failed in one line,
as ``reader import`` says it (the kind of failure is the error's own: see
:mod:`reader.errors`). Nothing it writes is meant for a terminal; a traceback, should one
happen, goes to its standard error.

Usage: ``--library DIR --batch N`` followed by ``-- FILE …``, or by ``--paths-from-stdin``
to get ready first (interpreter, modules, library) and then read the files as a JSON list
on standard input (an empty line: nothing to import).

With ``--followed``, its standard input stays open for as long as the reader that started
it follows it: a line ``go on`` says the reader quits and leaves the import to finish here;
the end of the input without it says the reader died (killed, its terminal closed), and
the import stops as Ctrl-C stops ``reader import``: what was committed stays, the next run
finishes the index. TERM and HUP sent to this process stop it the same way.

Only the standard library is imported at the top: the index build's worker processes are
forked from a process that loads this module again (as the main module of its parent),
and need none of the rest.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
import threading
import time
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, Any

#: Records read between two progress events (and at most this many are reported late).
EVENT_EVERY = 500
#: Seconds after which progress is reported however few records were read meanwhile: a
#: slow file of a few hundred records (all unchanged, each looked up) shows its count move.
EVENT_SECONDS = 0.25
#: The line by which the reader that started the import lets it finish on its own.
GO_ON = "go on"


#: What a stopped import says.
STOPPED = ("the import was stopped: the batches written stay, and the next run finishes "
           "the index")


class BadPaths(ValueError):
    """What came on standard input is not the JSON list of paths expected."""


class EventWriter:
    """Writes an import's events as JSON lines.

    Once the reader that reads them has gone (it quit while the import ran), writing fails:
    the import goes on without reporting, so a list is never left half imported because
    its window closed.
    """

    def __init__(self, out: IO[str], clock: Callable[[], float] = time.monotonic) -> None:
        self._out: IO[str] | None = out
        self._last: dict[str, tuple[int, float]] = {}
        self._clock = clock

    def send(self, event: str, /, **fields: Any) -> None:
        """Write one event."""
        if self._out is None:
            return
        try:
            self._out.write(json.dumps({"event": event, **fields}, ensure_ascii=False) + "\n")
            self._out.flush()
        except (OSError, ValueError):
            self._out = None

    def progress(self, kind: str) -> Callable[[int, int], None]:
        """A progress callback sending ``kind`` events at the first step, every EVENT_EVERY
        steps or EVENT_SECONDS, whichever comes first, and at the last."""

        def report(done: int, total: int) -> None:
            # The first at once: for the index, it says its first part is published, and a
            # search typed meanwhile can answer from it. By time as well as by count, so
            # that the window's count moves on a short file too, at a few events a second.
            now = self._clock()
            last = self._last.get(kind)
            if (last is None or done >= total or done - last[0] >= EVENT_EVERY
                    or now - last[1] >= EVENT_SECONDS):
                self._last[kind] = (done, now)
                self.send(kind, done=done, total=total)

        return report


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


def failure(exc: BaseException, root: Path) -> str | None:
    """What a failure means in one line, as the command line says it (a damaged database
    with the backup to restore; a full disk as such); None for an error reader cannot
    explain (a bug: its traceback is what helps). What the library raises is a
    ReaderError already; what came from beside it is translated here."""
    from reader.errors import Damaged, IndexBusy, IndexDamaged, ReaderError, translate
    from reader.library import DatabaseLost, StoreDamaged, damaged_advice

    if isinstance(exc, BadPaths):
        return str(exc)
    error = exc if isinstance(exc, ReaderError) else translate(exc)
    if error is None:
        return None
    if isinstance(error, DatabaseLost):
        return str(error)  # its message says what was lost and the way back
    if isinstance(error, StoreDamaged):  # found as the database opened
        return f"{error}; {damaged_advice(root)}"
    if isinstance(error, Damaged) and not isinstance(error, IndexDamaged):
        # Damage found after the database opened (a bad page is only met when read).
        return f"the library database is damaged ({error}); {damaged_advice(root)}"
    if isinstance(error, IndexBusy):
        return f"{error}; try again once it is done"
    return error.line()


def watch_reader(stream: IO[str]) -> None:
    """Follow the reader that started this process through ``stream`` (its standard input,
    in a thread of its own): once it ends without the reader's ``go on``, the reader is
    gone, and the import is stopped."""

    def watch() -> None:
        for line in stream:
            if line.strip() == GO_ON:
                return  # the reader quit, leaving the import to finish
        from reader.processes import stop_main_thread

        stop_main_thread()

    # The stream is the thread's alone from here: a process forked beside it (reading the
    # file ahead) closes sys.stdin as it starts, and would wait forever for the lock this
    # thread holds while it waits on the pipe. So the forks find another stdin there, and
    # the thread is safe to fork beside (read_ahead.FORK_SAFE_THREADS names it).
    if stream is sys.stdin:
        sys.stdin = open(os.devnull, encoding="utf-8")  # noqa: SIM115 - for the process's life
    threading.Thread(target=watch, name="reader-watch", daemon=True).start()


def run(root: Path, paths: Sequence[Path], batch: int, paths_from_stdin: bool,
        report: EventWriter, followed: bool = False) -> None:
    """Open the library, get the paths (from standard input once ready, if so told),
    import them in batches and index them, reporting as it goes; ``followed``: stopped
    once standard input ends without the reader's ``go on``."""
    from reader.library import Library
    from reader.library.import_process import Event

    library = Library(root)
    try:
        if paths_from_stdin:
            get_ready()
            try:
                paths = [*paths, *paths_given(sys.stdin.readline())]
            except ValueError as exc:
                raise BadPaths(f"the paths given: {exc}") from None
            if not paths:
                return  # the user named no file after all
        if followed:
            watch_reader(sys.stdin)

        def index() -> None:
            # The log the batches grew, copied in now that the papers show (and again
            # after indexing: a window reading meanwhile may hold part of it back).
            library.imports.checkpoint()
            # Another window may be indexing the batches as they committed: this process
            # waits for it and finishes what it leaves, whichever of the two quits first.
            library.sync_index(report.progress(Event.INDEXING), waiting=lambda: None)
            library.imports.checkpoint()

        def papers_in() -> None:
            # Every paper shows, with its signals; their replies' text is written next,
            # once the abstracts are indexed.
            report.send(Event.PAPERS)
            index()

        # The papers written; this process indexes them itself, reporting as it goes.
        summary = library.imports.write_files(
            paths, None, report.progress(Event.PROGRESS), batch=batch,
            papers_in=papers_in, replies_progress=report.progress(Event.REPLIES),
        )
        from reader.library.import_process import summary_to_json

        report.send(Event.IMPORTED, summary=summary_to_json(summary))
        index()
        report.send(Event.INDEXED)
        # Review text once the abstracts are searchable: never before them.
        library.reviews.sync_reviews()
    finally:
        library.close()


def main(argv: Sequence[str] | None = None) -> int:
    """Run an import as told by ``argv``; the exit status is 1 when it failed."""
    parser = argparse.ArgumentParser(prog="python -m reader.library.import_main")
    parser.add_argument("--library", type=Path, required=True)
    parser.add_argument("--batch", type=int, required=True)
    parser.add_argument("--paths-from-stdin", action="store_true")
    parser.add_argument("--followed", action="store_true")
    parser.add_argument("paths", nargs="*", type=Path)
    args = parser.parse_args(argv)
    from reader.library.import_process import Event
    from reader.processes import stop_on_termination

    report = EventWriter(sys.stdout)
    try:
        with stop_on_termination():
            run(args.library, args.paths, args.batch, args.paths_from_stdin, report,
                args.followed)
    except KeyboardInterrupt:
        report.send(Event.FAILED, message=STOPPED)
        return 1
    except Exception as exc:
        message = failure(exc, args.library)
        if message is None:
            traceback.print_exc()
            message = f"{type(exc).__name__}: {exc}"
        report.send(Event.FAILED, message=message)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
