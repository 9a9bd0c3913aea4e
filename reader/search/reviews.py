"""The index of review text: a second Whoosh index, beside the papers' own, whose document
for a paper is the words of all its replies (reviews, meta-reviews, decisions, comments).

It is built with the same machinery as the papers' index (worker processes writing
segments, each published as it is written, so ``review:`` searches run over the papers
indexed so far) and kept apart so that review text never delays the abstracts: the
library builds it only once the papers' index has caught up. Its generation file records
the library generation it was brought to; the library keeps, beside it, the mark of the
replies it holds (see reader.library.reviews).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar, Protocol

from whoosh.fields import ID, STORED, TEXT, Schema

from reader.search.analysis import STEMMED
from reader.search.index import SearchIndex
from reader.search.index_writing import ToDocument

__all__ = ["REVIEW_FIELDS", "ReviewIndex", "review_document", "review_schema"]

#: The one field a ``review:`` query searches.
REVIEW_FIELDS = ("review",)


class ReviewItem(Protocol):
    """What the index is handed for a paper: its id, the words of its replies, and a
    digest of the replies they come from."""

    id: int
    text: str
    digest: str


def review_schema() -> Schema:
    """The schema of the index of review text."""
    return Schema(
        id=ID(stored=True, unique=True),
        digest=STORED(),
        review=TEXT(analyzer=STEMMED),
    )


#: The characters of a paper's review text indexed, at most: ten times the longest
#: discussion of ICLR 2026, and a bound on what one paper's words cost to index.
REVIEW_CHARS = 1_000_000


def review_document(item: Any) -> dict[str, object]:
    """The index document of a paper's review text (a ReviewItem), its first
    :data:`REVIEW_CHARS`."""
    return {"id": str(item.id), "digest": item.digest, "review": item.text[:REVIEW_CHARS]}


class ReviewIndex(SearchIndex):
    """The index of review text of one library (searched as a SearchIndex is)."""

    FIELDS: ClassVar[tuple[str, ...]] = REVIEW_FIELDS
    BOOSTS: ClassVar[dict[str, float]] = {}
    def _make_schema(self) -> Schema:
        return review_schema()

    def _to_document(self) -> ToDocument:
        return review_document

    def digests_of(self, ids: Iterable[int]) -> dict[int, str]:
        """The digest of the documents of the papers ``ids`` the index holds, by paper
        id: a lookup of each id's term, not a read of every document."""
        with self._lock:
            searcher = self._current_searcher()
            out = {}
            for paper_id in ids:
                fields = searcher.document(id=str(paper_id))
                if fields is not None:
                    out[paper_id] = str(fields.get("digest", ""))
            return out
