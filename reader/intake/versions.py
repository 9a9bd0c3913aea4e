"""A paper's arXiv preprint and its published version (a conference's proceedings, a
journal), met as one paper: cited as published, known by its arXiv id too.

A reference manager holds both (Zotero's ``preprint`` and ``conferencePaper`` of LoRA, the
second with ``arXiv: 2106.09685`` in its Extra), and so does a file that gives both. They
are one paper, as the library's other merges have it (an arXiv listing's journal
reference is where it was published: :mod:`reader.sources.journal_ref`), but where it was
published is not the archive's: whichever of the two the library met first, the published
version's venue, year, DOI, pages and type are what a citation names, and the preprint's
arXiv id stays the paper's arXiv id, not an article number beside the proceedings. The text
(title, abstract) goes by the merge's own rules: the newer of the two, where both are dated.
"""

from __future__ import annotations

from typing import Any

from msgspec import structs

from reader.models import PaperRecord
from reader.store.import_rows import dumps
from reader.text.identifiers import arxiv_venue, normalize_doi

__all__ = [
    "as_published", "is_preprint", "is_published", "preprint_of", "publishes",
    "without_publication",
]

#: CSL types of a version published somewhere other than an archive.
_PUBLISHED = frozenset({"paper-conference", "article-journal", "chapter", "article-magazine"})
#: CSL variables that say where and how a version was published: the published version's
#: are cited, the preprint's ("arXiv", "arXiv:2106.09685", arXiv's DOI, its posting date)
#: are not.
_PUBLICATION = (
    "type", "genre", "container-title", "container-title-short", "collection-title",
    "collection-number", "event", "event-title", "event-place", "event-date",
    "publisher", "publisher-place", "page", "volume", "issue", "number", "issued", "DOI",
    "ISSN", "ISBN", "editor", "source",
)
#: The prefix of the DOIs arXiv gives its papers, as DOIs are compared (lower case).
_ARXIV_DOI = "10.48550/arxiv."


def is_preprint(csl: dict[str, Any], venue: str | None, doi: str | None) -> bool:
    """Whether a record or paper (its CSL variables, venue and DOI) is an arXiv preprint:
    CSL's preprint type (or none) in arXiv, by its venue, publisher, number or DOI."""
    if csl.get("type") not in (None, "article"):
        return False
    return bool(
        (venue and arxiv_venue(venue))
        or str(csl.get("publisher") or "").strip().lower() == "arxiv"
        or str(csl.get("number") or "").lower().startswith("arxiv:")
        or (normalize_doi(doi) or "").startswith(_ARXIV_DOI)
    )


def is_published(csl: dict[str, Any], venue: str | None) -> bool:
    """Whether a record or paper is a version published in proceedings or a journal."""
    where = venue or csl.get("container-title")
    return csl.get("type") in _PUBLISHED and bool(where) and not arxiv_venue(str(where))


def preprint_of(
    record: PaperRecord, current: dict[str, Any], csl: dict[str, Any], doi: str | None
) -> bool:
    """Whether ``record`` (``doi`` its DOI as compared) is the preprint of the published
    paper the library has (``current`` its merge columns, ``csl`` its variables)."""
    return is_published(csl, current["venue"]) and is_preprint(record.csl, record.venue, doi)


def publishes(
    record: PaperRecord, current: dict[str, Any], csl: dict[str, Any], *, own_export: bool
) -> bool:
    """Whether ``record`` is the published version of the preprint the library has
    (``current`` its merge columns, ``csl`` its variables). In a format the library exports
    (``own_export``), a journal that is the one the preprint's listing names (its journal
    reference) is what the library's own export of the preprint cites it as, which says
    nothing the preprint does not."""
    if not (is_preprint(csl, current["venue"], current["doi"])
            and is_published(record.csl, record.venue)):
        return False
    listed = csl.get("container-title")
    return not (own_export and isinstance(listed, str) and _as_read(listed) == _as_read(
        record.venue or ""
    ))


def _as_read(venue: str) -> str:
    """A venue single-spaced, its TeX dashes (``259--296``) as a BibTeX import reads them."""
    return " ".join(venue.replace("---", "\u2014").replace("--", "\u2013").split())


def without_publication(record: PaperRecord) -> PaperRecord:
    """The preprint ``record`` as what it gives a paper already in the library as
    published: its text, names, arXiv id and the rest, not where or when it was posted."""
    csl = {k: v for k, v in record.csl.items() if k not in _PUBLICATION}
    return structs.replace(
        record, csl=csl, venue=None, year=None, date=None, doi=None, kind=None
    )


def as_published(
    record: PaperRecord, current: dict[str, Any], csl: dict[str, Any], doi: str | None
) -> dict[str, Any]:
    """The column updates that make a paper the library has as its preprint (``current``
    its merge columns, ``csl`` its CSL variables) the published version ``record`` is,
    ``doi`` being the record's DOI as the library compares it: the record's venue, year,
    date, kind, link and DOI, and its publication's CSL variables in place of the preprint's."""
    kept = {k: v for k, v in csl.items() if k not in _PUBLICATION}
    published = {k: v for k, v in record.csl.items() if k in _PUBLICATION and v}
    updates: dict[str, Any] = {
        "venue": record.venue,
        "year": record.year or current["year"],
        "date": record.date,
        "kind": record.kind,
        "url": record.url or current["url"],
        "csl": dumps({**kept, **published}),
    }
    if doi or (normalize_doi(current["doi"]) or "").startswith(_ARXIV_DOI):
        # arXiv's DOI is the preprint's: the arXiv id says it still.
        updates["doi"] = doi
    return updates
