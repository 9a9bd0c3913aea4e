"""The library database: papers, notes and marks in SQLite, the source of truth.

One :class:`Store` wraps one SQLite connection (WAL, foreign keys on, a busy timeout so a
second process waits instead of failing). Schema changes are numbered SQL files in ``db/``
applied by ``PRAGMA user_version``. Every write that the search index must see bumps the
library *generation* and stamps the changed rows with it, so the index can catch up on
exactly what changed.
"""

from __future__ import annotations

from reader.store.base import BUSY_TIMEOUT_MS, StoreBase, StoreError, migrations
from reader.store.edits import Edits, edited_record
from reader.store.marks import Marks
from reader.store.reading import SORT_KEYS, Reading, read_papers
from reader.store.revisions import Revisions
from reader.text.identifiers import CITEKEY

__all__ = [
    "BUSY_TIMEOUT_MS", "CITEKEY", "SORT_KEYS", "Store", "StoreError", "edited_record",
    "migrations", "read_papers",
]


class Store(Reading, Marks, Edits, Revisions, StoreBase):
    """Access to one library database from one thread."""

    # The connection, schema and transactions are in reader/store/base.py; reading papers in
    # reading.py; stars, seen and read marks, tags, highlights and saved searches in
    # marks.py; undoing imports, keys, notes and metadata edits in edits.py; the titles and
    # abstracts imports replaced in revisions.py (the rows an import writes are in
    # import_rows.py).
