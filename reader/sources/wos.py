"""Web of Science plain-text exports: ``FN Clarivate Analytics Web of Science``, ``VR 1.0``,
then records of two-letter tags (``PT J`` … ``ER``), ending in ``EF``; and its tab-delimited
exports (``savedrecs.txt``): a header row of the same tags (``PT AU BA BE GP AF …``), then a
record a row, its lists (authors, editors, addresses) joined with "; ". Both are read alike.

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

__all__ = ["looks_like_wos", "parse", "spaced_initials"]

TITLE_MAX = 160
_TAG_LINE = re.compile(r"^([A-Z][A-Z0-9]) ?(.*)$")
_HEADER = re.compile(r"^\s*FN (?:Clarivate Analytics |Thomson Reuters )?Web of Science", re.I)
# Publication types: J journal, B book, S series, P patent, C conference.
_TYPES = {"J": "article-journal", "B": "book", "S": "chapter", "P": "patent",
          "C": "paper-conference"}
_LIST_TAGS = frozenset({"AU", "AF", "CR", "C1", "BA", "BF", "BE", "GP", "CA"})
# A tab-delimited export's header cell, and the tags every such header has.
_TAB_TAG = re.compile(r"[A-Z][A-Z0-9]")
_TAB_NEEDED = frozenset({"PT", "AU", "TI", "SO", "UT"})
_MODELED = frozenset(
    "PT AU AF TI SO LA DE AB PU PI SN BN PD PY VL IS BP EP AR DI UT SE BE CA PM".split()
)


def looks_like_wos(head: str) -> bool:
    """Whether a text starts like a Web of Science export (plain text or tab-delimited)."""
    text = head.lstrip("\ufeff")
    return bool(_HEADER.match(text)) or _tab_header(text.split("\n", 1)[0]) is not None


def parse(text: str, source: str) -> ParseResult:
    """Records of a Web of Science plain-text or tab-delimited export; ``source`` names
    the file."""
    lines = clean_imported(text).split("\n")
    header = _tab_header(lines[0].lstrip("\ufeff")) if lines else None
    if header is None and (not lines or not looks_like_wos("\n".join(lines[:3]))):
        raise ImportFormatError(
            f"{source}: not a Web of Science export (no 'FN … Web of Science' first line, "
            "nor a header row of its field tags)"
        )
    result = ParseResult()
    records = _tab_records(lines, header) if header is not None else split_records(
        lines, _TAG_LINE, end_tag="ER", each_line_a_value=_LIST_TAGS,
        skip_tags=frozenset({"FN", "VR", "EF"}),
    )
    for item in records:
        result.add(f"{source}:{item.line}", partial(_record, item, source))
    return result


def _tab_header(line: str) -> list[str] | None:
    """The tags of a tab-delimited export's header row (``PT AU BA …``, tab-separated), or
    None when the line is no such row."""
    cells = [cell.strip() for cell in line.rstrip("\r").split("\t")]
    while cells and not cells[-1]:
        cells.pop()  # (a row may end in a tab)
    if len(cells) < len(_TAB_NEEDED) or not all(_TAB_TAG.fullmatch(c) for c in cells):
        return None
    return cells if _TAB_NEEDED <= set(cells) else None


def _tab_records(lines: list[str], header: list[str]) -> list[TaggedRecord]:
    """The records of a tab-delimited export's rows, as the plain-text export's tagged
    lines give them: a value a line for the lists, which a row joins with "; "."""
    records: list[TaggedRecord] = []
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        record = TaggedRecord(number)
        for tag, cell in zip(header, line.rstrip("\r").split("\t"), strict=False):
            value = cell.strip()
            if not value:
                continue
            values = [v.strip() for v in value.split("; ")] if tag in _LIST_TAGS else [value]
            record.fields[tag] = [v for v in values if v]
            record.order.append(tag)
        records.append(record)
    return records


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
    names = [_name(v) for v in item.all("AF")] or [_name(v, True) for v in item.all("AU")]
    names += [{"literal": _fold(v)} for v in item.all("CA")]
    authors = [n for n in names if n and not is_anonymous(n)]
    if authors:
        csl["author"] = authors
    editors = [e for e in (_name(v, True) for v in item.all("BE")) if e]
    if editors:
        csl["editor"] = editors
    for tag, variable in (("VL", "volume"), ("IS", "issue"), ("PU", "publisher"),
                          ("PI", "publisher-place"), ("LA", "language"), ("SE",
                          "collection-title"), ("AR", "number"), ("UT", "WOS"),
                          ("PM", "PMID")):
        value = _fold(item.first(tag))
        if value:
            csl[variable] = _recase(value) if tag in ("PU", "PI") else value
    first, last = _fold(item.first("BP")), _fold(item.first("EP"))
    if last == "+":
        last = ""  # (continued on later pages, not in a row: the first page is cited)
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
        venue=_venue(_fold(item.first("SO")), csl.get("volume")) or None,
        year=year,
        keywords=keywords,
        doi=doi_as_written(item.first("DI")),
        source=f"{source}:{item.line}",
        date=date,
        kind="article" if csl["type"] == "article-journal" else None,
        csl=csl,
        extra={"wos": kept},
    )


def _name(value: str, initials: bool = False) -> dict[str, str] | None:
    """``Smith, John A.`` as a CSL name; a name without a comma is a literal. With
    ``initials`` (AU, BE: "Luxburg, UV"), a given name of capitals run together is that
    many initials ("U. V."), as Web of Science writes them."""
    value = _fold(value)
    if not value:
        return None
    family, comma, given = value.partition(",")
    if not comma:
        return {"literal": value}
    name = {"family": family.strip()}
    if given.strip():
        name["given"] = given.strip()
    return spaced_initials(name) if initials else name


# Initials run together, as Web of Science gives a given name ("SD").
_RUN_INITIALS = re.compile(r"[A-Z]{1,4}")


def spaced_initials(name: dict[str, str]) -> dict[str, str]:
    """A given name of initials run together, spaced as initials: ``SD`` → ``S. D.``."""
    given = name.get("given", "")
    if not _RUN_INITIALS.fullmatch(given):
        return name
    return {**name, "given": " ".join(f"{letter}." for letter in given)}


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


# Minor words, in English and in the other languages of names Web of Science writes in
# capitals ("PROCESAMIENTO DEL LENGUAJE NATURAL", "ZEITSCHRIFT FUR DIE ...").
_MINOR = frozenset(
    "a an and as at by for from in into of on or the to with "
    "de del della di la las le les los el et en y und der die das des fur für zur zum du".split()
)
# A proceedings' volume Web of Science writes into its name as well ("…, VOL 139").
_VOLUME_IN_NAME = re.compile(r",?\s*VOL\.?\s*(\w+)$", re.IGNORECASE)
# Acronyms of the words of venues and publishers, which stay in capitals: a title-cased
# "Ieee" or "Acm" is no name anyone writes. (An acronym in parentheses stays as it is.)
_ACRONYMS = frozenset(
    "IEEE ACM CVF SIAM SPIE AAAI IJCAI ICML ICLR NIPS CVPR ICCV ECCV ACL EMNLP NAACL KDD "
    "SIGKDD SIGIR SIGMOD AISTATS UAI COLT AMIA BMJ JAMA PLOS PNAS IFIP IFAC IET IOP AIP "
    "APA USA UK EU JMLR PMLR CEUR SEPLN".split()
)
# A Roman numeral of two letters or more ("Part II", "XIV"): a number, in capitals.
_ROMAN = re.compile(r"X{0,3}(?:IX|IV|V?I{0,3})")
# The parts of a word a slash or hyphen joins ("IEEE/ACM"), and the slashes and hyphens.
_WORD = re.compile(r"[^/-]+|[/-]+")


def _venue(value: str, volume: str | None) -> str:
    """The journal or proceedings a record names, recased (see :func:`_recase`), without the
    volume its ``VL`` gives too: the styles print the volume after it, and gave it twice."""
    volume_in_name = _VOLUME_IN_NAME.search(value)
    if volume_in_name and volume and volume_in_name.group(1) == volume:
        value = value[: volume_in_name.start()]
    return _recase(value)


def _recase(value: str) -> str:
    """Web of Science writes names in capitals: "JOURNAL OF SPORT" → "Journal of Sport";
    an acronym in parentheses ("(NIPS 2017)"), a known one ("IEEE/ACM") and a Roman numeral
    stay in capitals."""
    if not value.isupper():
        return value
    words, depth = [], 0
    for n, word in enumerate(value.split()):
        depth += word.count("(")
        # In parentheses an acronym ("(NIPS 2017)"), but for an abbreviated word ("(ED. 2)").
        kept = depth and not word.rstrip(")").endswith(".")
        words.append(word if kept else "".join(
            _recase_part(part, first=not n and not m)
            for m, part in enumerate(_WORD.findall(word))
        ))
        depth = max(0, depth - word.count(")"))
    return " ".join(words)


def _recase_part(part: str, first: bool) -> str:
    """One part of a word of a name in capitals, title-cased (a minor word in lower case
    but first), or kept if an acronym or a Roman numeral."""
    core = part.strip(".,;:")
    if core in _ACRONYMS or (len(core) > 1 and _ROMAN.fullmatch(core)):
        return part
    lower = part.lower()
    if not first and lower in _MINOR:
        return lower
    return re.sub(r"[a-z]", lambda letter: letter.group(0).upper(), lower, count=1)


def _fold(value: str) -> str:
    return " ".join(value.split())
