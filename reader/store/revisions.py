"""Revisions of papers' text: the titles and abstracts an import (or a restore) replaced.

An import puts a record's text over a paper's when the record is not older-dated than the
text the paper has (which is decided in :mod:`reader.intake.fields`); the text it replaces
is kept here, one row per title or abstract, so that the user can read it and put it back
(``reader revisions REF``), as note versions are kept (:mod:`reader.store.notes`).
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from typing import TYPE_CHECKING

from reader.store.base import StoreError
from reader.store.clock import now
from reader.store.highlights import reanchor
from reader.store.notes import local_time

if TYPE_CHECKING:
    from reader.store.database import Store

#: The fields whose replaced text is kept: a newer snapshot's TL;DR and keywords replace
#: the older ones as its title and abstract do (keywords kept as the column holds them, a
#: JSON list).
TEXT_FIELDS = ("title", "abstract", "tldr", "keywords")


@dataclass(frozen=True, slots=True)
class TextRevision:
    """A title or abstract a paper had before something replaced it; ``number`` counts
    from 1 per paper, oldest first."""

    id: int
    number: int
    field: str
    text: str
    #: The modification date of the record the text came from, when the source gave one.
    modified: str | None
    replaced_at: str
    #: What replaced it: ``import`` (with the file's path, when known) or ``restore``.
    kind: str
    source: str = ""

    def shown(self) -> str:
        """The text as a reader reads it: keywords joined by commas, not their JSON."""
        if self.field != "keywords":
            return self.text
        try:
            words = json.loads(self.text)
        except ValueError:
            return self.text
        return ", ".join(str(word) for word in words) if isinstance(words, list) else self.text

    def summary(self) -> str:
        """One line for a list of revisions."""
        dated = f"dated {self.modified[:10]}" if self.modified else "undated"
        by = f"an import of {self.source}" if self.kind == "import" and self.source \
            else "a restore" if self.kind == "restore" else "an import"
        first = " ".join(self.shown().split())
        return (
            f"{self.number:>3}  {self.field:<8}  replaced {local_time(self.replaced_at)} "
            f"by {by}  ({dated}, {len(self.text):,} characters)  {first[:40]}"
        )


def keep_revision(
    conn: sqlite3.Connection,
    paper_id: int,
    field: str,
    text: str,
    modified: str | None,
    *,
    stamp: str,
    import_id: int | None = None,
    kind: str = "import",
) -> None:
    """Keep a paper's ``field`` text as it was before it is replaced (inside the caller's
    transaction)."""
    conn.execute(
        "INSERT INTO paper_revisions (paper_id, field, body, modified, replaced_at, "
        "import_id, kind) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (paper_id, field, text, modified, stamp, import_id, kind),
    )


class Revisions:
    """Papers' replaced texts (``store.revisions``)."""

    def __init__(self, store: Store) -> None:
        """A part of ``store``, writing through its connection and transactions."""
        self._store = store

    def text_revisions(self, paper_id: int) -> list[TextRevision]:
        """Every kept title and abstract of a paper, oldest first."""
        rows = self._store.conn.execute(
            "SELECT r.id, r.field, r.body, r.modified, r.replaced_at, r.kind, "
            "coalesce(i.path, '') FROM paper_revisions r "
            "LEFT JOIN imports i ON i.id = r.import_id "
            f"WHERE r.paper_id = ? AND r.field IN {TEXT_FIELDS!r} ORDER BY r.id",
            (paper_id,),
        ).fetchall()
        return [TextRevision(r[0], n, r[1], r[2], r[3], r[4], r[5], r[6])
                for n, r in enumerate(rows, start=1)]

    def restore_revision(self, paper_id: int, revision_id: int,
                         abstract_key: str | None = None) -> int:
        """Make a kept text the paper's again; the text it replaces is kept as a revision in
        turn. ``abstract_key`` is the identity of a restored abstract (the import logic
        computes it). Returns the generation of the write."""
        with self._store.transaction() as conn:
            row = conn.execute(
                "SELECT field, body, modified FROM paper_revisions WHERE id = ? AND paper_id = ?",
                (revision_id, paper_id),
            ).fetchone()
            if row is None:
                raise StoreError(f"paper {paper_id} has no revision {revision_id}")
            field, body, modified = row
            if field not in TEXT_FIELDS:
                raise StoreError(f"a revision of {field!r} cannot be restored")
            current = conn.execute(
                f"SELECT {field}, text_modified FROM papers WHERE id = ?", (paper_id,)
            ).fetchone()
            if current is None:
                raise StoreError(f"no paper with id {paper_id}")
            stamp = now()
            keep_revision(conn, paper_id, field, current[0], current[1], stamp=stamp,
                          kind="restore")
            generation = self._store.bump_generation()
            updates: dict[str, object] = {field: body, "text_modified": modified}
            if field == "abstract":
                updates["abstract_key"] = abstract_key
            elif field == "title":
                updates["title_derived"] = 0
            updates.update(updated_at=stamp, generation=generation)
            assignments = ", ".join(f"{column} = ?" for column in updates)
            conn.execute(f"UPDATE papers SET {assignments} WHERE id = ?",
                         (*updates.values(), paper_id))
            if field == "abstract":
                reanchor(conn, paper_id, body)
        return generation
