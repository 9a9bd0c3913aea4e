"""A library on disk: the database, the search index kept in step with it, and the
operations the CLI and the UI share (import, search, star, note, cite)."""

from __future__ import annotations

from reader.library.annotations import Annotations
from reader.library.base import LibraryBase, Progress
from reader.library.door import translating
from reader.library.fetching import OpenReviewFetching
from reader.library.imports import Imports
from reader.library.indexing import INDEX_PROCS, PARALLEL_MIN, Indexing
from reader.library.queries import Queries
from reader.library.recovery import KINDS as RECOVERABLE_KINDS
from reader.library.recovery import Recoverable, Recovery
from reader.library.reviews import ReviewIndexing
from reader.library.searching import PROFILE_SIZE, Resolution, Searching, SearchOutcome
from reader.library.signals import SignalReads
from reader.library.upkeep import DoctorReport, Upkeep, damaged_advice, restore_damaged

__all__ = [
    "INDEX_PROCS", "PARALLEL_MIN", "PROFILE_SIZE", "RECOVERABLE_KINDS", "DoctorReport",
    "Library", "Progress", "Recoverable", "Resolution", "SearchOutcome", "damaged_advice",
    "restore_damaged",
]


@translating
class Library(
    Searching, Indexing, ReviewIndexing, Imports, Recovery, Annotations, Upkeep, Queries,
    SignalReads, OpenReviewFetching, LibraryBase,
):
    """One library directory; thread-safe, with one SQLite connection per thread.

    Composed by what it does: connections (base.py), imports, the index kept in step
    (indexing.py), searching, the reader's marks and notes (annotations.py), backups and
    the doctor (upkeep.py), and the reads the front ends need (queries.py, and signals.py
    for conference signals); the index of review text (reviews.py); fetching replies from
    OpenReview (fetching.py).

    What its methods raise is a :class:`reader.errors.ReaderError` (or control flow: a
    search cancelled, a build stopped): SQLite's, the disk's and Whoosh's errors are
    translated on the way out (door.py).
    """
