"""A live library: an open window follows writes made elsewhere (another reader, the CLI,
an import running in this window) within a second.

A timer asks a :class:`~reader.store.watch.ChangeWatch` whether anything was committed (a few
microseconds); only then a worker reads the library's state (counts, generation, last id)
in one transaction, and the app redraws what depends on what moved.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from reader.errors import ReaderError
from reader.library import ChangeWatch, LibraryState

if TYPE_CHECKING:
    from reader.ui.features.base import AppBase

#: How often the window looks for writes made elsewhere (they show within twice this).
POLL_SECONDS = 0.3
#: While this window's own import runs, how often at most it redraws for its batches:
#: drawing the list takes CPU from the import beside it on a small machine, and the
#: import's end is drawn at once when the import says it is done.
IMPORTING_SECONDS = 0.6


class LiveLibrary:
    """Polls the library for commits and hands the app each new state."""

    def __init__(self, app: AppBase) -> None:
        self._app = app
        self._watch: ChangeWatch | None = None
        self._reading = False
        self._again = False
        self._read_at = 0.0

    def start(self) -> None:
        """Read the state once, then look for commits every ``POLL_SECONDS``."""
        self._watch = ChangeWatch(self._app.library.paths.database)
        self._read()
        self._app.set_interval(POLL_SECONDS, self.poll)

    def poll(self) -> None:
        """Read the state again when something was committed since the last look."""
        if self._app.importing and time.monotonic() - self._read_at < IMPORTING_SECONDS:
            return
        if self._watch is None or not self._watch.changed():
            return
        if self._reading:
            self._again = True  # read once more when the read under way is in
            return
        self._read()

    def _read(self) -> None:
        self._reading = True
        self._read_at = time.monotonic()
        self._app.run_worker(self._observe, thread=True, group="live", exit_on_error=False)

    def _observe(self) -> None:
        app = self._app
        # The seen log only grows; what it holds beyond this length is counted by the app.
        logged = len(app.seen_log)
        state: LibraryState | None
        try:
            state = app.library.state(app.seen_log[:logged])
        except ReaderError:
            state = None  # a damaged or vanished library is reported where it is read
        app.call_from_thread(self._apply, state, logged)

    def _apply(self, state: LibraryState | None, logged: int) -> None:
        self._reading = False
        if state is not None:
            self._app.library_changed(state, logged)
        if self._again:
            self._again = False
            self._read()

    def close(self) -> None:
        """Stop watching."""
        if self._watch is not None:
            self._watch.close()
            self._watch = None
