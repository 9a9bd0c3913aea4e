"""A paper shown for reading: title, venue and year, abstract, and the user's note."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from reader.models import Paper
from reader.sanitize import visible
from reader.ui.text import abstract_text, title_text


class PaperView(VerticalScroll):
    """The detail pane and the body of the reading view."""

    COMPONENT_CLASSES = {
        "paper-view--highlight",
        "paper-view--derived",
        "paper-view--passage",
        "paper-view--selection",
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
        highlight = self.get_component_rich_style("paper-view--highlight")
        derived = self.get_component_rich_style("paper-view--derived")
        title = self.query_one("#paper-title", Static)
        meta = self.query_one("#paper-meta", Static)
        why_line = self.query_one("#paper-why", Static)
        abstract = self.query_one("#paper-abstract", Static)
        note_heading = self.query_one("#paper-note-heading", Static)
        note = self.query_one("#paper-note", Static)
        passages_heading = self.query_one("#paper-highlights-heading", Static)
        passages = self.query_one("#paper-highlights", Static)
        # Only what changed is touched: an update or a display toggle costs a layout pass,
        # and the pane is redrawn on every key of the list.
        show = self._show_if
        put = self._put
        show(why_line, bool(why) and paper is not None)
        put(why_line, Text("Shares: " + ", ".join(why)) if why else "")
        if paper is None:
            put(title, Text(empty, style=Style(dim=True)))
            for widget in (meta, abstract, note, passages):
                put(widget, "")
            for widget in (note_heading, note, passages_heading, passages):
                show(widget, False)
            return
        heading = title_text(paper.title, paper.title_derived, terms, highlight, derived)
        if paper.title_derived:
            heading.append("  (title derived from the abstract)", Style(dim=True, italic=True))
        put(title, heading)
        put(meta, Text(_meta_line(paper)))
        anchored = [(h.start, h.end) for h in paper.highlights if not h.orphaned]
        put(
            abstract,
            abstract_text(
                paper.abstract, terms, highlight, anchored,
                self.get_component_rich_style("paper-view--passage"),
                selection, self.get_component_rich_style("paper-view--selection"),
            ),
        )
        has_note = bool(paper.note.strip())
        show(note_heading, has_note)
        show(note, has_note)
        put(note, abstract_text(paper.note, terms, highlight) if has_note else "")
        show(passages_heading, bool(paper.highlights))
        show(passages, bool(paper.highlights))
        put(passages, _highlights_text(paper) if paper.highlights else "")
        if not keep_scroll:
            self.scroll_home(animate=False)


    def _put(self, widget: Static, content: Text | str) -> None:
        """Give a part of the pane new content, unless it already shows exactly that."""
        if self._shown.get(widget.id or "") != content:
            self._shown[widget.id or ""] = content
            widget.update(content)

    @staticmethod
    def _show_if(widget: Static, visible: bool) -> None:
        """Show or hide a part of the pane, unless it already is."""
        if widget.display != visible:
            widget.display = visible


def _highlights_text(paper: Paper) -> Text:
    """The highlighted passages, each quoted with its note; one whose passage an import
    removed from the abstract says so."""
    out = Text()
    for n, h in enumerate(paper.highlights):
        if n:
            out.append("\n")
        out.append("“" + visible(h.quote) + "”", Style(italic=True))
        if h.orphaned:
            out.append("  (no longer in the abstract)", Style(dim=True))
        if h.note.strip():
            out.append("\n  " + visible(h.note.strip()))
    return out


def _meta_line(paper: Paper) -> str:
    """Authors; venue, year, key and marks; then what else is known (area, keywords, TL;DR,
    where to find the paper), a line each."""
    lines = []
    if paper.authors:
        authors = ", ".join(paper.authors[:8]) + (" et al." if len(paper.authors) > 8 else "")
        lines.append(authors)
    parts = [p for p in (paper.venue_year, f"@{paper.citekey}") if p]
    if paper.withdrawn:
        parts.append("withdrawn")
    if paper.starred:
        parts.append("★ starred")
    if paper.read:
        parts.append("✓ read")
    lines.append(" · ".join(parts))
    if paper.tags:
        lines.append("Tags: " + " ".join(f"#{tag}" for tag in paper.tags))
    if paper.primary_area:
        lines.append(f"Area: {paper.primary_area}")
    if paper.keywords:
        lines.append("Keywords: " + ", ".join(paper.keywords[:12]))
    if paper.tldr:
        lines.append(f"TL;DR: {paper.tldr}")
    links = [f"doi:{paper.doi}" if paper.doi else "", f"arXiv:{paper.arxiv_id}" if paper.arxiv_id
             else "", paper.url or ""]
    if any(links):
        lines.append(" · ".join(link for link in links if link))
    return visible("\n".join(lines))
