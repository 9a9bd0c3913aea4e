"""Reading papers: list rows, whole papers with their notes, what changed since a
generation (for the index), counts, orders, plain-text matches."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from reader.models import Highlight, Paper, PaperRow
from reader.store.base import BUSY_TIMEOUT_MS, StoreBase, key_owner
from reader.store.chunks import in_chunks
from reader.store.signal_queries import SIGNAL_ORDERS, signal_sort_keys
from reader.store.walk import walk
from reader.text.pattern import Pattern

_PAPER_COLUMNS = (
    "p.id, p.title, p.title_derived, p.abstract, p.authors, p.venue, p.year, p.keywords, "
    "p.url, p.doi, p.citekey, p.starred, coalesce(n.body, ''), p.added_at, p.arxiv_id, "
    "p.openreview_id, p.date, p.withdrawn, p.tldr, p.primary_area, p.kind, "
    "(SELECT json_group_array(tag) FROM (SELECT tag FROM tags WHERE paper_id = p.id "
    "ORDER BY tag)), "
    "(SELECT json_group_array(json_array(id, start, end, quote, note, orphaned, reply_id, "
    "moved, (SELECT kind || ' · ' || signer FROM replies WHERE note_id = h.reply_id))) "
    "FROM (SELECT * FROM highlights h WHERE paper_id = p.id "
    "ORDER BY reply_id IS NOT NULL, reply_id, orphaned, start) h), "
    "p.seen_at IS NOT NULL, p.read_at IS NOT NULL, p.csl, p.extra, "
    "(SELECT json_group_array(alias) FROM (SELECT alias FROM citekey_aliases "
    "WHERE paper_id = p.id ORDER BY alias)), "
    "(SELECT decision FROM paper_signals WHERE paper_id = p.id)"
)

#: The order of a search's ranking (of addition, when browsing): a view's order unless
#: another is asked for.
RELEVANCE = "relevance"

#: How the papers of a view can be ordered, and the column each order reads.
SORT_KEYS = {
    RELEVANCE: "id",
    "title": "title",
    "year": "year",
    "added": "id",
    "starred": "starred",
    # Read from the conference signals (reader.store.signal_queries), highest first.
    "rating": "rating_mean",
    "spread": "rating_std",
    "weighted": "rating_mean",
}

_TEX_MARKUP = Pattern(r"[{}$]|\\[A-Za-z]+\s*|\\.")


class Reading(StoreBase):
    """Reading papers: the store's own reads, under :class:`reader.store.database.Store`."""

    def count(self) -> int:
        """Number of papers in the library."""
        return int(self.conn.execute("SELECT count(*) FROM papers").fetchone()[0])

    def stats(self) -> dict[str, int]:
        """Counts shown by ``reader stats``."""
        # A walk through every row, on purpose: the reader checks the database with this
        # before it starts, and damage is only found where it is read.
        return walk(self.conn)

    def all_ids(self) -> list[int]:
        """Every paper id in the default browsing order (the order they were added)."""
        # Where no paper was ever deleted, the ids are every number from the least to the
        # most: three seeks and a count of index pages (under a millisecond at 200,000
        # papers, where reading them is 25 ms beside the first frame's imports).
        least, most, count = self.conn.execute(
            "SELECT (SELECT min(id) FROM papers), (SELECT max(id) FROM papers),"
            " (SELECT count(*) FROM papers)"
        ).fetchone()
        if not count:
            return []
        if most - least + 1 == count:
            return list(range(least, most + 1))
        # Without ORDER BY, SQLite reads the ids from a small covering index instead of
        # walking every row, abstracts and all (45 ms instead of 200 ms at 200,000 papers).
        # As one row: SQLite then reads them all in one call, which lets other threads run
        # (the reader reads them while it imports its interface), where a row at a time
        # holds the interpreter for 50–90 ms.
        joined = self.conn.execute("SELECT group_concat(id) FROM papers").fetchone()[0]
        # Read as a JSON array: one call in C, three times faster than int() on each of
        # them (15 ms instead of 45 at 200,000 papers, while the interface is imported).
        ids: list[int] = json.loads(f"[{joined}]") if joined else []
        ids.sort()
        return ids

    def rows(self, ids: Iterable[int]) -> dict[int, PaperRow]:
        """The list columns of the given papers, keyed by id (missing ids are left out)."""
        wanted = list(ids)
        out: dict[int, PaperRow] = {}
        for chunk, marks in in_chunks(wanted):
            sql = (
                "SELECT p.id, p.title, p.title_derived, p.venue, p.year, p.starred, "
                "n.paper_id IS NOT NULL AND trim(n.body) != '', "
                "(SELECT group_concat(tag, ' ') FROM "
                "(SELECT tag FROM tags WHERE paper_id = p.id ORDER BY tag)), "
                "p.seen_at IS NOT NULL, p.read_at IS NOT NULL, s.rating_mean, s.decision "
                "FROM papers p LEFT JOIN notes n ON n.paper_id = p.id "
                # The conference signals the row shows, in the same read: a page of the
                # list stays one statement.
                "LEFT JOIN paper_signals s ON s.paper_id = p.id "
                f"WHERE p.id IN ({marks})"
            )
            for r in self.conn.execute(sql, chunk):
                out[r[0]] = PaperRow(
                    r[0], r[1], bool(r[2]), r[3], r[4], bool(r[5]), bool(r[6]),
                    tuple((r[7] or "").split()), bool(r[8]), bool(r[9]), r[10], r[11],
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
        for chunk, marks in in_chunks(wanted):
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
        owner = key_owner(self.conn, citekey)
        return owner

    def sort_ids(self, ids: list[int], order: str) -> list[int]:
        """``ids`` in the given order: ``relevance`` (as given), ``title``, ``year`` (newest
        first), ``added`` (newest first), ``starred`` (starred first, otherwise as given),
        ``rating`` (mean rating, highest first), ``spread`` (the most divided ratings
        first) or ``weighted`` (confidence-weighted rating, highest first), the last three
        read against each paper's rating scale (:func:`signal_sort_keys`); papers without
        the value last, in the order given."""
        if order not in SORT_KEYS or order == RELEVANCE or len(ids) < 2:
            return ids
        column = SORT_KEYS[order]
        keys: dict[int, Any]
        if order in SIGNAL_ORDERS:
            keys = signal_sort_keys(self.conn, order)
        elif len(ids) > 5_000:
            keys = dict(self.conn.execute(f"SELECT id, {column} FROM papers"))
        else:
            keys = {}
            for chunk, marks in in_chunks(ids):
                keys.update(
                    self.conn.execute(
                        f"SELECT id, {column} FROM papers WHERE id IN ({marks})", chunk
                    )
                )
        if order == "title":
            return sorted(ids, key=lambda i: _title_order(str(keys.get(i) or "")))
        # Descending, with papers lacking the value last; sorted() keeps ties as given.
        return sorted(ids, key=lambda i: (keys.get(i) is None, -(keys.get(i) or 0)))

    def holder(self, column: str, value: str) -> Paper | None:
        """The paper whose citation key (``column`` "citekey") or DOI ("doi") is ``value``."""
        if column not in ("citekey", "doi"):
            raise ValueError(column)
        if column == "citekey":
            owner = key_owner(self.conn, value)
            return self.paper(owner) if owner is not None else None
        row = self.conn.execute(f"SELECT id FROM papers WHERE {column} = ?", (value,)).fetchone()
        return self.paper(row[0]) if row else None


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


def _paper(r: tuple[Any, ...]) -> Paper:
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
            Highlight(h[0], r[0], h[1], h[2], h[3], h[4], bool(h[5]), h[6], bool(h[7]),
                      h[8] or "")
            for h in json.loads(r[22] or "[]")
        ],
        seen=bool(r[23]),
        read=bool(r[24]),
        csl=json.loads(r[25] or "{}"),
        extra=json.loads(r[26] or "{}"),
        aliases=json.loads(r[27] or "[]"),
        decision=r[28],
    )


def _title_order(title: str) -> str:
    """What a title sorts by: a BibTeX title is stored as TeX, whose braces and commands
    do not count."""
    if "{" in title or "\\" in title:
        title = _TEX_MARKUP.sub("", title)
    return title.casefold()
