"""The paper each index document stands for, read once for each segment and kept.

A search finds document numbers; the paper ids are stored fields, which Whoosh reads one
document at a time (about 8 µs each: half a second for the matches of a common word in a
200,000-paper library, more than ranking them). A segment never changes which paper a
document number stands for (deleting a document only hides it), so the ids read are kept
by segment, across the searchers that each write opens anew, and a search reads only those
of the documents it has not met before.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from reader.search.kept import Kept

#: Segments whose ids are kept (the index's segments number a few dozen; those merged
#: away are dropped once this many newer ones were read).
_KEPT_SEGMENTS = 512

_IDS: Kept[Any] = Kept(_KEPT_SEGMENTS)


def paper_ids(searcher: Any, docs: Any, where: str) -> Any:
    """The paper id of each document (numbered over all of ``searcher``'s segments) of
    ``docs``, an array; ``where`` names the index (segment names are unique only within
    one)."""
    docs = np.asarray(docs, dtype=np.int64)
    out = np.empty(len(docs), dtype=np.int64)
    if not len(docs):
        return out
    leaves = searcher.leaf_searchers()
    offsets = np.array([offset for _, offset in leaves], dtype=np.int64)
    which = np.searchsorted(offsets, docs, side="right") - 1
    for n, (leaf, offset) in enumerate(leaves):
        chosen = which == n
        if chosen.any():
            out[chosen] = _segment_ids(leaf.reader(), docs[chosen] - offset, where)
    return out


def _segment_ids(reader: Any, local: Any, where: str) -> Any:
    """The paper ids of a segment's documents ``local``, read where not yet known."""
    key = (where, reader.segment().segment_id())
    known = _IDS.get(key)
    if known is None or len(known) != reader.doc_count_all():
        known = _IDS.put(key, np.full(reader.doc_count_all(), -1, dtype=np.int64))
    # Document numbers come once each (np.unique would import numpy.ma: 20 ms).
    missing = local[known[local] < 0]
    if len(missing):
        stored = reader.stored_fields
        # Written whole once read: another thread reading the same ids writes the same.
        known[missing] = [int(stored(int(docnum))["id"]) for docnum in missing]
    return known[local]
