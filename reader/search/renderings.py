"""Renderings remembered: the plain text of abstracts written in TeX, kept in a SQLite file
in the index directory, beside the index that made them.

Rendering an abstract's TeX is the costliest step of indexing it, and of exporting it as
RIS or CSL-JSON, whose abstracts are plain text. An import of such an export compares each
incoming abstract with the rendering of the paper's own TeX, to see that it is only that
rendering read back (see :mod:`reader.intake.echo`): the index build remembers what it
rendered, and the import recalls it instead of rendering thousands of abstracts again.

A rendering is filed under a digest of its source, and the memo says which renderer made
its renderings (a digest of the renderer's code and of the versions of pylatexenc and of
Unicode's tables): a changed renderer never answers with what an older one made,
and replaces it. The file is derived data: losing it costs time
only, and a memo that cannot be read or written is passed over.
"""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

from reader.text.renderer import renderer

#: The memo's file name in the index directory.
MEMO_FILE = "renderings.sqlite"
# A memo is never worth waiting long for: another process writing it only costs a miss.
_BUSY_SECONDS = 0.5


def _damaged(exc: sqlite3.Error) -> bool:
    """Whether an error says the memo's file is damaged or no database."""
    return getattr(exc, "sqlite_errorcode", None) in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB)


def _key(source: str) -> int:
    """The rowid a source's rendering is filed under: 64 bits of its digest."""
    digest = hashlib.blake2b(source.encode("utf-8", "surrogatepass"), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


class Renderings:
    """The renderings remembered for one library: recalled one at a time, and those
    noted saved together by :meth:`save`."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._conn: sqlite3.Connection | None = None
        self._unusable = False
        self._noted: dict[int, str] = {}
        #: Whether the memo's renderings were made by this renderer.
        self._current = False
        #: Whether the memo was found damaged (it is made anew at the next save).
        self._damaged = False

    @classmethod
    def in_index(cls, index: Path) -> Renderings:
        """The memo kept in the index directory ``index``."""
        return cls(index / MEMO_FILE)

    def _connection(self, create: bool) -> sqlite3.Connection | None:
        """The memo's connection, opened first time (None when there is no memo to read,
        or it cannot be used: a damaged one is made anew by the next save)."""
        if self._conn is not None or self._unusable:
            return self._conn
        if not create and not self.path.exists():
            return None
        try:
            conn, made_by = self._open()
        except (sqlite3.Error, OSError) as exc:
            self._unusable = True
            self._damaged = isinstance(exc, sqlite3.Error) and _damaged(exc)
            return None
        self._conn = conn
        self._current = made_by is not None and made_by[0] == renderer()
        return conn

    def _open(self) -> tuple[sqlite3.Connection, tuple[bytes] | None]:
        """A connection to the memo, its tables made, and the renderer it says made them."""
        conn = sqlite3.connect(self.path, timeout=_BUSY_SECONDS, isolation_level=None)
        try:
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = NORMAL")
            # A rendering is found by a 64-bit digest as its rowid: a row holds about a
            # kilobyte of text, which a table keyed otherwise would store in its key's tree.
            conn.execute(
                "CREATE TABLE IF NOT EXISTS renderings "
                "(key INTEGER PRIMARY KEY, plain TEXT NOT NULL)"
            )
            conn.execute("CREATE TABLE IF NOT EXISTS renderer (digest BLOB NOT NULL)")
            made_by = conn.execute("SELECT digest FROM renderer").fetchone()
        except BaseException:
            conn.close()
            raise
        return conn, made_by

    def recall(self, source: str) -> str | None:
        """The plain text ``source`` was rendered as, if remembered."""
        noted = self._noted.get(_key(source))
        if noted is not None:
            return noted
        conn = self._connection(create=False)
        if conn is None or not self._current:
            return None
        try:
            row = conn.execute(
                "SELECT plain FROM renderings WHERE key = ?", (_key(source),)
            ).fetchone()
        except sqlite3.Error as exc:
            if _damaged(exc):
                self._found_damaged()
            return None
        return row[0] if row else None

    def note(self, source: str, plain: str) -> None:
        """Remember that ``source`` renders as ``plain`` (saved by :meth:`save`); a text
        that renders as itself is not worth a row."""
        if plain != source:
            self._noted[_key(source)] = plain

    def save(self) -> None:
        """Write what was noted, in one transaction; what another renderer made goes."""
        if not self._noted:
            return
        if self._damaged:
            self._remove()
        conn = self._connection(create=True)
        if conn is None and self._damaged:
            # What it held is derived: a file that is no database is made anew.
            self._remove()
            conn = self._connection(create=True)
        if conn is None:
            self._noted.clear()
            return
        try:
            with conn:
                conn.execute("BEGIN IMMEDIATE")
                made_by = conn.execute("SELECT digest FROM renderer").fetchone()
                if made_by is None or made_by[0] != renderer():
                    conn.execute("DELETE FROM renderings")
                    conn.execute("DELETE FROM renderer")
                    conn.execute("INSERT INTO renderer (digest) VALUES (?)", (renderer(),))
                conn.executemany(
                    "INSERT OR IGNORE INTO renderings (key, plain) VALUES (?, ?)",
                    self._noted.items(),
                )
            self._current = True
        except sqlite3.Error as exc:
            # A memo busy or on a full disk: its renderings are made again next time; a
            # damaged one is made anew then.
            if _damaged(exc):
                self._found_damaged()
        self._noted.clear()

    def _found_damaged(self) -> None:
        """Stop using a memo found damaged; the next save makes it anew."""
        self.close()
        self._unusable = self._damaged = True
        self._current = False

    def _remove(self) -> None:
        """Remove the memo's files, to make it anew."""
        self.close()
        try:
            for suffix in ("", "-wal", "-shm"):
                Path(f"{self.path}{suffix}").unlink(missing_ok=True)
        except OSError:
            return
        self._unusable = self._damaged = False

    def close(self) -> None:
        """Close the memo's connection (what was noted and not saved is let go)."""
        if self._conn is not None:
            self._conn.close()
            self._conn = None
