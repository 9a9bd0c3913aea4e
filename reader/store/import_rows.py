"""The rows an import writes, once the layer above has decided them: the import's entry in
the history, papers added, columns of known papers filled in, citation-key aliases, what
happened to each paper (for diffs and undo) and the counts.

Which record is which paper, and what of it merges into a known one, is no part of
storage: it is decided in :mod:`reader.intake.merge`, which calls these inside the
transactions it opens with :meth:`reader.store.base.StoreBase.transaction`.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from reader.import_summary import ImportSummary
from reader.models import PaperRecord
from reader.store.clock import now
from reader.store.highlights import reanchor
from reader.store.revisions import keep_revision

if TYPE_CHECKING:
    from reader.store.base import StoreBase

#: How far the write-ahead log may grow while a batched import commits (pages of 4 KiB:
#: 64 MiB, a list of about 20,000 OpenReview records).
IMPORT_WAL_PAGES = 16_384
#: The columns of a known paper an import compares a record with.
MERGE_NAMES = [
    "id", "title", "title_derived", "abstract", "abstract_key", "authors", "keywords",
    "withdrawn", "doi", "arxiv_id", "openreview_id", "csl", "extra", "citekey",
    "citekey_origin", "venue", "year", "url", "date", "tldr", "primary_area", "kind",
    "text_modified", "decision",
]
# The decision is the signals' (read for what an export of the paper says, not written by a
# merge): a submission turned down is exported as no paper of its venue.
_MERGE_COLUMNS = ", ".join(MERGE_NAMES[:-1]) + (
    ", (SELECT decision FROM paper_signals WHERE paper_id = papers.id) AS decision"
)


#: The ``field`` of a paper_revisions row that holds what a merge changed in a paper's
#: columns: ``{"before": {column: value}, "after": {…}, "aliases": […]}`` (and the tags and
#: note it gave one that had none), so that undoing the import puts the paper back.
MERGE_CHANGES = "merge"


@dataclass(slots=True)
class UndoResult:
    """What undoing an import removed and what it kept: papers it added (removed, or kept
    for the user's work on them), papers it merged into (reverted; columns changed since,
    left as they are; merges it has no record of), and papers whose replies it brought
    (kept)."""

    path: str
    removed: int = 0
    kept: list[tuple[int, str]] = field(default_factory=list)
    #: Papers it added that a later import of another file merged into: they stay, as
    #: that file's. (id, key)
    brought_later: list[tuple[int, str]] = field(default_factory=list)
    reverted: int = 0
    #: Papers with a column the import changed and something changed again since: that
    #: column is left as it is now. (id, key, columns)
    changed_since: list[tuple[int, str, list[str]]] = field(default_factory=list)
    #: Papers the import merged into with no record of what it changed (an import made
    #: before such records were kept): left as they are.
    unrecorded: int = 0
    #: Papers already in the library the import brought replies to (reviews, decisions):
    #: the replies are kept.
    replies_kept: int = 0


def dumps(value: dict[str, Any]) -> str:
    """A dict column as stored: JSON, ``{}`` when empty."""
    return _encode(value) if value else "{}"


def dumps_list(value: list[str]) -> str:
    """A list column (authors, keywords) as stored: JSON."""
    return _encode(value) if value else "[]"


# One encoder for every row: ``json.dumps`` with options builds a new one per call, a
# fifth of the cost of writing the four JSON columns of each paper an import adds.
_encode = json.JSONEncoder(ensure_ascii=False).encode


@contextmanager
def checkpoints_put_off(conn: sqlite3.Connection) -> Iterator[None]:
    """Let the write-ahead log grow to IMPORT_WAL_PAGES while a batched import commits.

    SQLite copies the log into the database (and syncs both) at the first commit past a
    thousand pages: a batch of an import is several thousand, so every batch waited for a
    copy of itself, a sixth of the writing. One import in a single transaction (the
    command line's) grows the log as far anyway. The log is copied once the papers show
    (:meth:`reader.store.base.StoreBase.checkpoint`), or at the next commit past the usual
    thousand pages."""
    (usual,) = conn.execute("PRAGMA wal_autocheckpoint").fetchone()
    conn.execute(f"PRAGMA wal_autocheckpoint = {IMPORT_WAL_PAGES}")
    try:
        yield
    finally:
        conn.execute(f"PRAGMA wal_autocheckpoint = {usual}")


class ImportRows:
    """One import's writes, inside the transaction open on ``store``'s connection: made
    when the import starts, it enters the import in the history and takes a generation."""

    def __init__(self, store: StoreBase, source: str, fmt: str, sha256: str | None) -> None:
        self.store = store
        self.conn = conn = store.conn
        self.source = source
        self.stamp = now()
        self.generation = store.bump_generation()
        import_id = conn.execute(
            "INSERT INTO imports (path, format, imported_at, read, new, present, sha256, pid) "
            "VALUES (?, ?, ?, 0, 0, 0, ?, ?)",
            (source, fmt, self.stamp, sha256, os.getpid()),
        ).lastrowid
        assert import_id is not None
        self.import_id = import_id
        #: Whether the library held no paper when the import started.
        self.library_was_empty = conn.execute("SELECT count(*) FROM papers").fetchone()[0] == 0
        # Aliases added to each paper since its last update_paper (kept for undo).
        self._aliases: dict[int, list[str]] = {}

    def next_batch(self) -> None:
        """A new transaction of a batched import: its own generation."""
        self.generation = self.store.bump_generation()

    def known(self) -> Iterator[tuple[int, str | None, str | None, str | None, str | None,
                                      str, int | None, int]]:
        """Every paper's identifying columns: id, doi, arxiv_id, openreview_id,
        abstract_key, title, year, title_derived."""
        yield from self.conn.execute(
            "SELECT id, doi, arxiv_id, openreview_id, abstract_key, title, year, title_derived "
            "FROM papers"
        )

    def abstracts(self) -> Iterator[tuple[int, str]]:
        """Every paper's id and abstract (the papers that have one)."""
        yield from self.conn.execute("SELECT id, abstract FROM papers WHERE abstract != ''")

    def taken_keys(self) -> set[str]:
        """Every citation key and alias in the library."""
        return {row[0] for row in self.conn.execute(
            "SELECT citekey FROM papers UNION ALL SELECT alias FROM citekey_aliases"
        )}

    def identity(self, paper_id: int) -> tuple[Any, ...] | None:
        """A paper's doi, arxiv_id, openreview_id, authors (JSON), title, title_derived,
        venue, CSL type and kind."""
        row = self.conn.execute(
            "SELECT doi, arxiv_id, openreview_id, authors, title, title_derived, venue, "
            "json_extract(csl, '$.type'), kind FROM papers WHERE id = ?", (paper_id,)
        ).fetchone()
        return tuple(row) if row else None

    def key_of(self, paper_id: int) -> str:
        """A paper's citation key ('' for none)."""
        row = self.conn.execute("SELECT citekey FROM papers WHERE id = ?", (paper_id,)).fetchone()
        return str(row[0]) if row else ""

    def current(self, column: str, value: object) -> dict[str, Any] | None:
        """The merge columns (MERGE_NAMES) of the paper with this id or key."""
        row = self.conn.execute(
            f"SELECT {_MERGE_COLUMNS} FROM papers WHERE {column} = ?", (value,)
        ).fetchone()
        return dict(zip(MERGE_NAMES, row, strict=True)) if row else None

    def insert_paper(
        self,
        record: PaperRecord,
        *,
        abstract_key: str | None,
        doi: str | None,
        arxiv_id: str | None,
        citekey: str,
        origin: str,
    ) -> int:
        """Add a paper (and the note that came with it, as its first version)."""
        paper_id = self.conn.execute(
            "INSERT INTO papers (title, title_derived, abstract, abstract_key, authors, venue, "
            "year, keywords, url, doi, citekey, source, added_at, updated_at, generation, "
            "arxiv_id, openreview_id, date, withdrawn, tldr, primary_area, kind, csl, extra, "
            "citekey_origin, text_modified) "
            "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (
                record.title,
                int(record.title_derived),
                record.abstract,
                abstract_key,
                dumps_list(record.authors),
                record.venue,
                record.year,
                dumps_list(record.keywords),
                record.url,
                doi,
                citekey,
                record.source or self.source,
                self.stamp,
                self.stamp,
                self.generation,
                arxiv_id,
                record.openreview_id,
                record.date,
                int(record.withdrawn),
                record.tldr,
                record.primary_area,
                record.kind,
                dumps(record.csl),
                dumps(record.extra),
                origin,
                record.modified,
            ),
        ).lastrowid
        assert paper_id is not None
        if record.note and record.note.strip():
            self._add_note(paper_id, record.note)
        if record.tags:
            # The source library's tags are the new paper's first tags; a paper already
            # there keeps the tags its user gave it.
            self.conn.executemany(
                "INSERT OR IGNORE INTO tags (paper_id, tag) VALUES (?, ?)",
                [(paper_id, tag) for tag in record.tags],
            )
        self._add_marks(paper_id, record)
        return paper_id

    def _add_marks(self, paper_id: int, record: PaperRecord) -> None:
        """A new paper's star, read mark and highlights from a reader library's export;
        each highlight is placed by its quote, as on a revised abstract."""
        if record.starred or record.read:
            read_at = self.stamp if record.read else None
            self.conn.execute(
                "UPDATE papers SET starred = ?, read_at = ?, seen_at = ? WHERE id = ?",
                (int(record.starred), read_at, read_at, paper_id),
            )
        if record.highlights:
            self.conn.executemany(
                "INSERT INTO highlights (paper_id, start, end, quote, note, created_at) "
                "VALUES (?, 0, 0, ?, ?, ?)",
                [(paper_id, quote, note, self.stamp) for quote, note in record.highlights],
            )
            reanchor(self.conn, paper_id, record.abstract)

    def _add_note(self, paper_id: int, note: str) -> None:
        """The source's note (Zotero's child notes) as the paper's first note version."""
        version = self.conn.execute(
            "INSERT INTO note_versions (paper_id, body, saved_at, writer, kind) "
            "VALUES (?, ?, ?, 'an import', 'save')",
            (paper_id, note, self.stamp),
        ).lastrowid
        self.conn.execute(
            "INSERT INTO notes (paper_id, body, updated_at, version_id) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (paper_id) DO NOTHING",
            (paper_id, note, self.stamp, version),
        )

    def fill_marks(self, paper_id: int, record: PaperRecord, *, undoable: bool) -> list[str]:
        """Give a paper already here the record's note and tags where it has none (nothing
        of the user's is replaced; a star or a read mark is never the file's); what it got
        (``["note", "tags a, b"]``), kept for undo when ``undoable`` (not a paper just added)."""
        filled: list[str] = []
        given: dict[str, object] = {"tags": [], "note": None}
        if record.note and record.note.strip() and not self.conn.execute(
            "SELECT 1 FROM notes WHERE paper_id = ? AND trim(body) != ''", (paper_id,)
        ).fetchone():
            self.conn.execute("DELETE FROM notes WHERE paper_id = ?", (paper_id,))
            self._add_note(paper_id, record.note)
            filled.append("note")
            given["note"] = record.note
        if record.tags and not self.conn.execute(
            "SELECT 1 FROM tags WHERE paper_id = ?", (paper_id,)
        ).fetchone():
            self.conn.executemany("INSERT OR IGNORE INTO tags (paper_id, tag) VALUES (?, ?)",
                                  [(paper_id, tag) for tag in record.tags])
            filled.append(f"tags {', '.join(record.tags)}")
            given["tags"] = list(record.tags)
        if filled and undoable:  # taken away again by an undo, as a merge's columns are
            keep_revision(self.conn, paper_id, MERGE_CHANGES, json.dumps(
                {"before": {}, "after": {}, "aliases": [], **given}, ensure_ascii=False),
                None, stamp=self.stamp, import_id=self.import_id)
        return filled

    def citekey_of(self, paper_id: int) -> str:
        """A paper's citation key, as the summary names it."""
        return str(self.conn.execute(
            "SELECT citekey FROM papers WHERE id = ?", (paper_id,)).fetchone()[0])

    def add_tags(self, paper_id: int, tags: list[str]) -> bool:
        """Give the paper those of ``tags`` it has not; whether it got any."""
        before = self.conn.total_changes
        self.conn.executemany("INSERT OR IGNORE INTO tags (paper_id, tag) VALUES (?, ?)",
                              [(paper_id, tag) for tag in tags])
        return self.conn.total_changes > before

    def marks_differ(self, paper_id: int, record: PaperRecord) -> bool:
        """Whether the record carries marks of the user's (a reader library's export)
        other than those the paper has: a star, a read mark, tags, a note, highlights."""
        if not (record.starred or record.read or record.tags or record.note
                or record.highlights):
            return False
        row = self.conn.execute(
            "SELECT p.starred, p.read_at IS NOT NULL, coalesce(n.body, ''), "
            "(SELECT json_group_array(tag) FROM tags WHERE paper_id = p.id), "
            # An export's highlights in replies are not read back (no export carries the
            # replies): the abstract's alone are compared.
            "(SELECT json_group_array(quote) FROM highlights "
            "WHERE paper_id = p.id AND reply_id IS NULL) "
            "FROM papers p LEFT JOIN notes n ON n.paper_id = p.id WHERE p.id = ?",
            (paper_id,),
        ).fetchone()
        if row is None:
            return False
        if not (record.starred or record.read or record.tags or record.highlights):
            # A note alone is all such a record says (Zotero's RIS, whose notes are the
            # user's and whose tags are no different from its keywords).
            return bool(row[2].strip() != (record.note or "").strip())
        return (
            bool(row[0]) != record.starred or bool(row[1]) != record.read
            or row[2].strip() != (record.note or "").strip()
            or set(json.loads(row[3])) != set(record.tags)
            or sorted(json.loads(row[4])) != sorted(q for q, _ in record.highlights)
        )

    def add_alias(self, alias: str, paper_id: int) -> None:
        """Let the paper answer to ``alias`` too."""
        self.conn.execute(
            "INSERT INTO citekey_aliases (alias, paper_id) VALUES (?, ?)", (alias, paper_id)
        )
        self._aliases.setdefault(paper_id, []).append(alias)

    def keep_revision(self, paper_id: int, field: str, text: str, modified: str | None) -> None:
        """Keep the title or abstract a merge is about to replace, as a revision the user
        can read and restore (:mod:`reader.store.revisions`)."""
        keep_revision(self.conn, paper_id, field, text, modified, stamp=self.stamp,
                      import_id=self.import_id)

    def update_paper(self, paper_id: int, updates: dict[str, Any]) -> None:
        """Write the merged columns, stamped with the import's time and generation; a new
        abstract moves the paper's highlights onto it. What the columns held before, and
        the aliases added, are kept for undo (MERGE_CHANGES)."""
        aliases = self._aliases.pop(paper_id, [])
        if updates or aliases:
            names = list(updates)
            row = self.conn.execute(
                f"SELECT {', '.join(names) or 'id'} FROM papers WHERE id = ?", (paper_id,)
            ).fetchone()
            before = dict(zip(names, row, strict=True)) if names and row else {}
            keep_revision(
                self.conn, paper_id, MERGE_CHANGES,
                json.dumps({"before": before, "after": updates, "aliases": aliases},
                           ensure_ascii=False),
                None, stamp=self.stamp, import_id=self.import_id,
            )
        updates = {**updates, "updated_at": self.stamp, "generation": self.generation}
        assignments = ", ".join(f"{column} = ?" for column in updates)
        self.conn.execute(
            f"UPDATE papers SET {assignments} WHERE id = ?", (*updates.values(), paper_id)
        )
        if "abstract" in updates:
            reanchor(self.conn, paper_id, updates["abstract"])

    def write_history(self, actions: Iterable[tuple[int, str]], summary: ImportSummary) -> None:
        """Record what happened to these papers (an action replaces the one written
        before, by an earlier batch) and the import's counts so far. A paper left as it was
        is recorded only where no import of this file recorded it before: a conference list
        imported again wrote a megabyte of such rows each time, but a paper another file
        brought too is one an undo of the first file keeps."""
        self.conn.executemany(
            "INSERT INTO import_items (import_id, paper_id, action) SELECT ?1, ?2, ?3 "
            "WHERE ?3 != 'unchanged' OR NOT EXISTS (SELECT 1 FROM import_items j JOIN imports "
            "k ON k.id = j.import_id WHERE j.paper_id = ?2 AND k.path = ?4 AND k.id != ?1) "
            "ON CONFLICT (import_id, paper_id) DO UPDATE SET action = excluded.action",
            [(self.import_id, paper_id, action, self.source) for paper_id, action in actions],
        )
        self.conn.execute(
            "UPDATE imports SET read = ?, new = ?, present = ?, merged = ?, unchanged = ?, "
            "skipped = ? WHERE id = ?",
            (summary.read, summary.new, summary.merged + summary.unchanged, summary.merged,
             summary.unchanged, summary.skipped, self.import_id),
        )


def import_source(conn: sqlite3.Connection, paper_id: int) -> tuple[str, str] | None:
    """The file and format of the newest import (not undone) that held a paper."""
    row = conn.execute(
        "SELECT i.path, i.format FROM import_items t JOIN imports i ON i.id = t.import_id "
        "WHERE t.paper_id = ? AND i.undone_at IS NULL ORDER BY i.id DESC LIMIT 1",
        (paper_id,),
    ).fetchone()
    return (row[0], row[1]) if row else None
