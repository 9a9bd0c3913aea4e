"""A library directory's connections: one SQLite connection per long-lived thread,
connections lent to worker threads one block at a time, and the search index opened on
first use."""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from reader.library.changes import Change
from reader.locations import LibraryPaths
from reader.store.base import read_only_reason
from reader.store.database import Store

if TYPE_CHECKING:
    from reader.library.indexing import Indexing
    from reader.library.loss import LossEvidence
    from reader.search.index import SearchIndex


Progress = Callable[[int, int], None]


class LibraryBase:
    """A library directory's connections, the search index, and what follows a write: the
    base :class:`reader.library.core.Library` stands on, and that each of its parts reaches
    through the library it belongs to."""

    if TYPE_CHECKING:
        # Set by reader/library/core.py: a write catches the index up through it.
        indexing: Indexing

    def __init__(self, root: Path, read_only: str | None = None) -> None:
        """Open the library in ``root`` (made when new); read-only when ``read_only``
        says why, or when it cannot be written to (:func:`read_only_reason`)."""
        self.paths = LibraryPaths(root).ensure()
        #: Why the library can only be read, or None.
        self.read_only = read_only or read_only_reason(self.paths.database)
        self._local = threading.local()
        self._stores: list[Store] = []
        self._stores_lock = threading.Lock()
        # Connections a worker thread holds right now: close() leaves each to be closed as
        # it comes back, since closing a connection under a thread using it can crash.
        self._lent: set[Store] = set()
        # Connections for short-lived worker threads, lent one thread at a time.
        self._pool: queue.LifoQueue[Store] = queue.LifoQueue()
        # The generations this library's own writes reached (see written_here).
        self._written: set[int] = set()
        #: Evidence of lost writes found as the library opened (see LossCheck.check).
        self.loss_evidence: LossEvidence | None = None
        self._written_lock = threading.Lock()
        #: The upgrade of the library's schema its opening made, if it made one (a newer
        #: reader's first run on it): the front ends say so, and where the copy of it is.
        self.upgrade = self.store.upgrade  # opened (and migrated) now: errors surface at start

    @cached_property
    def index(self) -> SearchIndex:
        """The search index, opened on first use: Whoosh is a large import, and the reader
        shows the library before it needs to search it."""
        from reader.search.index import SearchIndex

        return SearchIndex(self.paths.index)

    def wrote(self, change: Change) -> Change:
        """What follows a write, decided here and not by its caller (each part hands its
        writes' changes here): the window's own generations are noted, and the index
        follows as :meth:`Indexing.follow` decides."""
        if change.generation is not None:
            with self._written_lock:
                self._written.add(change.generation)
        self.indexing.follow(change)
        return change

    @property
    def index_owed(self) -> bool:
        """Whether a write found the index busy (another thread or process writing it) and
        left it behind the database, for the next sync to catch up."""
        return self.indexing.owed

    def written_here(self, since: int, until: int) -> bool:
        """Whether every change of generation after ``since`` up to ``until`` was written
        through this library (this window), none by another process."""
        with self._written_lock:
            if until - since > len(self._written):
                return False
            return all(g in self._written for g in range(since + 1, until + 1))

    def _open_store(self) -> Store:
        store = Store(self.paths.database, self.read_only)
        with self._stores_lock:
            self._stores.append(store)
        return store

    @property
    def store(self) -> Store:
        """The calling thread's own connection (for long-lived threads: the UI, the CLI)."""
        store: Store | None = getattr(self._local, "store", None)
        if store is None:
            store = self._local.store = self._open_store()
        return store

    @contextmanager
    def session(self) -> Iterator[Store]:
        """Borrow a connection for the length of a block (for worker threads)."""
        try:
            store = self._pool.get_nowait()
        except queue.Empty:
            store = self._open_store()
        with self._stores_lock:
            self._lent.add(store)
        try:
            yield store
        finally:
            with self._stores_lock:
                self._lent.discard(store)
                if store in self._stores:
                    self._pool.put(store)
                else:  # the library was closed meanwhile
                    store.close()

    def close(self) -> None:
        """Close every connection and the index (indexing first the stars it was to take
        at the next search). A connection lent to a worker thread is closed when the
        thread gives it back: a window that closed may leave a write's thread finishing,
        and SQLite must not be closed under it."""
        self.indexing.settle()
        if "index" in self.__dict__:
            self.index.close()
        with self._stores_lock:
            for store in self._stores:
                if store not in self._lent:
                    store.close()
            self._stores.clear()
        self._local = threading.local()
        self._pool = queue.LifoQueue()
