"""A live library: an open window follows writes made elsewhere (another reader, the CLI,
an import running in this window) within a second.

A timer asks a :class:`~reader.store.watch.ChangeWatch` whether anything was committed (a few
microseconds); only then a worker reads the library's state (counts, generation, last id)
in one transaction, and posts it to the app as a :class:`LiveLibrary.Changed` message; the
app redraws what depends on what moved.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from textual.app import App
from textual.message import Message

from reader.errors import ReaderError
from reader.library import ChangeWatch, Library, LibraryState

#: How often the window looks for writes made elsewhere (they show within twice this).
POLL_SECONDS = 0.3
#: While this window's own import runs, how often at most it redraws for its batches:
#: drawing the list takes CPU from the import beside it on a small machine, and the
#: import's end is drawn at once when the import says it is done.
IMPORTING_SECONDS = 0.6


class LiveLibrary:
    """Polls the library for commits and posts each new state to the app."""

    class Changed(Message):
        """The library's state moved (here or elsewhere): ``state``, read when the
        window's seen log was ``logged`` papers long."""

        def __init__(self, state: LibraryState, logged: int) -> None:
            super().__init__()
            self.state = state
            self.logged = logged

    def __init__(
        self, app: App[None], library: Library, seen_log: list[int],
        importing: Callable[[], bool],
    ) -> None:
        """Watch ``library`` for ``app``; ``seen_log`` is the window's log of papers shown
        (it only grows), and ``importing`` says whether an import of this window runs."""
        self._app = app
        self._library = library
        self._seen_log = seen_log
        self._importing = importing
        self._watch: ChangeWatch | None = None
        self._reading = False
        self._again = False
        self._read_at = 0.0

    def start(self) -> None:
        """Read the state once, then look for commits every ``POLL_SECONDS``."""
        self._watch = ChangeWatch(self._library.paths.database)
        self._read()
        self._app.set_interval(POLL_SECONDS, self.poll)

    def poll(self) -> None:
        """Read the state again when something was committed since the last look."""
        if self._importing() and time.monotonic() - self._read_at < IMPORTING_SECONDS:
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
        # The seen log only grows; what it holds beyond this length is counted by the app.
        logged = len(self._seen_log)
        state: LibraryState | None
        try:
            state = self._library.queries.state(self._seen_log[:logged])
        except ReaderError:
            state = None  # a damaged or vanished library is reported where it is read
        self._app.call_from_thread(self._apply, state, logged)

    def _apply(self, state: LibraryState | None, logged: int) -> None:
        self._reading = False
        if state is not None:
            self._app.post_message(self.Changed(state, logged))
        if self._again:
            self._again = False
            self._read()

    def close(self) -> None:
        """Stop watching."""
        if self._watch is not None:
            self._watch.close()
            self._watch = None
