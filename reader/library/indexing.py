"""The search index kept in step with the database: built from scratch (in worker
processes for a large library), caught up on what changed, mended when damaged."""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from reader.errors import IndexBusy, IndexStopped
from reader.library.door import translating
from reader.models import IndexState, Paper
from reader.store.database import read_papers

if TYPE_CHECKING:
    from reader.library.changes import Change
    from reader.library.core import Library
    from reader.search.index_writing import PaperSource

from reader.library.base import Progress

#: Processes that build the search index of a large library (one segment each).
INDEX_PROCS = max(1, min(4, os.cpu_count() or 1))


#: Below this many papers the index is built in one process.
PARALLEL_MIN = 2_000

#: Seconds between two looks at an index another process is building from scratch.
_BUSY_PAUSE = 0.2


@translating
class Indexing:
    """The search index kept in step with the database (``library.indexing``): it owns the
    lock that lets one thread at a time write the index."""

    def __init__(self, library: Library) -> None:
        """A part of ``library``, reached through its connections and its other parts."""
        self._library = library
        # One thread at a time writes the index (another process is kept out by its lock).
        self._sync_lock = threading.Lock()
        # A write found the index busy and left it behind, for the next sync.
        self._owed = False
        # A write of flags alone (a star) waits for the next search to be indexed.
        self._due = False

    @property
    def owed(self) -> bool:
        """Whether a write found the index busy (another thread or process writing it) and
        left it behind the database, for the next sync to catch up."""
        return self._owed

    def follow(self, change: Change) -> None:
        """Have the index follow a write just stored: it re-reads the papers when it holds
        what changed, at once unless another writer holds it (it then catches up with its
        next sync). A write of flags a search filters on and nothing else it holds (a
        star) is indexed before the next search instead (:meth:`before_search`), so it
        costs no index write; marks it does not hold cost it nothing."""
        if not change.indexed:
            return
        if change.flags_only:
            self._due = True
        elif not self._index_now():
            self._owed = True

    def before_search(self) -> None:
        """Index the flags written since the last search (see :meth:`follow`), waiting for
        no one, when the index lacks nothing else: a search then filters on them as
        stored. Behind on other writes too (papers another process is importing), the
        search answers over what the index holds, and says so; the index's next sync
        takes the flags with the rest."""
        if not self._due:
            return
        with self._library.session() as store:
            current = store.generation()
        if self._library.written_here(self._library.index.generation, current) and (
            not self._index_now()
        ):
            self._owed = True

    def settle(self) -> None:
        """Index what writes left to the next search, as the library closes (the next
        sync, here or in another process, catches up whatever it cannot)."""
        if self._due and self._library.read_only is None:
            # Closing never fails for it: the index is derived, and behind is a state it
            # knows (its generation says so).
            with contextlib.suppress(Exception):
                self._index_now()

    def index_partial(self) -> tuple[int, int] | None:
        """(indexed, total) while an index build is under way, here or in another process,
        without opening the index just to ask; None when no build runs."""
        if "index" not in self._library.__dict__:
            return None
        return self._library.index.partial()

    def index_state(self) -> IndexState:
        """Whether the index is up to date, behind the database, missing (absent or
        unreadable) or being built from scratch by another process."""
        if self._library.index.generation < 0 and self._library.index.partial() is not None:
            return IndexState.BUILDING
        if not self._library.index.usable():
            return IndexState.MISSING
        with self._library.session() as store:
            current = store.generation()
        if self._library.index.generation > current:
            # Built from another copy of the database (one restored or copied in by hand):
            # catching up cannot remove what it holds beyond this one.
            return IndexState.MISSING
        if self._library.index.generation < current:
            return IndexState.STALE
        return IndexState.OK

    def rebuild_index(
        self, progress: Progress | None = None, stopped: Callable[[], bool] | None = None
    ) -> int:
        """Index every paper from scratch (IndexStopped once ``stopped()`` is true)."""
        self._library.store.refuse_writes()
        with self._sync_lock, self._library.session() as store:
            total = store.count()
            generation = store.generation()
            # Large libraries are indexed on every core; below that, starting the
            # processes would cost more than it saves.
            procs = INDEX_PROCS if total >= PARALLEL_MIN else 1
            parts = [
                partial(read_papers, self._library.paths.database, first, last)
                for first, last in store.id_ranges(procs)
            ] if procs > 1 else []
            return self._library.index.rebuild(
                store.iter_papers(),
                generation,
                (lambda n: progress(n, total)) if progress else None,
                parts=parts,
                total=total,
                stopped=stopped,
            )

    def sync_index(
        self,
        progress: Progress | None = None,
        *,
        waiting: Callable[[], object] | None = None,
        stopped: Callable[[], bool] | None = None,
    ) -> int:
        """Bring the index up to the database: re-index just the papers changed since
        (on every core when there are many, as after importing a large list).

        Another process writing the index (a reader window catching up on the same papers)
        makes a plain sync give up after a while and leave the rest to that process. With
        ``waiting``, called whenever the index is found busy, the sync waits for it instead
        and catches up on whatever is left once it lets go: the index ends complete and
        current even if that process quits or dies mid-build.

        Once ``stopped()`` is true (the process is quitting) the sync ends at its next safe
        point: what it indexed so far is kept, the index stays behind the database (stale),
        and the next sync, in this process or another, indexes the rest.

        A read-only library's index is searched as it is: nothing is written to it."""
        if self._library.read_only is not None:
            return 0
        count = 0
        while True:
            if waiting is not None and self._library.index.partial() is not None:
                # Another live process is building: it holds the lock until it is done.
                waiting()
                time.sleep(_BUSY_PAUSE)
                continue
            count += self._sync_once(progress, stopped)
            if stopped is not None and stopped():
                return count
            if waiting is None or self.index_state() is IndexState.OK:
                return count
            waiting()
            time.sleep(_BUSY_PAUSE)  # another process holds the index: look again soon

    def _index_now(self) -> bool:
        """Catch the index up on a write just made, waiting for no one: when another
        thread or process is writing the index, it is left behind the database (its
        generation says so) for the next sync. Returns whether it was caught up."""
        return self._sync_once(None, None, wait=False) >= 0 and self.index_state() is IndexState.OK

    def _sync_once(
        self, progress: Progress | None, stopped: Callable[[], bool] | None, *,
        wait: bool = True,
    ) -> int:
        """Papers indexed (-1 when ``wait`` is off and another thread holds the index)."""
        if self._library.index.partial() is not None or self._library.index.written_elsewhere():
            # Another process is building or catching up the index, and will bring it up
            # to date; a search meanwhile runs over what it has published.
            return 0
        state = self.index_state()
        if state is IndexState.MISSING:
            try:
                return self.rebuild_index(progress, stopped)
            except (IndexBusy, IndexStopped):
                return 0  # another process took the index in the meantime, or we quit
        if state is IndexState.BUILDING:
            return 0  # another process is building it, and will bring it up to date
        if not self._sync_lock.acquire(blocking=wait):
            return -1
        try:
            indexed = self._catch_up(progress, stopped)
        finally:
            self._sync_lock.release()
        if indexed is not None:
            return indexed
        # The index could not take the changes: a damaged file. It is derived, so it is
        # rebuilt from the database (outside the lock, which the rebuild takes itself).
        return self.mend_index(progress, stopped)

    def _catch_up(
        self, progress: Progress | None, stopped: Callable[[], bool] | None
    ) -> int | None:
        """Index what changed since the index's generation (under the sync lock); None
        when the index could not take it (damaged)."""
        with self._library.session() as store:
            # Whatever a write left behind is caught up now (or the index is rebuilt).
            self._owed = self._due = False
            if store.generation() <= self._library.index.generation:
                return 0
            total = 0
            many = store.count_changed(self._library.index.generation) >= PARALLEL_MIN

            def changes(since: int) -> tuple[list[Paper], list[int], int]:
                nonlocal total
                papers, deleted, generation = store.changes_since(since)
                total = len(papers)
                return papers, deleted, generation

            def plan(since: int) -> tuple[list[int], list[int], list[PaperSource], int]:
                nonlocal total
                changed, deleted, generation = store.changed_ids(since)
                total = len(changed)
                return changed, deleted, self._parts(changed, since, generation), generation

            report = (lambda n: progress(n, total)) if progress else None
            try:
                if many:
                    return self._library.index.catch_up_in_parts(plan, report, stopped)
                return self._library.index.catch_up(changes, report, stopped)
            except IndexStopped:
                return 0  # what was published is kept; the next sync does the rest
            except IndexBusy:
                # The write itself is stored; the index stays behind (its generation says
                # so) and the next sync, here or in the other process, catches it up.
                return 0
            except Exception:  # noqa: BLE001 - a segment that cannot be read or updated
                return None

    def _parts(self, ids: list[int], since: int, until: int) -> list[PaperSource]:
        """Sources of the papers changed after ``since`` (up to ``until``) among ``ids``,
        in one id range per indexing process, of about equal counts."""
        procs = max(1, min(INDEX_PROCS, len(ids)))
        bounds = [ids[len(ids) * k // procs] for k in range(procs)]
        ends = [b - 1 for b in bounds[1:]] + [2**63 - 1]
        return [
            partial(read_papers, self._library.paths.database, first, last, since, until)
            for first, last in zip(bounds, ends, strict=True)
        ]

    def mend_index(
        self, progress: Progress | None = None, stopped: Callable[[], bool] | None = None
    ) -> int:
        """Rebuild an index found damaged, letting go of its broken readers first."""
        self._library.index.forget()
        return self.rebuild_index(progress, stopped)
