"""The library database: papers, notes and marks in SQLite, the source of truth.

One :class:`Store` wraps one SQLite connection (WAL, foreign keys on, a busy timeout so a
second process waits instead of failing). Schema changes are numbered SQL files in ``db/``
applied by ``PRAGMA user_version``. Every write that the search index must see bumps the
library *generation* and stamps the changed rows with it, so the index can catch up on
exactly what changed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from reader.parts import Part
from reader.store.base import (
    BUSY_TIMEOUT_MS,
    PaperNotFound,
    StoreDamaged,
    StoreError,
    migrations,
)
from reader.store.reading import RELEVANCE, SORT_KEYS, Reading, read_papers
from reader.text.identifiers import CITEKEY

if TYPE_CHECKING:
    from reader.store.edits import Edits
    from reader.store.import_history import ImportHistory
    from reader.store.marks import Marks
    from reader.store.revisions import Revisions

__all__ = [
    "BUSY_TIMEOUT_MS", "CITEKEY", "RELEVANCE", "SORT_KEYS", "PaperNotFound", "Store",
    "StoreDamaged", "StoreError", "migrations", "read_papers",
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

    # The parts are made on first use, and their modules imported then: the reader's first
    # frame reads papers and writes nothing, and importing what writes an import's rows,
    # its history and its revisions held that frame back.
    marks: Part[Marks] = Part("reader.store.marks", "Marks")
    edits: Part[Edits] = Part("reader.store.edits", "Edits")
    imports: Part[ImportHistory] = Part("reader.store.import_history", "ImportHistory")
    revisions: Part[Revisions] = Part("reader.store.revisions", "Revisions")
