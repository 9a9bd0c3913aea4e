"""Marks on papers: stars, seen and read, tags, highlights and saved searches."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from reader.store.chunks import in_chunks
from reader.store.clock import now

if TYPE_CHECKING:
    from reader.store.database import Store

    pass

from reader.store.base import LAST_IMPORT_ITEMS, PaperNotFound, StoreError


class Marks:
    """Marks on papers (``store.marks``)."""

    def __init__(self, store: Store) -> None:
        """A part of ``store``, writing through its connection and transactions."""
        self._store = store

    def flagged_ids(self, flag: str) -> set[int]:
        """Papers with a mark or from the last import: ``starred``, ``notes``,
        ``highlighted``, ``new``,
        ``changed`` (retitled, revised or withdrawn by the last import), ``withdrawn``."""
        queries = {
            "starred": "SELECT id FROM papers WHERE starred = 1",
            "notes": "SELECT paper_id FROM notes WHERE trim(body) != ''",
            "highlighted": "SELECT DISTINCT paper_id FROM highlights",
            "withdrawn": "SELECT id FROM papers WHERE withdrawn = 1",
            "seen": "SELECT id FROM papers WHERE seen_at IS NOT NULL",
            "unseen": "SELECT id FROM papers WHERE seen_at IS NULL",
            "read": "SELECT id FROM papers WHERE read_at IS NOT NULL",
            "unread": "SELECT id FROM papers WHERE read_at IS NULL",
            "new": LAST_IMPORT_ITEMS + " AND action = 'new'",
            "changed": LAST_IMPORT_ITEMS
            + " AND action IN ('retitled', 'revised', 'withdrawn')",
        }
        return {row[0] for row in self._store.conn.execute(queries[flag])}

    def set_starred(self, paper_id: int, starred: bool) -> tuple[int, bool]:
        """Star or unstar a paper; returns the new generation and whether the mark moved
        (it was not so already), which is how the count of starred papers moved."""
        with self._store.transaction() as conn:
            row = conn.execute("SELECT starred FROM papers WHERE id = ?", (paper_id,)).fetchone()
            if row is None:
                raise PaperNotFound(f"no paper with id {paper_id}")
            generation = self._store.bump_generation()
            conn.execute(
                "UPDATE papers SET starred = ?, updated_at = ?, generation = ? WHERE id = ?",
                (int(starred), now(), generation, paper_id),
            )
        return generation, bool(row[0]) != starred

    def mark_seen(self, paper_ids: Iterable[int]) -> int:
        """Record that papers were shown; returns how many were seen for the first time.

        Seen and read change no generation: the search index doesn't hold them, so a
        paper passing through the detail pane costs one small write and no re-indexing.
        """
        wanted = list(paper_ids)
        changed = 0
        stamp = now()
        with self._store.transaction() as conn:
            for chunk, marks in in_chunks(wanted):
                changed += conn.execute(
                    f"UPDATE papers SET seen_at = ? WHERE seen_at IS NULL AND id IN ({marks})",
                    (stamp, *chunk),
                ).rowcount
        return changed

    def set_read(self, paper_id: int, read: bool) -> None:
        """Mark a paper read (and so seen) or unread."""
        stamp = now()
        with self._store.transaction() as conn:
            cur = conn.execute(
                "UPDATE papers SET read_at = ?, seen_at = coalesce(seen_at, ?) WHERE id = ?",
                (stamp if read else None, stamp, paper_id),
            )
            if cur.rowcount == 0:
                raise PaperNotFound(f"no paper with id {paper_id}")

    def triage_counts(self) -> dict[str, int]:
        """Papers in the library, and how many are seen, read, starred and have notes."""
        # Each count reads a partial index (or the small notes table), never every row:
        # the status line asks after every write.
        row = self._store.conn.execute(
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
        for chunk, marks in in_chunks(wanted):
            unseen += self._store.conn.execute(
                f"SELECT count(*) FROM papers WHERE seen_at IS NULL AND id IN ({marks})", chunk
            ).fetchone()[0]
        return unseen

    def first_unseen(self, ids: list[int], start: int = 0) -> int | None:
        """The position in ``ids`` of the first unseen paper at or after ``start``."""
        offset = start
        for chunk, marks in in_chunks(ids, start):
            unseen = {
                r[0]
                for r in self._store.conn.execute(
                    f"SELECT id FROM papers WHERE seen_at IS NULL AND id IN ({marks})", chunk
                )
            }
            for n, paper_id in enumerate(chunk):
                if paper_id in unseen:
                    return offset + n
            offset += len(chunk)
        return None

    def set_tags(self, paper_id: int, tags: Iterable[str]) -> int:
        """Give a paper exactly these tags (already normalised); returns the generation."""
        wanted = sorted(set(tags))
        with self._store.transaction() as conn:
            generation = self._store.touch(conn, [paper_id])
            conn.execute("DELETE FROM tags WHERE paper_id = ?", (paper_id,))
            conn.executemany(
                "INSERT INTO tags (paper_id, tag) VALUES (?, ?)", [(paper_id, t) for t in wanted]
            )
        return generation

    def tagged_ids(self, tag: str) -> set[int]:
        """Papers carrying ``tag``."""
        rows = self._store.conn.execute("SELECT paper_id FROM tags WHERE tag = ?", (tag,))
        return {r[0] for r in rows}

    def all_tags(self) -> list[tuple[str, int]]:
        """Every tag in use and how many papers carry it, most used first."""
        return [
            (r[0], r[1])
            for r in self._store.conn.execute(
                "SELECT tag, count(*) FROM tags GROUP BY tag ORDER BY count(*) DESC, tag"
            )
        ]

    def rename_tag(self, old: str, new: str) -> int:
        """Rename a tag across the library (merging into ``new`` where both are present);
        returns how many papers carried ``old``."""
        with self._store.transaction() as conn:
            ids = [r[0] for r in conn.execute("SELECT paper_id FROM tags WHERE tag = ?", (old,))]
            if not ids or old == new:
                return len(ids)
            self._store.touch(conn, ids)
            conn.execute("UPDATE OR IGNORE tags SET tag = ? WHERE tag = ?", (new, old))
            conn.execute("DELETE FROM tags WHERE tag = ?", (old,))
        return len(ids)

    def delete_tag(self, tag: str) -> int:
        """Remove a tag from every paper; returns how many carried it."""
        with self._store.transaction() as conn:
            ids = [r[0] for r in conn.execute("SELECT paper_id FROM tags WHERE tag = ?", (tag,))]
            if ids:
                self._store.touch(conn, ids)
                conn.execute("DELETE FROM tags WHERE tag = ?", (tag,))
        return len(ids)

    def add_highlight(
        self, paper_id: int, start: int, end: int, quote: str, note: str = "",
        reply_id: str | None = None,
    ) -> int:
        """Store a highlighted passage of the abstract, or of the reply ``reply_id``;
        returns its id."""
        with self._store.transaction() as conn:
            self._store.touch(conn, [paper_id])
            cur = conn.execute(
                "INSERT INTO highlights (paper_id, start, end, quote, note, created_at, "
                "reply_id) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (paper_id, start, end, quote, note, now(), reply_id),
            )
        return int(cur.lastrowid or 0)

    def set_highlight_note(self, highlight_id: int, note: str) -> None:
        """Change the note of a highlight."""
        with self._store.transaction() as conn:
            row = conn.execute(
                "SELECT paper_id FROM highlights WHERE id = ?", (highlight_id,)
            ).fetchone()
            if row is None:
                raise StoreError(f"no highlight with id {highlight_id}")
            self._store.touch(conn, [row[0]])
            conn.execute("UPDATE highlights SET note = ? WHERE id = ?", (note, highlight_id))

    def delete_highlight(self, highlight_id: int) -> None:
        """Remove a highlight."""
        with self._store.transaction() as conn:
            row = conn.execute(
                "SELECT paper_id FROM highlights WHERE id = ?", (highlight_id,)
            ).fetchone()
            if row is None:
                return
            self._store.touch(conn, [row[0]])
            conn.execute("DELETE FROM highlights WHERE id = ?", (highlight_id,))

    def save_search(self, name: str, query: str) -> None:
        """Save a query under a name (replacing one of the same name)."""
        with self._store.transaction() as conn:
            conn.execute(
                "INSERT INTO saved_searches (name, query, created_at) VALUES (?, ?, ?) "
                "ON CONFLICT (name) DO UPDATE SET query = excluded.query",
                (name, query, now()),
            )

    def saved_searches(self) -> list[tuple[str, str]]:
        """Saved searches as (name, query), in the order they were saved."""
        return [
            (r[0], r[1])
            for r in self._store.conn.execute(
                "SELECT name, query FROM saved_searches ORDER BY created_at, name"
            )
        ]

    def delete_saved_search(self, name: str) -> bool:
        """Forget a saved search; False when there was none of that name."""
        with self._store.transaction() as conn:
            return conn.execute("DELETE FROM saved_searches WHERE name = ?", (name,)).rowcount > 0
