"""What the front ends read from the library and the small settings they write: papers and
their list rows, counts, tags, saved searches, remembered choices, the state other
writers leave.

Each call borrows a connection for its length (:meth:`Library.session`), so it is safe
from the UI thread and from short-lived worker threads alike, and no front end holds a
store of its own.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from reader.library.changes import METADATA, Change
from reader.library.door import translating
from reader.models import Paper, PaperRow

if TYPE_CHECKING:
    from reader.library.core import Library
    from reader.store.revisions import TextRevision
    from reader.store.watch import LibraryState


@translating
class Queries:
    """Reads and settings, each on a borrowed connection (``library.queries``)."""

    def __init__(self, library: Library) -> None:
        """A part of ``library``, reached through its connections and its other parts."""
        self._library = library

    def paper(self, paper_id: int) -> Paper | None:
        """One paper with its note, or None."""
        with self._library.session() as store:
            return store.paper(paper_id)

    def papers(self, ids: Iterable[int]) -> list[Paper]:
        """Papers with their notes, in the order of ``ids``."""
        with self._library.session() as store:
            return store.papers(ids)

    def rows(self, ids: Iterable[int]) -> dict[int, PaperRow]:
        """The list columns of the given papers, keyed by id (missing ids are left out)."""
        with self._library.session() as store:
            return store.rows(ids)

    def all_ids(self) -> list[int]:
        """Every paper id in the default browsing order (the order they were added)."""
        with self._library.session() as store:
            return store.all_ids()

    def sort_ids(self, ids: list[int], order: str) -> list[int]:
        """``ids`` in one of the orders of ``SORT_KEYS``."""
        with self._library.session() as store:
            return store.sort_ids(ids, order)

    def flagged_ids(self, flag: str) -> set[int]:
        """Papers with a mark or from the last import (``starred``, ``notes``, ``new``, …)."""
        with self._library.session() as store:
            return store.marks.flagged_ids(flag)

    def first_unseen(self, ids: list[int], start: int = 0) -> int | None:
        """The position in ``ids`` of the first unseen paper at or after ``start``."""
        with self._library.session() as store:
            return store.marks.first_unseen(ids, start)

    def count_unseen(self, ids: Iterable[int]) -> int:
        """How many of ``ids`` are not stored as seen."""
        with self._library.session() as store:
            return store.marks.count_unseen(ids)

    def stats(self) -> dict[str, int]:
        """Counts of papers, stars and notes; reads every row, so damage shows here."""
        with self._library.session() as store:
            return store.stats()

    def triage_counts(self) -> dict[str, int]:
        """Papers in the library, and how many are seen, read, starred and have notes."""
        with self._library.session() as store:
            return store.marks.triage_counts()

    def generation(self) -> int:
        """The generation of the library's last change."""
        with self._library.session() as store:
            return store.generation()

    def state(self, shown: Sequence[int] = ()) -> LibraryState:
        """What other writers have left: counts and generation in one read, and how many
        of the papers ``shown`` as seen are not stored as seen yet."""
        from reader.store.watch import library_state

        with self._library.session() as store:
            return library_state(store, shown)

    def all_tags(self) -> list[tuple[str, int]]:
        """Every tag in use and how many papers carry it, most used first."""
        with self._library.session() as store:
            return store.marks.all_tags()

    def holder(self, column: str, value: str) -> Paper | None:
        """The paper whose citation key (``column`` "citekey") or DOI ("doi") is ``value``."""
        with self._library.session() as store:
            return store.holder(column, value)

    def set_citekey(self, paper_id: int, citekey: str) -> Change:
        """Give a paper the key the user chose (notes and marks stay with the paper); the
        index, which finds a paper by its keys, follows."""
        with self._library.session() as store:
            generation = store.edits.set_citekey(paper_id, citekey)
        return self._library.wrote(Change.of(paper_id, METADATA, generation=generation))

    def text_revisions(self, paper_id: int) -> list[TextRevision]:
        """The titles and abstracts imports (or restores) replaced in a paper, oldest
        first."""
        with self._library.session() as store:
            return store.revisions.text_revisions(paper_id)

    def restore_revision(self, paper_id: int, revision: TextRevision) -> Change:
        """Make a kept title, abstract, TL;DR or keywords the paper's again (the text it
        replaces is kept as a revision in turn); the index follows."""
        # Imported here: restoring is rare, and the identity code is not the first view's.
        from reader.intake.identity import abstract_key

        key = abstract_key(revision.text) if revision.field == "abstract" else None
        with self._library.session() as store:
            generation = store.revisions.restore_revision(paper_id, revision.id, key)
        return self._library.wrote(Change.of(paper_id, METADATA, generation=generation))

    def get_meta(self, key: str, default: str | None = None) -> str | None:
        """A remembered setting (the sort order, the last citation style chosen, …)."""
        with self._library.session() as store:
            return store.get_meta(key, default)

    def set_meta(self, key: str, value: str) -> None:
        """Remember a setting."""
        with self._library.session() as store:
            store.set_meta(key, value)

    def saved_searches(self) -> list[tuple[str, str]]:
        """Saved searches as (name, query), in the order they were saved."""
        with self._library.session() as store:
            return store.marks.saved_searches()

    def save_search(self, name: str, query: str) -> None:
        """Save a query under a name (replacing one of the same name)."""
        with self._library.session() as store:
            store.marks.save_search(name, query)

    def delete_saved_search(self, name: str) -> bool:
        """Forget a saved search; False when there was none of that name."""
        with self._library.session() as store:
            return store.marks.delete_saved_search(name)

