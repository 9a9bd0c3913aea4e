"""A text too long for the reading view, shown whole: a review, a title or a note of
megabytes, a line at a time.

:class:`LongText` is a Line-API view. It never lays the text out as a whole: each
paragraph is cut into lines of the view's width (at a character, not a word: the only cut
that costs nothing to count), the line counts summed once per width, and only the lines on
screen are made, each made visible (control characters as pictures) as it is drawn.
"""

from __future__ import annotations

import bisect
from itertools import accumulate

from rich.segment import Segment
from textual import events
from textual.app import ComposeResult
from textual.geometry import Size
from textual.screen import Screen
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widgets import Static

from reader.text.sanitize import visible
from reader.ui import bindings
from reader.ui.screens import SCREENS_CSS
from reader.ui.widgets.footer import FittedFooter


class LongText(ScrollView, can_focus=True):
    """Plain text of any length, cut to the width, drawn a screen at a time."""

    def __init__(self, text: str, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._paragraphs = text.split("\n")
        self._width = 0
        #: The first line of each paragraph at ``_width``, and the total after the last.
        self._starts: list[int] = [0]

    def _lay_out(self, width: int) -> None:
        """Count each paragraph's lines at ``width`` (one pass of integer sums)."""
        width = max(1, width)
        if width == self._width:
            return
        self._width = width
        counts = (max(1, -(-len(p) // width)) for p in self._paragraphs)
        self._starts = [0, *accumulate(counts)]
        self.virtual_size = Size(width, self._starts[-1])

    @property
    def line_count(self) -> int:
        """How many lines the text takes at the view's width."""
        return self._starts[-1]

    def on_resize(self, _event: events.Resize) -> None:
        """Count the lines again at the new width."""
        self._lay_out(self.scrollable_content_region.width)
        self.refresh()

    def line(self, index: int) -> str:
        """Line ``index`` of the text as cut at the view's width."""
        paragraph = bisect.bisect_right(self._starts, index) - 1
        if not 0 <= paragraph < len(self._paragraphs):
            return ""
        offset = (index - self._starts[paragraph]) * self._width
        return self._paragraphs[paragraph][offset : offset + self._width]

    def render_line(self, y: int) -> Strip:
        """One line on screen."""
        self._lay_out(self.scrollable_content_region.width)
        index = round(self.scroll_offset.y) + y
        style = self.rich_style
        if index >= self.line_count:
            return Strip.blank(self._width, style)
        text = visible(self.line(index))
        return Strip([Segment(text, style)]).crop(0, self._width).adjust_cell_length(
            self._width, style
        )


class WholeTextScreen(Screen[None]):
    """A text shown whole (a reply, a paper's title and abstract, a note too long for the
    editor): its heading, then all its text, scrolled with the usual keys."""

    CSS_PATH = SCREENS_CSS
    BINDINGS = bindings.WHOLE_TEXT

    def __init__(self, title: str, text: str) -> None:
        super().__init__()
        self._title = title
        self._text = text

    def compose(self) -> ComposeResult:
        yield Static(
            f"{visible(self._title)} · {len(self._text):,} characters, unrendered",
            id="whole-title", markup=False,
        )
        yield LongText(self._text, id="whole-text")
        yield FittedFooter()

    def on_mount(self) -> None:
        """The text takes the keys."""
        self.query_one(LongText).focus()

    def action_close(self) -> None:
        """Back to the reading view."""
        self.dismiss(None)
