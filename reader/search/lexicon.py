"""Every word a field of a segment holds, read from the segment's term file at once.

A typo (``word~``) is looked for among every word of each field, in every segment.
Whoosh's lexicon gives them one at a time, 3.5 µs each: at 200,000 papers the fields of
34 segments hold 1.3 million words, and a command-line search of ``benchmrak~`` spent
four seconds listing them. The term file keeps an array of where each of its keys starts,
in key order (for its binary search); here that array and the keys are read as a whole
and the words of a field cut out of them with arrays (a quarter of a second for all).

The layout read is Whoosh 2.7's ordered hash file (whoosh.filedb.filetables): each record
is two big-endian 32-bit lengths, the key, the value; a key is the field's number in two
bytes, then the word.
"""

from __future__ import annotations

from typing import Any

import numpy as np

#: The array codes of the position index, as numpy reads them (big-endian, as written).
_POSITIONS = {"B": "u1", "H": ">u2", "i": ">i4", "I": ">u4", "q": ">i8"}
#: Bytes before a key: its length and its value's, two 32-bit integers.
_LENGTHS = 8


def field_words(reader: Any, fieldname: str) -> list[str] | None:
    """The words ``fieldname`` holds in a segment (``reader``, a SegmentReader), in
    order; None when the term file is not laid out as read here (the caller then asks
    Whoosh's lexicon)."""
    try:
        terms = reader._terms
        prefix = terms._keycoder(fieldname, b"")
        tindex = terms._tindex
        found = _field_keys(tindex, prefix)
    except (AttributeError, KeyError, TypeError, ValueError):
        return None
    if found is None:
        return None
    data, starts = found
    if not len(starts):
        return []
    raw = data[starts[:, None] + np.arange(4)].astype(np.int64)
    sizes = ((raw[:, 0] << 24) | (raw[:, 1] << 16) | (raw[:, 2] << 8) | raw[:, 3]) - 2
    first = starts + _LENGTHS + 2
    # The words laid end to end, each followed by a newline (a word holds none: the
    # analyzers split on white space), then cut there.
    ends = np.cumsum(sizes + 1)
    total = int(ends[-1])
    shift = np.repeat(first - (ends - sizes - 1), sizes + 1)
    picked = data[np.minimum(shift + np.arange(total), len(data) - 1)]
    picked[ends - 1] = 10
    words = picked.tobytes().decode("utf-8").split("\n")[:-1]
    return words if len(words) == len(starts) else None


def _field_keys(tindex: Any, prefix: bytes) -> tuple[Any, Any] | None:
    """The bytes of a field's records in the term file, and where each record starts in
    them. Keys are written in order, so a field's records are one run of the file: from
    its first key to the first key of the next field."""
    if len(prefix) != 2:
        return None
    start = tindex.closest_key_pos(prefix)
    if start is None:
        return np.zeros(0, dtype=np.uint8), np.zeros(0, dtype=np.int64)
    following = ((prefix[0] * 256 + prefix[1] + 1) % 65536).to_bytes(2, "big")
    end = tindex.closest_key_pos(following) if following > prefix else None
    if end is None:
        end = tindex.endofdata
    dtype = np.dtype(_POSITIONS[tindex.extras["indextype"]])
    positions = np.frombuffer(
        tindex.dbfile.get(tindex.indexbase, tindex.indexlen * dtype.itemsize), dtype=dtype
    ).astype(np.int64)
    low, high = np.searchsorted(positions, [start, end])
    at = positions[low:high] - start
    data = np.frombuffer(tindex.dbfile.get(start, end - start), dtype=np.uint8)
    if len(at) and (at[0] != 0 or at[-1] + _LENGTHS > len(data)):
        return None
    return data, at
