"""Changing papers by hand: citation keys, notes saved as versions (merged with another
writer's), metadata edited. (Imports are written by :mod:`reader.store.import_rows`, and
looked up, finished and undone by :mod:`reader.store.import_history`.)"""

from __future__ import annotations

import json
import sqlite3
from typing import TYPE_CHECKING

from reader.record import date_parts, iso_from_parts
from reader.store.base import StoreError, key_owner
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
from reader.text.identifiers import CITEKEY

if TYPE_CHECKING:
    from reader.store.database import Store

#: Variables of the bibliographic record the details form edits.
_RECORD_EDITS = ("type", "volume", "issue", "page", "publisher", "publisher-place", "editor")



class Edits:
    """Changing papers (``store.edits``)."""

    def __init__(self, store: Store) -> None:
        """A part of ``store``, writing through its connection and transactions."""
        self._store = store

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
                # Imported when two saves meet, which no start waits for.
                from reader.text.notemerge import merge

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
