"""Web of Science plain-text exports: ``FN Clarivate Analytics Web of Science``, ``VR 1.0``,
then records of two-letter tags (``PT J`` … ``ER``), ending in ``EF``.

A tag is followed by one space and its value; continuation lines are indented three spaces.
Authors are one per line under ``AF`` (full names, "Last, First") or ``AU`` ("Last, F");
``SO`` is the journal, ``PY``/``PD`` the date, ``VL``/``IS``/``BP``/``EP`` volume, issue and
pages, ``DI`` the DOI, ``DE`` the author keywords, ``UT`` the accession number.
"""

from __future__ import annotations

import re
from functools import partial
from typing import Any

from reader.models import PaperRecord
from reader.record import date_parts, display_name, is_anonymous
from reader.sources import ImportFormatError, ParseResult
from reader.sources.dates import MONTHS
from reader.sources.tagged import TaggedRecord, split_records
from reader.text.identifiers import doi_as_written
from reader.text.render import to_plain
from reader.text.rich_text import html_title
from reader.text.sanitize import clean_imported
from reader.text.titles import derive_title

__all__ = ["looks_like_wos", "parse"]

TITLE_MAX = 160
_TAG_LINE = re.compile(r"^([A-Z][A-Z0-9]) ?(.*)$")
_HEADER = re.compile(r"^\s*FN (?:Clarivate Analytics |Thomson Reuters )?Web of Science", re.I)
# Publication types: J journal, B book, S series, P patent, C conference.
_TYPES = {"J": "article-journal", "B": "book", "S": "chapter", "P": "patent",
          "C": "paper-conference"}
_LIST_TAGS = frozenset({"AU", "AF", "CR", "C1", "BA", "BF", "BE", "GP", "CA"})
_MODELED = frozenset(
    "PT AU AF TI SO LA DE AB PU PI SN BN PD PY VL IS BP EP AR DI UT SE BE CA".split()
)


def looks_like_wos(head: str) -> bool:
    """Whether a text starts like a Web of Science export."""
    return bool(_HEADER.match(head.lstrip("\ufeff")))


def parse(text: str, source: str) -> ParseResult:
    """Records of a Web of Science plain-text export; ``source`` names the file."""
    lines = clean_imported(text).split("\n")
    if not lines or not looks_like_wos("\n".join(lines[:3])):
        raise ImportFormatError(
            f"{source}: not a Web of Science export (no 'FN … Web of Science' first line)"
        )
    result = ParseResult()
    records = split_records(
        lines, _TAG_LINE, end_tag="ER", each_line_a_value=_LIST_TAGS,
        skip_tags=frozenset({"FN", "VR", "EF"}),
    )
    for item in records:
        result.add(f"{source}:{item.line}", partial(_record, item, source))
    return result


def _record(item: TaggedRecord, source: str) -> PaperRecord | None:
    title = html_title(_fold(item.first("TI")))  # (species names in <i>…</i>)
    abstract = _fold(item.first("AB"))
    if not title and not abstract:
        return None
    title_derived = False
    if not title:
        title = derive_title(to_plain(abstract), max_len=TITLE_MAX)
        title_derived = True
    kind = item.first("PT").upper()
    csl: dict[str, Any] = {"type": _TYPES.get(kind, "article-journal")}
    names = [_name(v) for v in item.all("AF")] or [_name(v) for v in item.all("AU")]
    names += [{"literal": _fold(v)} for v in item.all("CA")]
    authors = [n for n in names if n and not is_anonymous(n)]
    if authors:
        csl["author"] = authors
    editors = [e for e in (_name(v) for v in item.all("BE")) if e]
    if editors:
        csl["editor"] = editors
    for tag, variable in (("VL", "volume"), ("IS", "issue"), ("PU", "publisher"),
                          ("PI", "publisher-place"), ("LA", "language"), ("SE",
                          "collection-title"), ("AR", "number"), ("UT", "WOS")):
        value = _fold(item.first(tag))
        if value:
            csl[variable] = _recase(value) if tag in ("PU", "PI") else value
    first, last = _fold(item.first("BP")), _fold(item.first("EP"))
    if first:
        csl["page"] = f"{first}-{last}" if last and last != first else first
    if item.first("SN"):
        csl["ISSN"] = _fold(item.first("SN"))
    if item.first("BN"):
        csl["ISBN"] = _fold(item.first("BN"))
    year, date = month_date(item.first("PY"), item.first("PD"))
    parts = date_parts(date)
    if parts:
        csl["issued"] = {"date-parts": [parts]}
    keywords: list[str] = []
    for value in item.all("DE"):
        for word in value.split(";"):
            word = _fold(word)
            if word and word not in keywords:
                keywords.append(word)
    kept = {tag: item.fields[tag] for tag in item.order if tag not in _MODELED}
    return PaperRecord(
        abstract=abstract,
        title=title,
        title_derived=title_derived,
        authors=[display_name(a) for a in authors],
        venue=_recase(_fold(item.first("SO"))) or None,
        year=year,
        keywords=keywords,
        doi=doi_as_written(item.first("DI")),
        source=f"{source}:{item.line}",
        date=date,
        kind="article" if csl["type"] == "article-journal" else None,
        csl=csl,
        extra={"wos": kept},
    )


def _name(value: str) -> dict[str, str] | None:
    """``Smith, John A.`` as a CSL name; a name without a comma is a literal."""
    value = _fold(value)
    if not value:
        return None
    family, comma, given = value.partition(",")
    if not comma:
        return {"literal": value}
    name = {"family": family.strip()}
    if given.strip():
        name["given"] = given.strip()
    return name


def month_date(year_text: str, date_text: str) -> tuple[int | None, str | None]:
    """Year (``PY``) and ISO date with the month and day of ``PD`` ("JUL 3", "JUL"): Web of
    Science's dates, in its own files and in its RIS exports' ``DA``."""
    match = re.search(r"\d{4}", year_text) or re.search(r"\d{4}", date_text)
    if not match:
        return None, None
    year = int(match.group(0))
    words = date_text.split()
    month = MONTHS.get(words[0][:3].lower()) if words else None
    day = next((int(w) for w in words[1:] if w.isdigit() and 1 <= int(w) <= 31), None)
    if month and day:
        return year, f"{year:04d}-{month:02d}-{day:02d}"
    if month:
        return year, f"{year:04d}-{month:02d}"
    return year, f"{year:04d}"


_MINOR = frozenset("a an and as at by for from in into of on or the to with".split())


def _recase(value: str) -> str:
    """Web of Science writes names in capitals: "JOURNAL OF SPORT" → "Journal of Sport"."""
    if not value.isupper():
        return value
    words = value.lower().split()
    return " ".join(
        w if n and w in _MINOR else w[:1].upper() + w[1:] for n, w in enumerate(words)
    )


def _fold(value: str) -> str:
    return " ".join(value.split())
