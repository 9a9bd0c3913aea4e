"""A BibTeX entry's fields as a CSL record: each field to the variable that means it, the
entry type's meaning, crossref inheritance by BibTeX's and biblatex's rules, and every
field the record does not model kept verbatim for the way back out."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from reader.record import (
    csl_type_for_bibtex,
    date_parts,
)
from reader.signals import EXPORT_STATES, UNDER_REVIEW
from reader.sources.bibtex_names import parse_names
from reader.sources.bibtex_values import arxiv_id_of, plain, url_of
from reader.text.sanitize import clean_imported

# Crossref inheritance follows BibTeX (a child takes every field of its parent that it does
# not have; a field present but empty counts as had) with biblatex's mappings for the title
# fields below. A child never takes the links and labels biblatex leaves alone, nor what
# identifies or describes the parent alone: its DOI, eprint, URL, abstract and keywords would
# make the part look like the whole (and merge it with the whole by identifier).
_NOT_INHERITED = frozenset(
    "crossref xref ids entryset entrysubtype execute label options presort related "
    "relatedoptions relatedstring relatedtype shorthand shorthandintro sortkey "
    "doi eprint eprinttype archiveprefix primaryclass arxivid url abstract keywords keyword "
    "pmid file".split()
)
# Entry types whose own title is the book title of the parts that crossref them.
_BOOK_LIKE = frozenset("book proceedings collection reference".split())
_MULTIVOLUME = frozenset("mvbook mvproceedings mvcollection mvreference".split())
_PART_LIKE = frozenset(
    "inbook incollection inproceedings inreference bookinbook suppbook suppcollection".split()
)
_BOOK_PARTS = frozenset("inbook bookinbook suppbook".split())
# What becomes of a parent's title fields in a part (biblatex's default inheritance); a
# field mapped to None is not inherited at all.
_TITLE_FIELDS = ("title", "subtitle", "titleaddon", "shorttitle", "sorttitle", "indextitle",
                 "indexsorttitle")
_AS_BOOK_TITLE = dict(zip(_TITLE_FIELDS, ("booktitle", "booksubtitle", "booktitleaddon"),
                          strict=False))
_AS_MAIN_TITLE = dict(zip(_TITLE_FIELDS, ("maintitle", "mainsubtitle", "maintitleaddon"),
                          strict=False))
_AS_JOURNAL_TITLE = {"title": "journaltitle", "subtitle": "journalsubtitle"}

# Fields whose plain text is a CSL variable as it is.
_TEXT_VARIABLES = {
    "volume": "volume",
    "edition": "edition",
    "isbn": "ISBN",
    "issn": "ISSN",
    "language": "language",
    # biblatex's language of the entry (babel's names: "ngerman", "american"), as Better
    # BibLaTeX and JabRef write it.
    "langid": "language",
    "note": "note",
    # Where the work is in being published ("in press"); a withdrawn submission's is its
    # withdrawal (below).
    "pubstate": "status",
    "series": "collection-title",
    "chapter": "chapter-number",
    "eventtitle": "event",
    "venue": "event-place",
    "pagetotal": "number-of-pages",
    "type": "genre",
    "pages": "page",
    "eid": "number",  # (biblatex's: an article's number, "Article 23", beside its issue)
    "publisher": "publisher",
    "address": "publisher-place",
    "location": "publisher-place",
    # Who published a thesis, a report or a manual, when no publisher is named.
    "school": "publisher",
    "institution": "publisher",
    "organization": "publisher",
    # Also kept as written (see _KEPT_AS_WRITTEN): their TeX goes back out unchanged.
    "shorttitle": "title-short",
    "shortjournal": "container-title-short",
    "pmid": "PMID",
    "pmcid": "PMCID",
    "origtitle": "original-title",
    "origpublisher": "original-publisher",
    "origlocation": "original-publisher-place",
    "version": "version",  # (biblatex's: a program's, a data set's, a manual's)
}
# biblatex's further editor lists, whose ``…type`` field names the role, and the CSL name
# variable of each role CSL has one for (biblatex's own standard roles).
_EDITOR_LISTS = ("editora", "editorb", "editorc")
_EDITOR_ROLES = {"collaborator": "contributor", "compiler": "compiler",
                 "organizer": "organizer", "editor": "editor"}
# Fields that are both a variable of the record and kept verbatim for an export.
_KEPT_AS_WRITTEN = frozenset({"shorttitle", "shortjournal", "pmid", "pmcid"})


def text_variable(name: str) -> str | None:
    """The CSL variable a field's plain text is read as (``chapter``: ``chapter-number``)."""
    return _TEXT_VARIABLES.get(name)


def kept_as_written(name: str) -> str | None:
    """The CSL variable of a field kept verbatim beside it (``pmid``: ``PMID``), or None."""
    return _TEXT_VARIABLES[name] if name in _KEPT_AS_WRITTEN else None
_NAME_FIELDS = {"author": "author", "editor": "editor", "translator": "translator",
                "bookauthor": "container-author"}
# Fields a record holds in its columns (title, abstract, identifiers, keywords, dates, key
# aliases).
_COLUMN_FIELDS = frozenset(
    "title subtitle abstract doi url keywords keyword year month date urldate number ids".split()
)
# Entry types whose ``number`` is the issue of a periodical.
_ISSUE_KINDS = frozenset({"article", "periodical", "suppperiodical"})
# Entry types whose number beside a series is the number in it.
_SERIES_KINDS = frozenset({
    "book", "mvbook", "inbook", "bookinbook", "suppbook", "collection", "mvcollection",
    "incollection", "suppcollection", "proceedings", "mvproceedings", "inproceedings",
    "conference",
})
# The field an export writes each variable to when the source used no other name.
_DEFAULT_FIELD = {
    "publisher-place": "address",
    "publisher": "publisher",
    "issue": "number",
    "number": "number",
    "container-title": "journal",
    "keywords": "keywords",
    "language": "language",
}


@dataclass(slots=True)
class Evaluated:
    """One entry with its evaluated fields (lower-case names, first occurrence wins)."""

    kind: str
    key: str
    line: int
    fields: dict[str, str]


#: The fields that name the publisher where no ``publisher`` does.
_FOR_PUBLISHER = frozenset({"school", "institution", "organization"})


def csl_and_extra(
    entry: Evaluated,
    fields: dict[str, str],
    date: str | None,
    venue_field: str | None,
    inherited: set[str],
) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """The CSL variables of an entry, and its own fields the record does not model (verbatim).

    ``@fields`` among the kept fields remembers the source's name for a variable that more
    than one field can hold (``location`` or ``address``, ``journaltitle`` or ``journal``), so
    that an export writes it back under the same name; ``@others`` the name lists that ended
    in ``and others``; ``@type`` the entry type; ``@inherited`` the variables whose values
    came from the crossref parent, which an export leaves to the parent.
    """
    csl: dict[str, Any] = {"type": csl_type_for_bibtex(entry.kind)}
    used = set(_COLUMN_FIELDS)
    subtype = plain(fields.get("entrysubtype", "")).lower()
    if entry.kind == "article" and subtype in ("newspaper", "magazine"):
        # biblatex's way of saying what kind of periodical an article is in.
        csl["type"] = f"article-{subtype}"
        used.add("entrysubtype")
    archive = plain(fields.get("eprinttype", "") or fields.get("archiveprefix", "")).lower()
    published = plain(fields.get("publisher", "")).lower() == "arxiv"
    if (entry.kind == "online" or (entry.kind == "misc" and published)) and (
        archive == "arxiv" and fields.get("eprint", "").strip()
    ):
        # An arXiv preprint as Better BibLaTeX (and biblatex users) write one, or classic
        # BibTeX's @misc with arXiv its publisher (Better BibTeX's, the export's of a
        # Zotero preprint): a preprint, cited with its archive and number, not a web page
        # nor a document dated by its day.
        csl["type"] = "article"
    names: dict[str, str] = {}
    others: list[str] = []
    from_parent: set[str] = set()
    for field, variable in _NAME_FIELDS.items():
        value = fields.get(field, "")
        if value.strip():
            parsed, has_others = parse_names(value)
            if parsed:
                csl[variable] = parsed
                used.add(field)
                if field in inherited:
                    from_parent.add(variable)
            if has_others and field not in inherited:
                others.append(field)
    for field in _EDITOR_LISTS:
        variable = _EDITOR_ROLES.get(plain(fields.get(f"{field}type", "")).strip().lower(), "")
        value = fields.get(field, "")
        if variable and variable not in csl and value.strip() and field not in inherited:
            parsed, _ = parse_names(value)
            if parsed:
                csl[variable] = parsed
                used.update((field, f"{field}type"))
    # The publisher first, wherever it stands: an organization or a school is the publisher
    # only where none is named (xampl's inproceedings-full names both, the organization first).
    for field, value in sorted(fields.items(), key=lambda item: item[0] in _FOR_PUBLISHER):
        target = _TEXT_VARIABLES.get(field)
        if target is None or not value.strip() or target in csl:
            continue
        variable = target
        text = plain(value)
        if variable == "page":
            text = text.replace("–", "-")
        if text:
            csl[variable] = text
            if field not in _KEPT_AS_WRITTEN:
                used.add(field)
            if _DEFAULT_FIELD.get(variable, field) != field and not (
                field == "eid" and entry.kind in _ISSUE_KINDS
            ):  # (an article's number, which an export writes as its eid)
                names[variable] = field
            if field in inherited:
                from_parent.add(variable)
    if csl.get("status", "").lower() in EXPORT_STATES:
        # The paper's withdrawal, which the import reads from the entry itself; a decision
        # turned down or still pending, which an export says of a submission (as
        # OpenReview's does), read as the paper's decision.
        del csl["status"]
        used.discard("pubstate")
    if csl.get("note", "").lower() == UNDER_REVIEW:
        del csl["note"]  # (and not a source field either: what an export said of it)
    number = fields.get("number", "").strip()
    if number:
        # A periodical's number is its issue; a book's, a chapter's or a proceedings
        # paper's beside a series is its number in the series (CSL's collection-number,
        # which a CSL-JSON or RIS record of it has); any other's is the record's number.
        variable = (
            "issue" if entry.kind in _ISSUE_KINDS
            else "collection-number" if entry.kind in _SERIES_KINDS and fields.get("series")
            else "number"
        )
        csl[variable] = plain(number)
        if "number" in inherited:
            from_parent.add(variable)
    if venue_field:
        used.add(venue_field)
        if venue_field != ("journal" if entry.kind in _ISSUE_KINDS else "booktitle"):
            names["container-title"] = venue_field
        if venue_field in inherited:
            from_parent.add("container-title")
    if inherited & {"year", "date"}:
        from_parent.add("issued")
    if fields.get("keyword") and not fields.get("keywords"):
        names["keywords"] = "keyword"
    parts = date_parts(date)
    if parts:
        csl["issued"] = {"date-parts": [parts]}
        if fields.get("date"):
            names["issued"] = "date"
    for field, variable in (("urldate", "accessed"), ("origdate", "original-date"),
                            ("eventdate", "event-date")):
        found = date_parts(clean_imported(fields.get(field, "")))
        if found and (field == "urldate" or "/" not in fields.get(field, "")):
            # A range ("1984/1986") is kept as written.
            csl[variable] = {"date-parts": [found]}
            used.add(field)
    if arxiv_id_of(fields):
        used.update(("eprint", "archiveprefix", "eprinttype"))
    # An empty field of a child keeps its parent's value out (xampl's organization = ""),
    # so it is kept too.
    crossref = bool(entry.fields.get("crossref", "").strip())
    kept: dict[str, Any] = {
        field: clean_imported(value)
        for field, value in entry.fields.items()
        if (value.strip() or crossref) and field not in used
    }
    raw_url = clean_imported(entry.fields.get("url", "")).strip()
    url = url_of({"url": raw_url}) or ""
    # Each "%" escaped and nothing else is how the library's own export writes a URL
    # (Scopus's "doi=10.15622%2fia…"): read back, it is the URL, with nothing to keep.
    ours = "\\" not in url and raw_url == url.replace("%", "\\%")
    if raw_url and not ours and (url != raw_url or any(c in raw_url for c in "\\%")):
        # A url field is verbatim (biblatex, hyperref): one an export would write otherwise
        # (escapes, a backslash, several URLs) is written back exactly as it came.
        kept["url"] = raw_url
    raw_date = entry.fields.get("date", "").strip()
    if "/" in raw_date:
        kept["date"] = clean_imported(raw_date)  # a range ("1984/1986"): kept as written
    if entry.fields.get("subtitle", "").strip():
        # The title holds "Title: Subtitle"; an export writes them apart again.
        kept["subtitle"] = clean_imported(entry.fields["subtitle"])
    for field in ("year", "month"):
        raw = entry.fields.get(field, "").strip()
        understood = (raw.isdigit() if field == "year" else bool(parts and len(parts) > 1))
        if raw and not understood:
            # "{\noopsort{1973b}}1973", "jun # "-" # aug": what BibTeX prints, kept as written.
            kept[field] = clean_imported(raw)
    if names:
        kept["@fields"] = names
    if others:
        kept["@others"] = others
    if entry.kind:
        kept["@type"] = entry.kind
    if from_parent:
        kept["@inherited"] = sorted(from_parent)
    return csl, {"bibtex": kept}


def inherit(entry: Evaluated, fields: dict[str, str], by_key: dict[str, Evaluated]) -> set[str]:
    """Copy what the crossref chain gives the entry into ``fields``; return those fields.

    Each ancestor in turn gives the fields the entry does not have yet, so the nearest one
    wins. A chain that loops back on itself simply ends.
    """
    inherited: set[str] = set()
    seen = {entry.key.lower()}
    parent_key = entry.fields.get("crossref", "").strip().lower()
    while parent_key and parent_key not in seen:
        seen.add(parent_key)
        parent = by_key.get(parent_key)
        if parent is None:
            break
        titles = _title_mapping(parent.kind, entry.kind)
        # Title fields last: a parent's own booktitle is the part's before its mapped title.
        for name, value in sorted(parent.fields.items(), key=lambda f: f[0] in _TITLE_FIELDS):
            if name in _NOT_INHERITED:
                continue
            if name in _TITLE_FIELDS:
                # Under their own names only to a child with no title of its own: a book's
                # subtitle is not that of a volume in it.
                targets = [titles.get(name) if titles else
                           (None if "title" in entry.fields else name)]
            else:
                targets = [name]
            if name == "author" and parent.kind == "book" and entry.kind in _BOOK_PARTS:
                targets.append("bookauthor")  # the book's author is also the part's
            for target in targets:
                if target and target not in fields:
                    fields[target] = value
                    inherited.add(target)
        parent_key = parent.fields.get("crossref", "").strip().lower()
    return inherited


def _title_mapping(parent: str, child: str) -> dict[str, str]:
    """How a parent's title fields reach a child of this type (empty: under their own names)."""
    if parent in _MULTIVOLUME and (child in _BOOK_LIKE or child in _PART_LIKE):
        return _AS_MAIN_TITLE
    if parent in _BOOK_LIKE and child in _PART_LIKE:
        return _AS_BOOK_TITLE
    if parent == "periodical" and child in ("article", "suppperiodical"):
        return _AS_JOURNAL_TITLE
    return {}
