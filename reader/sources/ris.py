"""RIS files (``TY  - JOUR`` … ``ER  -`` records), as exported by reference managers and databases.

The file is split into records here, line by line, so that every problem can name its line and
one bad record never costs the others; each record is then read by rispy on its own. A record
that never reaches its ``ER`` line, or holds a malformed tag line, is reported and skipped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import rispy

from reader.models import PaperRecord
from reader.record import TEX_PREFIX, date_parts, is_anonymous, keep_written_doi
from reader.record import display_name as record_display
from reader.sources import ImportFormatError, ParseResult
from reader.sources.dates import year_and_date
from reader.text.identifiers import doi_as_written, normalize_arxiv_id, normalize_doi
from reader.text.render import plain_line, to_plain
from reader.text.sanitize import clean_imported
from reader.text.titles import derive_title

__all__ = ["display_name", "parse"]

TITLE_MAX = 160

# "XX  - value": two characters, two spaces, a hyphen, a space (absent when the value is).
_TAG_LINE = re.compile(r"^([A-Z][A-Z0-9])  -(?: (.*))?$")
# A line that tries to be a tag line but is spaced wrongly ("AU - Smith", "TI   -x").
_BROKEN_TAG = re.compile(r"^[A-Z][A-Z0-9](?: ?| {3,})-(?:\s|$)")
_SPACES = re.compile(r"\s+")
_PARAGRAPH_END = re.compile(r"[.!?:]$")
# A continuation line after a line this short is a section heading ("Results") or its text.
_MAX_HEADING = 40
_SUFFIXES = frozenset("jr jr. sr sr. ii iii iv v".split())

# rispy maps tags to long names; the tags themselves are clearer here ("AU", "T2" …).
_MAPPING = {tag: tag for tag in rispy.TAG_KEY_MAPPING}
_ISSN_FORM = re.compile(r"\d{4}-?\d{3}[\dXx]")
_ISBN_FORM = re.compile(r"\d{9}[\dXx]|\d{13}")
_LIST_TAGS = ["A1", "A2", "A3", "A4", "AU", "ED", "KW", "N1", "UR", "SN"]

# Reference types as the BibTeX-style kinds the other importers use.
_KINDS = {
    "JOUR": "article",
    "JFULL": "article",
    "EJOUR": "article",
    "MGZN": "article",
    "NEWS": "article",
    "ABST": "article",
    "INPR": "article",
    "CONF": "inproceedings",
    "CPAPER": "inproceedings",
    "BOOK": "book",
    "EBOOK": "book",
    "EDBOOK": "book",
    "CHAP": "incollection",
    "ECHAP": "incollection",
    "THES": "phdthesis",
    "RPRT": "techreport",
    "UNPB": "unpublished",
    "MANSCPT": "unpublished",
    "GEN": "misc",
    "ELEC": "misc",
}


@dataclass(slots=True)
class _Record:
    """The lines of one record between ``TY`` and ``ER``, and what is wrong with it."""

    start: int
    lines: list[str] = field(default_factory=list)
    error: str | None = None


def parse(text: str, source: str) -> ParseResult:
    """Records of a RIS text; ``source`` names the file in messages."""
    try:
        return _parse(text, source)
    except ImportFormatError:
        raise
    except Exception as exc:  # a bug here must not take the import down
        raise ImportFormatError(f"{source}: could not be read as RIS ({exc})") from exc


def _parse(text: str, source: str) -> ParseResult:
    lines = clean_imported(text).split("\n")
    if not any(line.startswith("TY  -") for line in lines):
        raise ImportFormatError(f"{source}: not RIS (no 'TY  - ' line starts a record)")
    result = ParseResult()
    for item in _split(lines, source):
        if item.error:
            result.problems.append(item.error)
            continue
        result.add(f"{source}:{item.start}", partial(_record, item, source))
    return result


def _split(lines: list[str], source: str) -> list[_Record]:
    """The records of a file in order, tag lines outside any record as records in error."""
    records: list[_Record] = []
    current: _Record | None = None
    stray: int | None = None  # first line of tag lines that belong to no record
    for number, raw in enumerate(lines, start=1):
        line = raw.rstrip()
        match = _TAG_LINE.match(line)
        tag = match.group(1) if match else None
        if tag == "TY":
            if stray is not None:
                records.append(_stray(source, stray))
                stray = None
            if current is not None:
                current.error = (
                    f"{source}:{current.start}: record has no 'ER  -' line (the next record"
                    f" starts at line {number}); skipped"
                )
                records.append(current)
            current = _Record(number, [line])
        elif current is None:
            # Text before the first record (export headers such as "Provider: …") and blank
            # lines between records are normal; tag lines there mean a record lost its TY.
            if (tag or _BROKEN_TAG.match(line)) and stray is None:
                stray = number
            if tag == "ER" and stray is not None:
                records.append(_stray(source, stray))
                stray = None
        elif tag == "ER":
            current.lines.append("ER  - ")
            records.append(current)
            current = None
        else:
            if tag is None and _BROKEN_TAG.match(line) and current.error is None:
                current.error = (
                    f"{source}:{number}: malformed tag line {line[:40]!r} (expected 'XX  - value')"
                    f" in the record starting at line {current.start}; skipped"
                )
            current.lines.append(line)
    if stray is not None:
        records.append(_stray(source, stray))
    if current is not None:
        current.error = (
            f"{source}:{current.start}: record has no 'ER  -' line (the file ends first); skipped"
        )
        records.append(current)
    return records


def _stray(source: str, line: int) -> _Record:
    """A record in error for tag lines found outside any record."""
    message = f"{source}:{line}: tag lines outside a record (no 'TY  - ' line before them); skipped"
    return _Record(line, error=message)


def _record(item: _Record, source: str) -> PaperRecord | None:
    """The paper of one record, or None when it has neither title nor abstract."""
    parsed = rispy.loads("\n".join(item.lines), mapping=_MAPPING, list_tags=_LIST_TAGS)
    if not parsed:
        raise ValueError("rispy found no record")
    tags = parsed[0]

    title = _fold(_first(tags, "TI", "T1"))
    abstract = _abstract(item.lines, "AB") or _abstract(item.lines, "N2")
    csl, extra = _csl_and_extra(tags, item.lines)
    venue = _fold(_first(tags, "T2", "JF", "JO", "BT", "J2", "JA")) or None
    title_derived = False
    if not title and abstract:
        title = derive_title(to_plain(abstract), max_len=TITLE_MAX)
        title_derived = True
    elif not title:
        # A whole journal issue: still a record, named by what it has; a bare note only when
        # it was a BibTeX record (a @misc with a note), as the BibTeX importer keeps those.
        note = csl.get("note") if "bibtex" in extra else None
        named = (venue, csl.get("collection-title"), note, csl.get("publisher"))
        title = next((n for n in named if isinstance(n, str) and n), "")[:TITLE_MAX]
        if not title:
            return None
        title_derived = True

    authors = [record_display(n) for n in csl.get("author", [])]
    keywords: list[str] = []
    for value in _values(tags, "KW"):
        for word in value.split(";"):
            word = _fold(word)
            if word and word not in keywords:
                keywords.append(word)
    year, date = year_and_date(_first(tags, "PY", "Y1", "DA"), _first(tags, "DA", "PY", "Y1"))
    urls = [_fold(url) for url in _values(tags, "UR") if url.strip()]
    kind_code = _fold(_first(tags, "TY")).upper()
    bibtex = extra.get("bibtex", {})
    tex_title = bibtex.pop("title", None)
    if isinstance(tex_title, str) and not title_derived and plain_line(tex_title) == title:
        title = tex_title  # a BibTeX record's title, kept as the TeX it was written in
    arxiv_id = None
    if str(bibtex.get("archiveprefix", "")).lower() == "arxiv" and bibtex.get("eprint"):
        # Written from a BibTeX record's arXiv id: the id again, as the BibTeX importer has it.
        arxiv_id = normalize_arxiv_id(str(bibtex.pop("eprint")))
        bibtex.pop("archiveprefix")
        if urls and urls[0] == f"https://arxiv.org/abs/{arxiv_id}":
            urls = urls[1:]  # the export's link to it, not a URL of the source
    elif urls and "arxiv.org/" in urls[0]:
        arxiv_id = normalize_arxiv_id(urls[0])
    written_doi = doi_as_written(_fold(_first(tags, "DO")))
    doi = normalize_doi(written_doi)
    if doi and doi.startswith("10/") and urls and "doi" in urls[0].lower():
        # A short DOI ("10/fqd6hj"): the doi.org URL holds the full one, by which the paper
        # is recognised. The DOI is kept as written.
        doi = normalize_doi(urls[0]) or doi
    keep_written_doi(csl, written_doi, doi)
    return PaperRecord(
        abstract=abstract,
        title=title,
        title_derived=title_derived,
        authors=authors,
        venue=venue,
        year=year,
        keywords=keywords,
        url=urls[0] if urls else None,
        arxiv_id=arxiv_id,
        doi=doi,
        source=f"{source}:{item.start}",
        date=date,
        kind=bibtex.get("@type") or _KINDS.get(kind_code, kind_code.lower() or None),
        citekey=_fold(_first(tags, "ID")) or None,
        csl=csl,
        extra=extra,
    )


# RIS reference types as CSL types.
_CSL_TYPES = {
    "JOUR": "article-journal", "JFULL": "article-journal", "EJOUR": "article-journal",
    "ABST": "article-journal", "INPR": "article-journal", "MGZN": "article-magazine",
    "NEWS": "article-newspaper", "CONF": "paper-conference", "CPAPER": "paper-conference",
    "BOOK": "book", "EBOOK": "book", "EDBOOK": "book", "CHAP": "chapter", "ECHAP": "chapter",
    "THES": "thesis", "RPRT": "report", "UNPB": "manuscript", "MANSCPT": "manuscript",
    "ELEC": "webpage", "WEB": "webpage", "DATA": "dataset", "COMP": "software",
    "PAT": "patent", "DICT": "entry-dictionary", "ENCYC": "entry-encyclopedia",
    "GEN": "document", "PAMP": "pamphlet", "MAP": "map", "STAT": "legislation",
}
# Tags whose value is a CSL variable as it is (the first tag of a variable wins).
_TEXT_VARIABLES = {
    "VL": "volume", "IS": "issue", "PB": "publisher", "CY": "publisher-place",
    "ET": "edition", "LA": "language", "T3": "collection-title",
    "M3": "genre", "NV": "number-of-volumes", "ST": "title-short",
    "J2": "container-title-short", "JA": "container-title-short", "C3": "event",
    "SV": "number", "DP": "source",
}
# Tags of names, and the CSL variable of each; A2 names the editors of a book or chapter.
_NAME_TAGS = {"AU": "author", "A1": "author", "A2": "editor", "ED": "editor",
              "A3": "collection-editor", "A4": "translator"}
# Tags held in a record's columns or written back from its variables.
_MODELED = frozenset(
    "TY ER TI T1 AB N2 KW DO DA PY Y1 Y2 SP EP SN T2 JF JO BT ID N1 SE".split()
) | frozenset(_TEXT_VARIABLES) | frozenset(_NAME_TAGS)


def _csl_and_extra(
    tags: dict[str, object], lines: list[str]
) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """The CSL variables of a record, and its tags the record does not model (verbatim)."""
    code = _fold(_first(tags, "TY")).upper()
    csl: dict[str, Any] = {"type": _CSL_TYPES.get(code, "document")}
    for tag, variable in _NAME_TAGS.items():
        if tag == "A1" and csl.get("author"):
            continue  # AU and A1 are two spellings of one list; two people may share a name
        if tag == "ED" and csl.get("editor"):
            continue
        for raw in _values(tags, tag):
            name = _name(raw)
            if name and not is_anonymous(name):
                csl.setdefault(variable, []).append(name)
    for tag, variable in _TEXT_VARIABLES.items():
        value = _fold(_first(tags, tag))
        if value and variable not in csl:
            csl[variable] = value
    notes, bibtex = _notes_and_bibtex(_values(tags, "N1"))
    if notes:
        csl["note"] = notes[0]
    book_authors = [_name(n) for n in str(bibtex.pop("bookauthor", "")).split(" and ")]
    if any(book_authors):
        csl["container-author"] = [n for n in book_authors if n]
    section = _fold(_first(tags, "SE"))
    if section:
        # A chapter's SE is its number ("1.2"); elsewhere the section (of a newspaper …).
        csl["chapter-number" if csl["type"] == "chapter" else "section"] = section
    number_from_m1 = False
    if "number" not in csl and (code == "RPRT" or bibtex):
        number = _fold(_first(tags, "M1"))  # RIS's "number": a report's, or any we wrote
        if number:
            csl["number"] = number
            number_from_m1 = True
    start, end = _fold(_first(tags, "SP")), _fold(_first(tags, "EP"))
    if start:
        csl["page"] = f"{start}-{end}" if end and end != start else start
    numbers: dict[str, list[str]] = {}
    for number in (_fold(v) for v in _values(tags, "SN") if v.strip()):
        # SN holds an ISSN or an ISBN; the form of the number says which, else the type.
        if _ISSN_FORM.fullmatch(number):
            variable = "ISSN"
        elif _ISBN_FORM.fullmatch(number.replace("-", "").replace(" ", "")):
            variable = "ISBN"
        else:
            variable = "ISSN" if csl["type"].startswith("article") else "ISBN"
        numbers.setdefault(variable, []).append(number)
    for variable, values in numbers.items():
        csl[variable] = " ".join(values)
    issued = date_parts(_iso(_first(tags, "DA")) or _iso(_first(tags, "PY", "Y1")))
    if issued:
        csl["issued"] = {"date-parts": [issued]}
    accessed = date_parts(_iso(_first(tags, "Y2")))
    if accessed:
        csl["accessed"] = {"date-parts": [accessed]}
    kept: dict[str, Any] = {"@type": code} if code else {}
    for line in lines:
        match = _TAG_LINE.match(line)
        if match and match.group(1) not in _MODELED and (match.group(2) or "").strip():
            kept.setdefault(match.group(1), []).append(match.group(2).strip())
    if len(notes) > 1:
        kept["N1"] = notes[1:]
    if number_from_m1:
        kept["M1"] = kept.get("M1", [])[1:]
        if not kept["M1"]:
            del kept["M1"]
    if bibtex and kept.get("L1"):
        # The file of the BibTeX record this RIS record was written from.
        bibtex["file"] = kept["L1"][0]
        if len(kept["L1"]) > 1:
            kept["L1"] = kept["L1"][1:]
        else:
            del kept["L1"]
    if start and end == start:
        kept["EP"] = [end]  # a one-page article: the page is "97", the source said 97–97
    for tag in ("JF", "JO", "BT"):
        if _first(tags, tag).strip() and not _first(tags, "T2").strip():
            kept["@venue"] = tag  # the tag the source named its journal or book with
            break
    # The first URL is the paper's own (a column); the others are kept as they came.
    urls = kept.pop("UR", [])
    if len(urls) > 1:
        kept["UR"] = urls[1:]
    return csl, {"ris": kept, **({"bibtex": bibtex} if bibtex else {})}


def _notes_and_bibtex(values: list[str]) -> tuple[list[str], dict[str, Any]]:
    """A record's notes, and the BibTeX fields our export carried in ``tex.`` note lines."""
    notes: list[str] = []
    bibtex: dict[str, Any] = {}
    for raw in values:
        value = _fold(raw)
        name, colon, text = value.partition(":")
        text = text.strip()
        if not (colon and name.startswith(TEX_PREFIX) and " " not in name):
            if value:
                notes.append(value)
            continue
        name = name[len(TEX_PREFIX):]
        if name == "entrytype":
            bibtex["@type"] = text
        elif name == "@fields":
            pairs = (p.partition("=") for p in text.split(", "))
            bibtex["@fields"] = {k: v for k, eq, v in pairs if eq and k and v}
        elif name.startswith("@"):
            bibtex[name] = [v for v in text.split(", ") if v]
        elif name:
            bibtex[name] = text
    if bibtex and "@type" not in bibtex:  # not written by us: notes like any other
        return [v for v in (_fold(raw) for raw in values) if v], {}
    return notes, bibtex


def _iso(text: str) -> str:
    """``2012-07-03`` from RIS's ``2012/07/03`` (or ``2012///``)."""
    parts = [p for p in text.strip().split("/") if p.strip()]
    return "-".join(parts[:3]) if parts and parts[0].strip().isdigit() else ""


def _name(raw: str) -> dict[str, str] | None:
    """A RIS name (``Last, First, Suffix``) as a CSL name; one without a comma is a literal."""
    parts = [_fold(p) for p in raw.split(",")]
    parts = [p for p in parts if p]
    if not parts:
        return None
    if len(parts) == 1:
        return {"literal": parts[0]}
    last, rest = parts[0], parts[1:]
    suffixes = [p for p in rest if p.lower() in _SUFFIXES]
    given = [p for p in rest if p.lower() not in _SUFFIXES]
    name = {"family": last}
    if given:
        name["given"] = " ".join(given)
    if suffixes:
        name["suffix"] = " ".join(suffixes)
    return name


def _values(tags: dict[str, object], tag: str) -> list[str]:
    """All values of a tag as strings (rispy gives lists for list tags, else a string)."""
    value = tags.get(tag)
    if value is None:
        # Tags rispy does not know (BT in older files) are collected under "UK".
        unknown = tags.get("UK")
        value = unknown.get(tag) if isinstance(unknown, dict) else None
    if value is None:
        return []
    if isinstance(value, list):
        return [clean_imported(str(v)) for v in value if v is not None]
    return [clean_imported(str(value))]


def _first(tags: dict[str, object], *names: str) -> str:
    """The first non-empty value among ``names``."""
    for name in names:
        for value in _values(tags, name):
            if value.strip():
                return value
    return ""


def _fold(value: str) -> str:
    """``value`` on one line with single spaces."""
    return _SPACES.sub(" ", value).strip()


def _abstract(lines: list[str], tag: str) -> str:
    """The value of ``tag`` with its continuation lines, keeping paragraph breaks.

    rispy joins continuation lines with spaces, which runs the sections of a structured
    abstract ("Methods: …", "Results: …") together. A continuation line starts a new paragraph
    when the line before it ends a sentence or is a short heading, and is otherwise a wrapped
    line of the same paragraph.
    """
    pieces: list[str] = []
    for line in lines:
        match = _TAG_LINE.match(line)
        if match:
            if pieces:
                break
            if match.group(1) == tag:
                pieces.append(_fold(match.group(2) or ""))
        elif pieces:
            pieces.append(_fold(line))
    paragraphs: list[str] = []
    for piece in pieces:
        if not piece:
            continue
        last = paragraphs[-1] if paragraphs else ""
        heading = len(last) < _MAX_HEADING and piece[0].isupper()
        if not last or _PARAGRAPH_END.search(last) or heading:
            paragraphs.append(piece)
        else:
            paragraphs[-1] = f"{last} {piece}"
    return "\n\n".join(paragraphs)


def display_name(name: str) -> str:
    """A name as "Given Family": ``Blomberg, Björn A.`` → ``Björn A. Blomberg``.

    ``Last, First, Suffix`` (the RIS form) becomes ``First Last Suffix``; ``Last, Suffix, First``
    is recognised by its suffix. A name without a comma is kept as written.
    """
    parts = [_fold(p) for p in name.split(",")]
    parts = [p for p in parts if p]
    if len(parts) <= 1:
        return parts[0] if parts else ""
    last, rest = parts[0], parts[1:]
    suffixes = [p for p in rest if p.lower() in _SUFFIXES]
    given = [p for p in rest if p.lower() not in _SUFFIXES]
    return " ".join([*given, last, *suffixes])
