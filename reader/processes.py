"""Processes that end with the one that started them.

An import starts processes of its own: one reading the file ahead (forked), the index
build's workers, and, from a reader window, the import process itself. A child that goes on
after its parent died holds the database and its log open, and may sit blocked forever on a
pipe nobody reads; so each child, at its start, asks to end with its parent
(:func:`end_with_parent`): on Linux the kernel sends it SIGTERM the moment its parent dies
(``PR_SET_PDEATHSIG``), and everywhere a thread looks a few times a second whether its
parent is still the one it started under. An importing process itself turns TERM and HUP
(a kill, a terminal closing) into what Ctrl-C does (:func:`stop_on_termination`): the
transaction under way is rolled back, what was committed stays, its children are stopped,
and the index is finished by the next run.

Only the standard library is used: the index workers import this as they start.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["end_with_parent", "stop_main_thread", "stop_on_termination"]

#: prctl's option asking for a signal when the parent dies (linux/prctl.h).
_PR_SET_PDEATHSIG = 1
#: Seconds between two looks at whether the parent is still there.
WATCH_SECONDS = 0.25


def process_alive(pid: int) -> bool:
    """Whether a process of this id runs (on this machine, where the library is); one that
    cannot be asked (another user's) is counted as running."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # PermissionError among them
        return True
    return True


def end_with_parent(parent: int | None = None) -> None:
    """Make this process (a child, just started) end when its parent does.

    ``parent`` is the pid of the process that started it, when known: a parent that died
    before this call (the kernel's request is only heard from here on) is seen at once.
    TERM is put back to its default (a forked child inherits its parent's handlers), so the
    kernel's signal ends the process without running anything of its own.
    """
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _ask_the_kernel()
    now = os.getppid()
    if parent is not None and now != parent:
        os._exit(1)  # orphaned already: nothing of the work is wanted
    threading.Thread(target=_watch, args=(now,), name="end-with-parent", daemon=True).start()


def _ask_the_kernel() -> bool:
    """Linux: ask for SIGTERM when the parent dies; whether that was granted."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


def _watch(parent: int) -> None:
    """Exit once the parent is no longer ``parent`` (it died: the child was handed to
    another). Where the kernel signals the death, this is only the second line."""
    while os.getppid() == parent:
        time.sleep(WATCH_SECONDS)
    os._exit(1)


@contextmanager
def stop_on_termination() -> Iterator[None]:
    """While inside, in the main thread of an importing process: TERM and HUP stop it as
    Ctrl-C does (KeyboardInterrupt), so that it rolls back what is under way, stops its
    children and closes the library, instead of dying with them left behind. The handlers
    before are put back on leaving; from another thread, nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    numbers = [getattr(signal, n) for n in ("SIGTERM", "SIGHUP") if hasattr(signal, n)]
    before = {number: signal.getsignal(number) for number in numbers}
    for number in numbers:
        signal.signal(number, _interrupt)
    try:
        yield
    finally:
        for number, handler in before.items():
            signal.signal(number, handler)


#: The signals that stopped the main thread inside stop_on_termination, last last.
_stopped_by: list[int] = []


def _interrupt(signum: int, frame: object) -> None:
    """Stop the main thread as Ctrl-C does, noting which signal did."""
    _stopped_by.append(signum)
    raise KeyboardInterrupt


def stopping_signal() -> int:
    """The signal that stopped the main thread: TERM or HUP (see stop_on_termination), or
    SIGINT when neither did (Ctrl-C)."""
    return _stopped_by[-1] if _stopped_by else int(signal.SIGINT)


def stop_main_thread() -> None:
    """From another thread: stop the main thread as TERM does (see stop_on_termination).
    Sent to that thread itself, so that a system call it is blocked in is interrupted."""
    if hasattr(signal, "pthread_kill"):
        signal.pthread_kill(threading.main_thread().ident or 0, signal.SIGTERM)
    else:
        import _thread

        _thread.interrupt_main()
