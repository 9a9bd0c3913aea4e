"""What a pane shows of a paper, part by part, as Rich text: its title, the line of its
authors, venue and marks, its abstract with the query's words and the highlighted passages
marked, why it is shown, the user's note and highlights. The reading view shows them a part
per widget (``PaperView``), the detail pane beside the list as lines (``PaperDetail``)."""

from __future__ import annotations

from collections.abc import Callable

from msgspec import Struct
from rich.style import Style
from rich.text import Text

from reader.library import display_text, placed
from reader.models import Highlight, Paper
from reader.record import names_go_on, published_venue, record_line, source_doi
from reader.text.render import plain_line
from reader.text.sanitize import visible
from reader.ui.text import abstract_text, line_text, title_text


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
    venue = published_venue(paper.venue or "", paper.csl)
    venue_year = " · ".join(p for p in (plain_line(venue), year) if p)
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
