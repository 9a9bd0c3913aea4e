"""MEDLINE / PubMed exports (``.nbib``, "PubMed format"): ``PMID- 12345678`` records.

Each field is a tag of up to four letters padded to four, ``- ``, and the value; continuation
lines are indented six spaces; a blank line ends a record. Full author names (``FAU``, "Last,
First") are preferred to the initials (``AU``); ``CN`` is a corporate author. The journal is
``JT`` (``TA`` its abbreviation), the date ``DP`` ("2012 Jul 3"), the DOI the ``LID`` or
``AID`` value marked ``[doi]``, the title in the article's language ``TT`` (CSL's
``original-title``). A ``Retracted Publication`` (or a title saying "Retracted:") is marked
retracted. Tags the record does not model are kept for a MEDLINE export.
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
from reader.text.sanitize import clean_imported
from reader.text.titles import derive_title

__all__ = ["looks_like_medline", "parse"]

TITLE_MAX = 160
_TAG_LINE = re.compile(r"^([A-Z][A-Z0-9]{1,3}) {0,3}- ?(.*)$")
_PMID = re.compile(r"^PMID- ?\d+", re.MULTILINE)
_DATE = re.compile(r"^(\d{4})(?:\s+([A-Za-z]{3})[A-Za-z]*(?:\s+(\d{1,2}))?)?")
_MODELED = frozenset(
    "PMID TI AB FAU AU CN FED ED JT TA VI IP PG DP LID AID IS LA PL OT PT TT PMC".split()
)
# A generational suffix after the given names or initials ("Smith, John A Jr", "Smith JA Jr").
_SUFFIX = re.compile(r"\s+(Jr|Sr|II|III|IV|2nd|3rd)\.?$")
# A title that says the paper was retracted, as publishers prefix it ("RETRACTED: …").
_RETRACTED_TITLE = re.compile(r"^\s*\[?retracted\b", re.IGNORECASE)


def looks_like_medline(head: str) -> bool:
    """Whether a text starts like a MEDLINE export (a ``PMID-`` line near the top)."""
    lines = [line for line in head.split("\n")[:20] if line.strip()]
    return any(_PMID.match(line) for line in lines[:5])


def parse(text: str, source: str) -> ParseResult:
    """Records of a MEDLINE text; ``source`` names the file in messages."""
    lines = clean_imported(text).split("\n")
    if not any(_PMID.match(line) for line in lines):
        raise ImportFormatError(f"{source}: not MEDLINE (no 'PMID- ' line starts a record)")
    result = ParseResult()
    for item in split_records(lines, _TAG_LINE):
        if "PMID" not in item.fields:
            result.problems.append(
                f"{source}:{item.line}: record without a 'PMID- ' line; skipped"
            )
            continue
        result.add(f"{source}:{item.line}", partial(_record, item, source))
    return result


def _record(item: TaggedRecord, source: str) -> PaperRecord | None:
    title = _fold(item.first("TI")).rstrip(".") if item.first("TI") else ""
    abstract = _fold(item.first("AB"))
    if not title and not abstract:
        return None
    title_derived = False
    if not title:
        title = derive_title(to_plain(abstract), max_len=TITLE_MAX)
        title_derived = True
    csl: dict[str, Any] = {"type": "article-journal"}
    names = [_name(v) for v in item.all("FAU")] or [_name(v) for v in item.all("AU")]
    names += [{"literal": _fold(v)} for v in item.all("CN")]
    authors: list[dict[str, str]] = [a for a in names if a and not is_anonymous(a)]
    if authors:
        csl["author"] = authors
    editors = [_name(v) for v in item.all("FED")] or [_name(v) for v in item.all("ED")]
    if editors:
        csl["editor"] = [e for e in editors if e]
    for tag, variable in (("VI", "volume"), ("IP", "issue"), ("PG", "page"),
                          ("TA", "container-title-short"), ("LA", "language"),
                          ("PL", "publisher-place"), ("PMID", "PMID"), ("PMC", "PMCID"),
                          # The title in the article's own language, beside the English one.
                          ("TT", "original-title")):
        value = _fold(item.first(tag))
        if value:
            csl[variable] = value.rstrip(".") if tag == "TT" else value
    kinds = set(map(_fold, item.all("PT")))
    venue = _fold(item.first("JT", "TA")) or None
    if "Preprint" in kinds:
        # A preprint PubMed lists (medRxiv's, bioRxiv's): the server is its publisher, as
        # Zotero has a preprint, not a journal it appeared in.
        csl["type"] = "article"
        venue = _fold(item.first("TA", "JT")) or None
        if venue:
            csl["publisher"] = venue
    retracted = "Retracted Publication" in kinds or bool(
        _RETRACTED_TITLE.match(title))
    if retracted:
        # CSL's publication status, which APA prints; the paper is found by is:withdrawn.
        csl["status"] = "retracted"
    issn = item.first("IS")
    if issn:
        csl["ISSN"] = issn.split()[0]
    year, date = _date(item.first("DP"))
    parts = date_parts(date)
    if parts:
        csl["issued"] = {"date-parts": [parts]}
    doi = next(
        (v[: -len("[doi]")].strip() for v in item.all("LID") + item.all("AID")
         if v.endswith("[doi]")),
        None,
    )
    keywords: list[str] = []
    for value in item.all("OT") or item.all("MH"):
        word = _fold(value)
        if word and word not in keywords:
            keywords.append(word)
    kept = {tag: item.fields[tag] for tag in item.order if tag not in _MODELED}
    return PaperRecord(
        abstract=abstract,
        title=title,
        title_derived=title_derived,
        authors=[display_name(a) for a in authors],
        venue=venue,
        year=year,
        keywords=keywords,
        url=f"https://pubmed.ncbi.nlm.nih.gov/{_fold(item.first('PMID'))}/",
        doi=doi_as_written(doi),
        source=f"{source}:{item.line}",
        date=date,
        kind="article",
        csl=csl,
        extra={"medline": kept},
        withdrawn=retracted,
    )


def _name(value: str) -> dict[str, str] | None:
    """``Blomberg, Bjorn A`` as a CSL name (``Blomberg BA`` too: initials as given)."""
    value = _fold(value)
    if not value:
        return None
    suffix = _SUFFIX.search(value)
    name = _bare_name(value[: suffix.start()] if suffix else value)
    if suffix and "literal" not in name:
        name["suffix"] = f"{suffix.group(1)}." if suffix.group(1) in ("Jr", "Sr") else (
            suffix.group(1))  # "Jr" is no initial: "Smith, J. A., Jr."
    elif suffix:
        name = {"literal": value}
    return name


def _bare_name(value: str) -> dict[str, str]:
    """A name without its suffix: ``Blomberg, Bjorn A`` or ``Blomberg BA``."""
    if "," in value:
        family, _, given = value.partition(",")
        name = {"family": family.strip()}
        if given.strip():
            name["given"] = given.strip()
        return name
    family, _, initials = value.rpartition(" ")
    if family and initials.isupper() and len(initials) <= 3:
        return {"family": family, "given": " ".join(f"{c}." for c in initials)}
    return {"literal": value}


def _date(value: str) -> tuple[int | None, str | None]:
    """Year and ISO date of ``DP`` ("2012 Jul 3", "2012 Jul", "2012", "2012 Jul-Aug")."""
    match = _DATE.match(value.strip())
    if not match:
        return None, None
    year = int(match.group(1))
    month = MONTHS.get((match.group(2) or "").lower())
    if not month:
        return year, f"{year:04d}"
    if match.group(3):
        return year, f"{year:04d}-{month:02d}-{int(match.group(3)):02d}"
    return year, f"{year:04d}-{month:02d}"


def _fold(value: str) -> str:
    return " ".join(value.split())
