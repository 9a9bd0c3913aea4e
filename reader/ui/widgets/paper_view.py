"""A paper shown for reading: title, venue and year, abstract, the user's note and
highlights, then its reviews and their discussion (see ``replies``)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.widget import Widget
from textual.widgets import Static

from reader.library import Discussion
from reader.models import Paper
from reader.ui.paper_parts import paper_parts
from reader.ui.widgets.replies import ReplyBox, reply_heading


class PaperView(VerticalScroll):
    """The body of the reading view: a part per widget, so the mouse can select text
    (the detail pane beside the list draws the same parts as lines: see PaperDetail)."""

    COMPONENT_CLASSES = {
        "paper-view--highlight",
        "paper-view--derived",
        "paper-view--passage",
        "paper-view--selection",
        "paper-view--reply-kind",
        "paper-view--reply-meta",
        "paper-view--score",
        "paper-view--section",
    }

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.paper: Paper | None = None
        self.terms: frozenset[str] = frozenset()
        #: What each part of the pane shows, by widget id.
        self._shown: dict[str, Text | str] = {}

    def compose(self) -> ComposeResult:
        yield Static(id="paper-title", markup=False)
        yield Static(id="paper-meta", markup=False)
        yield Static(id="paper-why", markup=False)
        yield Static(id="paper-abstract", markup=False)
        yield Static("Note", id="paper-note-heading", markup=False)
        yield Static(id="paper-note", markup=False)
        yield Static("Highlights", id="paper-highlights-heading", markup=False)
        yield Static(id="paper-highlights", markup=False)
        yield Static(id="paper-replies-heading", markup=False)
        yield Vertical(id="paper-replies")

    @property
    def paper_bottom(self) -> int:
        """The line under the paper's own text (title to abstract), scrolled as the view."""
        abstract = self.query_one("#paper-abstract", Static)
        return abstract.virtual_region.bottom

    def show_discussion(self, discussion: Discussion, awaited: str = "") -> list[ReplyBox]:
        """Show a paper's replies (none: the part is hidden, or says ``awaited``: why they
        are not here yet; some, and ``awaited``: where they were read from, as they are
        not stored yet), each with its heading; their bodies are put in by the caller as
        they are rendered."""
        heading = self.query_one("#paper-replies-heading", Static)
        holder = self.query_one("#paper-replies", Vertical)
        holder.remove_children()
        self._show_if(heading, bool(discussion) or bool(awaited))
        self._show_if(holder, bool(discussion))
        if not discussion:
            if awaited:
                heading.update(Text(awaited))
            return []
        reviews = sum(1 for posting in discussion.postings if posting.reply.is_review)
        others = len(discussion) - reviews
        words = [f"{reviews} review" + ("" if reviews == 1 else "s")] if reviews else []
        if others:
            words.append(f"{others} other repl" + ("y" if others == 1 else "ies"))
        heading.update(Text("Reviews and discussion: " + ", ".join(words)
                            + "   (] next, [ previous)" + (f"  ·  {awaited}" if awaited else "")))
        style = self.get_component_rich_style
        boxes = [ReplyBox(posting, reply_heading(posting, style))
                 for posting in discussion.postings]
        holder.mount_all(boxes)
        return boxes

    def show(
        self,
        paper: Paper | None,
        terms: frozenset[str] = frozenset(),
        *,
        selection: tuple[int, int] | None = None,
        why: list[str] | None = None,
        keep_scroll: bool = False,
        empty: str = "No paper selected",
    ) -> None:
        """Show a paper (or an empty pane), with the query's words highlighted, its
        highlighted passages, the passage being selected, and why a "like" view ranks it."""
        self.paper = paper
        self.terms = terms
        parts = paper_parts(
            paper, terms, self.get_component_rich_style, selection=selection, why=why,
            empty=empty,
        )
        title = self.query_one("#paper-title", Static)
        meta = self.query_one("#paper-meta", Static)
        why_line = self.query_one("#paper-why", Static)
        abstract = self.query_one("#paper-abstract", Static)
        note_heading = self.query_one("#paper-note-heading", Static)
        note = self.query_one("#paper-note", Static)
        passages_heading = self.query_one("#paper-highlights-heading", Static)
        passages = self.query_one("#paper-highlights", Static)
        # Only what changed is touched: an update or a display toggle costs a layout pass.
        show = self._show_if
        put = self._put
        show(why_line, parts.why is not None)
        put(why_line, parts.why or "")
        put(title, parts.title)
        put(meta, parts.meta)
        put(abstract, parts.abstract)
        show(note_heading, parts.note is not None)
        show(note, parts.note is not None)
        put(note, parts.note or "")
        show(passages_heading, parts.highlights is not None)
        show(passages, parts.highlights is not None)
        put(passages, parts.highlights or "")
        if not keep_scroll:
            self.scroll_home(animate=False)

    def _put(self, widget: Static, content: Text | str) -> None:
        """Give a part of the pane new content, unless it already shows exactly that."""
        if self._shown.get(widget.id or "") != content:
            self._shown[widget.id or ""] = content
            widget.update(content)

    @staticmethod
    def _show_if(widget: Widget, visible: bool) -> None:
        """Show or hide a part of the pane, unless it already is."""
        if widget.display != visible:
            widget.display = visible
