"""The library database: papers, notes and marks in SQLite, the source of truth.

One :class:`Store` wraps one SQLite connection (WAL, foreign keys on, a busy timeout so a
second process waits instead of failing). Schema changes are numbered SQL files in ``db/``
applied by ``PRAGMA user_version``. Every write that the search index must see bumps the
library *generation* and stamps the changed rows with it, so the index can catch up on
exactly what changed.
"""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

import sqlite_utils

from reader.citations import make_citekey
from reader.models import ImportSummary, Paper, PaperRecord, PaperRow
from reader.resources import migrations_dir
from reader.sanitize import normalize_for_identity

BUSY_TIMEOUT_MS = 10_000
_MIGRATION_NAME = re.compile(r"^(\d+)_.*\.sql$")

_PAPER_COLUMNS = (
    "p.id, p.title, p.title_derived, p.abstract, p.authors, p.venue, p.year, p.keywords, "
    "p.url, p.doi, p.citekey, p.starred, coalesce(n.body, ''), p.added_at"
)


class StoreError(Exception):
    """A library database problem the user must be told about in one line."""


def now() -> str:
    """The current time as an ISO 8601 UTC string, as stored."""
    return datetime.now(UTC).isoformat(timespec="seconds")


def abstract_key(abstract: str) -> str | None:
    """The identity of a paper known only by its abstract, or None for an empty one."""
    norm = normalize_for_identity(abstract)
    if not norm:
        return None
    return hashlib.sha1(norm.encode("utf-8")).hexdigest()


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

    def changes_since(self, generation: int) -> tuple[list[Paper], int]:
        """Papers changed after ``generation`` and the generation they bring the reader to.

        Both come from one read transaction, so a write committed in between can't be
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
        finally:
            self.conn.execute("COMMIT")
        return papers, current

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

    def has_citekey(self, citekey: str) -> bool:
        """Whether a citation key is already used."""
        return self.id_for_key(citekey) is not None

    # -- writing ----------------------------------------------------------------------------

    def import_records(
        self,
        records: Iterable[PaperRecord],
        source: str,
        fmt: str,
        progress: Callable[[int], None] | None = None,
    ) -> ImportSummary:
        """Add the records that are not in the library yet, all in one transaction."""
        summary = ImportSummary(files=[source])
        stamp = now()
        with self.transaction() as conn:
            generation = self._bump_generation()
            taken_keys: set[str] = set()

            def taken(key: str) -> bool:
                return key in taken_keys or self.has_citekey(key)

            for record in records:
                summary.read += 1
                if progress is not None:
                    progress(summary.read)
                key = abstract_key(record.abstract)
                if key is not None and conn.execute(
                    "SELECT 1 FROM papers WHERE abstract_key = ?", (key,)
                ).fetchone():
                    summary.present += 1
                    continue
                if record.doi and conn.execute(
                    "SELECT 1 FROM papers WHERE doi = ?", (record.doi,)
                ).fetchone():
                    summary.present += 1
                    continue
                citekey = make_citekey(record.title, record.authors, record.year, taken)
                taken_keys.add(citekey)
                conn.execute(
                    "INSERT INTO papers (title, title_derived, abstract, abstract_key, authors, "
                    "venue, year, keywords, url, doi, citekey, source, added_at, updated_at, "
                    "generation) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                    (
                        record.title,
                        int(record.title_derived),
                        record.abstract,
                        key,
                        json.dumps(record.authors, ensure_ascii=False),
                        record.venue,
                        record.year,
                        json.dumps(record.keywords, ensure_ascii=False),
                        record.url,
                        record.doi,
                        citekey,
                        record.source or source,
                        stamp,
                        stamp,
                        generation,
                    ),
                )
                summary.new += 1
            conn.execute(
                "INSERT INTO imports (path, format, imported_at, read, new, present) "
                "VALUES (?,?,?,?,?,?)",
                (source, fmt, stamp, summary.read, summary.new, summary.present),
            )
        return summary

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
    )
