"""The bibliographic record: a paper's data as a CSL item, and the vocabulary around it.

Part of the headless core: no Textual, no I/O.

A paper keeps its title, abstract, DOI, URL, keywords, display names, venue, year and ISO
date in columns of their own (the list, the search index and identity read those); the rest
of its CSL item lives in ``Paper.csl``: ``type``, ``volume``, ``issue``, ``page``,
``publisher``, ``issued`` date parts, structured names (``author``, ``editor`` …) as
``{family, given, non-dropping-particle, dropping-particle, suffix}`` or ``{literal}``, and
any other CSL variable a source gave. The venue column is the item's ``container-title``.
Fields of a source that CSL has no variable for are kept verbatim in ``Paper.extra`` under
the source format's name, for that format's export.
"""

from __future__ import annotations

from typing import Any

from reader.text.names import (
    display_name,
    family_key,
    is_anonymous,
    names_text,
    parse_names_text,
    split_name,
)
from reader.text.pattern import Pattern

__all__ = [
    "COLUMN_VARIABLES",
    "CSL_TYPES",
    "DATE_VARIABLES",
    "NAME_VARIABLES",
    "TEX_PREFIX",
    "bibtex_type_for",
    "csl_type_for_bibtex",
    "date_parts",
    "display_name",
    "family_key",
    "is_anonymous",
    "iso_from_parts",
    "names_go_on",
    "names_text",
    "parse_names_text",
    "published_venue",
    "record_line",
    "split_name",
]

#: CSL name variables, in the order an export writes them.
NAME_VARIABLES = (
    "author", "editor", "translator", "container-author", "collection-editor", "composer",
    "director", "editorial-director", "illustrator", "interviewer", "original-author",
    "recipient", "reviewed-author", "chair", "compiler", "contributor", "curator",
    "executive-producer", "guest", "host", "narrator", "organizer", "performer", "producer",
    "script-writer", "series-creator",
)
#: The item types of CSL 1.0.2.
CSL_TYPES = frozenset(
    "article article-journal article-magazine article-newspaper bill book broadcast chapter "
    "classic collection dataset document entry entry-dictionary entry-encyclopedia event "
    "figure graphic hearing interview legal_case legislation manuscript map motion_picture "
    "musical_score pamphlet paper-conference patent performance periodical personal_"
    "communication post post-weblog regulation report review review-book software song "
    "speech standard thesis treaty webpage".split()
)
#: How a RIS note line carries a BibTeX field RIS has no tag for (``tex.crossref: whole-set``):
#: the prefix Better BibTeX reads in Zotero's Extra field.
TEX_PREFIX = "tex."
DATE_VARIABLES = ("issued", "accessed", "original-date", "event-date", "submitted")
#: CSL variables held in the paper's own columns, never in ``Paper.csl``.
COLUMN_VARIABLES = frozenset({"id", "citation-key", "title", "abstract", "DOI", "URL", "keyword"})

_ISO_DATE = Pattern(r"^\s*(-?\d{1,4})(?:-(\d{1,2})(?:-(\d{1,2}))?)?")

# BibTeX/BibLaTeX entry types and the CSL types they are (Zotero's and citation.js's choices).
_BIBTEX_TO_CSL = {
    "article": "article-journal",
    "inproceedings": "paper-conference",
    "conference": "paper-conference",
    "incollection": "chapter",
    "inbook": "chapter",
    "bookinbook": "chapter",
    "inreference": "entry-encyclopedia",
    "book": "book",
    "mvbook": "book",
    "collection": "book",
    "mvcollection": "book",
    "proceedings": "book",
    "mvproceedings": "book",
    "reference": "book",
    "booklet": "pamphlet",
    "manual": "report",
    "techreport": "report",
    "report": "report",
    "phdthesis": "thesis",
    "mastersthesis": "thesis",
    "thesis": "thesis",
    "unpublished": "manuscript",
    "online": "webpage",
    "electronic": "webpage",
    "www": "webpage",
    "dataset": "dataset",
    "software": "software",
    "patent": "patent",
    "periodical": "periodical",
    "misc": "document",
}
# CSL types and the BibTeX / BibLaTeX entry types an export writes for them.
_CSL_TO_BIBTEX = {
    "article-journal": ("article", "article"),
    "article-magazine": ("article", "article"),
    "article-newspaper": ("article", "article"),
    "paper-conference": ("inproceedings", "inproceedings"),
    "chapter": ("incollection", "incollection"),
    "entry-encyclopedia": ("incollection", "inreference"),
    "entry-dictionary": ("incollection", "inreference"),
    "book": ("book", "book"),
    "pamphlet": ("booklet", "booklet"),
    "report": ("techreport", "report"),
    "thesis": ("phdthesis", "thesis"),
    "manuscript": ("unpublished", "unpublished"),
    "webpage": ("online", "online"),  # classic styles print an @online as a @misc
    "post-weblog": ("misc", "online"),
    "dataset": ("misc", "dataset"),
    "software": ("misc", "software"),
    "patent": ("misc", "patent"),
    "periodical": ("misc", "periodical"),
    "article": ("misc", "online"),
}


def csl_type_for_bibtex(kind: str) -> str:
    """The CSL type of a BibTeX/BibLaTeX entry type (``document`` for one we don't know)."""
    return _BIBTEX_TO_CSL.get(kind.strip().lower(), "document")


def bibtex_type_for(csl_type: str, *, biblatex: bool = False) -> str:
    """The BibTeX (or BibLaTeX) entry type for a CSL type."""
    classic, modern = _CSL_TO_BIBTEX.get(csl_type, ("misc", "misc"))
    return modern if biblatex else classic


# --- names -----------------------------------------------------------------------------------


def clean_names(value: Any) -> list[dict[str, str]]:
    """CSL names as given, keeping only their string parts; plain strings are split."""
    if not isinstance(value, list):
        value = [value] if value else []
    out: list[dict[str, str]] = []
    for person in value:
        if isinstance(person, dict):
            name = {
                k: " ".join(str(v).split())
                for k, v in person.items()
                if isinstance(v, str | int) and not isinstance(v, bool) and str(v).strip()
            }
        elif isinstance(person, str):
            name = split_name(person) or {}
        else:
            name = {}
        if (name.get("literal") or name.get("family") or name.get("given")) and not is_anonymous(
            name
        ):
            out.append(name)
    return out


def names_go_on(extra: Any, variable: str = "author") -> bool:
    """Whether the source's list of these names went on (BibTeX's ``and others``)."""
    source = extra.get("bibtex") if isinstance(extra, dict) else None
    others = source.get("@others") if isinstance(source, dict) else None
    bibtex_name = {"container-author": "bookauthor"}.get(variable, variable)
    return isinstance(others, list) and bibtex_name in others


# --- shown ----------------------------------------------------------------------------------

# Types a reader already expects from a venue line; any other is named.
_UNNAMED_TYPES = frozenset({"article-journal", "paper-conference", "article", "document"})


def published_venue(venue: str, csl: dict[str, Any]) -> str:
    """The journal a preprint's record names beside its archive (an arXiv listing's journal
    reference), else the venue: where the paper was published, as shown and cited."""
    journal = csl.get("container-title")
    if isinstance(journal, str) and journal.strip() and venue.lower().startswith("arxiv"):
        return " ".join(journal.split())
    return venue


def record_line(csl: dict[str, Any]) -> str:
    """What a record adds to the venue line, for the detail pane and the reading view:
    ``Chapter · 28(4) · pp. 429–452 · Academic Press, New York · eds. A. B. Editor``."""
    parts: list[str] = []
    kind = _text(csl.get("type"))
    if kind and kind not in _UNNAMED_TYPES:
        parts.append(kind.replace("-", " ").replace("_", " ").capitalize())
    volume, issue = _text(csl.get("volume")), _text(csl.get("issue"))
    if volume and issue:
        parts.append(f"{volume}({issue})")
    elif volume:
        parts.append(f"vol. {volume}")
    elif issue:
        parts.append(f"no. {issue}")
    page = _text(csl.get("page")).replace("--", "–").replace("-", "–")
    if page:
        parts.append(("pp. " if "–" in page else "p. ") + page)
    edition = _text(csl.get("edition"))
    if edition:
        parts.append(f"{edition} ed." if not edition.endswith(("ed.", "edition")) else edition)
    publisher = ", ".join(
        p for p in (_text(csl.get("publisher")), _text(csl.get("publisher-place"))) if p
    )
    if publisher:
        parts.append(publisher)
    editors = [display_name(n) for n in csl.get("editor") or [] if isinstance(n, dict)]
    if editors:
        shown = ", ".join(editors[:4]) + (" et al." if len(editors) > 4 else "")
        parts.append(("eds. " if len(editors) > 1 else "ed. ") + shown)
    return " · ".join(parts)


# --- dates -----------------------------------------------------------------------------------


def date_parts(iso: str | None) -> list[int] | None:
    """``[2012, 7, 3]`` for ``2012-07-03`` (as precise as the text), None for no date."""
    match = _ISO_DATE.match(iso or "")
    if not match:
        return None
    parts = [int(p) for p in match.groups() if p is not None]
    if len(parts) > 1 and not 1 <= parts[1] <= 12:
        parts = parts[:1]
    if len(parts) > 2 and not 1 <= parts[2] <= 31:
        parts = parts[:2]
    return parts


def iso_from_parts(value: Any) -> str | None:
    """``2012-07-03`` from a CSL date (``{"date-parts": [[2012, 7, 3]]}``), None if it has none."""
    if not isinstance(value, dict):
        return None
    parts = value.get("date-parts")
    if not (isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0]):
        return None
    numbers: list[int] = []
    for part in parts[0][:3]:
        text = str(part).strip()
        if not text.lstrip("-").isdigit():
            break
        numbers.append(int(text))
    if not numbers:
        return None
    if len(numbers) > 1 and not 1 <= numbers[1] <= 12:
        numbers = numbers[:1]
    if len(numbers) > 2 and not 1 <= numbers[2] <= 31:
        numbers = numbers[:2]
    return "-".join([f"{numbers[0]:04d}", *(f"{n:02d}" for n in numbers[1:])])


def _text(value: Any) -> str:
    return " ".join(str(value).split()) if isinstance(value, str | int) and value != "" else ""


def source_doi(csl: dict[str, Any], doi: str | None) -> str | None:
    """A paper's DOI as its source wrote it (``10/fqd6hj``, ``10.1103/PhysRevA.67``), which
    the record keeps when it differs from ``doi``, the form papers are compared by."""
    written = csl.get("DOI")
    if isinstance(written, str) and written.strip():
        return written.strip()
    return doi


def keep_written_doi(csl: dict[str, Any], written: str | None, doi: str | None) -> None:
    """Remember in ``csl`` a DOI spelled otherwise than its compared form ``doi``."""
    if written and doi and written != doi:
        csl["DOI"] = written
