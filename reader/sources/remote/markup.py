"""Markup in the services' answers as plain text: JATS abstracts, HTML titles."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from reader.text.sanitize import clean_imported

_ASCII_SPACE = re.compile(r"[ \t\n\r\f\v]+")


class _MarkupText(HTMLParser):
    """Collects the text of JATS or HTML markup, one paragraph per block element.

    ``HTMLParser`` rather than an XML parser: Crossref's JATS is not always well-formed, and
    this parser never expands entity declarations, fetches anything or fails on bad markup.
    """

    _BLOCKS = frozenset({
        "p", "sec", "title", "list", "list-item", "def-item", "disp-quote", "abstract",
        "trans-abstract", "div", "br", "li", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6",
    })
    # Invisible or duplicated content: MathML's TeX annotations repeat the formula.
    _SKIP = frozenset({"script", "style", "annotation", "annotation-xml", "object-id"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.paragraphs: list[str] = []
        self._current: list[str] = []
        self._skipping = 0

    @staticmethod
    def _local(tag: str) -> str:
        return tag.rpartition(":")[2].lower()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        name = self._local(tag)
        if name in self._SKIP:
            self._skipping += 1
        elif name in self._BLOCKS:
            self._break()

    def handle_endtag(self, tag: str) -> None:
        name = self._local(tag)
        if name in self._SKIP:
            self._skipping = max(0, self._skipping - 1)
        elif name in self._BLOCKS:
            self._break()

    def handle_data(self, data: str) -> None:
        if not self._skipping:
            self._current.append(data)

    def close(self) -> None:
        super().close()
        self._break()

    def _break(self) -> None:
        text = "".join(self._current)
        self._current = []
        # Plain text inside one element may still hold blank-line paragraphs.
        for block in re.split(r"\n[ \t]*\n", text):
            # Only ASCII whitespace folds: a no-break or thin space (20&#x2009;ms) is meant.
            folded = _ASCII_SPACE.sub(" ", block).strip(" ")
            if folded:
                self.paragraphs.append(folded)


_ABSTRACT_HEADING = re.compile(r"(?:abstract|summary)\s*[.:]?", re.IGNORECASE)


def jats_to_text(markup: str) -> str:
    """Plain text of a JATS (or HTML) fragment such as Crossref's ``abstract``.

    Tags go, entities are decoded, each paragraph (``<jats:p>``, ``<jats:sec>``, ``<jats:title>``
    …) becomes one line of folded text, paragraphs are separated by a blank line, and a
    leading "Abstract" heading is dropped.
    """
    if not markup:
        return ""
    parser = _MarkupText()
    parser.feed(markup)
    parser.close()
    paragraphs = parser.paragraphs
    if paragraphs and _ABSTRACT_HEADING.fullmatch(paragraphs[0]):
        paragraphs = paragraphs[1:]
    return clean_imported("\n\n".join(paragraphs))
