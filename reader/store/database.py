"""The library database: papers, notes and marks in SQLite, the source of truth.

One :class:`Store` wraps one SQLite connection (WAL, foreign keys on, a busy timeout so a
second process waits instead of failing). Schema changes are numbered SQL files in ``db/``
applied by ``PRAGMA user_version``. Every write that the search index must see bumps the
library *generation* and stamps the changed rows with it, so the index can catch up on
exactly what changed.
"""

from __future__ import annotations

import functools
import json
import re
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from reader.cite.citations import CITEKEY
from reader.models import Highlight, ImportSummary, Paper, PaperRecord, PaperRow
from reader.resources import migrations_dir
from reader.store.backup import BackupError, automatic_backup
from reader.store.clock import now
from reader.store.notes import (
    CLI,
    EARLIER,
    HEAD,
    NoteSaved,
    NoteState,
    NoteVersion,
    describe_writer,
    local_time,
)
from reader.text.notemerge import merge

if TYPE_CHECKING:
    import sqlite_utils

    from reader.store.importing import UndoResult

BUSY_TIMEOUT_MS = 10_000
_MIGRATION_NAME = re.compile(r"^(\d+)_.*\.sql$")
_TEX_MARKUP = re.compile(r"[{}$]|\\[A-Za-z]+\s*|\\.")

_PAPER_COLUMNS = (
    "p.id, p.title, p.title_derived, p.abstract, p.authors, p.venue, p.year, p.keywords, "
    "p.url, p.doi, p.citekey, p.starred, coalesce(n.body, ''), p.added_at, p.arxiv_id, "
    "p.openreview_id, p.date, p.withdrawn, p.tldr, p.primary_area, p.kind, "
    "(SELECT json_group_array(tag) FROM (SELECT tag FROM tags WHERE paper_id = p.id "
    "ORDER BY tag)), "
    "(SELECT json_group_array(json_array(id, start, end, quote, note, orphaned)) "
    "FROM (SELECT * FROM highlights WHERE paper_id = p.id ORDER BY orphaned, start)), "
    "p.seen_at IS NOT NULL, p.read_at IS NOT NULL, p.csl, p.extra, "
    "(SELECT json_group_array(alias) FROM (SELECT alias FROM citekey_aliases "
    "WHERE paper_id = p.id ORDER BY alias))"
)


#: How the papers of a view can be ordered, and the column each order reads.
SORT_KEYS = {
    "relevance": "id",
    "title": "title",
    "year": "year",
    "added": "id",
    "starred": "starred",
}


class StoreError(Exception):
    """A library database problem the user must be told about in one line."""



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
        self.migrate()

    @functools.cached_property
    def db(self) -> sqlite_utils.Database:
        """The database as sqlite-utils sees it (tables, counts, inserts), made on first use:
        sqlite-utils is a large import, and the reader's start does not need it."""
        import sqlite_utils

        return sqlite_utils.Database(self.conn)

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
        # A walk through every row, on purpose: the reader checks the database with this
        # before it starts, and damage is only found where it is read.
        row = self.conn.execute(
            "SELECT count(*), coalesce(sum(starred), 0), "
            "(SELECT count(*) FROM notes WHERE trim(body) != '') FROM papers"
        ).fetchone()
        return {"papers": row[0], "starred": row[1], "with_notes": row[2]}

    def all_ids(self) -> list[int]:
        """Every paper id in the default browsing order (the order they were added)."""
        # Without ORDER BY, SQLite reads the ids from a small covering index instead of
        # walking every row, abstracts and all (45 ms instead of 200 ms at 200,000 papers).
        # As one row: SQLite then reads them all in one call, which lets other threads run
        # (the reader reads them while it imports its interface), where a row at a time
        # holds the interpreter for 50–90 ms.
        joined = self.conn.execute("SELECT group_concat(id) FROM papers").fetchone()[0]
        ids = list(map(int, joined.split(","))) if joined else []
        ids.sort()
        return ids

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
                "n.paper_id IS NOT NULL AND trim(n.body) != '', "
                "(SELECT group_concat(tag, ' ') FROM "
                "(SELECT tag FROM tags WHERE paper_id = p.id ORDER BY tag)), "
                "p.seen_at IS NOT NULL, p.read_at IS NOT NULL "
                f"FROM papers p LEFT JOIN notes n ON n.paper_id = p.id WHERE p.id IN ({marks})"
            )
            for r in self.conn.execute(sql, chunk):
                out[r[0]] = PaperRow(
                    r[0], r[1], bool(r[2]), r[3], r[4], bool(r[5]), bool(r[6]),
                    tuple((r[7] or "").split()), bool(r[8]), bool(r[9]),
                )
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

    def changed_ids(self, generation: int) -> tuple[list[int], list[int], int]:
        """The ids of papers changed and deleted after ``generation``, and the generation
        that brings the reader to (one read transaction, as changes_since)."""
        self.conn.execute("BEGIN")
        try:
            current = self.generation()
            changed = [
                r[0] for r in self.conn.execute(
                    "SELECT id FROM papers WHERE generation > ? ORDER BY id", (generation,)
                )
            ]
            deleted = [
                r[0]
                for r in self.conn.execute(
                    "SELECT paper_id FROM deleted_papers WHERE generation > ?", (generation,)
                )
            ]
        finally:
            self.conn.execute("COMMIT")
        return changed, deleted, current

    def count_changed(self, generation: int) -> int:
        """How many papers changed after ``generation``."""
        return int(self.conn.execute(
            "SELECT count(*) FROM papers WHERE generation > ?", (generation,)
        ).fetchone()[0])

    def iter_papers(self) -> Iterator[Paper]:
        """Every paper, for rebuilding the index or exporting."""
        sql = (
            f"SELECT {_PAPER_COLUMNS} FROM papers p LEFT JOIN notes n ON n.paper_id = p.id "
            "ORDER BY p.id"
        )
        for r in self.conn.execute(sql):
            yield _paper(r)

    def id_ranges(self, parts: int) -> list[tuple[int, int]]:
        """Split the papers into ``parts`` ranges of ids (first, last) of about equal size."""
        total = self.count()
        if total == 0:
            return []
        parts = max(1, min(parts, total))
        starts = [
            self.conn.execute(
                "SELECT id FROM papers ORDER BY id LIMIT 1 OFFSET ?", (total * k // parts,)
            ).fetchone()[0]
            for k in range(parts)
        ]
        ends = [s - 1 for s in starts[1:]] + [2**63 - 1]
        return list(zip(starts, ends, strict=True))

    def plain_match(self, words: list[str]) -> list[int]:
        """Papers whose title, abstract or note contain every word (case folded), by id:
        a search that needs no index."""
        if not words:
            return self.all_ids()
        text = "lower(p.title || ' ' || p.abstract || ' ' || coalesce(n.body, ''))"
        where = " AND ".join(f"instr({text}, ?) > 0" for _ in words)
        return [
            r[0]
            for r in self.conn.execute(
                f"SELECT p.id FROM papers p LEFT JOIN notes n ON n.paper_id = p.id "
                f"WHERE {where} ORDER BY p.id",
                words,
            )
        ]

    def id_for_key(self, citekey: str) -> int | None:
        """The id of the paper with this citation key, or with it as an alias."""
        owner = _key_owner(self.conn, citekey)
        return owner

    # -- writing ----------------------------------------------------------------------------

    def import_records(
        self,
        records: Iterable[PaperRecord],
        source: str,
        fmt: str,
        progress: Callable[[int], None] | None = None,
        *,
        sha256: str | None = None,
        problems: Sequence[str] = (),
        dry_run: bool = False,
        batch: int | None = None,
    ) -> ImportSummary:
        """Add new records and merge known ones, all in one transaction (or one for each
        ``batch`` records: see write_import)."""
        # Imported here: matching records (rapidfuzz, hashing) is no part of opening the
        # reader, and its imports cost every start.
        from reader.store.importing import write_import

        return write_import(
            self, records, source, fmt, progress, sha256=sha256, problems=problems,
            dry_run=dry_run, batch=batch,
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
        from reader.store.importing import UndoResult

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
            "seen": "SELECT id FROM papers WHERE seen_at IS NOT NULL",
            "unseen": "SELECT id FROM papers WHERE seen_at IS NULL",
            "read": "SELECT id FROM papers WHERE read_at IS NOT NULL",
            "unread": "SELECT id FROM papers WHERE read_at IS NULL",
            "new": _LAST_IMPORT_ITEMS + " AND action = 'new'",
            "changed": _LAST_IMPORT_ITEMS
            + " AND action IN ('retitled', 'revised', 'withdrawn')",
        }
        return {row[0] for row in self.conn.execute(queries[flag])}

    def set_citekey(self, paper_id: int, citekey: str) -> int:
        """Give a paper the key the user chose; notes and marks hang on the paper's id, so a
        new key changes nothing else."""
        if not CITEKEY.fullmatch(citekey):
            raise StoreError(
                f"{citekey!r} is not a usable citation key (letters, digits and _-:./+ only, "
                "starting with a letter, digit or _)"
            )
        with self.transaction() as conn:
            owner = _key_owner(conn, citekey, paper_id)
            if owner is not None:
                raise StoreError(f"the key {citekey!r} already belongs to paper {owner}")
            # The paper's own alias may become its key: a key is never an alias as well.
            conn.execute("DELETE FROM citekey_aliases WHERE alias = ?", (citekey,))
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
        """Store a paper's note as given (an empty note is kept as empty), as a new version
        by the CLI; returns the generation."""
        self.save_note(paper_id, body)
        return self.generation()

    def note(self, paper_id: int) -> NoteState:
        """A paper's note as stored now, with the version that holds it."""
        row = self.conn.execute(
            "SELECT n.body, n.version_id, coalesce(v.writer, '') FROM notes n "
            "LEFT JOIN note_versions v ON v.id = n.version_id WHERE n.paper_id = ?",
            (paper_id,),
        ).fetchone()
        return NoteState(row[0], row[1], row[2]) if row else NoteState("", None)

    def save_note(
        self, paper_id: int, body: str, base: int | None = HEAD, writer: str = CLI,
        kind: str = "save",
    ) -> NoteSaved:
        """Store ``body`` as a new version of the note, written from version ``base`` (None:
        from no note; HEAD: replace whatever is stored). When the note moved on since
        ``base``, the writer's text is kept as a version and merged with the stored one."""
        stamp = now()
        with self.transaction() as conn:
            current = self.note(paper_id)
            if body == current.text and current.version is not None:
                return NoteSaved(current.version, body)
            merged_with = None
            final, conflicts = body, 0
            if base not in (HEAD, current.version) and current.version is not None:
                row = conn.execute(
                    "SELECT body FROM note_versions WHERE id = ? AND paper_id = ?",
                    (base, paper_id),
                ).fetchone()
                theirs = conn.execute(
                    "SELECT writer, saved_at FROM note_versions WHERE id = ?",
                    (current.version,),
                ).fetchone()
                merged_with = theirs[0] if theirs else EARLIER
                label = (
                    f"saved by {describe_writer(merged_with)} at {local_time(theirs[1])}"
                    if theirs else "stored"
                )
                result = merge(row[0] if row else "", current.text, body,
                               theirs_label=label, ours_label="yours")
                final, conflicts = result.text, result.conflicts
                if final != body:
                    self._add_version(conn, paper_id, body, stamp, writer, "save", base, 0)
                    kind = "merge"
            generation = self._bump_generation()
            cur = conn.execute(
                "UPDATE papers SET generation = ?, updated_at = ? WHERE id = ?",
                (generation, stamp, paper_id),
            )
            if cur.rowcount == 0:
                raise StoreError(f"no paper with id {paper_id}")
            base_id = current.version if merged_with is not None else base
            version = self._add_version(
                conn, paper_id, final, stamp, writer, kind,
                None if base_id == HEAD else base_id, conflicts,
            )
            conn.execute(
                "INSERT INTO notes (paper_id, body, updated_at, version_id) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (paper_id) DO UPDATE SET body = excluded.body, "
                "updated_at = excluded.updated_at, version_id = excluded.version_id",
                (paper_id, final, stamp, version),
            )
        return NoteSaved(version, final, merged_with, conflicts)

    @staticmethod
    def _add_version(
        conn: sqlite3.Connection, paper_id: int, body: str, stamp: str, writer: str, kind: str,
        base: int | None, conflicts: int,
    ) -> int:
        cur = conn.execute(
            "INSERT INTO note_versions (paper_id, body, saved_at, writer, kind, base_id, "
            "conflicts) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (paper_id, body, stamp, writer, kind, base, conflicts),
        )
        return int(cur.lastrowid or 0)

    def note_versions(self, paper_id: int) -> list[NoteVersion]:
        """Every kept version of a paper's note, oldest first."""
        rows = self.conn.execute(
            "SELECT id, body, saved_at, writer, kind, conflicts FROM note_versions "
            "WHERE paper_id = ? ORDER BY id",
            (paper_id,),
        ).fetchall()
        return [NoteVersion(r[0], n, r[1], r[2], r[3], r[4], r[5])
                for n, r in enumerate(rows, start=1)]

    # -- triage -----------------------------------------------------------------------------

    def mark_seen(self, paper_ids: Iterable[int]) -> int:
        """Record that papers were shown; returns how many were seen for the first time.

        Seen and read change no generation: the search index doesn't hold them, so a
        paper passing through the detail pane costs one small write and no re-indexing.
        """
        wanted = list(paper_ids)
        changed = 0
        stamp = now()
        with self.transaction() as conn:
            for start in range(0, len(wanted), 500):
                chunk = wanted[start : start + 500]
                marks = ",".join("?" * len(chunk))
                changed += conn.execute(
                    f"UPDATE papers SET seen_at = ? WHERE seen_at IS NULL AND id IN ({marks})",
                    (stamp, *chunk),
                ).rowcount
        return changed

    def set_read(self, paper_id: int, read: bool) -> None:
        """Mark a paper read (and so seen) or unread."""
        stamp = now()
        with self.transaction() as conn:
            cur = conn.execute(
                "UPDATE papers SET read_at = ?, seen_at = coalesce(seen_at, ?) WHERE id = ?",
                (stamp if read else None, stamp, paper_id),
            )
            if cur.rowcount == 0:
                raise StoreError(f"no paper with id {paper_id}")

    def triage_counts(self) -> dict[str, int]:
        """Papers in the library, and how many are seen, read, starred and have notes."""
        # Each count reads a partial index (or the small notes table), never every row:
        # the status line asks after every write.
        row = self.conn.execute(
            "SELECT (SELECT count(*) FROM papers), "
            "(SELECT count(*) FROM papers) - (SELECT count(*) FROM papers WHERE seen_at IS NULL), "
            "(SELECT count(*) FROM papers WHERE read_at IS NOT NULL), "
            "(SELECT count(*) FROM papers WHERE starred = 1), "
            "(SELECT count(*) FROM notes WHERE trim(body) != '')"
        ).fetchone()
        return {
            "papers": row[0], "seen": row[1], "read": row[2], "starred": row[3],
            "with_notes": row[4],
        }

    def count_unseen(self, ids: Iterable[int]) -> int:
        """How many of ``ids`` are not marked seen in the database."""
        wanted = list(ids)
        unseen = 0
        for start in range(0, len(wanted), 500):
            chunk = wanted[start : start + 500]
            marks = ",".join("?" * len(chunk))
            unseen += self.conn.execute(
                f"SELECT count(*) FROM papers WHERE seen_at IS NULL AND id IN ({marks})", chunk
            ).fetchone()[0]
        return unseen

    def first_unseen(self, ids: list[int], start: int = 0) -> int | None:
        """The position in ``ids`` of the first unseen paper at or after ``start``."""
        for offset in range(start, len(ids), 500):
            chunk = ids[offset : offset + 500]
            marks = ",".join("?" * len(chunk))
            unseen = {
                r[0]
                for r in self.conn.execute(
                    f"SELECT id FROM papers WHERE seen_at IS NULL AND id IN ({marks})", chunk
                )
            }
            for n, paper_id in enumerate(chunk):
                if paper_id in unseen:
                    return offset + n
        return None

    # -- tags -------------------------------------------------------------------------------

    def set_tags(self, paper_id: int, tags: Iterable[str]) -> int:
        """Give a paper exactly these tags (already normalised); returns the generation."""
        wanted = sorted(set(tags))
        with self.transaction() as conn:
            generation = self._touch(conn, [paper_id])
            conn.execute("DELETE FROM tags WHERE paper_id = ?", (paper_id,))
            conn.executemany(
                "INSERT INTO tags (paper_id, tag) VALUES (?, ?)", [(paper_id, t) for t in wanted]
            )
        return generation

    def holder(self, column: str, value: str) -> Paper | None:
        """The paper whose citation key (``column`` "citekey") or DOI ("doi") is ``value``."""
        if column not in ("citekey", "doi"):
            raise ValueError(column)
        if column == "citekey":
            owner = _key_owner(self.conn, value)
            return self.paper(owner) if owner is not None else None
        row = self.conn.execute(f"SELECT id FROM papers WHERE {column} = ?", (value,)).fetchone()
        return self.paper(row[0]) if row else None

    def tagged_ids(self, tag: str) -> set[int]:
        """Papers carrying ``tag``."""
        return {r[0] for r in self.conn.execute("SELECT paper_id FROM tags WHERE tag = ?", (tag,))}

    def all_tags(self) -> list[tuple[str, int]]:
        """Every tag in use and how many papers carry it, most used first."""
        return [
            (r[0], r[1])
            for r in self.conn.execute(
                "SELECT tag, count(*) FROM tags GROUP BY tag ORDER BY count(*) DESC, tag"
            )
        ]

    def rename_tag(self, old: str, new: str) -> int:
        """Rename a tag across the library (merging into ``new`` where both are present);
        returns how many papers carried ``old``."""
        with self.transaction() as conn:
            ids = [r[0] for r in conn.execute("SELECT paper_id FROM tags WHERE tag = ?", (old,))]
            if not ids or old == new:
                return len(ids)
            self._touch(conn, ids)
            conn.execute("UPDATE OR IGNORE tags SET tag = ? WHERE tag = ?", (new, old))
            conn.execute("DELETE FROM tags WHERE tag = ?", (old,))
        return len(ids)

    def delete_tag(self, tag: str) -> int:
        """Remove a tag from every paper; returns how many carried it."""
        with self.transaction() as conn:
            ids = [r[0] for r in conn.execute("SELECT paper_id FROM tags WHERE tag = ?", (tag,))]
            if ids:
                self._touch(conn, ids)
                conn.execute("DELETE FROM tags WHERE tag = ?", (tag,))
        return len(ids)

    # -- highlights -------------------------------------------------------------------------

    def add_highlight(self, paper_id: int, start: int, end: int, quote: str, note: str = "") -> int:
        """Store a highlighted passage; returns its id."""
        with self.transaction() as conn:
            self._touch(conn, [paper_id])
            cur = conn.execute(
                "INSERT INTO highlights (paper_id, start, end, quote, note, created_at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (paper_id, start, end, quote, note, now()),
            )
        return int(cur.lastrowid or 0)

    def set_highlight_note(self, highlight_id: int, note: str) -> None:
        """Change the note of a highlight."""
        with self.transaction() as conn:
            row = conn.execute(
                "SELECT paper_id FROM highlights WHERE id = ?", (highlight_id,)
            ).fetchone()
            if row is None:
                raise StoreError(f"no highlight with id {highlight_id}")
            self._touch(conn, [row[0]])
            conn.execute("UPDATE highlights SET note = ? WHERE id = ?", (note, highlight_id))

    def delete_highlight(self, highlight_id: int) -> None:
        """Remove a highlight."""
        with self.transaction() as conn:
            row = conn.execute(
                "SELECT paper_id FROM highlights WHERE id = ?", (highlight_id,)
            ).fetchone()
            if row is None:
                return
            self._touch(conn, [row[0]])
            conn.execute("DELETE FROM highlights WHERE id = ?", (highlight_id,))

    # -- saved searches ---------------------------------------------------------------------

    def save_search(self, name: str, query: str) -> None:
        """Save a query under a name (replacing one of the same name)."""
        with self.transaction() as conn:
            conn.execute(
                "INSERT INTO saved_searches (name, query, created_at) VALUES (?, ?, ?) "
                "ON CONFLICT (name) DO UPDATE SET query = excluded.query",
                (name, query, now()),
            )

    def saved_searches(self) -> list[tuple[str, str]]:
        """Saved searches as (name, query), in the order they were saved."""
        return [
            (r[0], r[1])
            for r in self.conn.execute(
                "SELECT name, query FROM saved_searches ORDER BY created_at, name"
            )
        ]

    def delete_saved_search(self, name: str) -> bool:
        """Forget a saved search; False when there was none of that name."""
        with self.transaction() as conn:
            return conn.execute("DELETE FROM saved_searches WHERE name = ?", (name,)).rowcount > 0

    # -- metadata and order -----------------------------------------------------------------

    def update_metadata(self, paper_id: int, values: dict[str, object]) -> int:
        """Store fields edited by hand (already checked, see reader.store.metadata); a title
        typed by the user is never again "derived". Returns the generation."""
        allowed = {"title", "authors", "year", "venue", "url", "doi", "citekey"}
        unknown = set(values) - allowed - set(_RECORD_EDITS)
        if unknown:
            raise StoreError(f"cannot edit {', '.join(sorted(unknown))}")
        updates: dict[str, object] = {k: v for k, v in values.items() if k in allowed}
        record = {k: v for k, v in values.items() if k in _RECORD_EDITS}
        if "authors" in updates:
            updates["authors"] = json.dumps(updates["authors"], ensure_ascii=False)
        if "title" in updates:
            updates["title_derived"] = 0
        if "citekey" in updates:
            updates["citekey_origin"] = "user"
        with self.transaction() as conn:
            if record or "authors" in values or "doi" in values:
                row = conn.execute("SELECT csl FROM papers WHERE id = ?", (paper_id,)).fetchone()
                if row is None:
                    raise StoreError(f"no paper with id {paper_id}")
                csl = edited_record(json.loads(row[0] or "{}"), record, values.get("authors"))
                if "doi" in values:
                    csl.pop("DOI", None)  # the source's spelling of the DOI typed over
                updates["csl"] = json.dumps(csl, ensure_ascii=False) if csl else "{}"
            for column in ("citekey", "doi"):
                value = updates.get(column)
                if value is None:
                    continue
                if column == "citekey":
                    owner = _key_owner(conn, str(value), paper_id)
                    conn.execute("DELETE FROM citekey_aliases WHERE alias = ?", (value,))
                else:
                    row = conn.execute(
                        "SELECT id FROM papers WHERE doi = ? AND id != ?", (value, paper_id)
                    ).fetchone()
                    owner = row[0] if row else None
                if owner is not None:
                    label = "key" if column == "citekey" else "DOI"
                    raise StoreError(f"the {label} {value!r} already belongs to paper {owner}")
            generation = self._bump_generation()
            updates.update(updated_at=now(), generation=generation)
            assignments = ", ".join(f"{column} = ?" for column in updates)
            cur = conn.execute(
                f"UPDATE papers SET {assignments} WHERE id = ?", (*updates.values(), paper_id)
            )
            if cur.rowcount == 0:
                raise StoreError(f"no paper with id {paper_id}")
        return generation

    def sort_ids(self, ids: list[int], order: str) -> list[int]:
        """``ids`` in the given order: ``relevance`` (as given), ``title``, ``year`` (newest
        first), ``added`` (newest first) or ``starred`` (starred first, otherwise as given)."""
        if order not in SORT_KEYS or order == "relevance" or len(ids) < 2:
            return ids
        column = SORT_KEYS[order]
        if len(ids) > 5_000:
            keys = dict(self.conn.execute(f"SELECT id, {column} FROM papers"))
        else:
            keys = {}
            for start in range(0, len(ids), 500):
                chunk = ids[start : start + 500]
                marks = ",".join("?" * len(chunk))
                keys.update(
                    self.conn.execute(
                        f"SELECT id, {column} FROM papers WHERE id IN ({marks})", chunk
                    )
                )
        if order == "title":
            return sorted(ids, key=lambda i: _title_order(str(keys.get(i) or "")))
        # Descending, with papers lacking the value last; sorted() keeps ties as given.
        return sorted(ids, key=lambda i: (keys.get(i) is None, -(keys.get(i) or 0)))

    def _touch(self, conn: sqlite3.Connection, paper_ids: list[int]) -> int:
        """Bump the generation and stamp the papers with it, so the index re-reads them."""
        generation = self._bump_generation()
        stamp = now()
        for start in range(0, len(paper_ids), 500):
            chunk = paper_ids[start : start + 500]
            marks = ",".join("?" * len(chunk))
            cur = conn.execute(
                f"UPDATE papers SET generation = ?, updated_at = ? WHERE id IN ({marks})",
                (generation, stamp, *chunk),
            )
            if cur.rowcount == 0 and len(paper_ids) == 1:
                raise StoreError(f"no paper with id {paper_ids[0]}")
        return generation


#: Variables of the bibliographic record the details form edits.
_RECORD_EDITS = ("type", "volume", "issue", "page", "publisher", "publisher-place", "editor")


def edited_record(
    csl: dict[str, object], edits: dict[str, object], authors: object = None
) -> dict[str, object]:
    """The record with the form's edits: an empty value removes the variable; edited
    display names keep the structure of the names they did not change."""
    from reader.record import display_name, split_name

    csl = dict(csl)
    for variable, value in edits.items():
        if value in (None, "", []):
            csl.pop(variable, None)
        else:
            csl[variable] = value
    stored = csl.get("author")
    if isinstance(authors, list) and (stored or authors):
        before = {
            display_name(n): n for n in stored if isinstance(n, dict)
        } if isinstance(stored, list) else {}
        names = [before.get(a) or split_name(a) for a in authors if isinstance(a, str)]
        kept = [n for n in names if n]
        if kept:
            csl["author"] = kept
        else:
            csl.pop("author", None)
    return csl


def read_papers(
    database: Path, first: int, last: int, since: int | None = None, until: int | None = None
) -> Iterator[Paper]:
    """The papers with ids from ``first`` to ``last`` (and, given ``since`` and ``until``,
    changed in a generation after ``since`` and up to ``until``), read on a connection of
    their own (for an indexing process: picklable through functools.partial, and never
    writes)."""
    conn = sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=BUSY_TIMEOUT_MS / 1000)
    try:
        sql = (
            f"SELECT {_PAPER_COLUMNS} FROM papers p LEFT JOIN notes n ON n.paper_id = p.id "
            "WHERE p.id BETWEEN ? AND ?"
        )
        args: tuple[int, ...] = (first, last)
        if since is not None and until is not None:
            sql += " AND p.generation > ? AND p.generation <= ?"
            args += (since, until)
        for r in conn.execute(sql + " ORDER BY p.id", args):
            yield _paper(r)
    finally:
        conn.close()


def _title_order(title: str) -> str:
    """What a title sorts by: a BibTeX title is stored as TeX, whose braces and commands
    do not count."""
    if "{" in title or "\\" in title:
        title = _TEX_MARKUP.sub("", title)
    return title.casefold()


def _key_owner(conn: sqlite3.Connection, key: str, other_than: int | None = None) -> int | None:
    """The paper whose citation key or alias ``key`` is (one other than ``other_than``)."""
    row = conn.execute(
        "SELECT id FROM papers WHERE citekey = ?1 UNION ALL "
        "SELECT paper_id FROM citekey_aliases WHERE alias = ?1",
        (key,),
    ).fetchall()
    owners = [r[0] for r in row if r[0] != other_than]
    return int(owners[0]) if owners else None


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
        tags=json.loads(r[21] or "[]"),
        highlights=[
            Highlight(h[0], r[0], h[1], h[2], h[3], h[4], bool(h[5]))
            for h in json.loads(r[22] or "[]")
        ],
        seen=bool(r[23]),
        read=bool(r[24]),
        csl=json.loads(r[25] or "{}"),
        extra=json.loads(r[26] or "{}"),
        aliases=json.loads(r[27] or "[]"),
    )
