"""What a search of the index finds: the matches ranked (reader.search.ranking, or Whoosh),
the papers they are, and what is kept of a search that looked up only its best matches so
that the rest follow without searching again (:func:`completed`).

Whoosh is not imported here: the library's searches begin with these, and a window's first
paint need not wait for Whoosh (a quarter of what reader's own modules cost it); matching is in
reader.search.matching."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Rest:
    """Every match a search ranked, of which it looked up only the best: the documents and
    their scores (the best in order, the others after them in no order), of the searcher
    that found them, in the index at ``where``; the lock under which the index uses its
    searcher, and whether that searcher is still the index's own (and so open)."""

    searcher: Any
    docs: Any
    scores: Any
    where: str
    lock: Any
    current: Callable[[], bool]


@dataclass(frozen=True, slots=True)
class Hits:
    """Paper ids in rank order and the words to highlight."""

    ids: list[int]
    scores: list[float] = field(default_factory=list)
    terms: frozenset[str] = field(default_factory=frozenset)
    fell_back: bool = False
    #: How many papers match in all (``ids`` may hold only the best of them); None when
    #: not counted (see SearchIndex.search).
    total: int | None = None
    #: When ``ids`` are only the best matches: every match as ranked, for the rest to be
    #: looked up without searching again (SearchIndex.complete); None when they are all.
    rest: Rest | None = field(default=None, compare=False, repr=False)


def distinct_papers(
    ids: list[int], scores: list[float], total: int | None, looked_up: int
) -> tuple[list[int], list[float], int | None]:
    """The ids of ``looked_up`` documents with each paper once, at its best place: during a
    catch-up a changed paper's old and new documents may both be there."""
    if len(set(ids)) == len(ids):
        return ids, scores, total
    first = dict(zip(reversed(ids), reversed(scores), strict=True))
    ids = list(dict.fromkeys(ids))
    if total is not None:
        total -= looked_up - len(ids)
    return ids, [first[i] for i in ids], total


def completed(hits: Hits) -> Hits | None:
    """``hits`` of a search with a limit, with every match: the rest put in order as a
    search of every match orders them (by score, ties in the order found) and looked up,
    with no search again; None when the index changed since (the searcher that ranked
    them is gone: search again)."""
    import numpy as np

    from reader.search.paper_ids import paper_ids  # numpy: loaded with the first search

    rest = hits.rest
    if rest is None:
        return hits
    scores = np.asarray(rest.scores, dtype=float)
    order = np.argsort(-scores, kind="stable")
    docs = np.asarray(rest.docs)[order]
    with rest.lock:
        if not rest.current():
            return None
        ids = paper_ids(rest.searcher, docs, rest.where).tolist()
    ids, score_list, total = distinct_papers(
        ids, [float(x) for x in scores[order]], len(ids), len(ids)
    )
    return Hits(ids, score_list, hits.terms, hits.fell_back, total)


def paper_ids_of(
    searcher: Any, docs: Any, limit: int | None, where: str
) -> tuple[list[int], int]:
    """The paper ids of the first documents of ``docs`` (of ``searcher``, in the index at
    ``where``) that make ``limit`` papers (all, without a limit), and how many documents
    that took."""
    from reader.search.paper_ids import paper_ids  # numpy: loaded with the first search

    if limit is None:
        return paper_ids(searcher, docs, where).tolist(), len(docs)
    ids: list[int] = []
    looked_up = 0
    # Twice a paper's documents are rare: the first `limit` documents nearly always
    # make `limit` papers.
    while looked_up < len(docs):
        wanted = limit if not ids else 2 * looked_up
        ids += paper_ids(searcher, docs[looked_up:wanted], where).tolist()
        looked_up = min(wanted, len(docs))
        if len(set(ids)) >= limit:
            break
    return ids, looked_up
