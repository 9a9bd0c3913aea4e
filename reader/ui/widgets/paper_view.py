"""A paper shown for reading: title, venue and year, abstract, the user's note and
highlights, then its reviews and their discussion (see ``replies``)."""

from __future__ import annotations

from collections.abc import Callable

from msgspec import Struct
from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.widget import Widget
from textual.widgets import Static

from reader.library import Discussion, display_text, placed
from reader.models import Highlight, Paper
from reader.record import names_go_on, record_line, source_doi
from reader.text.render import plain_line
from reader.text.sanitize import visible
from reader.ui.text import abstract_text, line_text, title_text
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


class Parts(Struct, frozen=True):
    """What a pane shows of a paper, part by part; None for a part it leaves out."""

    title: Text
    meta: Text
    abstract: Text
    why: Text | None = None
    note: Text | None = None
    highlights: Text | None = None


def paper_parts(
    paper: Paper | None,
    terms: frozenset[str],
    style: Callable[[str], Style],
    *,
    selection: tuple[int, int] | None = None,
    why: list[str] | None = None,
    empty: str = "No paper selected",
) -> Parts:
    """The parts of a paper as shown, styled with ``style`` (a widget's component styles by
    name: the ``paper-view--*`` classes); for no paper, ``empty`` in place of a title."""
    shares = Text("Shares: " + ", ".join(why)) if why and paper is not None else None
    if paper is None:
        return Parts(Text(empty, style=Style(dim=True)), Text(), Text(), shares)
    highlight = style("paper-view--highlight")
    heading = title_text(
        paper.title, paper.title_derived, terms, highlight, style("paper-view--derived")
    )
    if paper.title_derived:
        heading.append("  (title derived from the abstract)", Style(dim=True, italic=True))
    own = [h for h in paper.highlights if h.reply_id is None]
    shown = display_text(paper.abstract) if own else ""
    anchored = [
        span for h in own if not h.orphaned
        and (span := placed(h.quote, h.start, h.end, shown)) is not None
    ]
    abstract = abstract_text(
        paper.abstract, terms, highlight, anchored, style("paper-view--passage"),
        selection, style("paper-view--selection"),
    )
    note = abstract_text(paper.note, terms, highlight) if paper.note.strip() else None
    passages = _highlights_text(paper) if paper.highlights else None
    return Parts(heading, _meta_line(paper, terms, highlight), abstract, shares, note,
                 passages)


def _highlights_text(paper: Paper) -> Text:
    """The highlighted passages, each quoted with its note, those of a reply saying whose;
    one whose passage an import removed from the abstract or the reply says so, and one
    found again elsewhere in an edited reply says that."""
    out = Text()
    for n, h in enumerate(paper.highlights):
        if n:
            out.append("\n")
        out.append("“" + visible(h.quote) + "”", Style(italic=True))
        if h.reply_id is not None:
            out.append("  in " + reply_label(h), Style(dim=True))
        if h.orphaned:
            where = "the abstract" if h.reply_id is None else "the reply: it was edited"
            out.append(f"  (no longer in {where})", Style(dim=True))
        elif h.moved:
            out.append("  (the reply was edited: the passage moved)", Style(dim=True))
        if h.note.strip():
            out.append("\n  " + visible(h.note.strip()))
    return out


def reply_label(h: Highlight) -> str:
    """The reply a highlight is in, in words: ``Official Review · Reviewer_6GPX``."""
    return visible(h.reply_words or f"reply {h.reply_id}")


def _meta_line(
    paper: Paper, terms: frozenset[str] = frozenset(), highlight: Style | None = None
) -> Text:
    """Authors; venue, year, key and marks; then what else is known (area, keywords, TL;DR,
    where to find the paper), a line each; names, venue and TL;DR with their TeX rendered,
    the TL;DR with the query's words marked, as the abstract beside it."""
    lines = []
    if paper.authors:
        names = [plain_line(name) for name in paper.authors[:8]]
        goes_on = len(paper.authors) > 8 or names_go_on(paper.extra)
        lines.append(", ".join(names) + (" et al." if goes_on else ""))
    year = str(paper.year) if paper.year else ""
    venue_year = " · ".join(p for p in (plain_line(paper.venue or ""), year) if p)
    key = f"@{paper.citekey}"
    if paper.aliases:
        # The keys of entries merged into this paper, which still cite it.
        key += " (also " + ", ".join(f"@{alias}" for alias in paper.aliases) + ")"
    parts = [p for p in (venue_year, key) if p]
    if paper.withdrawn:
        parts.append("withdrawn")
    if paper.starred:
        parts.append("★ starred")
    if paper.read:
        parts.append("✓ read")
    lines.append(" · ".join(parts))
    record = record_line(paper.csl)
    if record:
        lines.append(record)
    if paper.tags:
        lines.append("Tags: " + " ".join(f"#{tag}" for tag in paper.tags))
    if paper.primary_area:
        lines.append(f"Area: {paper.primary_area}")
    if paper.keywords:
        lines.append("Keywords: " + ", ".join(map(plain_line, paper.keywords[:12])))
    out = Text(visible("\n".join(lines)))
    if paper.tldr:
        out.append("\nTL;DR: ")
        out.append_text(line_text(paper.tldr, terms, highlight))
    doi = source_doi(paper.csl, paper.doi)
    links = [f"doi:{doi}" if doi else "", f"arXiv:{paper.arxiv_id}" if paper.arxiv_id
             else "", paper.url or ""]
    if any(links):
        out.append("\n" + visible(" · ".join(link for link in links if link)))
    return out
