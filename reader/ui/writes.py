"""Writes from worker threads, committed in the order the user made them.

Each write runs in its own thread worker (so a database busy with another process never
freezes the UI), but takes a ticket first and waits for its turn, so an older save of a
note can never land after a newer one. :class:`WindowWrites` runs a window's writes so;
:class:`OrderedWrites` is the turnstile.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial

from textual.app import App

from reader.errors import Busy
from reader.library import Library
from reader.ui.index_status import IndexStatus


class OrderedWrites:
    """A first-come, first-served turnstile for writer threads."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._issued = 0
        self._serving = 0
        #: The tickets not yet served whose write some thread has taken to run (see claim).
        self._claimed: set[int] = set()

    def ticket(self) -> int:
        """Take the next place in line (call on the UI thread, in the user's order)."""
        with self._cond:
            ticket = self._issued
            self._issued += 1
            return ticket

    def claim(self, ticket: int) -> bool:
        """Take ``ticket``'s write to run here; False when another thread took it."""
        with self._cond:
            if ticket in self._claimed:
                return False
            self._claimed.add(ticket)
            return True

    def unclaimed(self) -> list[int]:
        """Claim, in order, every ticket whose write no thread has taken: once the window
        has closed, Textual has cancelled their workers before they began."""
        with self._cond:
            left = [t for t in range(self._serving, self._issued) if t not in self._claimed]
            self._claimed.update(left)
            return left

    @contextmanager
    def turn(self, ticket: int) -> Iterator[None]:
        """Wait until every earlier ticket is done, then hold the turn for a block."""
        with self._cond:
            self._cond.wait_for(lambda: self._serving == ticket)
        try:
            yield
        finally:
            with self._cond:
                self._serving += 1
                self._claimed.discard(ticket)  # only the tickets not yet served matter
                self._cond.notify_all()

    @property
    def pending(self) -> int:
        """Writes issued and not yet done."""
        with self._cond:
            return self._issued - self._serving

    def wait_done(self) -> None:
        """Wait until every write issued is done."""
        with self._cond:
            self._cond.wait_for(lambda: self._serving == self._issued)


class WindowWrites:
    """The writes of one window: each in a thread worker, in the order asked for, and how
    many are under way."""

    def __init__(self, app: App[None], library: Library, index: IndexStatus) -> None:
        self._app = app
        self._library = library
        self._index = index
        self._order = OrderedWrites()
        #: Writes asked for whose outcome the window has not yet drawn (see under_way).
        self._under_way = 0
        #: Why each write that failed after the window closed failed (see failed_after_close).
        self._failed_after_close: list[Exception] = []
        #: The writes asked for whose thread has not taken them yet, by ticket.
        self._jobs: dict[int, Callable[[], object]] = {}

    @property
    def under_way(self) -> int:
        """Writes asked for whose outcome the window has not yet drawn."""
        return self._under_way

    def unfinished(self) -> int:
        """Writes asked for and not yet done, drawn or not (once the window has closed)."""
        return self._order.pending

    def failed_after_close(self) -> list[Exception]:
        """Why each write that ended after the window closed failed: no handler of the
        window said it."""
        return list(self._failed_after_close)

    def finish(self) -> None:
        """Store the writes still under way as the window closed (a second ctrl+q does not
        wait for them; the process does): those whose worker Textual cancelled before it
        began are run here, in their turn (they were lost, and every write behind them
        waited for them for ever)."""
        for ticket in self._order.unclaimed():
            job = self._jobs.pop(ticket)
            with self._order.turn(ticket):
                try:
                    job()
                except Exception as exc:  # noqa: BLE001 - said once the window has closed
                    self._failed_after_close.append(exc)
        self._order.wait_done()

    def run(
        self,
        job: Callable[[], object],
        on_done: Callable[[], None],
        on_error: Callable[[Exception], None],
        *,
        retry_busy: Callable[[], bool] = lambda: True,
    ) -> None:
        """Run a database write in a worker, in the order the user asked for it (the
        library decides what it costs the index); then ``on_done``, or ``on_error`` with
        what went wrong, on the app's thread. A write that another process's lock outlasts
        is tried again, for as long as ``retry_busy()`` says (a star given up after ten
        seconds was lost, and the later writes stored); a note's save, while the window is
        open, says so and keeps a draft instead (see Notes)."""
        ticket = self._order.ticket()
        job = partial(_until_stored, job, retry_busy, self._say_waiting)
        self._jobs[ticket] = job
        self._under_way += 1

        def finish(then: Callable[..., None], *args: object) -> None:
            self._under_way -= 1
            then(*args)
            if self._library.index_owed:
                self._index.sync()  # the index was busy as the write was stored

        def run() -> None:
            if not self._order.claim(ticket):
                return  # run by finish, the window closed
            self._jobs.pop(ticket, None)
            with self._order.turn(ticket):
                try:
                    job()
                except Exception as exc:  # noqa: BLE001 - reported to the user, never lost
                    if not self._app.is_running:
                        self._failed_after_close.append(exc)
                        return
                    self._app.call_from_thread(finish, on_error, exc)
                    return
            if not self._app.is_running:
                return  # nothing left to draw it on
            self._app.call_from_thread(finish, on_done)

        self._app.run_worker(run, thread=True, group="writes", exit_on_error=False)

    def _say_waiting(self) -> None:
        """Say (from a write's thread) that another process's lock holds a change up: the
        star shown was stored nowhere yet, and nothing said so."""
        if self._app.is_running:
            self._app.call_from_thread(
                self._app.notify, "Another process is writing to the library: your change "
                "waits, and is stored once the library is free.", title="Waiting",
                timeout=8)


def _until_stored(
    job: Callable[[], object], retry: Callable[[], bool], waiting: Callable[[], None]
) -> object:
    """Run ``job`` until no other process's lock outlasts it, while ``retry()`` is true;
    ``waiting()`` once it first does."""
    told = False
    while True:
        try:
            return job()
        except Busy:
            if not retry():
                raise
            if not told:
                told = True
                waiting()
            time.sleep(_BUSY_PAUSE)


#: How long a write the library was busy for waits before it is tried again (seconds).
_BUSY_PAUSE = 0.2
