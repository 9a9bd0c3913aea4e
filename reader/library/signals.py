"""What the front ends read of conference signals: a paper's replies (reviews,
meta-reviews, decisions, comments) and the signals of a list of papers (mean rating,
ratings, decision, counts), each on a borrowed connection."""

from __future__ import annotations

from collections.abc import Iterable

from reader.library.base import LibraryBase
from reader.signals import Reply, Signals
from reader.store import signals as stored


class SignalReads(LibraryBase):
    """Reads of replies and signals (mixed into :class:`reader.library.core.Library`)."""

    def replies(self, paper_id: int) -> list[Reply]:
        """A paper's replies, each as its newest version, oldest first."""
        with self.session() as store:
            return stored.replies_of(store.conn, paper_id)

    def signals(self, ids: Iterable[int]) -> dict[int, Signals]:
        """The signals of the papers among ``ids`` that have some, by paper id."""
        with self.session() as store:
            return stored.signals_rows(store.conn, list(ids))
