"""Changing papers: imports looked up and undone, citation keys, notes saved as versions
(merged with another writer's), metadata edited by hand. (An import's rows are written by
:mod:`reader.store.import_rows`, as the layer above decides them.)"""

from __future__ import annotations

import json
import sqlite3
from typing import TYPE_CHECKING

from reader.record import date_parts, iso_from_parts
from reader.store.base import StoreError, key_owner
from reader.store.clock import now
from reader.store.highlights import reanchor
from reader.store.import_rows import MERGE_CHANGES, UndoResult
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
from reader.store.paper_signals import SIGNALS_CHANGES, revert_signals
from reader.store.revisions import TEXT_FIELDS
from reader.text.identifiers import CITEKEY
from reader.text.notemerge import merge

if TYPE_CHECKING:
    from reader.store.database import Store

#: Whether paper ``p`` carries anything of the user's, which undoing an import keeps: a
#: star, a read mark, a note (or a note's earlier version), a tag, a highlight, a key typed.
USERS_WORK = (
    "(p.starred OR p.read_at IS NOT NULL OR p.citekey_origin = 'user' "
    "OR EXISTS (SELECT 1 FROM notes n WHERE n.paper_id = p.id AND trim(n.body) != '') "
    "OR EXISTS (SELECT 1 FROM note_versions v WHERE v.paper_id = p.id) "
    "OR EXISTS (SELECT 1 FROM tags t WHERE t.paper_id = p.id) "
    "OR EXISTS (SELECT 1 FROM highlights h WHERE h.paper_id = p.id))"
)

#: Variables of the bibliographic record the details form edits.
_RECORD_EDITS = ("type", "volume", "issue", "page", "publisher", "publisher-place", "editor")



class _RolledBack(Exception):
    """A dry run's undo, rolled back with what it did (control flow, never shown)."""

    def __init__(self, result: UndoResult) -> None:
        super().__init__("rolled back")
        self.result = result

class Edits:
    """Changing papers (``store.edits``)."""

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
        with self._store.transaction() as conn:
            row = conn.execute(
                "SELECT id, path FROM imports WHERE undone_at IS NULL "
                "AND (new > 0 OR merged > 0) ORDER BY id DESC LIMIT 1"
            ).fetchone()
            if row is None:
                return None
            import_id, path = row
            result = UndoResult(path)
            added = conn.execute(
                f"SELECT p.id, p.citekey, {USERS_WORK} "
                "FROM import_items i JOIN papers p ON p.id = i.paper_id "
                "WHERE i.import_id = ? AND i.action = 'new'",
                (import_id,),
            ).fetchall()
            generation = self._store.bump_generation()
            doomed = []
            for paper_id, citekey, carries_work in added:
                if carries_work:
                    result.kept.append((paper_id, citekey))
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

    def set_citekey(self, paper_id: int, citekey: str) -> int:
        """Give a paper the key the user chose; notes and marks hang on the paper's id, so a
        new key changes nothing else."""
        if not CITEKEY.fullmatch(citekey):
            raise StoreError(
                f"{citekey!r} is not a usable citation key (letters, digits and _-:./+ only, "
                "starting with a letter, digit or _)"
            )
        with self._store.transaction() as conn:
            owner = key_owner(conn, citekey, paper_id)
            if owner is not None:
                raise StoreError(f"the key {citekey!r} already belongs to paper {owner}")
            # The paper's own alias may become its key: a key is never an alias as well.
            conn.execute("DELETE FROM citekey_aliases WHERE alias = ?", (citekey,))
            keep_old_key(conn, paper_id, citekey)
            generation = self._store.bump_generation()
            cur = conn.execute(
                "UPDATE papers SET citekey = ?, updated_at = ?, generation = ? WHERE id = ?",
                (citekey, now(), generation, paper_id),
            )
            if cur.rowcount == 0:
                raise StoreError(f"no paper with id {paper_id}")
        return generation

    def note(self, paper_id: int) -> NoteState:
        """A paper's note as stored now, with the version that holds it."""
        row = self._store.conn.execute(
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
        with self._store.transaction() as conn:
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
            generation = self._store.bump_generation()
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
        rows = self._store.conn.execute(
            "SELECT id, body, saved_at, writer, kind, conflicts FROM note_versions "
            "WHERE paper_id = ? ORDER BY id",
            (paper_id,),
        ).fetchall()
        return [NoteVersion(r[0], n, r[1], r[2], r[3], r[4], r[5])
                for n, r in enumerate(rows, start=1)]

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
        with self._store.transaction() as conn:
            if record or "authors" in values or "doi" in values or "year" in values:
                row = conn.execute(
                    "SELECT csl, date FROM papers WHERE id = ?", (paper_id,)
                ).fetchone()
                if row is None:
                    raise StoreError(f"no paper with id {paper_id}")
                csl = edited_record(json.loads(row[0] or "{}"), record, values.get("authors"))
                if "doi" in values:
                    csl.pop("DOI", None)  # the source's spelling of the DOI typed over
                if "year" in values:
                    # A date of another year (or of a year cleared) no longer dates it:
                    # styles cite the issued date before the year.
                    year = values["year"]
                    issued = date_parts(iso_from_parts(csl.get("issued")))
                    if year is None or not issued or issued[0] != year:
                        csl.pop("issued", None)
                    if row[1] and (year is None or not str(row[1]).startswith(f"{year}")):
                        updates["date"] = None
                updates["csl"] = json.dumps(csl, ensure_ascii=False) if csl else "{}"
            for column in ("citekey", "doi"):
                value = updates.get(column)
                if value is None:
                    continue
                if column == "citekey":
                    owner = key_owner(conn, str(value), paper_id)
                    if owner is None:
                        conn.execute("DELETE FROM citekey_aliases WHERE alias = ?", (value,))
                        keep_old_key(conn, paper_id, str(value))
                else:
                    row = conn.execute(
                        "SELECT id FROM papers WHERE doi = ? AND id != ?", (value, paper_id)
                    ).fetchone()
                    owner = row[0] if row else None
                if owner is not None:
                    label = "key" if column == "citekey" else "DOI"
                    raise StoreError(f"the {label} {value!r} already belongs to paper {owner}")
            generation = self._store.bump_generation()
            updates.update(updated_at=now(), generation=generation)
            assignments = ", ".join(f"{column} = ?" for column in updates)
            cur = conn.execute(
                f"UPDATE papers SET {assignments} WHERE id = ?", (*updates.values(), paper_id)
            )
            if cur.rowcount == 0:
                raise StoreError(f"no paper with id {paper_id}")
        return generation


def keep_old_key(conn: sqlite3.Connection, paper_id: int, citekey: str) -> None:
    """Keep a paper's key as its alias before it becomes ``citekey``, so that documents
    citing the old key still find the paper (unless another paper has that key)."""
    row = conn.execute("SELECT citekey FROM papers WHERE id = ?", (paper_id,)).fetchone()
    old = row[0] if row else None
    if old and old != citekey and key_owner(conn, old, paper_id) is None:
        conn.execute(
            "INSERT OR IGNORE INTO citekey_aliases (alias, paper_id) VALUES (?, ?)",
            (old, paper_id),
        )


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
