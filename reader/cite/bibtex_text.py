"""The title, abstract and TL;DR fields of a paper's BibTeX entry, written so that an import
of them reads the paper's text back: TeX read from a .bib file as it came, plain text escaped
around its math, a title's acronyms brace-protected."""

from __future__ import annotations

import re
from typing import Any

from reader.cite.tex_escape import TEX_KEPT, escape_tex, escape_title, fold
from reader.models import Paper
from reader.sources.bibtex_openreview import plain_of_grouped
from reader.text.tex_plain import TEX_MATH, escaped_plain

#: The field naming those of an entry whose TeX is kept as written though it reads as
#: escaped plain text (an OpenReview abstract's ``20\\%``), which an import would otherwise
#: take for the plain text ``20%``.
TEX_FIELDS = "texfields"
#: The export's field naming the text fields written as the plain text the paper holds,
#: escaped and its capitals protected (``{SAIL}: {Self-Amplified} …``), which an import
#: would otherwise keep as the TeX a .bib file's title is.
PLAIN_FIELDS = "plainfields"
#: Source fields naming files on the machine that wrote the entry (JabRef's, Zotero's and
#: Mendeley's attached PDFs): a file's, not a citation's.
LOCAL_FIELDS = frozenset({"file", "pdf", "local-url"})
_TEX_MARKUP = re.compile(r"[{}\\$]")
# A TeX command or control symbol (`\textbf`, `\aa`, `\%`): text written as TeX. A
# backslash after a drive letter starts no command: `C:\temp` is a Windows path.
_TEX_COMMAND = re.compile(r"(?<![A-Za-z]:)\\(?:[A-Za-z]+|[^A-Za-z\s])")
_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n\s*")
# An accent command a plain title's escaping turned into a literal backslash, before a
# letter: `Koll\textbackslash{}'ar`.
_ACCENT = re.compile(r"\\textbackslash\{\}(['\"`^~=.])(?=[A-Za-z{])")


def bibtex_source(paper: Paper) -> dict[str, object]:
    """The fields of the .bib entry the paper was read from ({} when none)."""
    source = paper.extra.get("bibtex", {}) if isinstance(paper.extra, dict) else {}
    return source if isinstance(source, dict) else {}


def with_arxiv_id(bibtex: dict[str, Any], paper: Paper) -> dict[str, Any]:
    """A BibTeX record's fields (``bibtex``, not empty) as an export that is no BibTeX keeps
    them: with the paper's arXiv id as the eprint fields the record holds it in, and the
    paper's link when it is its arXiv page (``url``), which reads alike with the link the
    export writes for the id alone: a paper whose own link that was lost it on the way back."""
    if not paper.arxiv_id:
        return bibtex
    if "eprint" not in bibtex:
        bibtex = {**bibtex, "eprint": paper.arxiv_id, "archiveprefix": "arXiv"}
    if (paper.url or "").strip() == f"https://arxiv.org/abs/{paper.arxiv_id}":
        bibtex = {**bibtex, "url": (paper.url or "").strip()}
    return bibtex


def _title_without(title: str, subtitle: str) -> str:
    """The title with the source's subtitle, which the importer appended, taken off again
    (as TeX, or as plain text in a library imported before titles were kept as TeX)."""
    from reader.sources.bibtex_values import plain_field, tex_field

    for form in (tex_field(subtitle), plain_field(subtitle)):
        if form and title.endswith(": " + form):
            return title[: -len(form) - 2]
    return title


def bibtex_title(paper: Paper) -> str:
    """The title field of the paper's BibTeX entry ("" when it has none to write)."""
    source = bibtex_source(paper)
    title = fold(paper.title or "")
    subtitle = source.get("subtitle")
    if isinstance(subtitle, str):
        title = _title_without(title, subtitle)
    if title and source and not paper.title_derived and _TEX_MARKUP.search(title):
        # A title read from a .bib file is TeX as its source wrote it (braces protecting its
        # case included), and goes back as it came. One without any TeX (read from RIS, or
        # never protected) is protected like any plain title; so is plain text with math and
        # no other TeX (our export's of an OpenReview title, read back): its math braced
        # from a style's recasing, it reads back as itself, where as TeX its "50%" would
        # come back "50\%", and the entry would change from one export to the next.
        if _TEX_MARKUP.search(TEX_MATH.sub("", title)) or (
                plain_of_grouped(escape_title(title)) != title):
            return escape_tex(title, TEX_KEPT)
    # A derived title is written too (marked as derived by the export), so that a library
    # that reads the entry has the title the paper is cited and listed by. TeX accents an
    # arXiv title is written with (`Koll\'ar`, `Gr\"obner`) stay accents: escaped, LaTeX
    # printed the backslash.
    return _ACCENT.sub(r"\\\1", escape_title(title)) if title else ""


def _folded_abstract(paper: Paper) -> str:
    """The paper's abstract on one line a paragraph (a blank line inside a braced value is
    legal BibTeX: paragraphs stay paragraphs)."""
    return "\n\n".join(
        p for p in (fold(p) for p in _PARAGRAPH_BREAK.split(paper.abstract or "")) if p
    )


def bibtex_abstract(paper: Paper) -> str:
    """The abstract field of the paper's BibTeX entry ("" when it has none)."""
    abstract = _folded_abstract(paper)
    if not abstract:
        return ""
    # An abstract from a .bib file is TeX as its source wrote it (unless it was read as the
    # plain text its source escaped); so is one from another
    # source whose authors wrote TeX commands in it (OpenReview: `\textbf{…}`, `20\%`,
    # `\aa`): its commands, their braces and its math go out as they came (escaped, an
    # import would read them back as other text). Other abstracts are plain text with TeX
    # math, their braces literal.
    tex = bool(_TEX_COMMAND.search(abstract)) or _read_as_tex(paper, abstract)
    return escape_tex(abstract, TEX_KEPT if tex else TEX_MATH)


def _read_as_tex(paper: Paper, text: str) -> bool:
    """Whether a text of a paper read from a .bib file is the TeX its source wrote, to go
    back as it came: TeX, whose special characters its source escaped (``30\\%``), rather
    than the plain text an escaped one was read as (``30%``, ``a {b}``)."""
    return bool(bibtex_source(paper)) and escape_tex(text, TEX_KEPT) == text


def bibtex_tldr(paper: Paper) -> str:
    """The ``tldr`` field of the paper's BibTeX entry ("" when it has no TL;DR).

    OpenReview's one-sentence summary has no standard field; ``tldr`` is the name it goes
    by there (and in Semantic Scholar's data), written like the abstract it sums up.
    """
    tldr = fold(paper.tldr or "")
    if not tldr:
        return ""
    return escape_tex(tldr, TEX_KEPT if _read_as_tex(paper, tldr) else TEX_MATH)


def tex_fields(paper: Paper) -> list[str]:
    """The text fields of the paper's entry written as the TeX the paper holds though an
    import would read them as escaped plain text (``20\\%`` as ``20%``): named in the
    entry's :data:`TEX_FIELDS`, so that they read back as the TeX they are."""
    stored = (("abstract", _folded_abstract(paper), bibtex_abstract(paper)),
              ("tldr", fold(paper.tldr or ""), bibtex_tldr(paper)))
    return [name for name, text, written in stored
            if written and escaped_plain(written) not in (None, text)]


def plain_fields(paper: Paper) -> list[str]:
    """The text fields of the paper's entry (its title) written as the plain text it holds,
    escaped and protected for BibTeX, which read back as plain text give that text: named
    in the entry's :data:`PLAIN_FIELDS`, so that a new library holds the title as it was,
    not the braces the export added; its math stays the TeX it is (``{M{$^3$}E}`` reads
    back as ``M$^3$E``). A title of TeX (a .bib file's) is not."""
    title = fold(paper.title or "")
    written = bibtex_title(paper)
    return ["title"] if written and written != title and plain_of_grouped(written) == title else []
