"""Papers as RIS records (``TY  - JOUR`` … ``ER  -``), for reference managers.

Part of the headless core: plain string work, no Textual, no I/O. A record read from RIS
gets its own reference type and its unmodelled tags back; any other paper gets the RIS type
of its CSL type.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from reader.citations import entry_key
from reader.csl import csl_names, csl_type, paper_url
from reader.models import Paper
from reader.record import iso_from_parts, source_doi
from reader.textrender import to_plain

__all__ = ["ris_record", "ris_records"]

_RIS_TYPES = {
    "article-journal": "JOUR", "article-magazine": "MGZN", "article-newspaper": "NEWS",
    "paper-conference": "CPAPER", "book": "BOOK", "chapter": "CHAP", "thesis": "THES",
    "report": "RPRT", "manuscript": "UNPB", "webpage": "ELEC", "dataset": "DATA",
    "software": "COMP", "patent": "PAT", "entry-dictionary": "DICT",
    "entry-encyclopedia": "ENCYC", "pamphlet": "PAMP", "map": "MAP", "legislation": "STAT",
    "article": "UNPB",
}
# Variables written as one tag each, in the order written.
_TEXT_TAGS = (
    ("volume", "VL"), ("issue", "IS"), ("edition", "ET"), ("publisher", "PB"),
    ("publisher-place", "CY"), ("collection-title", "T3"), ("language", "LA"),
    ("note", "N1"), ("genre", "M3"), ("number-of-volumes", "NV"), ("section", "SE"),
    ("title-short", "ST"), ("container-title-short", "J2"), ("event", "C3"),
)
_NAME_TAGS = (("author", "AU"), ("editor", "A2"), ("collection-editor", "A3"),
              ("translator", "A4"))


def ris_records(papers: Sequence[Paper]) -> str:
    """The papers as one RIS text."""
    return "".join(ris_record(p) for p in papers)


def ris_record(paper: Paper) -> str:
    """One paper as a RIS record, ending in its ``ER  -`` line."""
    source = paper.extra.get("ris", {}) if isinstance(paper.extra, dict) else {}
    kind = csl_type(paper)
    ris_type = source.get("@type")
    if not isinstance(ris_type, str) or not ris_type:
        ris_type = _RIS_TYPES.get(kind, "GEN")
    lines = [("TY", ris_type), ("ID", entry_key(paper))]
    title = _line(to_plain(paper.title or ""))
    if title and not (paper.title_derived and source):
        lines.append(("TI", title))
    for variable, tag in _NAME_TAGS:
        names = csl_names(paper, variable)
        lines += [(tag, _name(n)) for n in names if _name(n)]
    venue = _line(paper.venue or "")
    if venue:
        venue_tag = source.get("@venue")
        lines.append(
            (venue_tag if isinstance(venue_tag, str) and len(venue_tag) == 2 else "T2", venue)
        )
    for variable, tag in _TEXT_TAGS:
        value = paper.csl.get(variable)
        if isinstance(value, str | int) and str(value).strip():
            lines.append((tag, _line(str(value))))
    page = str(paper.csl.get("page") or "")
    if page.strip():
        first, _, last = page.replace("\u2013", "-").replace("--", "-").partition("-")
        lines.append(("SP", first.strip()))
        if last.strip():
            lines.append(("EP", last.strip()))
    for variable in ("ISSN", "ISBN"):
        value = paper.csl.get(variable)
        if isinstance(value, str):
            lines += [("SN", part) for part in value.split() if part]
    issued = iso_from_parts(paper.csl.get("issued")) or paper.date
    if paper.year is not None:
        lines.append(("PY", str(paper.year)))
    if issued:
        parts = issued.split("-")
        lines.append(("DA", "/".join(parts + [""] * (3 - len(parts))) + ("/" if len(parts) < 3
                                                                           else "")))
    accessed = iso_from_parts(paper.csl.get("accessed"))
    if accessed:
        lines.append(("Y2", accessed.replace("-", "/")))
    doi = source_doi(paper.csl, paper.doi)
    if doi:
        lines.append(("DO", doi.strip()))
    url = paper_url(paper)
    if url:
        lines.append(("UR", url))
    lines += [("KW", _line(k)) for k in paper.keywords or [] if k.strip()]
    abstract = _line(to_plain(paper.abstract or ""))
    if abstract:
        lines.append(("AB", abstract))
    for tag, values in source.items():
        if tag.startswith("@") or len(tag) != 2:
            continue
        for value in values if isinstance(values, list) else [values]:
            if isinstance(value, str) and value.strip():
                lines.append((tag, _line(value)))
    return "".join(f"{tag}  - {value}\n" for tag, value in lines) + "ER  - \n\n"


def _name(name: dict[str, Any]) -> str:
    """A CSL name as RIS writes it: ``Last, First, Suffix`` (a literal as it is)."""
    if name.get("literal"):
        return _line(str(name["literal"]))
    family = " ".join(
        str(name[p]) for p in ("non-dropping-particle", "family") if name.get(p)
    )
    given = " ".join(str(name[p]) for p in ("given", "dropping-particle") if name.get(p))
    parts = [family, given] + ([str(name["suffix"])] if name.get("suffix") else [])
    return _line(", ".join(p for p in parts if p))


def _line(text: str) -> str:
    """Text on one line: RIS values cannot hold line breaks."""
    return " ".join(text.split())
