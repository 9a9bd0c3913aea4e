"""The arithmetic of selecting passages in the reading view: which sentence or word span
a key moves the selection to, and which characters a mouse drag covers. Pure functions of
the spans and offsets, apart from the screen that draws them."""

from __future__ import annotations

from textual.geometry import Offset

#: A selection: the characters start–end of the text shown.
Span = tuple[int, int]


def stepped(spans: list[Span], selection: Span | None, delta: int) -> Span | None:
    """The sentence after (``delta`` 1) or before (-1) the one the selection starts in;
    the first (or last) when nothing is selected; None when there are no sentences."""
    if not spans:
        return None
    if selection is None:
        return spans[0] if delta > 0 else spans[-1]
    start = selection[0]
    current = next((n for n, (a, b) in enumerate(spans) if a <= start < b), 0)
    return spans[max(0, min(len(spans) - 1, current + delta))]


def extended(units: list[Span], selection: Span | None, delta: int) -> Span | None:
    """The selection with its end moved ``delta`` units (sentences or words) on or back;
    the first unit when nothing is selected; None when nothing changes."""
    if not units:
        return None
    if selection is None:
        return units[0]
    start, end = selection
    ends = [b for _, b in units if b > start]
    if not ends:
        return None
    current = next((n for n, b in enumerate(ends) if b >= end), len(ends) - 1)
    return (start, ends[max(0, min(len(ends) - 1, current + delta))])


def dragged(text: str, start: Offset | None, end: Offset | None) -> Span | None:
    """The characters of ``text`` (as laid out, one line per line of it) a mouse drag from
    ``start`` to ``end`` covers, without white space at the edges; None when empty."""
    lines = text.split("\n")

    def offset(point: Offset | None, default: int) -> int:
        if point is None:
            return default
        row = max(0, min(len(lines) - 1, point.y))
        return sum(len(line) + 1 for line in lines[:row]) + min(point.x, len(lines[row]))

    first, last = offset(start, 0), offset(end, len(text))
    while first < last and text[first].isspace():
        first += 1
    while last > first and text[last - 1].isspace():
        last -= 1
    return (first, last) if last > first else None
