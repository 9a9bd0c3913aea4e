"""Writes from worker threads, committed in the order the user made them.

Each write runs in its own thread worker (so a database busy with another process never
freezes the UI), but takes a ticket first and waits for its turn, so an older save of a
note can never land after a newer one.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager


class OrderedWrites:
    """A first-come, first-served turnstile for writer threads."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._issued = 0
        self._serving = 0

    def ticket(self) -> int:
        """Take the next place in line (call on the UI thread, in the user's order)."""
        with self._cond:
            ticket = self._issued
            self._issued += 1
            return ticket

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
                self._cond.notify_all()

    @property
    def pending(self) -> int:
        """Writes issued and not yet done."""
        with self._cond:
            return self._issued - self._serving
