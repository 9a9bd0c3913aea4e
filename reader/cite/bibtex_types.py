"""What BibTeX's entry types and biblatex's type keys mean in CSL's words: the genre of a
thesis its entry type alone names, what a ``type`` field's key prints as, and when a
BibTeX ``number`` is the number in a series, and when a record is an arXiv preprint (read by
citations and exports alike)."""

from __future__ import annotations

from typing import Any

from reader.models import Paper
from reader.text.identifiers import arxiv_venue

__all__ = [
    "arxiv_preprint", "biblatex_type_words", "genre_of_kind", "numbers_in_series", "thesis_genre",
]

# What a thesis is when its BibTeX entry type says so and no ``type`` field does.
_THESIS_GENRES = {"phdthesis": "Doctoral dissertation", "mastersthesis": "Master's thesis"}
# biblatex's localisation keys a ``type`` field may hold, as biblatex's English prints them
# (a style given "mathesis" printed "[Mathesis]").
_BIBLATEX_TYPE_KEYS = {
    "mathesis": "Master's thesis", "phdthesis": "PhD thesis", "candthesis": "Candidate thesis",
    "techreport": "Technical report", "resreport": "Research report",
    "software": "Computer software", "datacd": "CD-ROM", "audiocd": "Audio CD",
}
# Types whose BibTeX ``number`` is the volume's number in its series.
_SERIES_NUMBERED = frozenset({"book", "chapter", "paper-conference"})


def thesis_genre(paper: Paper) -> str | None:
    """What a thesis is when only its BibTeX entry type says it (@mastersthesis: "Master's
    thesis"), or None."""
    source = paper.extra.get("bibtex") if isinstance(paper.extra, dict) else None
    kind = source.get("@type") if isinstance(source, dict) else None
    return genre_of_kind(kind) if isinstance(kind, str) else None


def genre_of_kind(kind: str | None) -> str | None:
    """What a BibTeX entry type says a thesis is ("Master's thesis"), or None."""
    return _THESIS_GENRES.get((kind or "").lower())


def biblatex_type_words(key: str) -> str | None:
    """What biblatex prints for one of its type keys (``mathesis``: "Master's thesis"), or
    None for any other text."""
    return _BIBLATEX_TYPE_KEYS.get(key.strip().lower())


def numbers_in_series(paper: Paper, item: dict[str, Any]) -> bool:
    """Whether the number of a BibTeX record (a book's, a chapter's, a paper's, beside its
    series) is, in CSL's words, its collection-number: BibTeX has one field for both."""
    source = paper.extra.get("bibtex") if isinstance(paper.extra, dict) else None
    return bool(
        source
        and item.get("type") in _SERIES_NUMBERED
        and item.get("collection-title")
        and "number" in item
        and "collection-number" not in item
    )


# The types such a record is given (@article, @misc, a table's "article").
_PREPRINT_AS = frozenset({"article", "article-journal", "document", "manuscript"})


def arxiv_preprint(paper: Paper, item: dict[str, Any]) -> bool:
    """Whether the paper, whose CSL variables are ``item``, is cited as an arXiv preprint
    though its type says otherwise: a BibTeX @misc with arXiv eprint fields, or an article
    "in" "arXiv preprint" (Mendeley's and Google Scholar's), as biblatex styles print them.
    An export that cannot keep the BibTeX record (a table) writes it as the preprint it is."""
    source = paper.extra.get("bibtex") if isinstance(paper.extra, dict) else None
    container = str(item.get("container-title") or "")
    return bool(paper.arxiv_id) and not item.get("publisher") and (
        (bool(source) and item.get("type") in _PREPRINT_AS and not container)
        or (arxiv_venue(container) and item.get("type") in _PREPRINT_AS)
    )
