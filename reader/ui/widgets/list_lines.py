"""The lines a paper list has drawn, kept so that a scroll draws only what came into view,
and the rail at the list's right edge.

Scrolling by a line redraws every line on screen, and all but one were drawn a moment
before: each row's line is kept by paper id with what its look depends on (selected,
focused, width, basket, seen, base style), and used again while both are unchanged.

The rail is the line between the list and the detail pane, with a thumb where the screen
is in the list. A Textual scrollbar beside a border cost a fifth of every key that scrolls
the list (the bar is drawn again at every step, though its thumb moves a cell only every
few hundred papers); the rail's cell is kept as part of each row's line, so it costs
nothing until the thumb moves.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip

from reader.models import PaperRow

__all__ = ["RAIL", "THUMB", "DrawnLines", "thumb_lines"]

#: The rail at the list's right edge, and its thumb.
RAIL = "│"
THUMB = "┃"

#: What a row's look depends on besides the row (see PaperList._row_line).
Look = tuple[object, ...]


def thumb_lines(top: int, height: int, total: int) -> range:
    """The screen lines of the rail's thumb, for a screen of ``height`` lines from row
    ``top`` of ``total``: as many of them as the screen is of the list (at least one), as
    far down as the screen is; none when all rows show."""
    if total <= height or height <= 0:
        return range(0)
    size = max(1, round(height * height / total))
    start = round((height - size) * min(1.0, top / (total - height)))
    return range(start, start + size)


class DrawnLines:
    """The lines of the rows drawn, by paper id, with and without the rail's cell."""

    def __init__(self, limit: int) -> None:
        #: How many rows' lines are kept before all are forgotten (a long scroll).
        self._limit = limit
        #: Drawn rows by paper id: the row drawn, its look, the line.
        self._rows: dict[int, tuple[PaperRow, Look, Strip]] = {}
        #: Drawn rows with the rail's cell added, by paper id: the row's line, whether the
        #: cell is the thumb, the whole line.
        self._railed: dict[int, tuple[Strip, bool, Strip]] = {}
        #: The rail's cells, thumb or not, by base style.
        self._rail_cells: dict[tuple[bool, Style], Segment] = {}

    def row_line(self, row: PaperRow, look: Look) -> Strip | None:
        """The line kept for ``row`` drawn with ``look``, if it is still right."""
        drawn = self._rows.get(row.id)
        # Equal, not only the same: rows fetched again after a write elsewhere (every batch
        # of an import) are mostly unchanged, and drawing them again makes garbage whose
        # collection holds the keys up.
        if drawn is not None and drawn[1] == look and drawn[0] == row:
            return drawn[2]
        return None

    def keep(self, row: PaperRow, look: Look, line: Strip) -> None:
        """Keep the line just drawn for ``row`` with ``look``."""
        if len(self._rows) >= self._limit:
            self.forget()
        self._rows[row.id] = (row, look, line)

    def railed(
        self,
        paper_id: int | None,
        line: Strip,
        on_thumb: bool,
        base: Style,
        style_of: Callable[[str], Style],
    ) -> Strip:
        """A row's line with the rail's cell after it (``paper_id`` None: a blank line,
        not kept); ``style_of`` gives the style of a component class."""
        if paper_id is not None:
            kept = self._railed.get(paper_id)
            if kept is not None and kept[0] is line and kept[1] == on_thumb:
                return kept[2]
        cell = self._rail_cells.get((on_thumb, base))
        if cell is None:
            kind = "paper-list--thumb" if on_thumb else "paper-list--rail"
            cell = Segment(THUMB if on_thumb else RAIL, base + style_of(kind))
            self._rail_cells[on_thumb, base] = cell
        strip = Strip([*line, cell], line.cell_length + 1)
        if paper_id is not None:
            self._railed[paper_id] = (line, on_thumb, strip)
        return strip

    def forget(self) -> None:
        """Draw every row afresh when next shown (other words highlighted, a new theme)."""
        self._rows.clear()
        self._railed.clear()
        self._rail_cells.clear()
