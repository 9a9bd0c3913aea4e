"""The paper list: a Line-API scroll view over an array of paper ids.

Only the rows on screen are drawn, and their columns are fetched from the database a page
at a time and kept in a small LRU cache, so a list of 200,000 papers opens as fast as one
of 100. (DataTable, OptionList and ListView measure every row up front.)

Its right edge is a rail the list draws itself, with a thumb where the screen is in the
list; the lines drawn, rail and all, are kept by
:class:`~reader.ui.widgets.list_lines.DrawnLines`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.style import Style
from textual import events
from textual.cache import LRUCache
from textual.geometry import Region, Size
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from reader.models import PaperRow
from reader.ui import bindings
from reader.ui.widgets.component_styles import ComponentStyles
from reader.ui.widgets.list_lines import DrawnLines, thumb_lines
from reader.ui.widgets.paper_row import row_text

RowFetcher = Callable[[Sequence[int]], dict[int, PaperRow]]
#: Told the paper under the cursor whenever the cursor moves (None for an empty list).
CursorHook = Callable[[int | None], None]
#: Asked to open the paper (by id) the user chose to read.
OpenHook = Callable[[int], None]

PAGE = 100
CACHE_SIZE = 2_000


class PaperList(ScrollView, ComponentStyles, can_focus=True):
    """A keyboard-driven list of papers, one line each."""

    BINDINGS = bindings.PAPER_LIST

    COMPONENT_CLASSES = {
        "paper-list--cursor",
        "paper-list--derived",
        "paper-list--highlight",
        "paper-list--meta",
        "paper-list--star",
        "paper-list--marked",
        "paper-list--note",
        "paper-list--unseen",
        "paper-list--read",
        "paper-list--tag",
        "paper-list--rail",
        "paper-list--thumb",
        "paper-list--rating",
        "paper-list--accepted",
        "paper-list--rejected",
        "paper-list--withdrawn",
    }

    # No repaint of the whole list when it changes: watch_cursor redraws just the two rows.
    cursor: reactive[int] = reactive(0, always_update=True, init=False, repaint=False)

    def __init__(
        self,
        fetch: RowFetcher,
        *,
        on_cursor: CursorHook | None = None,
        on_open: OpenHook | None = None,
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        self._fetch = fetch
        self._on_cursor = on_cursor
        self._on_open = on_open
        self._ids: list[int] = []
        self._cache: LRUCache[int, PaperRow] = LRUCache(CACHE_SIZE)
        #: The lines drawn, kept while their rows and looks stay the same.
        self._lines = DrawnLines(CACHE_SIZE)
        #: What every line of a repaint needs: top row, width of a row (the rail is one
        #: more), base style, focus, the screen lines the thumb is on.
        self._frame: tuple[int, int, Style, bool, range] = (0, 0, Style(), False, range(0))
        self.terms: frozenset[str] = frozenset()
        #: Papers in the basket (marked with v); the app owns the set.
        self.marked: set[int] = set()
        #: Papers shown since the rows were fetched (the app owns the set), so a row turns
        #: "seen" at once rather than when its cached row is next read.
        self.seen: set[int] = set()
        #: Whether the cursor is on a paper of the user's choosing (moved to, or kept from
        #: the view before): it then stays on that paper as the view changes. Otherwise it
        #: is at the top by default, and stays at the top.
        self.pinned = False
        self._placing = self._following = False
        #: Whether the cursor is on the paper the last session ended on, not moved since.
        self._restored = False
        #: The screen line the cursor is kept on, while the view is too short to show it
        #: there (None: the line it is on).
        self._kept_line: int | None = None

    # -- data -------------------------------------------------------------------------------

    @property
    def ids(self) -> list[int]:
        """The ids shown, in order."""
        return self._ids

    @property
    def placing(self) -> bool:
        """Whether the cursor is being placed by the view, not moved by the user."""
        return self._placing

    @property
    def following(self) -> bool:
        """Whether the cursor is being placed because the view changed under it (papers
        came or went), not moved by the user nor placed in a view the user opened."""
        return self._placing and self._following

    @property
    def current_id(self) -> int | None:
        """The id of the paper under the cursor."""
        if 0 <= self.cursor < len(self._ids):
            return self._ids[self.cursor]
        return None

    def set_ids(self, ids: list[int], terms: frozenset[str] = frozenset(),
                keep: int | None = None, keep_scroll: bool = False,
                restored: bool = False) -> None:
        """Show these papers; the cursor stays on ``keep`` when it is among them (mid-screen).

        With ``keep_scroll`` the view is the same one, changed (papers came or went, or it
        was sorted again): a cursor the user put on a paper stays on it, on the same line of
        the screen, however many papers came in above it; one the user has not moved stays
        at the top, on whatever paper is now first. A paper ``restored`` from the last
        session was not put there by a move: it stays while the top of the view does, and
        gives way to the top once papers come in there.

        The cursor hook is called for the paper the cursor is then on, as for any move."""
        line = self.cursor - round(self.scroll_offset.y)
        if self._kept_line is not None:
            line = self._kept_line  # kept from before the list was too short to keep it
        if not keep_scroll:
            self._restored = restored
        elif not self.pinned and not (self._restored and ids[:1] == self._ids[:1]):
            keep, line, self._restored = None, 0, False
        self._ids = ids
        if terms != self.terms:
            self._lines.forget()  # the words highlighted changed
        self.terms = terms
        # Width 0: rows are cut to the view, so there is never a horizontal scrollbar.
        self.virtual_size = Size(0, len(ids))
        position = ids.index(keep) if keep is not None and keep in ids else 0
        if not (keep_scroll and 0 <= line < self.size.height):
            line = self.size.height // 2
        # Forced: a list that had no scrollbar before it grew does not scroll otherwise
        # (until its next layout), and the cursor would be dragged to the bottom line.
        self.scroll_to(y=max(0, position - line), animate=False, force=True)
        # A list too short below the cursor scrolls less than asked: the line is kept for
        # when the view grows again, until the user moves.
        self._kept_line = line if keep_scroll and round(self.scroll_y) != position - line else None
        kept = keep is not None and position < len(ids) and ids[position] == keep
        self.pinned = kept and not self._restored
        self._placing, self._following = True, keep_scroll
        try:
            self.cursor = position
        finally:
            self._placing = self._following = False
        self.refresh()

    def drawn_row(self, paper_id: int) -> PaperRow | None:
        """The row of a paper as last fetched for drawing, if it is at hand."""
        return self._cache.get(paper_id)

    def grow(self, ids: list[int]) -> None:
        """Show ``ids``, which begin with the ids shown: the cursor and the scroll stay."""
        self._ids = ids
        self.virtual_size = Size(0, len(ids))

    def prime(self, rows: dict[int, PaperRow]) -> None:
        """Keep rows read ahead (by a worker) for drawing, newer than those cached."""
        for paper_id, row in rows.items():
            # LRUCache.set keeps the value of a key it holds: the newer row replaces it.
            self._cache.discard(paper_id)
            self._cache.set(paper_id, row)

    def invalidate(self, paper_id: int) -> None:
        """Forget the cached row of a paper that changed, and redraw it."""
        self._cache.discard(paper_id)
        self.refresh()

    def invalidate_all(self) -> None:
        """Forget every cached row (after a change to many papers) and redraw."""
        self._cache.clear()
        self.refresh()

    def _row(self, index: int) -> PaperRow | None:
        paper_id = self._ids[index]
        row = self._cache.get(paper_id)
        if row is not None:
            return row
        # Fetch the page around the missing row in one query.
        start = max(0, index - PAGE // 4)
        wanted = [i for i in self._ids[start : start + PAGE] if i not in self._cache]
        for fetched_id, fetched in self._fetch(wanted).items():
            self._cache.set(fetched_id, fetched)
        return self._cache.get(paper_id)

    # -- drawing ----------------------------------------------------------------------------

    def render_lines(self, crop: Region) -> list[Strip]:
        """Draw the lines in ``crop``, reading what every line needs once, not per line
        (each of these walks the widget tree, and costs more than drawing a cached row)."""
        top = self.scroll_offset.y
        region = self.scrollable_content_region
        self._frame = (
            top, max(0, region.width - 1), self.rich_style, self.has_focus,
            thumb_lines(top, region.height, len(self._ids)),
        )
        return super().render_lines(crop)

    def render_line(self, y: int) -> Strip:
        """Draw one visible line: a row, and the rail's cell at the right."""
        top, width, base, focused, thumb = self._frame
        on_thumb = y in thumb
        index = top + y
        row = self._row(index) if index < len(self._ids) else None
        if row is None:
            blank = Strip.blank(width, base)
            return self._lines.railed(None, blank, on_thumb, base, self.component_style)
        line = self._row_line(row, index, width, base, focused)
        return self._lines.railed(row.id, line, on_thumb, base, self.component_style)

    def _row_line(self, row: PaperRow, index: int, width: int, base: Style, focused: bool) -> Strip:
        """The line of a row, drawn again only when it or its look changed."""
        selected = index == self.cursor
        look = (
            selected,
            selected and focused,
            width,
            row.id in self.marked,
            row.id in self.seen,
            base,
        )
        kept = self._lines.row_line(row, look)
        if kept is not None:
            return kept
        line = row_text(
            row,
            width,
            self.component_style,
            terms=self.terms,
            marked=row.id in self.marked,
            seen=row.id in self.seen,
            selected=selected,
            focused=focused,
        )
        segments = list(line.render(self.app.console))
        strip = Strip(segments).adjust_cell_length(width, base).apply_style(base)
        self._lines.keep(row, look, strip)
        return strip

    # -- cursor -----------------------------------------------------------------------------

    def watch_cursor(self, old: int, new: int) -> None:
        """Redraw the two rows and keep the cursor on screen."""
        clamped = max(0, min(new, len(self._ids) - 1)) if self._ids else 0
        if clamped != new:
            self.cursor = clamped
            return
        if not self._placing:
            self.pinned = True  # moved by the user (a key, a click, the reading view)
            self._restored = False
            self._kept_line = None
        self.refresh_line(old)
        self.refresh_line(new)
        self.scroll_to_region(Region(0, new, 1, 1), animate=False, force=True)
        # Called here, not told by a message: a message is handled after the list has been
        # painted, and every key would paint the screen twice (the row, then the detail).
        if self._on_cursor is not None:
            self._on_cursor(self.current_id)

    def on_resize(self, _event: events.Resize) -> None:
        """Keep the cursor on screen when the terminal changes size."""
        self.call_after_refresh(
            self.scroll_to_region, Region(0, self.cursor, 1, 1), animate=False, force=True
        )

    def notify_style_update(self) -> None:
        """A new theme or style: draw every row afresh."""
        super().notify_style_update()
        self._lines.forget()

    def on_focus(self, _event: events.Focus) -> None:
        """The cursor shows whether the list has focus."""
        self.refresh()

    def on_blur(self, _event: events.Blur) -> None:
        """See on_focus."""
        self.refresh()

    def action_cursor_down(self) -> None:
        """Move to the next paper."""
        if self.cursor < len(self._ids) - 1:
            self.cursor += 1

    def action_cursor_up(self) -> None:
        """Move to the previous paper."""
        if self.cursor > 0:
            self.cursor -= 1

    def action_first(self) -> None:
        """Move to the first paper."""
        self.cursor = 0

    def action_last(self) -> None:
        """Move to the last paper."""
        self.cursor = max(0, len(self._ids) - 1)

    def action_page_down(self) -> None:
        """Move one screen down."""
        self.cursor = min(len(self._ids) - 1, self.cursor + max(1, self.size.height - 1))

    def action_page_up(self) -> None:
        """Move one screen up."""
        self.cursor = max(0, self.cursor - max(1, self.size.height - 1))

    def action_open(self) -> None:
        """Ask to read the paper under the cursor."""
        # Opened at once, not by a message: a message would come after the keys typed
        # behind this one, which would then act on the list instead of the reading view.
        if self.current_id is not None and self._on_open is not None:
            self._on_open(self.current_id)

    def on_click(self, event: events.Click) -> None:
        """Clicking a row moves the cursor there; a double click opens it. Clicking the
        rail moves the cursor as far down the list as the click is down the rail."""
        height = self.scrollable_content_region.height
        if event.x == self.size.width - 1 and len(self._ids) > height > 1:
            self.cursor = round(event.y / (height - 1) * (len(self._ids) - 1))
            return
        index = self.scroll_offset.y + event.y
        if 0 <= index < len(self._ids):
            self.cursor = index
            if event.chain >= 2:
                self.action_open()
