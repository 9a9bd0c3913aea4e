"""The search index as a window knows it: ready, or being built and how far; and the work
that keeps it in step with the database: built at start, caught up after writes made
elsewhere, mended when a search finds it damaged.

:class:`IndexStatus` owns that state and runs that work in thread workers, which report by
messages posted to the app (``IndexStatus.Building``, ``Progress``, ``Built``, …, each an
``IndexStatus.Report``); the app hands them to its follower
(reader/ui/features/following.py): the status line says how far the index is, and the
view's query runs again as more of the library becomes searchable.
"""

from __future__ import annotations

import gc
import threading

from textual.app import App
from textual.message import Message

from reader.library import IndexStopped, Library
from reader.models import IndexState

#: How often a window looks again at an index another process is building.
INDEX_RETRY_SECONDS = 2.0


class IndexStatus:
    """The index of one window's library: its state, and the workers that keep it."""

    class Report(Message):
        """What the index's work says as it goes (each kind below); the app routes them."""

    class Building(Report):
        """The index is missing: it is being built from scratch."""

    class Mending(Report):
        """A search found the index damaged: it is being rebuilt."""

    class Progress(Report):
        """A build or catch-up under way has indexed ``done`` of ``total`` papers."""

        def __init__(self, done: int, total: int) -> None:
            super().__init__()
            self.done = done
            self.total = total

    class Grew(Report):
        """A build under way in another process made more papers searchable."""

    class Built(Report):
        """The index holds every paper: built, mended, or caught up with an import."""

    class Synced(Report):
        """A catch-up indexed ``indexed`` papers; ``reported`` whether it said how far it
        was as it went."""

        def __init__(self, indexed: int, reported: bool) -> None:
            super().__init__()
            self.indexed = indexed
            self.reported = reported

    def __init__(self, app: App[None], library: Library) -> None:
        self._app = app
        self._library = library
        #: Whether the index holds the library, and how far a build under way is (see the
        #: properties): written here alone, as its work reports.
        self._ready = False
        self._building: tuple[int, int] | None = None
        #: How many papers the build under way had made searchable at the last look.
        self._published = 0
        #: Whether a look at an index being built elsewhere is due (see sync).
        self._sync_due = False
        #: Set once the window quits (see stop).
        self._stopping = False
        #: Set once the index has been looked at, just after the first frame, and whether
        #: it then held the whole library (see whole_at_start).
        self._looked = threading.Event()
        self._whole_when_looked = False

    @property
    def ready(self) -> bool:
        """Whether the index holds the library: a search runs over all of it."""
        return self._ready

    @property
    def building(self) -> tuple[int, int] | None:
        """(indexed, total) while it is being built (from scratch, or after an import)."""
        return self._building

    def whole_at_start(self, wait: float) -> bool:
        """Whether the index held the whole library when it was looked at, just after the
        first frame (a stale one once caught up), waiting up to ``wait`` seconds for that
        look (from a worker thread): a search asked before it (the query the last run
        left) runs over the index then, where "still indexing" would be untrue."""
        self._looked.wait(wait)
        return self._whole_when_looked

    def stop(self) -> None:
        """The window quits: a build under way stops at its next safe point, and none
        starts."""
        self._stopping = True

    def _stopped(self) -> bool:
        return self._stopping

    def _report(self, done: int, total: int) -> None:
        """A build's progress, from its worker thread."""
        self._app.post_message(self.Progress(done, total))

    def bring_up_to_date(self) -> None:
        """Build a missing index, or catch up a stale one (in the calling worker thread),
        then say it is built."""
        state = IndexState.MISSING
        try:
            state = self._library.index_state()
            self._whole_when_looked = state is IndexState.OK
        finally:
            if state is not IndexState.STALE:
                self._looked.set()  # a search waiting on the look waits no longer
        if state is IndexState.MISSING:
            self._app.post_message(self.Building())
            try:
                self._library.rebuild_index(self._report, self._stopped)
            except IndexStopped:
                return  # quitting: the next start builds it
        elif state is IndexState.STALE:
            # An index left behind: a build cut short when a reader quit (or was killed)
            # while indexing, or writes made while none ran. What it lacks is indexed now,
            # before the look is over: a few changes take a moment, which the query the
            # last run left waits for (bounded) rather than flash "still indexing".
            try:
                self._library.sync_index(self._report, stopped=self._stopped)
                self._whole_when_looked = self._library.index_state() is IndexState.OK
            finally:
                self._looked.set()
        self._app.post_message(self.Built())

    def progressed(self, done: int, total: int) -> bool:
        """Note a build's progress (on the app's thread); whether a build under way has
        published more papers since the last look (a search shown over part of the index
        then runs again)."""
        self._building = (done, total)
        if self._stopping:
            return False
        building = self._library.indexing.index_partial()
        return self.published(building[0] if building else 0)

    def published(self, count: int) -> bool:
        """Note that a build (here or in another process) has published ``count`` papers;
        whether that is more than at the last look."""
        if count == self._published:
            return False
        self._published = count
        return bool(count)

    def built(self) -> None:
        """The index holds every paper (on the app's thread)."""
        self._ready = True
        self.caught_up()
        # The open index is long-lived: out of the collector's reach (see reader.ui.collector).
        gc.freeze()

    def caught_up(self) -> None:
        """A build or a catch-up that reported its progress is over."""
        self._building = None
        self._published = 0

    def synced(self, reported: bool) -> bool:
        """A catch-up is over (``reported``: it said how far it was as it went); whether the
        index holds every paper, so that what it indexed can be searched."""
        if reported:
            self.caught_up()
        return self._ready

    def mend(self) -> None:
        """Rebuild an index a search found damaged (once, however many searches met it)."""
        if not self._ready:
            return  # being built already
        self._ready = False
        self._whole_when_looked = False
        self._app.post_message(self.Mending())
        self._app.run_worker(self._rebuild, thread=True, group="prepare", exit_on_error=False)

    def _rebuild(self) -> None:
        try:
            self._library.indexing.mend_index(self._report, self._stopped)
        except IndexStopped:
            return  # quitting: the next start builds it
        self._app.post_message(self.Built())

    def sync(self) -> None:
        """Re-index what changed in a worker (the papers another process imported, or
        what a write of this window left to it while the index was busy).

        While another build is under way (another process's import, another window) the
        window does not wait on it: it looks again a little later, and finishes the work
        itself if that build was cut short (its process quit or was killed). Once the
        window quits, a sync under way stops at its next safe point and none starts."""
        self._app.run_worker(self._sync, thread=True, group="index", exit_on_error=False)

    def _sync(self) -> None:
        if self._stopping:
            return
        library = self._library
        building = library.indexing.index_partial()
        if building is not None:
            # Another process builds: a search shown follows what it publishes.
            self._app.call_from_thread(self._published_elsewhere, building[0])
            self._app.call_from_thread(self._later)
            return
        reported = False

        def progress(done: int, total: int) -> None:
            nonlocal reported
            reported = True
            self._report(done, total)

        indexed = library.sync_index(progress, stopped=self._stopped)
        if self._stopping:
            return
        self._app.post_message(self.Synced(indexed, reported))
        if library.index_state() is not IndexState.OK:
            self._app.call_from_thread(self._later)  # another process held the index

    def _published_elsewhere(self, count: int) -> None:
        if self.published(count):
            self._app.post_message(self.Grew())

    def _later(self) -> None:
        if not self._sync_due and not self._stopping:
            self._sync_due = True
            self._app.set_timer(INDEX_RETRY_SECONDS, self._again)

    def _again(self) -> None:
        self._sync_due = False
        self.sync()
