"""The window opened bare: ``reader`` run with no command, the way it is run nearly always.

What is imported before the first frame is time the user waits, and the command line's
machinery (click, and what the commands share) was about 9 ms of CPU of it, where the whole
start to the first frame is about 260. So the entry point sends a bare command line here
without loading it (``reader.entry``), and the ``reader`` group sends itself here when given
no command: one way to open the window, with the same lines when the library cannot be
opened or read.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
import signal
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from reader.errors import ReaderError, describe_write_error
from reader.library import (
    Library,
    ViewSignals,
    outermost_missing,
    reader_command,
    take_back_unopened,
    unopened_line,
    unreadable_line,
)
from reader.locations import LibraryPaths

if TYPE_CHECKING:
    from reader.ui.app import ReaderApp

T = TypeVar("T")

#: How long a thread of the window holds the interpreter while another waits for it as the
#: window starts (Python's default: 5 ms), and until how long after its loop starts (the
#: first frame is drawn about 0.07 s after at 19,630 papers); see _run.
STARTING_SWITCH_SECONDS = 0.0005
STARTING_SECONDS = 0.15


#: Why the window did not open with its input or output not a terminal.
NO_TERMINAL = (
    "the window needs a terminal, and its input or output is a file or a pipe here; "
    "`reader search`, `reader show`, `reader export` and the other commands print to one "
    "(`reader --help` lists them)"
)


class NotOpened(Exception):
    """The library could not be opened or read: ``str()`` is the line that says why and
    what to do. Nothing was written."""


def run_window(
    root: Path,
    warn: Callable[[str], None],
    checked: Callable[[], bool] | None = None,
) -> int:
    """Open the window on the library at ``root`` and run it until it closes; its exit
    status. What the library's check finds amiss goes to ``warn`` first, before the window.
    ``checked`` is the check of every page begun as the process started (whether it found
    the file sound, or was spared as the file had not changed since one did); without it,
    the check is made here."""
    # No collections until the first frame (the app turns them on again then): starting
    # allocates Textual's objects by the thousand, and every full collection walks them
    # all, for nothing, as they live as long as the app.
    gc.disable()
    made = outermost_missing(root)
    begun = not LibraryPaths(root).database.exists()
    try:
        library = Library(root)
        evidence = library.loss.check()
    except ReaderError as exc:
        if begun:
            take_back_unopened(root, made)  # no room to make it, say: nothing left behind
        raise NotOpened(unopened_line(exc, root)) from exc
    if evidence is not None:
        # Said before the window: a later look would find the evidence gone.
        warn(f"Warning: {evidence}")
    # The check reads every page of a large library (unless the file is as a check found
    # it sound, reader.store.walk); it runs on the other core while the interface is
    # imported (SQLite lets go of the GIL as it reads), and so does what the first view
    # reads (the ids, the counts), after it. Begun as the process started (``checked``), the
    # check ends beside the imports, though they then take longer. The first view's reads
    # stay on one thread: two, and the imports are three for two cores (340 ms to the first
    # frame against 290 at 200,000 papers).
    with ThreadPoolExecutor(max_workers=1) as pool:
        check = None if checked else pool.submit(_readable, library, library.upkeep.check_pages)
        first = pool.submit(_readable, library, lambda: _first_view(library))
        from reader.ui.app import ReaderApp

        if check is not None:
            check.result()
        elif checked is not None and not checked():
            _readable(library, library.upkeep.check_pages)  # says what stopped it
        ids, counts, signals = first.result()
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        # Textual would draw into the file and wait for keys that never come.
        library.close()
        raise NotOpened(NO_TERMINAL)
    app = ReaderApp(library, ids=ids, counts=counts, signals=signals)
    _run(app, warn)
    library.close()
    with contextlib.suppress(KeyboardInterrupt):  # ctrl+c: the next start checks instead
        library.upkeep.window_closed()
    return app.return_code or 0


def _run(app: ReaderApp, warn: Callable[[str], None]) -> None:
    """Run the window on an event loop of its own, whose threads are waited for once the
    window has closed and said so: asyncio's own run waited for them with the terminal
    blank, up to the ten seconds a save waits on another process's lock after a second
    ctrl+q, and nothing said where the note went."""
    warn = _unless_hung_up(warn)
    loop = asyncio.new_event_loop()
    threads = ThreadPoolExecutor(thread_name_prefix="reader")
    loop.set_default_executor(threads)
    if hasattr(signal, "SIGHUP"):
        loop.add_signal_handler(signal.SIGHUP, partial(_hung_up, app))
    loop.add_signal_handler(signal.SIGTERM, app.quitting.terminate)
    # The window's frames reach the terminal from Textual's output thread, which needs the
    # interpreter back after each write the terminal takes (a pty's buffer at a time) and
    # gets it when the window's thread lets go: every 5 ms by default. The first frame
    # (17 KB of 19,630 papers) reached the terminal 11 ms after it was drawn, behind the
    # work queued after it; 2 ms at 0.5 ms. Only while the first frame goes out: kept for
    # half a second, an import begun later in the window was slower (`i` to browsable 3.7 s
    # against 2.9 s, for a cause not found); for 0.15 s, as fast.
    switch = sys.getswitchinterval()
    sys.setswitchinterval(STARTING_SWITCH_SECONDS)
    loop.call_later(STARTING_SECONDS, sys.setswitchinterval, switch)
    try:
        app.run(loop=loop)
        if app.writes.unfinished():
            warn("Storing what the window was still saving (ctrl+c stops waiting)…")
            try:
                app.writes.finish()
            except KeyboardInterrupt:
                # The threads would keep the process waiting as it ends: it ends now. A note
                # not stored is in its draft, written as the window closed.
                doctor = f"{reader_command(app.library.paths.root)} doctor"
                warn("Stopped waiting: changes not yet stored are lost, but the text of a "
                     f"note, which is in its draft (`{doctor}` names it)")
                os._exit(130)
            for line in after_close(*app.notes.after_close(), app.writes.failed_after_close()):
                warn(line)
        threads.shutdown(wait=True)  # an index build stopping at its next safe point
        loop.run_until_complete(_cancel_left())
    finally:
        sys.setswitchinterval(switch)
        loop.run_until_complete(loop.shutdown_asyncgens())
        loop.close()


def _hung_up(app: ReaderApp) -> None:
    """The terminal went away (SIGHUP: its window closed, an SSH connection dropped): what
    the note editors hold is stored here and now, its draft written first, and the process
    ends. Killed by the signal itself, it lost the text typed within the moment an autosave
    waits; closed as q closes it, it could wait for ever on Textual's writes to the
    terminal that is gone (its writer thread dead, its queue full)."""
    app.notes.store_unsaved_now()
    os._exit(128 + signal.SIGHUP)


def _unless_hung_up(warn: Callable[[str], None]) -> Callable[[str], None]:
    """``warn``, saying nothing where the terminal has gone (its window closed): the writes
    it would speak of are still to be stored."""

    def said(line: str) -> None:
        with contextlib.suppress(OSError):
            warn(line)

    return said


async def _cancel_left() -> None:
    """Cancel the tasks the window left (as ``asyncio.run`` does as it ends), once the
    threads they waited for have answered."""
    left = [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
    for task in left:
        task.cancel()
    await asyncio.gather(*left, return_exceptions=True)


def after_close(notes: list[str], notes_failed: int, failed: list[Exception]) -> list[str]:
    """What became of the writes that ended after the window closed: the notes' lines
    (stored, or where their text is; ``notes_failed`` of them failures, among ``failed``),
    then the other changes that could not be stored."""
    others = len(failed) - notes_failed
    if others > 0:
        notes = [*notes, f"Could not store {others} other change{'s' * (others != 1)} of "
                         "the window (marks, papers seen, the view to start on): "
                         f"{describe_write_error(failed[-1])}"]
    return notes or ["Stored."]


def _first_view(
    library: Library,
) -> tuple[list[int], dict[str, int], ViewSignals | None]:
    """The ids and counts the reader's first view shows, and what those papers add up to
    (where the first paper stands among them)."""
    ids = library.all_ids()
    counts = library.queries.triage_counts()
    # Needed only where a paper shown has a rating: the pane says where it stands among
    # them. Not summed over 200,000 papers none of which is rated (30 ms beside the first
    # frame's imports); once one is, the pane reads it when it first shows one.
    signals = (library.conference.library_signals(ids, venues=False)  # the pane names none
               if library.conference.any_rated() else None)
    library.generation()
    return ids, counts, signals


def _readable(library: Library, read: Callable[[], T]) -> T:
    """Read what the reader shows first (``read``), so a damaged database is one clear line
    and not a traceback from inside the app."""
    try:
        return read()
    except ReaderError as exc:
        library.close()
        raise NotOpened(unreadable_line(exc, library.paths.root)) from exc
