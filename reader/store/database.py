"""The library database: papers, notes and marks in SQLite, the source of truth.

One :class:`Store` wraps one SQLite connection (WAL, foreign keys on, a busy timeout so a
second process waits instead of failing). Schema changes are numbered SQL files in ``db/``
applied by ``PRAGMA user_version``. Every write that the search index must see bumps the
library *generation* and stamps the changed rows with it, so the index can catch up on
exactly what changed.
"""

from __future__ import annotations

from pathlib import Path

from reader.store.base import (
    BUSY_TIMEOUT_MS,
    PaperNotFound,
    StoreDamaged,
    StoreError,
    migrations,
)
from reader.store.edits import Edits, edited_record
from reader.store.import_history import ImportHistory
from reader.store.marks import Marks
from reader.store.reading import RELEVANCE, SORT_KEYS, Reading, read_papers
from reader.store.revisions import Revisions
from reader.text.identifiers import CITEKEY

__all__ = [
    "BUSY_TIMEOUT_MS", "CITEKEY", "RELEVANCE", "SORT_KEYS", "PaperNotFound", "Store",
    "StoreDamaged", "StoreError", "edited_record", "migrations", "read_papers",
]


class Store(Reading):
    """Access to one library database from one thread.

    The connection, schema, transactions and settings are in reader/store/base.py, and
    reading papers in reading.py: the store's own methods. What writes the reader's own
    work is in parts it is composed of, each reached by name: ``store.marks`` (stars, seen
    and read marks, tags, highlights, saved searches: marks.py), ``store.edits`` (notes
    and their versions, keys, metadata edits, undoing an import: edits.py) and
    ``store.revisions`` (the titles and abstracts imports replaced: revisions.py). The
    rows an import writes are in import_rows.py.
    """

    def __init__(self, path: Path, read_only: str | None = None) -> None:
        """Open the database at ``path`` (:class:`reader.store.base.StoreBase`), with its
        parts."""
        self.marks = Marks(self)
        self.edits = Edits(self)
        self.imports = ImportHistory(self)
        self.revisions = Revisions(self)
        super().__init__(path, read_only)
