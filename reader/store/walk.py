"""The walk through every row of the papers, and the walk begun as the window's process starts.

Damage in a database is found only where it is read, so the window reads every row before
it opens (a damaged library is then one clear line, not a window that fails later). At
200,000 papers the walk takes about 90 ms, more than importing the interface beside it,
and the first frame waited for it. Begun as the process starts, on a connection of its own
(SQLite lets go of the interpreter while it reads), it is over by the time the interface
is imported. So this module imports nothing of the reader: it runs before the rest is
loaded.
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path
from urllib.parse import quote

#: The most of the database file mapped into memory while every row is read: reading its
#: pages one system call each took twice as long (150 ms at 200,000 papers, against 80).
#: Only for the walk: a mapped file that another process cut short would end this one, and
#: the library never shrinks its file (no VACUUM) while it is read.
_MAP_BYTES = 1 << 34

_WALK = (
    "SELECT count(*), coalesce(sum(starred), 0), "
    "(SELECT count(*) FROM notes WHERE trim(body) != '') FROM papers"
)


def walk(conn: sqlite3.Connection) -> dict[str, int]:
    """Counts of papers, stars and notes, read through every row of the papers."""
    conn.execute(f"PRAGMA mmap_size = {_MAP_BYTES}")
    try:
        row = conn.execute(_WALK).fetchone()
    finally:
        conn.execute("PRAGMA mmap_size = 0")
    return {"papers": row[0], "starred": row[1], "with_notes": row[2]}


class EarlyWalk:
    """The walk of the database at ``database``, begun on a thread as it is made, on a
    read-only connection of its own that waits for no lock.

    It only ever spares the usual check: whatever stops it (no database yet, damage, a
    lock, a schema older than the walk) leaves :meth:`counts` None, and the library's own
    walk, made then, says what is wrong the usual way.
    """

    def __init__(self, database: Path) -> None:
        self._database = database
        self._counts: dict[str, int] | None = None
        self._thread = threading.Thread(target=self._run, name="reader-walk", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            # timeout 0: a writer holding the file makes the usual check wait, not this one
            # as well, and mode=ro never makes a database where there was none.
            conn = sqlite3.connect(f"file:{quote(str(self._database.resolve()))}?mode=ro",
                                   uri=True, timeout=0, check_same_thread=False)
            try:
                self._counts = walk(conn)
            finally:
                conn.close()
        except Exception:  # noqa: BLE001 (what stopped it, the usual check meets and says)
            self._counts = None

    def counts(self) -> dict[str, int] | None:
        """The counts once the walk has ended; None when it could not be made (the usual
        check must be made)."""
        self._thread.join()
        return self._counts
