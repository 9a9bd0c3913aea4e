"""The library database: papers, notes and marks in SQLite, the source of truth.

One :class:`Store` wraps one SQLite connection (WAL, foreign keys on, a busy timeout so a
second process waits instead of failing). Schema changes are numbered SQL files in ``db/``
applied by ``PRAGMA user_version``. Every write that the search index must see bumps the
library *generation* and stamps the changed rows with it, so the index can catch up on
exactly what changed.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

import sqlite_utils

from reader.backup import BackupError, automatic_backup
from reader.clock import now
from reader.importing import UndoResult, write_import
from reader.models import ImportSummary, Paper, PaperRecord, PaperRow
from reader.resources import migrations_dir

BUSY_TIMEOUT_MS = 10_000
_MIGRATION_NAME = re.compile(r"^(\d+)_.*\.sql$")

_PAPER_COLUMNS = (
    "p.id, p.title, p.title_derived, p.abstract, p.authors, p.venue, p.year, p.keywords, "
    "p.url, p.doi, p.citekey, p.starred, coalesce(n.body, ''), p.added_at, p.arxiv_id, "
    "p.openreview_id, p.date, p.withdrawn, p.tldr, p.primary_area, p.kind"
)


class StoreError(Exception):
    """A library database problem the user must be told about in one line."""


# Safe in BibTeX, LaTeX \cite and pandoc alike.
_CITEKEY = re.compile(r"[A-Za-z][A-Za-z0-9_\-:./+]{0,99}")

_LAST_IMPORT_ITEMS = (
    "SELECT paper_id FROM import_items WHERE import_id = "
    "(SELECT max(id) FROM imports WHERE undone_at IS NULL)"
)


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


def migrations() -> list[tuple[int, Path]]:
    """The numbered migrations shipped with reader, in order."""
    found = []
    for path in migrations_dir().glob("*.sql"):
        match = _MIGRATION_NAME.match(path.name)
        if match:
            found.append((int(match.group(1)), path))
    return sorted(found)


class Store:
    """Access to one library database from one thread."""

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            # check_same_thread is off because worker threads borrow pooled connections; the
            # library lends each connection to one thread at a time.
            conn = sqlite3.connect(
                path,
                timeout=BUSY_TIMEOUT_MS / 1000,
                isolation_level=None,
                check_same_thread=False,
            )
            conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA foreign_keys = ON")
            conn.execute("PRAGMA synchronous = NORMAL")
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"cannot open the library database {path}: {exc}") from exc
        self.conn = conn
        self.db = sqlite_utils.Database(conn)
        self.migrate()

    def close(self) -> None:
        """Close the connection."""
        self.conn.close()

    # -- schema ---------------------------------------------------------------------------

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
            raise StoreError(f"{self.path} is not a reader library: {exc}") from exc
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
            if current and current < latest:
                try:
                    automatic_backup(self.path, self.path.parent / "backups", "pre-migration")
                except BackupError as exc:
                    raise StoreError(f"not migrating without a backup: {exc}") from exc
            return self._apply(known, current)

    def _apply(self, known: list[tuple[int, Path]], current: int) -> list[int]:
        applied = []
        for version, path in known:
            if version <= current:
                continue
            script = path.read_text(encoding="utf-8")
            try:
                self.conn.executescript(
                    f"BEGIN;\n{script}\nPRAGMA user_version = {version};\nCOMMIT;"
                )
            except sqlite3.DatabaseError as exc:
                if self.conn.in_transaction:
                    self.conn.execute("ROLLBACK")
                raise StoreError(f"migration {path.name} failed: {exc}") from exc
            applied.append(version)
        return applied

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """Run a block as one transaction: all of it is stored, or none of it."""
        # IMMEDIATE takes the write lock up front, so two processes queue on the busy
        # timeout instead of failing half-way through with "database is locked".
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            yield self.conn
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        else:
            self.conn.execute("COMMIT")

    def _bump_generation(self) -> int:
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

    # -- reading ----------------------------------------------------------------------------

    def count(self) -> int:
        """Number of papers in the library."""
        return int(self.conn.execute("SELECT count(*) FROM papers").fetchone()[0])

    def stats(self) -> dict[str, int]:
        """Counts shown by ``reader stats``."""
        row = self.conn.execute(
            "SELECT count(*), coalesce(sum(starred), 0), "
            "(SELECT count(*) FROM notes WHERE trim(body) != '') FROM papers"
        ).fetchone()
        return {"papers": row[0], "starred": row[1], "with_notes": row[2]}

    def all_ids(self) -> list[int]:
        """Every paper id in the default browsing order (the order they were added)."""
        return [r[0] for r in self.conn.execute("SELECT id FROM papers ORDER BY id")]

    def rows(self, ids: Iterable[int]) -> dict[int, PaperRow]:
        """The list columns of the given papers, keyed by id (missing ids are left out)."""
        wanted = list(ids)
        out: dict[int, PaperRow] = {}
        # Chunked to stay under SQLite's host-parameter limit.
        for start in range(0, len(wanted), 500):
            chunk = wanted[start : start + 500]
            marks = ",".join("?" * len(chunk))
            sql = (
                "SELECT p.id, p.title, p.title_derived, p.venue, p.year, p.starred, "
                "n.paper_id IS NOT NULL AND trim(n.body) != '' "
                f"FROM papers p LEFT JOIN notes n ON n.paper_id = p.id WHERE p.id IN ({marks})"
            )
            for r in self.conn.execute(sql, chunk):
                out[r[0]] = PaperRow(r[0], r[1], bool(r[2]), r[3], r[4], bool(r[5]), bool(r[6]))
        return out

    def paper(self, paper_id: int) -> Paper | None:
        """One paper with its note, or None."""
        found = self.papers([paper_id])
        return found[0] if found else None

    def papers(self, ids: Iterable[int]) -> list[Paper]:
        """Papers with their notes, in the order of ``ids``."""
        wanted = list(ids)
        by_id: dict[int, Paper] = {}
        for start in range(0, len(wanted), 500):
            chunk = wanted[start : start + 500]
            marks = ",".join("?" * len(chunk))
            sql = (
                f"SELECT {_PAPER_COLUMNS} FROM papers p "
                f"LEFT JOIN notes n ON n.paper_id = p.id WHERE p.id IN ({marks})"
            )
            for r in self.conn.execute(sql, chunk):
                by_id[r[0]] = _paper(r)
        return [by_id[i] for i in wanted if i in by_id]

    def changes_since(self, generation: int) -> tuple[list[Paper], list[int], int]:
        """Papers changed and ids deleted after ``generation``, and the generation that
        brings the reader to.

        All come from one read transaction, so a write committed in between can't be
        counted as seen without its rows.
        """
        sql = (
            f"SELECT {_PAPER_COLUMNS} FROM papers p LEFT JOIN notes n ON n.paper_id = p.id "
            "WHERE p.generation > ? ORDER BY p.id"
        )
        self.conn.execute("BEGIN")
        try:
            current = self.generation()
            papers = [_paper(r) for r in self.conn.execute(sql, (generation,))]
            deleted = [
                r[0]
                for r in self.conn.execute(
                    "SELECT paper_id FROM deleted_papers WHERE generation > ?", (generation,)
                )
            ]
        finally:
            self.conn.execute("COMMIT")
        return papers, deleted, current

    def iter_papers(self) -> Iterator[Paper]:
        """Every paper, for rebuilding the index or exporting."""
        sql = (
            f"SELECT {_PAPER_COLUMNS} FROM papers p LEFT JOIN notes n ON n.paper_id = p.id "
            "ORDER BY p.id"
        )
        for r in self.conn.execute(sql):
            yield _paper(r)

    def id_for_key(self, citekey: str) -> int | None:
        """The id of the paper with this citation key."""
        row = self.conn.execute("SELECT id FROM papers WHERE citekey = ?", (citekey,)).fetchone()
        return int(row[0]) if row else None

    # -- writing ----------------------------------------------------------------------------

    def import_records(
        self,
        records: Iterable[PaperRecord],
        source: str,
        fmt: str,
        progress: Callable[[int], None] | None = None,
        *,
        sha256: str | None = None,
        problems: Iterable[str] = (),
        dry_run: bool = False,
    ) -> ImportSummary:
        """Add new records and merge known ones, all in one transaction."""
        return write_import(
            self, records, source, fmt, progress, sha256=sha256, problems=problems,
            dry_run=dry_run,
        )

    def previous_import(self, source: str) -> tuple[str, str] | None:
        """Time and sha256 of the latest import of ``source`` (not undone), if any."""
        row = self.conn.execute(
            "SELECT imported_at, coalesce(sha256, '') FROM imports "
            "WHERE path = ? AND undone_at IS NULL ORDER BY id DESC LIMIT 1",
            (source,),
        ).fetchone()
        return (row[0], row[1]) if row else None

    def undo_last_import(self) -> UndoResult | None:
        """Remove the papers the last import added, except those carrying the user's work."""
        with self.transaction() as conn:
            row = conn.execute(
                "SELECT id, path FROM imports WHERE undone_at IS NULL ORDER BY id DESC LIMIT 1"
            ).fetchone()
            if row is None:
                return None
            import_id, path = row
            result = UndoResult(path)
            added = conn.execute(
                "SELECT p.id, p.citekey, p.starred, coalesce(trim(n.body), '') != '' "
                "FROM import_items i JOIN papers p ON p.id = i.paper_id "
                "LEFT JOIN notes n ON n.paper_id = p.id "
                "WHERE i.import_id = ? AND i.action = 'new'",
                (import_id,),
            ).fetchall()
            generation = self._bump_generation()
            doomed = []
            for paper_id, citekey, starred, has_note in added:
                if starred or has_note:
                    result.kept.append((paper_id, citekey))
                else:
                    doomed.append((paper_id, generation))
            conn.executemany(
                "INSERT OR REPLACE INTO deleted_papers (paper_id, generation) VALUES (?, ?)",
                doomed,
            )
            conn.executemany("DELETE FROM papers WHERE id = ?", [(d[0],) for d in doomed])
            conn.execute("UPDATE imports SET undone_at = ? WHERE id = ?", (now(), import_id))
            result.removed = len(doomed)
        return result

    def flagged_ids(self, flag: str) -> set[int]:
        """Papers with a mark or from the last import: ``starred``, ``notes``, ``new``,
        ``changed`` (retitled, revised or withdrawn by the last import), ``withdrawn``."""
        queries = {
            "starred": "SELECT id FROM papers WHERE starred = 1",
            "notes": "SELECT paper_id FROM notes WHERE trim(body) != ''",
            "withdrawn": "SELECT id FROM papers WHERE withdrawn = 1",
            "new": _LAST_IMPORT_ITEMS + " AND action = 'new'",
            "changed": _LAST_IMPORT_ITEMS
            + " AND action IN ('retitled', 'revised', 'withdrawn')",
        }
        return {row[0] for row in self.conn.execute(queries[flag])}

    def set_citekey(self, paper_id: int, citekey: str) -> int:
        """Give a paper the key the user chose; notes and marks hang on the paper's id, so a
        new key changes nothing else."""
        if not _CITEKEY.fullmatch(citekey):
            raise StoreError(
                f"{citekey!r} is not a usable citation key (letters, digits and _-:./+ only, "
                "starting with a letter)"
            )
        with self.transaction() as conn:
            owner = conn.execute("SELECT id FROM papers WHERE citekey = ?", (citekey,)).fetchone()
            if owner and owner[0] != paper_id:
                raise StoreError(f"the key {citekey!r} already belongs to paper {owner[0]}")
            generation = self._bump_generation()
            cur = conn.execute(
                "UPDATE papers SET citekey = ?, updated_at = ?, generation = ? WHERE id = ?",
                (citekey, now(), generation, paper_id),
            )
            if cur.rowcount == 0:
                raise StoreError(f"no paper with id {paper_id}")
        return generation

    def set_starred(self, paper_id: int, starred: bool) -> int:
        """Star or unstar a paper; returns the new generation."""
        with self.transaction() as conn:
            generation = self._bump_generation()
            cur = conn.execute(
                "UPDATE papers SET starred = ?, updated_at = ?, generation = ? WHERE id = ?",
                (int(starred), now(), generation, paper_id),
            )
            if cur.rowcount == 0:
                raise StoreError(f"no paper with id {paper_id}")
        return generation

    def set_note(self, paper_id: int, body: str) -> int:
        """Store a paper's note (an empty note is kept as empty); returns the new generation."""
        stamp = now()
        with self.transaction() as conn:
            generation = self._bump_generation()
            cur = conn.execute(
                "UPDATE papers SET generation = ?, updated_at = ? WHERE id = ?",
                (generation, stamp, paper_id),
            )
            if cur.rowcount == 0:
                raise StoreError(f"no paper with id {paper_id}")
            conn.execute(
                "INSERT INTO notes (paper_id, body, updated_at) VALUES (?, ?, ?) "
                "ON CONFLICT (paper_id) DO UPDATE SET body = excluded.body, "
                "updated_at = excluded.updated_at",
                (paper_id, body, stamp),
            )
        return generation


def _paper(r: tuple) -> Paper:
    """Build a Paper from a row of ``_PAPER_COLUMNS``."""
    return Paper(
        id=r[0],
        title=r[1],
        title_derived=bool(r[2]),
        abstract=r[3],
        authors=json.loads(r[4] or "[]"),
        venue=r[5],
        year=r[6],
        keywords=json.loads(r[7] or "[]"),
        url=r[8],
        doi=r[9],
        citekey=r[10],
        starred=bool(r[11]),
        note=r[12],
        added_at=r[13],
        arxiv_id=r[14],
        openreview_id=r[15],
        date=r[16],
        withdrawn=bool(r[17]),
        tldr=r[18],
        primary_area=r[19],
        kind=r[20],
    )
