"""Statements over many papers at once, run a chunk of ids at a time: SQLite binds at most
a limited number of host parameters in one statement (999 in older builds)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

#: Ids bound in one statement, well under the smallest limit SQLite builds are made with.
IDS_PER_STATEMENT = 500


def in_chunks(ids: Sequence[int], start: int = 0) -> Iterator[tuple[Sequence[int], str]]:
    """``ids`` from ``start`` on, IDS_PER_STATEMENT at a time, each chunk with the
    placeholders of its ``IN (…)`` list (``?,?,?``)."""
    for offset in range(start, len(ids), IDS_PER_STATEMENT):
        chunk = ids[offset : offset + IDS_PER_STATEMENT]
        yield chunk, ",".join("?" * len(chunk))
