"""The history of imports: the latest of a file looked up, an import finished (taking over
what a run of the same file stopped part way had changed), the last one undone."""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Callable
from typing import TYPE_CHECKING

from reader.processes import process_alive
from reader.store.clock import now
from reader.store.highlights import reanchor
from reader.store.import_rows import MERGE_CHANGES, UndoResult
from reader.store.paper_signals import SIGNALS_CHANGES, revert_signals
from reader.store.revisions import TEXT_FIELDS

if TYPE_CHECKING:
    from reader.store.database import Store

__all__ = ["USERS_WORK", "ImportHistory"]

#: Whether paper ``p`` carries anything of the user's, which undoing an import keeps: a
#: star, a read mark, a note (or a note's earlier version), a tag, a highlight, a key typed.
USERS_WORK = (
    "(p.starred OR p.read_at IS NOT NULL OR p.citekey_origin = 'user' "
    "OR EXISTS (SELECT 1 FROM notes n WHERE n.paper_id = p.id AND trim(n.body) != '') "
    "OR EXISTS (SELECT 1 FROM note_versions v WHERE v.paper_id = p.id) "
    "OR EXISTS (SELECT 1 FROM tags t WHERE t.paper_id = p.id) "
    "OR EXISTS (SELECT 1 FROM highlights h WHERE h.paper_id = p.id))"
)


def _held_alone(item: str) -> str:
    """Whether the import_items row ``item`` is of a paper its import left as it was and no
    other import in effect holds (the import that added it undone, this one bringing it
    too): the paper is this import's now, and goes with it."""
    return (f"({item}.action = 'unchanged' AND NOT EXISTS (SELECT 1 FROM import_items j "
            f"JOIN imports k ON k.id = j.import_id WHERE j.paper_id = {item}.paper_id "
            f"AND k.id != {item}.import_id AND k.undone_at IS NULL))")


#: Whether the import ``i`` left anything to undo: papers it added or changed, or papers
#: it holds alone.
_UNDOABLE = ("(new > 0 OR merged > 0 OR EXISTS (SELECT 1 FROM import_items t "
             f"WHERE t.import_id = i.id AND {_held_alone('t')}))")


class _RolledBack(Exception):
    """A dry run's undo, rolled back with what it did (control flow, never shown)."""

    def __init__(self, result: UndoResult) -> None:
        super().__init__("rolled back")
        self.result = result

class ImportHistory:
    """The imports of a library (``store.imports``)."""

    def __init__(self, store: Store) -> None:
        """A part of ``store``, writing through its connection and transactions."""
        self._store = store

    def previous_import(self, source: str) -> tuple[str, str] | None:
        """Time and sha256 of the latest import of ``source`` (not undone), if any."""
        row = self._store.conn.execute(
            "SELECT imported_at, coalesce(sha256, '') FROM imports "
            "WHERE path = ? AND undone_at IS NULL ORDER BY id DESC LIMIT 1",
            (source,),
        ).fetchone()
        return (row[0], row[1]) if row else None

    def writing_replies(self) -> tuple[int, int] | None:
        """An import of OpenReview papers that has written its papers and is still writing
        their replies, in another process alive (a window's, another terminal's):
        how many of its papers have their replies in, of how many; None when there is
        none. (An import killed part way stays unfinished, its process gone.)"""
        conn = self._store.conn
        row = conn.execute(
            "SELECT id, pid FROM imports WHERE finished_at IS NULL AND undone_at IS NULL "
            "AND format = 'openreview' AND pid IS NOT NULL ORDER BY id DESC LIMIT 1"
        ).fetchone()
        # This process asks between its own imports (a window imports in a child): one
        # of its own left unfinished was stopped by an error, not writing.
        if row is None or int(row[1]) == os.getpid() or not process_alive(int(row[1])):
            return None
        papers, replied = conn.execute(
            "SELECT count(*), coalesce(sum(EXISTS (SELECT 1 FROM replies r "
            "WHERE r.paper_id = t.paper_id)), 0) FROM import_items t WHERE t.import_id = ?",
            (row[0],),
        ).fetchone()
        return (int(replied), int(papers)) if papers else None

    def stopped(self) -> list[tuple[str, str]]:
        """The imports stopped part way (a kill, a full disk): neither finished nor undone,
        no process of theirs running, and the file not imported whole since; each file
        with the time it began."""
        rows = self._store.conn.execute(
            "SELECT path, imported_at, pid FROM imports AS i "
            "WHERE finished_at IS NULL AND undone_at IS NULL AND NOT EXISTS (SELECT 1 FROM "
            "imports AS later WHERE later.path = i.path AND later.id > i.id "
            "AND later.finished_at IS NOT NULL AND later.undone_at IS NULL) ORDER BY id"
        ).fetchall()
        return [(path, at) for path, at, pid in rows
                if pid is None or int(pid) == os.getpid() or not process_alive(int(pid))]

    def finish_import(self, source: str) -> tuple[int, int]:
        """Mark the latest import of ``source`` finished; when the one before it, of the
        same file, was stopped part way, take over what that one changed: the papers whose
        ratings it changed, or whose decision it gave, are this import's (the two are one
        import of the file, as ``is:rating-changed`` and the summary count it). Returns
        how many papers' ratings and decisions it took over."""
        with self._store.transaction() as conn:
            rows = conn.execute(
                "SELECT id, coalesce(sha256, ''), finished_at FROM imports "
                "WHERE path = ? AND undone_at IS NULL ORDER BY id DESC LIMIT 2",
                (source,),
            ).fetchall()
            if not rows:
                return 0, 0
            current = rows[0][0]
            conn.execute("UPDATE imports SET finished_at = ? WHERE id = ?", (now(), current))
            if len(rows) < 2 or rows[1][2] is not None or rows[1][1] != rows[0][1]:
                return 0, 0
            stopped = rows[1][0]
            ratings = conn.execute(
                "UPDATE paper_signals SET ratings_changed_import = ? "
                "WHERE ratings_changed_import = ?", (current, stopped)
            ).rowcount
            decisions = conn.execute(
                "UPDATE paper_signals SET decided_import = ? WHERE decided_import = ?",
                (current, stopped),
            ).rowcount
            return ratings, decisions

    def undo_last_import(self, dry_run: bool = False) -> UndoResult | None:
        """Undo the last import that added or changed papers: remove the papers it added,
        except those carrying the user's work, and put back the columns and aliases of the
        papers it merged into (a column changed again since is left as it is now). An
        import that changed nothing, such as the same file again, would leave nothing to
        undo and hide the one before: it is passed over. Replies it brought to papers
        already there are kept. A ``dry_run`` does it all and rolls it back: what it says
        is what the undo would do."""
        try:
            return self._undo_last_import(dry_run)
        except _RolledBack as done:
            return done.result

    def _undo_last_import(self, dry_run: bool) -> UndoResult | None:
        row = self._store.conn.execute(
            f"SELECT id FROM imports i WHERE undone_at IS NULL AND {_UNDOABLE} "
            "ORDER BY id DESC LIMIT 1"
        ).fetchone()
        # Undone by another process between the look and the undo: the next one is last.
        return None if row is None else self._undo(row[0], dry_run) or self._undo_last_import(
            dry_run)

    def undone_paths(self) -> list[str]:
        """The files of the imports undone."""
        rows = self._store.conn.execute(
            "SELECT DISTINCT path FROM imports WHERE undone_at IS NOT NULL").fetchall()
        return [path for (path,) in rows]

    def undo_imports_of(self, named: Callable[[str], bool], dry_run: bool = False
                        ) -> list[UndoResult]:
        """Undo every import (not undone yet, that added or changed papers) of a file
        ``named`` says is the one, the latest first, as the last import is undone; a paper
        one of them added that a later import of another file merged into stays, as a
        paper of that file (see :meth:`_undo`)."""
        rows = self._store.conn.execute(
            f"SELECT id, path FROM imports i WHERE undone_at IS NULL AND {_UNDOABLE} "
            "ORDER BY id DESC"
        ).fetchall()
        results = []
        for import_id, path in rows:
            if named(path):
                try:
                    result = self._undo(import_id, dry_run)
                except _RolledBack as done:
                    result = done.result
                if result is not None:
                    results.append(result)
        return results

    def _undo(self, import_id: int, dry_run: bool) -> UndoResult | None:
        """Undo one import; None when another process undid it first."""
        with self._store.transaction() as conn:
            path, undone = conn.execute(
                "SELECT path, undone_at FROM imports WHERE id = ?", (import_id,)
            ).fetchone()
            if undone is not None:
                return None
            result = UndoResult(path)
            # A later import of another file that merged into a paper brought it too.
            added = conn.execute(
                f"SELECT p.id, p.citekey, {USERS_WORK}, EXISTS (SELECT 1 FROM import_items j "
                "JOIN imports k ON k.id = j.import_id WHERE j.paper_id = p.id "
                "AND j.import_id > i.import_id AND k.undone_at IS NULL AND k.path != ?) "
                "FROM import_items i JOIN papers p ON p.id = i.paper_id "
                f"WHERE i.import_id = ? AND (i.action = 'new' OR {_held_alone('i')})",
                (path, import_id),
            ).fetchall()
            generation = self._store.bump_generation()
            doomed = []
            for paper_id, citekey, carries_work, brought_later in added:
                if carries_work:
                    result.kept.append((paper_id, citekey))
                elif brought_later:
                    result.brought_later.append((paper_id, citekey))
                else:
                    doomed.append((paper_id, generation))
            conn.executemany(
                "INSERT OR REPLACE INTO deleted_papers (paper_id, generation) VALUES (?, ?)",
                doomed,
            )
            conn.executemany("DELETE FROM papers WHERE id = ?", [(d[0],) for d in doomed])
            self._revert_merges(conn, import_id, generation, result)
            conn.execute("UPDATE imports SET undone_at = ? WHERE id = ?", (now(), import_id))
            result.removed = len(doomed)
            if dry_run:
                raise _RolledBack(result)
        return result

    def _revert_merges(
        self, conn: sqlite3.Connection, import_id: int, generation: int, result: UndoResult
    ) -> None:
        """Put back what the import changed in papers already there, newest change first,
        each column only where it still holds what the import wrote; drop the import's
        revisions of the texts put back."""
        merged = conn.execute(
            "SELECT p.id, p.citekey FROM import_items i JOIN papers p ON p.id = i.paper_id "
            "WHERE i.import_id = ? AND i.action NOT IN ('new', 'unchanged')",
            (import_id,),
        ).fetchall()
        for paper_id, citekey in merged:
            changes = conn.execute(
                "SELECT id, body FROM paper_revisions WHERE paper_id = ? AND import_id = ? "
                "AND field = ? ORDER BY id DESC",
                (paper_id, import_id, MERGE_CHANGES),
            ).fetchall()
            replied = conn.execute(
                "SELECT 1 FROM reply_versions v JOIN replies r ON r.id = v.reply_id "
                "WHERE v.import_id = ? AND r.paper_id = ? LIMIT 1", (import_id, paper_id),
            ).fetchone()
            if replied:
                result.replies_kept += 1
                signals_back = None  # they stay as the replies kept make them
                conn.execute(
                    "DELETE FROM paper_revisions WHERE paper_id = ? AND import_id = ? "
                    "AND field = ?", (paper_id, import_id, SIGNALS_CHANGES),
                )
            else:
                signals_back = revert_signals(conn, paper_id, import_id)
            if not changes:
                if signals_back:
                    conn.execute("UPDATE papers SET generation = ? WHERE id = ?",
                                 (generation, paper_id))
                    result.reverted += 1
                elif signals_back is False:
                    result.changed_since.append((paper_id, citekey, ["signals"]))
                elif not replied:
                    result.unrecorded += 1
                continue
            left: list[str] = []
            restored: dict[str, object] = {}
            for revision_id, body in changes:
                change = json.loads(body)
                after: dict[str, object] = change.get("after", {})
                current = conn.execute(
                    f"SELECT {', '.join(after) or 'id'} FROM papers WHERE id = ?", (paper_id,)
                ).fetchone()
                for (column, value), now_value in zip(after.items(), current, strict=False):
                    if now_value == value or column in restored:
                        restored[column] = change["before"].get(column)
                    elif column not in left:
                        left.append(column)
                conn.executemany(
                    "DELETE FROM citekey_aliases WHERE alias = ? AND paper_id = ?",
                    [(alias, paper_id) for alias in change.get("aliases", [])],
                )
                conn.executemany("DELETE FROM tags WHERE paper_id = ? AND tag = ?",
                                 [(paper_id, tag) for tag in change.get("tags", [])])
                if change.get("note") is not None:  # the note it gave, unless written since
                    note = conn.execute("SELECT body FROM notes WHERE paper_id = ?",
                                        (paper_id,)).fetchone()
                    if note is not None and note[0] == change["note"]:
                        conn.execute("DELETE FROM notes WHERE paper_id = ?", (paper_id,))
                    elif note is not None and "note" not in left:
                        left.append("note")
                conn.execute("DELETE FROM paper_revisions WHERE id = ?", (revision_id,))
            for column in [c for c in restored if c in left]:
                del restored[column]
            if restored:
                assignments = ", ".join(f"{column} = ?" for column in restored)
                conn.execute(
                    f"UPDATE papers SET {assignments}, updated_at = ?, generation = ? "
                    "WHERE id = ?", (*restored.values(), now(), generation, paper_id),
                )
                if "abstract" in restored:
                    reanchor(conn, paper_id, str(restored["abstract"]))
            put_back = [f for f in TEXT_FIELDS if f in restored]
            conn.executemany(
                "DELETE FROM paper_revisions WHERE paper_id = ? AND import_id = ? AND field = ?",
                [(paper_id, import_id, f) for f in put_back],
            )
            conn.execute("UPDATE papers SET generation = ? WHERE id = ?", (generation, paper_id))
            result.reverted += 1
            if left:
                result.changed_since.append((paper_id, citekey, left))
