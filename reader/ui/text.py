"""Turn the core's plain text and spans into Rich text, safely.

Everything here builds ``rich.text.Text`` from plain strings: nothing from a file is ever
parsed as markup, and control characters are made visible before they reach the terminal.
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text

from reader.sanitize import visible
from reader.search import highlight_spans
from reader.textrender import render

_EMPHASIS = {"bold": Style(bold=True), "italic": Style(italic=True), "code": Style(reverse=True)}


def highlighted(text: str, terms: frozenset[str], style: Style, base: Style | None = None) -> Text:
    """Plain text with the words among ``terms`` in ``style``."""
    out = Text(text, style=base or Style())
    for start, end in highlight_spans(text, terms):
        out.stylize(style, start, end)
    return out


def abstract_text(source: str, terms: frozenset[str], highlight: Style) -> Text:
    """An abstract rendered for reading: LaTeX as Unicode, emphasis as style, hits marked."""
    rendered = render(visible(source))
    out = Text(rendered.text)
    for start, end, kind in rendered.spans:
        out.stylize(_EMPHASIS.get(kind, Style()), start, end)
    for start, end in highlight_spans(rendered.text, terms):
        out.stylize(highlight, start, end)
    return out


def title_text(
    title: str, derived: bool, terms: frozenset[str], highlight: Style, derived_style: Style
) -> Text:
    """A paper title; a derived one in ``derived_style`` so it never passes for the real one."""
    return highlighted(visible(title) or "Untitled", terms, highlight,
                       derived_style if derived else None)
