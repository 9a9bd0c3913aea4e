"""Which tool exported a RIS record, and the tags it gives a meaning of its own.

The tool is read from the record itself (:func:`exporter`): Ovid numbers the records of an
export and names its databases with their years (``ERIC <1992 to June 2024>``); EBSCO
names itself in ``DP``; Web of Science and Rayyan give accession numbers of their own form,
RefWorks ``RefID:`` record ids, Scopus its name and links. Ovid fills ``A2`` with the
authors of the cited references, ``M3`` with its classification and ``Y2`` with the
publication date again; the bibliographic databases fill ``M3`` with their document type,
which no citation prints; Web of Science's ``C3`` names the authors' organisations,
Rayyan's ``CY`` their addresses. Tools also put a DOI outside ``DO`` (EBSCO in ``L3``, a
doi.org link in ``L1`` or ``L2``), several links on one ``UR`` line (RefWorks), and their
record numbers in ``ID`` (EndNote, RefWorks, Ovid), which are no citation keys. Zotero
writes each item type's fields under the tags of its own table (:func:`tag_meanings`): a
book's editors in ``A3``, its series in ``T2`` and its number of pages in ``SP``, a
conference paper's conference in ``T2`` and its proceedings in ``C3``.
"""

from __future__ import annotations

import re
from typing import Any

from reader.sources.dates import month_number, ris_date
from reader.sources.wos import month_date, spaced_initials
from reader.sources.zotero_extra import zotero_note

#: A record's values by tag (as :func:`reader.sources.ris_tags.tag_table` makes them).
Tags = dict[str, list[str]]

__all__ = [
    "as_written_apart", "database_note", "distinct_numbers", "exporter", "issue", "issue_month",
    "linked_doi", "links",
    "month_dates", "own_meanings", "record_key", "record_number", "spaced_initials",
    "tag_meanings", "type_tags", "venue_tags", "volume_in_venue", "volume_without_series",
    "zotero_notes",
]

#: The tools whose exports give tags meanings of their own, as :func:`exporter` names them.
OVID, EBSCO, SCOPUS, WOS, RAYYAN, REFWORKS, ZOTERO = (
    "ovid", "ebsco", "scopus", "wos", "rayyan", "refworks", "zotero")
# Bibliographic databases: their M3 is the database's document type or classification.
DATABASES = frozenset({OVID, EBSCO, SCOPUS, WOS})
# Tags a tool fills with something else than the standard's field: kept as they came.
_OWN_MEANINGS = {OVID: {"A2", "M3", "Y2"}, WOS: {"C3"}, RAYYAN: {"CY"}}
# Reference types whose M3 ("type of work") is a kind of article, not a genre to cite.
ARTICLE_CODES = frozenset({"JOUR", "JFULL", "EJOUR", "ABST", "INPR", "MGZN", "NEWS"})
#: What EndNote and others write in M3 that is the reference type's own name again ("Book"
#: beside TY BOOK): no genre a citation should print ("[Book]").
TYPE_NAMES = frozenset({
    "book", "edited book", "electronic book", "ebook", "book section", "book chapter",
    "chapter", "electronic book section", "thesis", "report", "conference paper",
    "conference proceedings", "journal article", "article", "generic", "web page", "webpage",
    "dataset", "computer program", "manuscript", "unpublished work", "magazine article",
    "newspaper article", "patent", "map",
})
# Ovid's database line: "APA PsycInfo <1806 to December Week 1 2024>".
_OVID_DATABASE = re.compile(r"<\d{4} to [^>]*>")
# Zotero writes every date with RIS's four parts, the last one empty: "2021///", "2021/11/10/".
_ZOTERO_DATE = re.compile(r"\d{4}/(?:\d{2})?/(?:\d{2})?/")
# What Zotero's RIS translator writes under a tag for an item type (by its RIS type) where
# that is not the tag's usual field (its own table of tags, RIS.js ``fieldMap``): the CSL
# variable, "" for a field no citation has (a thesis's contributors), kept as written.
_ZOTERO_MEANINGS: dict[str, dict[str, str]] = {
    "BOOK": {"A2": "collection-editor", "A3": "editor", "T2": "collection-title",
             "M1": "collection-number", "SP": "number-of-pages"},
    "CHAP": {"C2": "container-author", "IS": "number-of-volumes"},
    "CONF": {"T2": "event", "C3": "container-title", "C1": "publisher-place", "A4": ""},
    "THES": {"SP": "number-of-pages", "A3": ""},
    "MANSCPT": {"SP": "number-of-pages"},
    "RPRT": {"A2": "collection-editor", "T2": "collection-title"},
    "COMP": {"T2": "collection-title"},
    "MAP": {"T2": "collection-title"},
}
_ZOTERO_MEANINGS["CPAPER"] = _ZOTERO_MEANINGS["CONF"]  # (Zotero reads CPAPER as CONF)
# What the tags of a reference type hold whatever tool wrote it (RIS.js and EndNote agree): a
# patent's issuing authority, number, application number, country and filing date; a
# program's version; the meeting a presentation was given at, and its place. Read as the
# standard's fields, the authority became an editor, the number an ISBN, the country the
# event. A patent's assignee (PB) is no publisher (APA names the patent office): kept.
_TYPE_MEANINGS: dict[str, dict[str, str]] = {
    "PAT": {"A2": "authority", "SN": "number", "M1": "call-number", "C3": "jurisdiction",
            "C1": "submitted", "PB": ""},
    "COMP": {"ET": "version"}, "DATA": {"ET": "version"},  # (a dataset's: "17.0")
    "SLIDE": {"T2": "event", "CY": "event-place"},
}
# How Scopus's notes on its record start ("Export Date: 03 December 2024; Cited By: 12").
_DATABASE_NOTE = re.compile(r"(?i)(?:export date|cited by|correspondence address)\s*:")
# An arXiv id as a preprint's number in its archive is written ("arXiv:2310.06825").
_ARCHIVE_ID = re.compile(r"(?i)arxiv:\s*\S+")
# The tags that name a record's journal or book, the first one given winning.
_VENUE_TAGS = ("T2", "JF", "JO", "BT", "J2", "JA")
# A book's name with its volume after it, as APA PsycInfo writes it ("…, Vol. 14.").
_VOLUME_IN_NAME = re.compile(r"(.+?),\s*Vol\.?\s*(\d+)\.?", re.IGNORECASE)
# Days from one to another ("May 7-9, 2015").
_DAY_RANGE = re.compile(r"\d\s*[-\u2013]\s*\d")
# Scopus's volume with the series it belongs to ("13684 LNCS"), in its RIS and its CSV.
_SERIES_VOLUME = re.compile(r"(\d+)\s+(?:LNCS|LNAI|LNBI|CCIS|LNICST|LNBIP|LNEE|AISC|SIST)")
# A name is a line; a value of many (Ovid's references, joined from continuation lines) is not.
NAME_MAX = 120


def exporter(tags: Tags, numbered: bool = False) -> str:
    """The tool that exported a record, where it gives tags meanings of its own ("" for any
    other): read from the record itself, ``numbered`` saying a bare record number ("6.")
    came before it, as in Ovid's exports."""
    database = " ".join(tags.get("DB", []) + tags.get("DP", [])).lower()
    accession = _first(tags, "AN")
    if numbered or "ovid" in database or _OVID_DATABASE.search(database) or (
        "ovid.com/" in _first(tags, "UR")  # (Ovid's link to its record: "APA PsycInfo")
    ):
        return OVID
    if "ID" not in tags and any(
        _ZOTERO_DATE.fullmatch(v.strip()) for v in tags.get("DA", []) + tags.get("Y2", [])
    ):
        return ZOTERO  # (which writes no ID)
    if "ebsco" in database:
        return EBSCO
    if accession.startswith("WOS:") or "WE" in tags:
        return WOS
    if accession.startswith("rayyan-"):
        return RAYYAN
    if _first(tags, "ID").startswith("RefID:"):
        return REFWORKS
    if "scopus" in database or "scopus.com/" in _first(tags, "UR"):
        return SCOPUS
    return ""


def database_note(note: str, tool: str) -> bool:
    """Whether a record's note is the database's own of its record: Scopus's N1 says when
    the record was exported, how often it was cited, and the corresponding author's address
    and e-mail. Kept as written for a RIS export, it is no note of the work: a BibTeX
    ``note`` is printed by most styles."""
    return tool == SCOPUS and _DATABASE_NOTE.match(note) is not None


def own_meanings(tool: str) -> frozenset[str]:
    """The tags ``tool`` fills with something else than the standard's field."""
    return frozenset(_OWN_MEANINGS.get(tool, ()))


def tag_meanings(tool: str, code: str, m3: str = "") -> dict[str, str]:
    """The CSL variable ``tool`` writes under a tag for a record of RIS type ``code``, where
    it is not the tag's usual one ("" for a field of no variable); an article's C7 is its
    number, as the RIS types, EndNote, Scopus and Web of Science have it ("Article 104301").
    An ``m3`` that is an arXiv id (Zotero's preprint: ``M3  - arXiv:2310.06825``) is the
    record's number in its archive, no genre: APA prints a genre beside the number, and
    cited it twice."""
    meanings = {**_TYPE_MEANINGS.get(code, {}),
                **(_ZOTERO_MEANINGS.get(code, {}) if tool == ZOTERO else {})}
    if _ARCHIVE_ID.fullmatch(m3.strip()):
        meanings = {**meanings, "M3": "number"}
    return {**meanings, "C7": "number"} if code in ARTICLE_CODES else meanings


def type_tags(code: str) -> dict[str, str]:
    """The tags a record of RIS type ``code`` holds its own variables under, by variable (a
    patent's number under SN, its authority under A2), as an export writes them back."""
    return {variable: tag for tag, variable in _TYPE_MEANINGS.get(code, {}).items() if variable}


def venue_tags(meanings: dict[str, str]) -> tuple[str, ...]:
    """The tags that name the record's journal, book or proceedings, the first one given
    winning, for a record whose tags mean ``meanings`` (see :func:`tag_meanings`)."""
    own = tuple(tag for tag, variable in meanings.items() if variable == "container-title")
    # A presentation's meeting is its venue when nothing else names one.
    event = tuple(tag for tag, variable in meanings.items() if variable == "event")
    return own + tuple(tag for tag in _VENUE_TAGS if tag not in meanings) + event


# An issue dated with its month ("1 January", as Embase writes some).
_ISSUE_MONTH = re.compile(
    r"^(\S+)\s+((?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*)\.?$", re.IGNORECASE
)
# More words than an issue has: the value of another field (an affiliation, as some
# records passed through Embase carry).
_ISSUE_WORDS = 4


def issue_month(value: str) -> int | None:
    """The month an issue is dated with ("1 January" → 1), None for none."""
    dated = _ISSUE_MONTH.match(value)
    return month_number(dated.group(2)) if dated else None


def issue(value: str) -> str:
    """An issue as the record means it: without the month it is dated with, and "" for a
    value that is no issue (words without a number)."""
    dated = _ISSUE_MONTH.match(value)
    if dated and any(c.isdigit() for c in dated.group(1)):
        return dated.group(1)
    if len(value.split()) > _ISSUE_WORDS and not any(c.isdigit() for c in value):
        return ""
    return value


# Tags where a tool puts a link to the paper or its DOI when it has no DO line: EBSCO writes
# the DOI in L3, Ovid and Embase a doi.org link in L1 or L2.
_DOI_PLACES = ("L3", "L1", "L2", "LK", "UR")
_BARE_DOI = re.compile(r"10\.\d{4,9}/\S+")
_DOI_LINK = re.compile(r"https?://(?:dx\.)?doi\.org/(10\.\d{4,9}/\S+)", re.IGNORECASE)
_LINK = re.compile(r"(?:https?|ftp)://\S+")


def links(value: str) -> list[str]:
    """The links of a UR value: one, or several a space apart (as RefWorks writes them)."""
    value = _one_line(value)
    found = _LINK.findall(value)
    return found if len(found) > 1 else [value] if value else []


def linked_doi(tags: Tags) -> str:
    """A DOI the record gives outside DO: bare in L3, or as a doi.org link."""
    for tag in _DOI_PLACES:
        for value in tags.get(tag, []):
            value = value.strip()
            if tag == "L3" and _BARE_DOI.fullmatch(value):
                return value
            link = _DOI_LINK.match(value)
            if link:
                return link.group(1)
    return ""


def record_key(tags: Tags, tool: str, extra: dict[str, dict[str, Any]]) -> str | None:
    """The record's ID as its citation key, unless it is a number a tool gave the record in
    its own database (Ovid's accession numbers, EndNote's record numbers, RefWorks' RefIDs,
    Lens.org's ids),
    which is kept with the record's other tags instead."""
    ids = [_one_line(v) for v in tags.get("ID", []) if v.strip()]
    if not ids:
        return None
    key, numbers = ids[0], ids[1:]
    # A tool writes one ID; our export writes a record's number after its key.
    ours = bool(numbers) and not record_number(key)
    if not ours and (record_number(key) or tool in (OVID, EBSCO, REFWORKS)):
        extra.setdefault("ris", {})["ID"] = ids
        return None
    if numbers:
        extra.setdefault("ris", {})["ID"] = numbers
    return key


def record_number(key: str) -> bool:
    """Whether an ID is a number a database gave the record, not a citation key: digits,
    maybe grouped (Lens.org's "000-463-679-101-319", its check digit perhaps an X), with
    no word in it."""
    body, check = key[:-1], key[-1:]
    return (
        any(c.isdigit() for c in key)
        and not any(c.isalpha() for c in body)
        and (check.isdigit() or check in ("X", "x"))
    )


def _first(tags: Tags, name: str) -> str:
    """The first non-empty value of a tag."""
    return next((v for v in tags.get(name, []) if v.strip()), "")


def volume_without_series(volume: str) -> str:
    """A volume without the series Scopus writes after it ("13684 LNCS"): no part of the
    volume, and printed after it."""
    in_series = _SERIES_VOLUME.fullmatch(volume.strip())
    return in_series.group(1) if in_series else volume


def distinct_numbers(values: list[str]) -> list[str]:
    """An ISSN's or ISBN's values, each once: a record may give one number twice, with and
    without its hyphen ("00319007", "0031-9007"), or under both SN lines (a BibTeX isbn
    field holding the ISSN, written back as two)."""
    seen: dict[str, str] = {}
    for value in values:
        seen.setdefault(value.replace("-", "").replace(" ", "").upper(), value)
    return list(seen.values())


def _one_line(value: str) -> str:
    return " ".join(value.split())


# --- Web of Science ---------------------------------------------------------------------------


def as_written_apart(tags: Tags) -> Tags:
    """The record's tags with what a database writes into one tag's value moved where the
    standard has it: a month in words into the date (:func:`month_dates`), a book's volume
    out of its name (:func:`volume_in_venue`)."""
    return volume_in_venue(month_dates(tags))


def volume_in_venue(tags: Tags) -> Tags:
    """The record's tags with the volume APA PsycInfo writes into a book's name ("Annual
    review of clinical psychology, Vol. 14.") moved to ``VL``, where a record without one
    keeps it: cited as part of the name, APA printed "…, Vol. 14. (pp. 91–118)"."""
    if _first(tags, "VL"):
        return tags
    named = {tag: _VOLUME_IN_NAME.fullmatch(_one_line(_first(tags, tag))) for tag in _VENUE_TAGS}
    volumes = {m.group(2) for m in named.values() if m}
    if len(volumes) != 1:
        return tags
    return {**tags, **{tag: [m.group(1)] for tag, m in named.items() if m}, "VL": [*volumes]}


def month_dates(tags: Tags) -> Tags:
    """The record's tags with a ``DA`` that names its month in words (Web of Science's
    "SEP 22", "DEC", the year being in ``PY``) written as RIS dates are ("2010/09/22")."""
    written = _first(tags, "DA").strip()
    if not written or ris_date(written) or not written[:1].isalpha():
        return tags
    if _DAY_RANGE.search(written):
        return tags  # a conference's days ("May 7-9, 2015"): when it met, not was published
    _, date = month_date(_first(tags, "PY") or _first(tags, "Y1"), written)
    if date is None or date.count("-") == 0:
        return tags
    return {**tags, "DA": [date.replace("-", "/")]}


def zotero_notes(csl: dict[str, Any], extra: dict[str, Any]) -> str | None:
    """The paper's note from a Zotero record's ``N1`` lines, taken from the record's notes:
    Zotero writes each child note of the user's there, in HTML (other tools' ``N1`` is the
    database's, and stays the record's)."""
    ris = extra.get("ris", {})
    notes = ([str(csl.pop("note"))] if csl.get("note") else []) + list(ris.pop("N1", []))
    return zotero_note(notes)
