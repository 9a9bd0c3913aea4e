"""Noticing writes to a library made elsewhere: another reader, the CLI, a worker thread.

SQLite keeps a per-connection counter, ``PRAGMA data_version``, that moves whenever any
*other* connection commits to the database. Reading it touches no page of the database (a
few microseconds), so a reader can ask several times a second, even at 200,000 papers, and
only do real work (counting, re-reading rows) when something was committed.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path

from msgspec import Struct

from reader.store.base import connect
from reader.store.database import Store


class LibraryState(Struct, frozen=True):
    """What a view of the library depends on, read in one transaction.

    ``generation`` moves with every change the index sees (stars, notes, tags, details,
    imports, deletions); ``papers`` and ``last_id`` move when papers are added or removed;
    ``counts`` are the status line's figures as stored (seen and read marks move no
    generation, so they are compared here).
    """

    generation: int
    papers: int
    last_id: int
    counts: dict[str, int]
    #: How many of the papers asked about were not marked seen in the database.
    unstored: int = 0
    #: The newest version of a reply stored: moves when replies are written or edited (an
    #: import's second reading, which moves no generation).
    replies: int = 0

    def replies_changed(self, other: LibraryState) -> bool:
        """Replies were written or edited between the two states."""
        return self.replies != other.replies

    def papers_changed(self, other: LibraryState) -> bool:
        """Papers were added or removed between the two states."""
        return (self.papers, self.last_id) != (other.papers, other.last_id)


def library_state(store: Store, shown: Sequence[int] = ()) -> LibraryState:
    """The library's state as one read transaction sees it, and how many of the papers
    ``shown`` as seen are not yet stored as seen (a window writes them in batches)."""
    conn = store.conn
    conn.execute("BEGIN")
    try:
        generation = store.generation()
        last_id = conn.execute("SELECT coalesce(max(id), 0) FROM papers").fetchone()[0]
        counts = store.marks.triage_counts()
        unstored = store.marks.count_unseen(shown)
        replies = conn.execute("SELECT coalesce(max(id), 0) FROM reply_versions").fetchone()[0]
    finally:
        conn.execute("COMMIT")
    return LibraryState(generation, counts["papers"], int(last_id), counts, unstored,
                        int(replies))


class ChangeWatch:
    """Tells whether anything was committed to a library since the last look.

    It holds a connection of its own that never writes, so every commit to the library,
    by this process's other connections as much as by other processes, moves the counter
    it reads. Use it from one thread.
    """

    def __init__(self, database: Path) -> None:
        # Opened as a read-only library is: where SQLite cannot keep its working files (a
        # read-only directory or mount), as a file nothing changes, whose counter stays.
        self._conn = connect(database, read_only=True)
        self._version = self._read()

    def _read(self) -> int:
        return int(self._conn.execute("PRAGMA data_version").fetchone()[0])

    def changed(self) -> bool:
        """True once for each look after a commit elsewhere (several commits count once)."""
        try:
            version = self._read()
        except sqlite3.Error:
            # A library being restored or repaired: say nothing changed; the next look
            # after it is back will see the new version.
            return False
        if version == self._version:
            return False
        self._version = version
        return True

    def close(self) -> None:
        """Close the watch's connection."""
        self._conn.close()
