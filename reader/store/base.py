"""One SQLite connection of the library: opening it (WAL, foreign keys, a busy timeout),
the numbered migrations, transactions, the change generation and remembered settings."""

from __future__ import annotations

import contextlib
import functools
import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple
from urllib.parse import quote

from reader.errors import BadInput, Damaged, NotFound, ReadOnly, is_damage, no_room_to_open
from reader.resources import migrations_dir
from reader.store.backup import BackupError, automatic_backup, lost_database
from reader.store.chunks import in_chunks
from reader.store.clock import now
from reader.text.pattern import Pattern

if TYPE_CHECKING:
    import sqlite_utils


BUSY_TIMEOUT_MS = 10_000
#: What the write-ahead log is cut back to on disk when it starts over.
WAL_KEPT_BYTES = 4 << 20
#: The papers the last import (not undone) touched.
LAST_IMPORT_ITEMS = (
    "SELECT paper_id FROM import_items WHERE import_id = "
    "(SELECT max(id) FROM imports WHERE undone_at IS NULL)"
)

_MIGRATION_NAME = Pattern(r"^(\d+)_.*\.sql$")


class StoreError(BadInput):
    """A change the library database refuses, told in one line (a key that belongs to
    another paper, a field that cannot be edited, a database of a newer reader). The
    store's other errors are of the kind they name, not of this one."""


class StoreDamaged(Damaged):
    """The database would not open because SQLite finds it damaged or not a database."""


class PaperNotFound(NotFound):
    """No paper has the id asked for (removed meanwhile, or never there)."""


def _holds_papers(conn: sqlite3.Connection) -> bool:
    """Whether the database holds the papers' table (a library's, whatever its version)."""
    found = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'papers'"
    return conn.execute(found).fetchone() is not None


def _refused(text: str, exc: sqlite3.DatabaseError) -> StoreError | StoreDamaged:
    """The error for a database that would not open: damaged, or refused for another
    reason (named by ``text``)."""
    return StoreDamaged(text) if is_damage(exc) else StoreError(text)


class ReadOnlyLibrary(ReadOnly):
    """A write to a library opened read-only; the message says why it is, in one line."""


class DatabaseLost(Damaged):
    """The database is missing or empty beside what a library leaves: damage, told with
    the way back, and never made a new library over."""


@contextmanager
def _migration_lock(database: Path) -> Iterator[None]:
    """Let one process at a time migrate a library (others wait, then find it done)."""
    try:
        import fcntl
    except ImportError:  # no flock on this platform: SQLite's own locking has to do
        yield
        return
    with open(database.with_name(database.name + ".migrate-lock"), "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _why(database: Path, exc: sqlite3.DatabaseError) -> str:
    """SQLite's reason a database would not open, with the likely cause where its own words
    name none: SQLite keeps its working files beside the database, so even reading needs a
    directory it may write to."""
    folder = database.parent
    if "unable to open" in str(exc) and folder.is_dir() and not os.access(folder, os.W_OK):
        return (f"{exc} (its directory {folder} cannot be written to, and SQLite keeps its "
                "working files there, even to read)")
    if "unable to open" in str(exc) and database.exists() and not os.access(database, os.R_OK):
        return f"{exc} (the file cannot be read: its permissions do not let this user)"
    return str(exc)


def connect(path: Path, read_only: bool) -> sqlite3.Connection:
    """A connection to the database; read-only, it is opened so (``mode=ro``), or, when
    SQLite cannot keep its working files beside a database in a directory it may not
    write to, as a file nothing changes (``immutable``)."""
    timeout = BUSY_TIMEOUT_MS / 1000
    if not read_only:
        return sqlite3.connect(
            path, timeout=timeout, isolation_level=None, check_same_thread=False
        )
    uri = f"file:{quote(str(path.resolve()))}"
    try:
        conn = sqlite3.connect(
            f"{uri}?mode=ro", uri=True, timeout=timeout, isolation_level=None,
            check_same_thread=False,
        )
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return conn
    except sqlite3.OperationalError:
        return sqlite3.connect(
            f"{uri}?immutable=1", uri=True, timeout=timeout, isolation_level=None,
            check_same_thread=False,
        )


def read_only_message(root: Path, why: str) -> str:
    """The one line a write to a read-only library is refused with."""
    return (
        f"the library in {root} is read-only ({why}): it can be searched, cited and "
        "exported, but nothing in it can be changed"
    )


def read_only_reason(database: Path) -> str | None:
    """Why the library of ``database`` can only be read, or None when it can be written:
    READER_READ_ONLY set, or its directory or database file not writable."""
    if os.environ.get("READER_READ_ONLY", "").strip() not in ("", "0"):
        return "READER_READ_ONLY is set"
    folder = database.parent
    if folder.is_dir() and not os.access(folder, os.W_OK):
        return f"its directory {folder} cannot be written to"
    if database.is_file() and not os.access(database, os.W_OK):
        return f"{database.name} cannot be written to"
    return None


def migrations() -> list[tuple[int, Path]]:
    """The numbered migrations shipped with reader, in order."""
    found = []
    for path in migrations_dir().glob("*.sql"):
        match = _MIGRATION_NAME.match(path.name)
        if match:
            found.append((int(match.group(1)), path))
    return sorted(found)


def _after_script(conn: sqlite3.Connection, version: int) -> None:
    """What a migration needs beyond SQL, in its transaction: 0013 reads the stored
    ratings again with the current reader (store/rereading.py), which SQL cannot parse."""
    if version == 13:
        # Imported here: only a library being upgraded needs it.
        from reader.store.rereading import reread_library

        reread_library(conn)


class Upgrade(NamedTuple):
    """A library this reader upgraded as it opened it: from one schema to another, with a
    copy of the database as it was (None: it held nothing to copy)."""

    before: int
    after: int
    backup: Path | None


class StoreBase:
    """The connection, schema, transactions, generation and settings: the base
    :class:`reader.store.database.Store` stands on (its parts reach it by a reference)."""

    def __init__(self, path: Path, read_only: str | None = None) -> None:
        """Open the database at ``path``; with ``read_only`` (why it is: "its directory
        cannot be written to"), for reading only: nothing is migrated, and every write is
        refused saying so."""
        self.path = path
        self.read_only = read_only
        #: The upgrade this opening made, if it made one (the user is told, with where
        #: the copy of the database as it was is).
        self.upgrade: Upgrade | None = None
        lost = lost_database(path)
        if lost is not None:
            raise DatabaseLost(lost)
        if read_only is not None and not path.exists():
            # Nothing to open, and a new library cannot be made (SQLite's own words would be
            # "unable to open database file", as if a database there were unreadable).
            raise ReadOnlyLibrary(f"cannot make a library in {path.parent}: {read_only}")
        try:
            # check_same_thread is off because worker threads borrow pooled connections; the
            # library lends each connection to one thread at a time.
            conn = connect(path, read_only is not None)
            conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            if read_only is None:
                conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA foreign_keys = ON")
            conn.execute("PRAGMA synchronous = NORMAL")
            # The log is cut back to this when it starts over; an import grows it to tens of
            # megabytes, and without a limit it kept that size on disk for good.
            conn.execute(f"PRAGMA journal_size_limit = {WAL_KEPT_BYTES}")
        except sqlite3.DatabaseError as exc:
            if (full := no_room_to_open(path, exc)) is not None:
                raise full from exc
            raise _refused(
                f"cannot open the library database {path}: {_why(path, exc)}", exc
            ) from exc
        self.conn = conn
        if read_only is None:
            self.migrate()
        else:
            self._check_readable_schema()

    def _check_readable_schema(self) -> None:
        """Refuse a read-only database this reader cannot read as it is (one that would
        need migrating, or written by a newer reader)."""
        known = migrations()
        latest = known[-1][0] if known else 0
        try:
            current = self.schema_version
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path} is not a reader library: {exc}") from exc
        if current > latest:
            raise StoreError(
                f"{self.path} was written by a newer reader (schema {current}, this reader "
                f"knows {latest}); upgrade reader to open it"
            )
        if current < latest:
            raise ReadOnlyLibrary(
                f"{self.path} was written by an older reader and must be upgraded, which a "
                f"read-only library cannot be ({self.read_only})"
            )

    def refuse_writes(self) -> None:
        """Raise ReadOnlyLibrary, saying why, when the library is read-only."""
        if self.read_only is not None:
            raise ReadOnlyLibrary(read_only_message(self.path.parent, self.read_only))

    @functools.cached_property
    def db(self) -> sqlite_utils.Database:
        """The database as sqlite-utils sees it (tables, counts, inserts), made on first use:
        sqlite-utils is a large import, and the reader's start does not need it."""
        import sqlite_utils

        return sqlite_utils.Database(self.conn)

    def close(self) -> None:
        """Close the connection."""
        self.conn.close()

    @property
    def schema_version(self) -> int:
        """The schema version recorded in the database."""
        return int(self.conn.execute("PRAGMA user_version").fetchone()[0])

    def migrate(self) -> list[int]:
        """Apply every migration newer than the database, each in its own transaction."""
        known = migrations()
        latest = known[-1][0] if known else 0
        try:
            current = self.schema_version
        except sqlite3.DatabaseError as exc:
            if (full := no_room_to_open(self.path, exc)) is not None:
                raise full from exc  # a new library's first read, as an old one's open
            raise _refused(f"{self.path} is not a reader library: {exc}", exc) from exc
        if current < 0 or (current == 0 and _holds_papers(self.conn)):
            # Its version set back outside reader: migrating it again from the first failed
            # on tables already there, and backed it up again on every start.
            raise StoreDamaged(f"{self.path} holds a library's tables but records schema "
                               f"version {current}: the version was set outside reader")
        if current > latest:
            raise StoreError(
                f"{self.path} was written by a newer reader (schema {current}, this reader "
                f"knows {latest}); upgrade reader to open it"
            )
        if current == latest:
            return []
        with _migration_lock(self.path):
            # Another process may have migrated while we waited for the lock.
            current = self.schema_version
            backup = None
            if current and current < latest:
                try:
                    backup = automatic_backup(
                        self.path, self.path.parent / "backups", "pre-migration"
                    )
                except BackupError as exc:
                    raise StoreError(f"not migrating without a backup: {exc}") from exc
            applied = self._apply(known, current)
            if current and applied:
                self.upgrade = Upgrade(current, applied[-1], backup)
            return applied

    def _apply(self, known: list[tuple[int, Path]], current: int) -> list[int]:
        applied = []
        for version, path in known:
            if version <= current:
                continue
            script = path.read_text(encoding="utf-8")
            try:
                self.conn.executescript(f"BEGIN;\n{script}")
                _after_script(self.conn, version)
                # Not executescript: it would commit the transaction open before it ran.
                self.conn.execute(f"PRAGMA user_version = {version}")
                self.conn.execute("COMMIT")
            except sqlite3.DatabaseError as exc:
                if self.conn.in_transaction:
                    self.conn.execute("ROLLBACK")
                raise StoreError(f"migration {path.name} failed: {exc}") from exc
            applied.append(version)
        return applied

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """Run a block as one transaction: all of it is stored, or none of it."""
        self.refuse_writes()
        # IMMEDIATE takes the write lock up front, so two processes queue on the busy
        # timeout instead of failing half-way through with "database is locked".
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            yield self.conn
        except BaseException:
            # SQLite has already rolled back after some errors (a full disk, an I/O error):
            # a second ROLLBACK would hide the real error behind "no transaction is active".
            if self.conn.in_transaction:
                self.conn.execute("ROLLBACK")
            raise
        else:
            try:
                self.conn.execute("COMMIT")
            except sqlite3.Error:
                # A commit that could not be written (a full disk) leaves the transaction
                # open; end it, so the connection takes the next write.
                if self.conn.in_transaction:
                    self.conn.execute("ROLLBACK")
                raise

    def checkpoint(self) -> None:
        """Copy the write-ahead log into the database as far as readers allow, waiting for
        none of them (PASSIVE); what is left is copied at a later commit. A full disk
        loses nothing: the log still holds it."""
        with contextlib.suppress(sqlite3.Error):
            self.conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()

    def bump_generation(self) -> int:
        """Advance the library generation inside the current transaction and return it."""
        self.conn.execute(
            "UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'generation'"
        )
        return self.generation()

    def generation(self) -> int:
        """The generation of the library's last change."""
        row = self.conn.execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()
        return int(row[0])

    def get_meta(self, key: str, default: str | None = None) -> str | None:
        """A remembered setting (the last citation style chosen, …)."""
        row = self.conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else default

    def set_meta(self, key: str, value: str) -> None:
        """Remember a setting."""
        with self.transaction() as conn:
            conn.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, value),
            )

    def touch(self, conn: sqlite3.Connection, paper_ids: list[int]) -> int:
        """Bump the generation and stamp the papers with it, so the index re-reads them."""
        generation = self.bump_generation()
        stamp = now()
        for chunk, marks in in_chunks(paper_ids):
            cur = conn.execute(
                f"UPDATE papers SET generation = ?, updated_at = ? WHERE id IN ({marks})",
                (generation, stamp, *chunk),
            )
            if cur.rowcount == 0 and len(paper_ids) == 1:
                raise PaperNotFound(f"no paper with id {paper_ids[0]}")
        return generation


def key_owner(conn: sqlite3.Connection, key: str, other_than: int | None = None) -> int | None:
    """The paper whose citation key or alias ``key`` is (one other than ``other_than``)."""
    row = conn.execute(
        "SELECT id FROM papers WHERE citekey = ?1 UNION ALL "
        "SELECT paper_id FROM citekey_aliases WHERE alias = ?1",
        (key,),
    ).fetchall()
    owners = [r[0] for r in row if r[0] != other_than]
    return int(owners[0]) if owners else None
