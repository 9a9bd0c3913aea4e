"""Ranking every match of a query at once, with arrays: Whoosh's own scores, found faster.

Whoosh ranks a query document by document, moving a tree of matchers along the postings in
Python. For a query of common words in a large library (`learning model` matches most of
200,000 abstracts) that is seconds, and asking only for the best hundred barely helps: its
block-skipping rests on per-block score bounds, which an AND of several fields' terms
rarely beats. Here the same tree of matchers, as Whoosh builds it for each segment, is
evaluated a whole segment at a time: each term's postings are read block by block into
arrays, scored by the same BM25F formula with the same operations in the same order (so
each score is the same float Whoosh computes), and combined as each matcher combines them.
The ranking is then every match ordered by score, ties by document number, as Whoosh's
collectors order them.

A phrase is the intersection of its words, scored as that intersection (a span matcher keeps
its child's score), kept where the words' positions follow one another: the positions are
read only for the documents the intersection found, where Whoosh steps through every one's
spans (1.2 s for "reinforcement learning" over 200,000 abstracts).

A matcher this module does not know (phrases with slop, other spans, constant scores,
other weightings) makes it answer None, and the caller asks Whoosh.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable
from itertools import chain, repeat
from typing import Any

import numpy as np
from whoosh.codec.whoosh3 import LENGTHS_COLUMN, W3LeafMatcher
from whoosh.matching import (
    AndMaybeMatcher,
    AndNotMatcher,
    IntersectionMatcher,
    ListMatcher,
    NullMatcherClass,
    UnionMatcher,
    WrappingMatcher,
)
from whoosh.matching.combo import ArrayUnionMatcher
from whoosh.matching.wrappers import FilterMatcher
from whoosh.query import And
from whoosh.query.spans import SpanNear2
from whoosh.query.wrappers import WrappingQuery
from whoosh.scoring import BM25FScorer, WeightScorer
from whoosh.util import make_weighted_tree
from whoosh.util.numeric import byte_to_length

from reader.search.kept import Kept
from reader.search.matching import matching_context
from reader.search.query import SearchCancelled

#: The field length each length byte stands for (a byte of 0: no length stored).
_LENGTHS = np.array([byte_to_length(b) for b in range(256)], dtype=np.float64)

# Postings of this many documents at most are kept decoded for each segment reader (16
# bytes each: 64 MB for the longest lists of a 200,000-paper library).
_CACHED_POSTINGS = 4_000_000

_COLUMNS: weakref.WeakKeyDictionary[Any, dict[str, Any]] = weakref.WeakKeyDictionary()
_POSTINGS: weakref.WeakKeyDictionary[Any, Kept[tuple[Any, Any]]] = (
    weakref.WeakKeyDictionary()
)
_LOCK = threading.Lock()


# Not a ReaderError (reader/errors.py): control flow, caught here to fall back to Whoosh.
class _Unknown(Exception):
    """A matcher whose scores this module cannot reproduce."""


def ranked(
    searcher: Any, query: Any, cancelled: Callable[[], bool] | None = None,
    top: int | None = None,
) -> tuple[Any, Any] | None:
    """Every document matching ``query`` and its score, best first (ties by document
    number): two arrays, as Whoosh would rank them; None if the query holds a matcher whose
    scores are not reproduced here. Raises SearchCancelled once ``cancelled()`` holds.

    With ``top``, only the first ``top`` are put in order (the others follow them in no
    order): ordering every match of a common word is most of what is left to do once
    they are scored."""
    if any(isinstance(node, WrappingQuery) for node in _nodes(query)):
        return None  # a constant score or another weighting: Whoosh's own business
    context = matching_context(searcher)
    docs, scores = [], []
    for subsearcher, offset in searcher.leaf_searchers():
        if cancelled is not None and cancelled():
            raise SearchCancelled
        count = subsearcher.reader().doc_count_all()
        try:
            found, score = _segment(query, subsearcher, context, count).arrays
        except _Unknown:
            return None
        at = np.flatnonzero(found)
        docs.append(at + offset)
        scores.append(score[at])
    if not docs:
        return np.zeros(0, dtype=np.int64), np.zeros(0)
    all_docs, all_scores = np.concatenate(docs), np.concatenate(scores)
    return _ordered(all_docs, all_scores, top)


def _ordered(docs: Any, scores: Any, top: int | None) -> tuple[Any, Any]:
    """The documents by score, best first, ties by document number; with ``top``, the
    first ``top`` so, and the rest after them."""
    if top is not None and 0 < top < len(docs) // 4:
        # Those scoring at least the top-th best score (ties included), put in order; the
        # order among them is the order of all, since every better score is among them.
        bound = np.partition(scores, len(scores) - top)[len(scores) - top]
        best = scores >= bound
        first = np.flatnonzero(best)
        order = first[np.lexsort((docs[first], -scores[first]))]
        rest = np.flatnonzero(~best)
        chosen = np.concatenate([order, rest])
        return docs[chosen], scores[chosen]
    order = np.lexsort((docs, -scores))
    return docs[order], scores[order]


class _Part:
    """What a query matches in a segment and the scores, standing where Whoosh's matcher
    for it stands in the tree of an AND. Ordered as Whoosh orders its matchers where two
    parts weigh the same when it builds that tree (by their classes, oddly), so that the
    tree, and the order its scores are added in, is Whoosh's."""

    __slots__ = ("arrays", "kind")

    def __init__(self, kind: type, arrays: tuple[Any, Any]) -> None:
        self.kind = kind
        self.arrays = arrays

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Part) and self.kind is other.kind

    def __lt__(self, other: _Part) -> bool:
        return other.kind is self.kind

    __hash__ = None  # type: ignore[assignment]

    @staticmethod
    def intersect(a: _Part, b: _Part) -> _Part:
        """Both parts, as an IntersectionMatcher of them scores."""
        found_a, score_a = a.arrays
        found_b, score_b = b.arrays
        found = found_a & found_b
        return _Part(IntersectionMatcher, (found, np.where(found, score_a + score_b, 0.0)))


def _segment(query: Any, searcher: Any, context: Any, count: int) -> _Part:
    """What ``query`` matches in a segment of ``count`` documents, and the scores.

    An AND of several parts is put together here from its parts, in the tree Whoosh would
    build of their matchers: a Whoosh IntersectionMatcher, made for every segment, first
    walks its parts' postings in Python to their first common document, and for a query
    of several words typed over an index being built that was most of each search."""
    if type(query) is And and len(query.subqueries) > 1:
        reader = searcher.reader()
        parts = [
            (0 - sub.estimate_size(reader), _segment(sub, searcher, context, count))
            for sub in query.subqueries
        ]
        part: _Part = make_weighted_tree(_Part.intersect, parts)
        if query.boost != 1.0:
            found, score = part.arrays
            part = _Part(WrappingMatcher, (found, score * query.boost))
        return part
    matcher = query.matcher(searcher, context)
    return _Part(type(matcher), _evaluate(matcher, searcher, count))


def _evaluate(matcher: Any, searcher: Any, count: int) -> tuple[Any, Any]:
    """Which of a segment's ``count`` documents ``matcher`` matches, and each one's score
    (0 where it does not match, so that adding it changes no sum)."""
    kind = type(matcher)
    if kind is NullMatcherClass:
        return np.zeros(count, dtype=bool), np.zeros(count)
    if kind is W3LeafMatcher or kind is ListMatcher:
        return _leaf(matcher, searcher, count)
    if kind is WrappingMatcher:
        found, score = _evaluate(matcher.child, searcher, count)
        return found, score * matcher.boost
    if kind is FilterMatcher:
        found, score = _evaluate(matcher.child, searcher, count)
        ids = np.fromiter(matcher._ids, dtype=np.int64)
        ids = ids[ids < count]
        keep = np.zeros(count, dtype=bool)
        keep[ids] = True
        if matcher._exclude:
            keep = ~keep
        found = found & keep
        return found, np.where(found, score, 0.0)
    if kind is UnionMatcher:
        found_a, score_a = _evaluate(matcher.a, searcher, count)
        found_b, score_b = _evaluate(matcher.b, searcher, count)
        # Whoosh adds the two where both match; elsewhere one of them is 0.
        return found_a | found_b, score_a + score_b
    if kind is IntersectionMatcher:
        found_a, score_a = _evaluate(matcher.a, searcher, count)
        found_b, score_b = _evaluate(matcher.b, searcher, count)
        found = found_a & found_b
        return found, np.where(found, score_a + score_b, 0.0)
    if kind is AndNotMatcher:
        found_a, score_a = _evaluate(matcher.a, searcher, count)
        found_b, _ = _evaluate(matcher.b, searcher, count)
        found = found_a & ~found_b
        return found, np.where(found, score_a, 0.0)
    if kind is AndMaybeMatcher:
        found_a, score_a = _evaluate(matcher.a, searcher, count)
        _, score_b = _evaluate(matcher.b, searcher, count)
        return found_a, np.where(found_a, score_a + score_b, 0.0)
    if kind is SpanNear2.SpanNear2Matcher:
        return _phrase(matcher, searcher, count)
    if kind is ArrayUnionMatcher and matcher._scored:
        # Each sub-matcher's score times the boost, added in turn to a sum that starts at
        # 0; a document is matched where the sum is above 0.
        total = np.zeros(count)
        for sub in matcher._submatchers:
            _, score = _evaluate(sub, searcher, count)
            total = total + score * matcher._boost
        return total > 0, np.where(total > 0, total, 0.0)
    raise _Unknown(kind.__name__)


def _phrase(matcher: Any, searcher: Any, count: int) -> tuple[Any, Any]:
    """A phrase's documents (its words one after another, as Whoosh's SpanNear2 of a
    Phrase finds them: in order, each at the position after the last) and their scores."""
    if matcher.slop != 1 or not matcher.ordered or matcher.mindist != 1:
        raise _Unknown("SpanNear2Matcher with slop")
    found, score = _evaluate(matcher.child, searcher, count)
    candidates = np.flatnonzero(found)
    ends: dict[int, set[int]] = {}
    for n, term in enumerate(matcher.ms):
        positions = _positions(term, candidates if n == 0 else np.fromiter(sorted(ends), int))
        if n == 0:
            ends = {doc: set(at) for doc, at in positions.items()}
        else:
            ends = {doc: follow for doc, at in positions.items()
                    if (follow := {p for p in at if p - 1 in ends[doc]})}
        if not ends:
            break
    keep = np.zeros(count, dtype=bool)
    keep[np.fromiter(ends, dtype=np.int64, count=len(ends))] = True
    found = found & keep
    return found, np.where(found, score, 0.0)


def _positions(term: Any, docs: Any) -> dict[int, list[int]]:
    """A word's positions in each of ``docs`` (a segment's document numbers, ascending),
    read from its postings block by block, decoded only where a document is wanted."""
    while type(term) is FilterMatcher:  # (what it filters out, the intersection left out)
        term = term.child
    if type(term) is not W3LeafMatcher or not term.supports("positions"):
        raise _Unknown(type(term).__name__)
    decode = term.format.decoder("positions")
    term.reset()
    found: dict[int, list[int]] = {}
    while term.is_active() and len(docs):
        if term.block_max_id() >= docs[0]:
            term._read_ids()
            ids = np.asarray(term._ids, dtype=np.int64)
            wanted = np.flatnonzero(np.isin(ids, docs, assume_unique=True))
            if len(wanted):
                term._read_values()
                values = term._values
                for i in wanted:
                    found[int(ids[i])] = decode(values[i])
            docs = docs[np.searchsorted(docs, ids[-1], side="right"):]
        term._next_block()
    return found


def _nodes(query: Any) -> Any:
    """Every node of a query tree."""
    yield query
    for child in query.children():
        yield from _nodes(child)


def _leaf(matcher: Any, searcher: Any, count: int) -> tuple[Any, Any]:
    """A term's postings in a segment, scored as its scorer scores each one."""
    if type(matcher) is W3LeafMatcher:
        scorer = matcher.scorer
        matcher.reset()  # a parent (ArrayUnionMatcher) may have moved it on
        ids, weights = _block_postings(matcher, searcher.reader())
    else:
        scorer = matcher._scorer
        ids = np.asarray(matcher._ids, dtype=np.int64)
        if matcher._all_weights:
            weights = np.full(len(ids), float(matcher._all_weights))
        elif matcher._weights:
            weights = np.asarray(matcher._weights, dtype=np.float64)
        else:
            weights = np.ones(len(ids))
    found = np.zeros(count, dtype=bool)
    score = np.zeros(count)
    if type(scorer) is BM25FScorer:
        tf = weights
        fl = _field_lengths(searcher.reader(), matcher._term[0], count)[ids]
        idf, avgfl, big_b, k1 = scorer.idf, scorer.avgfl, scorer.B, scorer.K1
        # whoosh.scoring.bm25, operation for operation.
        values = idf * ((tf * (k1 + 1)) / (tf + k1 * ((1 - big_b) + big_b * fl / avgfl)))
    elif type(scorer) is WeightScorer:
        values = weights
    else:
        raise _Unknown(type(scorer).__name__)
    found[ids] = True
    score[ids] = values
    return found, score


def _block_postings(matcher: Any, reader: Any) -> tuple[Any, Any]:
    """All of a term's documents and weights on disk, read a block at a time; the latest
    terms' are kept for each segment reader (typing a query asks for its words again)."""
    with _LOCK:
        cache = _POSTINGS.get(reader)
        if cache is None:
            cache = _POSTINGS[reader] = Kept(_CACHED_POSTINGS, lambda kept: len(kept[0]))
    found = cache.get(matcher._term)
    if found is not None:
        return found
    # Each block holds its documents as differences from the one before (the first from
    # 0), and its weights as one value for all (None: 1.0) or one each. Whoosh adds the
    # differences up one by one in Python; here they are added up with arrays, block by
    # block, from the block's data as stored.
    delta_parts: list[Any] = []
    weight_parts: list[Any] = []
    sizes: list[int] = []
    while matcher.is_active():
        matcher._read_data()
        deltas, weights = matcher._data[0], matcher._data[1]
        delta_parts.append(deltas)
        if weights is None or isinstance(weights, float):
            weights = repeat(1.0 if weights is None else weights, len(deltas))
        weight_parts.append(weights)
        sizes.append(len(deltas))
        matcher._next_block()
    total = sum(sizes)
    summed = np.cumsum(np.fromiter(chain.from_iterable(delta_parts), dtype=np.int64,
                                   count=total))
    # Where each block starts over: the sum before its first document is taken off.
    ends = np.cumsum(sizes)
    before = np.concatenate(([0], summed[ends[:-1] - 1])) if sizes else np.zeros(0, np.int64)
    ids = summed - np.repeat(before, sizes)
    # Weights are stored as 32-bit floats, and Whoosh reads them so.
    weights = np.fromiter(chain.from_iterable(weight_parts), dtype=np.float32, count=total)
    return cache.put(matcher._term, (ids, weights.astype(np.float64)))


def _field_lengths(reader: Any, fieldname: str, count: int) -> Any:
    """The stored length of ``fieldname`` in each of a segment's documents, as Whoosh's
    doc_field_length gives it (1 where the segment stores no lengths for the field);
    read once for each segment reader."""
    with _LOCK:
        per_field = _COLUMNS.setdefault(reader, {})
        lengths = per_field.get(fieldname)
        if lengths is None:
            lengths = per_field[fieldname] = _read_lengths(reader, fieldname, count)
        return lengths


def _read_lengths(reader: Any, fieldname: str, count: int) -> Any:
    column = reader._perdoc._cached_reader(f"_{fieldname}_len", LENGTHS_COLUMN)
    if column is None:
        return np.ones(count)
    stored = min(column._count, count)
    raw = np.frombuffer(column._dbfile.get(column._basepos, stored), dtype=np.uint8)
    codes = np.zeros(count, dtype=np.uint8)
    codes[:stored] = raw
    return _LENGTHS[codes]
