"""Turn the core's plain text and spans into Rich text, safely.

Everything here builds ``rich.text.Text`` from plain strings: nothing from a file is ever
parsed as markup, and control characters are made visible before they reach the terminal.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.style import Style
from rich.text import Text

from reader.text.render import render, render_line
from reader.text.sanitize import visible

_EMPHASIS = {"bold": Style(bold=True), "italic": Style(italic=True), "code": Style(reverse=True)}


#: The most of one text the detail pane lays out: real abstracts are a few thousand
#: characters, and wrapping a 5 MB one would freeze the screen for seconds.
DISPLAY_LIMIT = 100_000


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
    cut = ""
    if len(source) > DISPLAY_LIMIT:
        cut = f"\n… (shortened for display: {len(source):,} characters in all)"
        source = source[:DISPLAY_LIMIT]
    rendered = render(visible(source) + cut)
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
    out = line_text(title, terms, highlight, derived_style if derived else None)
    return out if out.plain else Text("Untitled", style=out.style)


def _spans(text: str, terms: frozenset[str]) -> list[tuple[int, int]]:
    """Where the words among ``terms`` are in ``text``. Without terms, nothing is looked up:
    the search module (and Whoosh with it) loads only once there is a query."""
    if not terms:
        return []
    from reader.library import highlight_spans

    return highlight_spans(text, terms)
