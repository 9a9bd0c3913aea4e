"""Turn the core's plain text and spans into Rich text, safely.

Everything here builds ``rich.text.Text`` from plain strings: nothing from a file is ever
parsed as markup, and control characters are made visible before they reach the terminal.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.style import Style
from rich.text import Text

from reader.models import Paper
from reader.text.render import plain_line, render, render_line
from reader.text.sanitize import visible

_EMPHASIS = {"bold": Style(bold=True), "italic": Style(italic=True), "code": Style(reverse=True)}


#: The most of one text the detail pane lays out: real abstracts are a few thousand
#: characters, and wrapping a 5 MB one would freeze the screen for seconds.
DISPLAY_LIMIT = 100_000

#: The most of a title shown: real ones are under 300 characters, and this is more lines
#: than the widest reading view gives a title. Folding and wrapping a title of megabytes
#: (one read from a file of 100,000 lines) froze the window for seconds on every paint.
TITLE_LIMIT = 2_000

#: The most of a title a one-line heading (a dialog's, the note editor's) shows.
HEADING_LIMIT = 200

#: How the reading view's key to see a cut text whole is named where a text says it was cut.
WHOLE_KEY = "z"


def shortened(source: str, limit: int, what: str) -> tuple[str, str]:
    """``source`` cut to ``limit`` characters for the screen, and the words that say so
    (empty when it is whole): the text is never laid out beyond what a screen can show,
    and the reader is told how much there is and how to see it whole."""
    if len(source) <= limit:
        return source, ""
    return source[:limit], (
        f"… ({what} shortened for display: {len(source):,} characters in all; "
        f"{WHOLE_KEY} in the reading view shows it whole)"
    )


def paper_is_cut(paper: Paper) -> bool:
    """Whether the screen shows a paper's title or abstract cut for its length."""
    return len(paper.title) > TITLE_LIMIT or len(paper.abstract) > DISPLAY_LIMIT


def heading(title: str) -> str:
    """A title as a dialog's one-line heading shows it: plain, visible, and at most
    :data:`HEADING_LIMIT` characters (the cut marked by an ellipsis)."""
    line = plain_line(title[: HEADING_LIMIT * 4])
    if len(line) > HEADING_LIMIT:
        line = line[: HEADING_LIMIT - 1] + "…"
    return visible(line)


def abstract_text(
    source: str,
    terms: frozenset[str],
    highlight: Style,
    passages: Sequence[tuple[int, int]] = (),
    passage_style: Style | None = None,
    selection: tuple[int, int] | None = None,
    selection_style: Style | None = None,
) -> Text:
    """An abstract rendered for reading: LaTeX as Unicode, emphasis as style, hits marked;
    highlighted passages and the selection (offsets into the rendered text, as in
    reader.store.highlights.display_text) on top."""
    source, cut = shortened(source, DISPLAY_LIMIT, "text")
    rendered = render(visible(source) + ("\n" + cut if cut else ""))
    out = Text(rendered.text)
    for start, end, kind in rendered.spans:
        out.stylize(_EMPHASIS.get(kind, Style()), start, end)
    if passage_style is not None:
        for start, end in passages:
            out.stylize(passage_style, start, end)
    for start, end in _spans(rendered.text, terms):
        out.stylize(highlight, start, end)
    if selection is not None and selection_style is not None:
        out.stylize(selection_style, *selection)
    return out


def line_text(
    source: str,
    terms: frozenset[str] = frozenset(),
    highlight: Style | None = None,
    base: Style | None = None,
) -> Text:
    """A one-line field (title, TL;DR) rendered like an abstract, on one line, hits marked."""
    rendered = render_line(visible(source))
    out = Text(rendered.text, style=base or Style())
    for start, end, kind in rendered.spans:
        out.stylize(_EMPHASIS.get(kind, Style()), start, end)
    if highlight is not None:
        for start, end in _spans(rendered.text, terms):
            out.stylize(highlight, start, end)
    return out


def title_text(
    title: str, derived: bool, terms: frozenset[str], highlight: Style, derived_style: Style
) -> Text:
    """A paper title as rendered; a derived one in ``derived_style`` so it never passes for
    the real one."""
    title, cut = shortened(title, TITLE_LIMIT, "title")
    out = line_text(title, terms, highlight, derived_style if derived else None)
    if cut:
        out.append(" " + cut, Style(dim=True, italic=True))
    return out if out.plain else Text("Untitled", style=out.style)


def _spans(text: str, terms: frozenset[str]) -> list[tuple[int, int]]:
    """Where the words among ``terms`` are in ``text``. Without terms, nothing is looked up:
    the search module (and Whoosh with it) loads only once there is a query."""
    if not terms:
        return []
    from reader.library import highlight_spans

    return highlight_spans(text, terms)
