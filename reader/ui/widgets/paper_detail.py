"""The detail pane beside the list: the paper under the cursor, drawn as lines.

It shows what the reading view shows (see ``paper_parts``), but as one Line-API view
rather than a widget per part: moving the cursor then re-wraps one text and repaints the
pane, instead of laying out the screen again for every part that changed height. That is
most of the work of a key press in a long list.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.geometry import Region, Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

from reader.models import Paper
from reader.ui.paper_parts import paper_parts
from reader.ui.signals import PaperSignals, signals_block
from reader.ui.widgets.component_styles import ComponentStyles

#: Reads what the pane shows of a paper's conference signals (None: it has none).
SignalsOf = Callable[[Paper], PaperSignals | None]


class PaperDetail(ScrollView, ComponentStyles, can_focus=True):
    """The paper under the list's cursor: title, details, conference signals (ratings,
    decision, replies, where it stands in the view), abstract, note, highlights.
    Tab reaches it; then the arrow and page keys scroll it, as the mouse wheel does."""

    COMPONENT_CLASSES = {
        "paper-view--highlight",
        "paper-view--derived",
        "paper-view--passage",
        "paper-view--selection",
        "paper-detail--title",
        "paper-detail--meta",
        "paper-detail--why",
        "paper-detail--note-heading",
        "paper-detail--highlights-heading",
        "paper-detail--rule",
        "paper-detail--more",
        "paper-detail--signals-label",
        "paper-detail--signals-mark",
    }

    def __init__(
        self,
        *,
        id: str | None = None,
        classes: str | None = None,
        signals: SignalsOf | None = None,
    ) -> None:
        super().__init__(id=id, classes=classes)
        self.paper: Paper | None = None
        self._signals_of = signals
        #: The conference signals of the paper shown, if it has any.
        self.signals: PaperSignals | None = None
        self.terms: frozenset[str] = frozenset()
        self._why: list[str] | None = None
        self._empty = "No paper selected"
        #: The pane's lines at ``_width``; None when they must be wrapped again.
        self._lines: list[Strip] | None = None
        self._width = 0
        self._base = Style()
        #: Restyles so far (a theme changed, styles added): lines wrapped under an earlier
        #: one are wrapped again, while the paper and its signals stay as read.
        self._restyles = 0
        self._wrapped_at = 0
        #: What every line of a repaint needs: the lines, the top line, the height shown,
        #: the base style.
        self._frame: tuple[list[Strip], int, int, Style] = ([], 0, 0, Style())

    def show(
        self,
        paper: Paper | None,
        terms: frozenset[str] = frozenset(),
        *,
        why: list[str] | None = None,
        empty: str = "No paper selected",
    ) -> None:
        """Show a paper (or ``empty`` for none) from its top, with the query's words
        highlighted and, in a "like" view, the terms it shares. The same paper shown as it
        is (the view run again as an import commits) is left as it is, where it is scrolled."""
        if (
            self._lines is not None
            and (paper, terms, why, empty) == (self.paper, self.terms, self._why, self._empty)
        ):
            return
        self._show(paper, terms, why, empty, (
            self._signals_of(paper) if paper is not None and self._signals_of else None
        ))

    def _show(
        self, paper: Paper | None, terms: frozenset[str], why: list[str] | None, empty: str,
        signals: PaperSignals | None,
    ) -> None:
        self.paper = paper
        self.terms = terms
        self._why = why
        self._empty = empty
        self.signals = signals
        self._lines = None
        self._wrap()
        self.scroll_to(y=0, animate=False, immediate=True)
        self.refresh()

    def restate(self, paper: Paper) -> None:
        """Show the paper shown again as changed (its marks), with the same words and
        terms highlighted; its signals, which its marks do not move, are not read again."""
        if self.paper is None or self.paper.id != paper.id or self._lines is None:
            self.show(paper, self.terms, why=self._why, empty=self._empty)
        elif paper != self.paper:
            self._show(paper, self.terms, self._why, self._empty, self.signals)

    @property
    def text(self) -> str:
        """Everything the pane shows, as plain text (one line per line on screen)."""
        return "\n".join(strip.text.rstrip() for strip in self._wrap())

    # -- drawing ----------------------------------------------------------------------------

    def _blocks(self) -> list[Text | None]:
        """The pane from top to bottom: texts to wrap, and None for a horizontal rule."""
        style = self.component_style
        parts = paper_parts(self.paper, self.terms, style, why=self._why, empty=self._empty)
        blank = Text()
        # Styles as spans: Text.render, which draws each wrapped line, ignores a base style.
        title = parts.title.copy()
        if isinstance(title.style, Style):
            title.stylize_before(title.style)  # a derived title stays muted
        title.stylize_before(style("paper-detail--title"))
        blocks: list[Text | None] = [blank, title]
        if self.signals is not None:
            # Under the title, above the paper's details: what a reader triaging a
            # conference looks at first, on screen even in a small terminal.
            blocks += [
                signals_block(
                    self.signals, style("paper-detail--signals-label"),
                    style("paper-detail--meta"), style("paper-detail--signals-mark"),
                ),
                blank,
            ]
        if parts.meta:
            meta = _styled(parts.meta, style("paper-detail--meta"))
            # A word wider than the pane (a forum URL, a long DOI) is cut with an ellipsis
            # rather than folded: its rest on the next line reads as a line of its own, or
            # hides under "more below". The reading view and `o` have it whole.
            meta.overflow = "ellipsis"
            blocks.append(meta)
        blocks.append(blank)
        if parts.why is not None:
            blocks += [_styled(parts.why, style("paper-detail--why")), blank]
        if parts.abstract:
            blocks.append(parts.abstract)
        for heading, body, kind in (
            ("Note", parts.note, "note"),
            ("Highlights", parts.highlights, "highlights"),
        ):
            if body is not None:
                heading_style = style(f"paper-detail--{kind}-heading")
                blocks += [blank, None, _styled(Text(heading), heading_style), body]
        return blocks

    def _wrap(self) -> list[Strip]:
        """The pane's lines, wrapped to its width and drawn on its base style (kept until
        the paper, the width or the style changes): each line is made once, whole, rather
        than padded and styled again every time the pane is painted."""
        width = self.scrollable_content_region.width
        base = self.rich_style
        if self._lines is not None and (width, base, self._restyles) == (
            self._width, self._base, self._wrapped_at
        ):
            return self._lines
        self._width, self._base, self._wrapped_at = width, base, self._restyles
        lines: list[Strip] = []
        if width > 0:
            console = self.app.console
            rule = self.component_style("paper-detail--rule")
            blank = Strip.blank(width, base)
            for block in self._blocks():
                if block is None:
                    lines.append(Strip([Segment("─" * width, base + rule)], width))
                elif not block:
                    lines.append(blank)
                else:
                    for line in block.wrap(console, width):
                        segments = Segment.adjust_line_length(list(line.render(console)), width)
                        lines.append(Strip(Segment.apply_style(segments, base), width))
        self._lines = lines
        self._resize_virtual(Size(width, len(lines)))
        return lines

    def _resize_virtual(self, size: Size) -> None:
        """Give the view its new scrolling range.

        Setting ``virtual_size`` lays the whole screen out again, which costs more than the
        rest of a key press. The pane always scrolls and its scrollbar has no width (see the
        stylesheet), so once the pane has a size a new range changes nothing on screen but
        the pane, and the scrollbar is told directly (as a layout pass would tell it).
        """
        if size == self.virtual_size:
            return
        if self.container_size and self.show_vertical_scrollbar:
            self.set_reactive(PaperDetail.virtual_size, size)
            self._scroll_update(size)
        else:
            self.virtual_size = size

    def render_lines(self, crop: Region) -> list[Strip]:
        """Draw the lines in ``crop``; the lines, the top line, the height and the base
        style are read once here rather than per line (each walks the widget tree)."""
        self._frame = (
            self._wrap(), self.scroll_offset.y, self.scrollable_content_region.height,
            self.rich_style,
        )
        return super().render_lines(crop)

    def render_line(self, y: int) -> Strip:
        """Draw one visible line; the last says so when the paper goes on below."""
        lines, top, height, base = self._frame
        index = top + y
        if y == height - 1 and index < len(lines) - 1:
            return self._more(base)
        if index >= len(lines):
            return Strip.blank(self._width, base)
        return lines[index]

    def _more(self, base: Style) -> Strip:
        """The line that stands in for a scrollbar: there is more below (the mouse wheel, or
        the arrow keys once Tab has reached the pane, scroll it; Enter on the list opens the
        paper in the reading view)."""
        label = Text("▼ more below", self.component_style("paper-detail--more"))
        label.align("right", self._width)
        return Strip(list(label.render(self.app.console)), self._width).apply_style(base)

    def on_resize(self, _event: events.Resize) -> None:
        """Wrap again at the new width."""
        self._lines = None
        self.refresh()

    def notify_style_update(self) -> None:
        """A theme change restyles the lines: draw them again (the paper is not read again,
        nor its signals: a star after a restyle costs what it did before)."""
        super().notify_style_update()
        self._restyles += 1
        self.refresh()


def _styled(text: Text, style: Style) -> Text:
    """``text`` with ``style`` under its own styles, as a span."""
    out = text.copy()
    out.stylize_before(style)
    return out
