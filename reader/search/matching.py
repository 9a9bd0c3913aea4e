"""Running a query over a searcher: its matches ranked with arrays (reader.search.ranking)
or by Whoosh's own matchers, and the search context both use."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from whoosh.collectors import WrappingCollector
from whoosh.query import Query
from whoosh.searching import Searcher

from reader.search.query import SearchCancelled


def run(searcher: Searcher, query: Query, top: int | None,
        cancelled: Callable[[], bool] | None) -> tuple[Any, Any]:
    """The document numbers and scores of every match of ``query``, best first: two
    arrays. With ``top``, only the first ``top`` of them are in rank order (the rest
    follow in no order).

    Matches are ranked with arrays (reader.search.ranking: every match scored at once, as Whoosh
    scores it, a segment at a time), several times faster than Whoosh's matchers, which
    score them one by one (and whose top-N search still scores most matches of an AND of
    common words); any query that module does not know goes to Whoosh."""
    from reader.search.ranking import ranked  # numpy: loaded with the first search

    found = ranked(searcher, query, cancelled, top=top)
    if found is not None:
        return found
    # Every match ranked: Whoosh's top-N search over trees of unions can leave out one of
    # the best (the third of `setting learning` in a test), as its unions drop a part
    # whose best score seems too low to matter.
    collector = searcher.collector(limit=None)
    if cancelled is not None:
        collector = _Cancellable(collector, cancelled)
    searcher.search_with_collector(query, collector, matching_context(searcher))
    hits = list(collector.results())
    return [hit.docnum for hit in hits], [float(hit.score or 0.0) for hit in hits]


class _Cancellable(WrappingCollector):  # type: ignore[misc]  # untyped base
    """Collects what its child collects, and gives up (SearchCancelled) once ``cancelled()``
    is true, asked every few dozen matches: ranking the matches of common words in a large
    library takes from a tenth of a second to seconds, and by then the user has typed the
    next letter (whose search would wait for this one)."""

    def __init__(self, child: Any, cancelled: Callable[[], bool]) -> None:
        super().__init__(child)
        self._cancelled = cancelled

    def collect_matches(self) -> None:
        child = self.child
        for n, sub_docnum in enumerate(child.matches()):
            if not n % 64 and self._cancelled():
                raise SearchCancelled
            child.collect(sub_docnum)


def matching_context(searcher: Any) -> Any:
    """The search context both ways of ranking use: one whose matchers can say what they
    match at every step. In a segment of at most 5,000 documents Whoosh otherwise builds an
    Or of three parts or more as an array-backed union, which scores its first 2,048
    documents one by one as it is built, and adds the parts' scores in another order than
    a tree of unions does (floats added in another order may differ in their last bit);
    with this context every Or is a tree of unions, in every segment, for both."""
    return searcher.context(needs_current=True)
