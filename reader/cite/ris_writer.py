"""Papers as RIS records (``TY  - JOUR`` … ``ER  -``), for reference managers.

Part of the headless core: plain string work, no Textual, no I/O. A record read from RIS
gets its own reference type and its unmodelled tags back; any other paper gets the RIS type
of its CSL type.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from reader.cite.bibtex_text import bibtex_source, with_arxiv_id
from reader.cite.csl_items import csl_names, csl_type, paper_url
from reader.cite.keys import citekey_base, entry_key, key_names
from reader.cite.venues import (
    held_at,
    published_in,
    submitted_venue,
    unpublished,
    workshop_track,
)
from reader.models import Paper
from reader.record import TEX_PREFIX, iso_from_parts, source_doi
from reader.signals import decision_field, export_state
from reader.sources.ris_fields import ris_csl_type
from reader.sources.ris_names import EDITOR_MARK
from reader.sources.ris_tools import ARTICLE_CODES, distinct_numbers, type_tags
from reader.text.identifiers import openreview_forum_id, openreview_forum_url
from reader.text.render import to_plain

__all__ = ["ris_record", "ris_records"]

_RIS_TYPES = {
    "article-journal": "JOUR", "article-magazine": "MGZN", "article-newspaper": "NEWS",
    "paper-conference": "CPAPER", "book": "BOOK", "chapter": "CHAP", "thesis": "THES",
    "report": "RPRT", "manuscript": "UNPB", "webpage": "ELEC", "post-weblog": "BLOG",
    "dataset": "DATA",
    "software": "COMP", "patent": "PAT", "entry-dictionary": "DICT",
    "entry-encyclopedia": "ENCYC", "pamphlet": "PAMP", "map": "MAP", "legislation": "STAT",
    "article": "UNPB", "speech": "SLIDE", "motion_picture": "VIDEO",
}
# Variables written as one tag each, in the order written.
_TEXT_TAGS = (
    ("volume", "VL"), ("issue", "IS"), ("edition", "ET"), ("publisher", "PB"),
    ("publisher-place", "CY"), ("collection-title", "T3"), ("language", "LA"),
    ("note", "N1"), ("genre", "M3"), ("number-of-volumes", "NV"), ("chapter-number", "SE"),
    ("section", "SE"), ("title-short", "ST"), ("container-title-short", "J2"), ("event", "C3"),
    ("source", "DP"),
)
# Types whose ``number`` is the volume's number in its series (RIS's "series volume").
_SERIES_NUMBERED = frozenset({"book", "chapter", "paper-conference"})

_NAME_TAGS = (("author", "AU"), ("editor", "A2"), ("collection-editor", "A3"),
              ("translator", "A4"))


def ris_records(papers: Sequence[Paper]) -> str:
    """The papers as one RIS text."""
    return "".join(ris_record(p) for p in papers)


def ris_record(paper: Paper) -> str:
    """One paper as a RIS record, ending in its ``ER  -`` line."""
    source = paper.extra.get("ris", {}) if isinstance(paper.extra, dict) else {}
    # A submission turned down is an unpublished work, whatever the venue it went to.
    kind = "manuscript" if unpublished(paper) else csl_type(paper)
    ris_type = source.get("@type")
    if not isinstance(ris_type, str) or not ris_type:
        ris_type = _RIS_TYPES.get(kind, "GEN")
    bibtex = paper.extra.get("bibtex", {}) if isinstance(paper.extra, dict) else {}
    bibtex = bibtex if isinstance(bibtex, dict) else {}
    record_id = _record_number(paper, source)
    id_line = record_id or entry_key(paper)
    lines = [("TY", ris_type), ("ID", id_line)]
    kept = source.get("ID")
    if record_id or (isinstance(kept, list) and [str(k).strip() for k in kept] == [id_line]):
        # Written once: a record of a tool whose IDs are its own numbers, read back from our
        # export, kept our key as such a number, and it came out twice.
        source = {tag: values for tag, values in source.items() if tag != "ID"}
    title = _line(to_plain(paper.title or "", groups=True))
    if title and not (paper.title_derived and (source or bibtex)):
        lines.append(("TI", title))
    # A tool's own A2 (Ovid's: the cited references' authors, its book's editors marked
    # "[Ed]") is written back as it came, but for the editors, written once under ED: as A2
    # beside it, another tool read the editor twice and the references as editors too.
    own_a2 = isinstance(source.get("A2"), list) and bool(csl_names(paper, "editor"))
    if own_a2:
        source = {**source, "A2": [v for v in source["A2"] if not EDITOR_MARK.search(str(v))]}
    for variable, tag in _NAME_TAGS:
        names = csl_names(paper, variable)
        tag = "ED" if own_a2 and variable == "editor" else tag
        if ris_type == "EDBOOK" and variable == "editor" and not csl_names(paper):
            tag = "AU"  # the edited book's names, as the RIS types and EndNote have them
        lines += [(tag, _name(n)) for n in names if _name(n)]
    venue = "" if unpublished(paper) or held_at(paper, paper.venue or "") else _line(
        workshop_track(paper, published_in(paper, paper.venue or ""))
    )
    if venue:
        venue_tag = source.get("@venue")
        lines.append(
            (venue_tag if isinstance(venue_tag, str) and len(venue_tag) == 2 else "T2", venue)
        )
    # The variables the type holds under tags of its own (a patent's number under SN), where
    # a reader of RIS looks for them.
    own_tags = type_tags(ris_type)
    for variable, tag in own_tags.items():
        value = paper.csl.get(variable)
        if isinstance(value, dict):
            day = iso_from_parts(value)
            value = f"{day.replace('-', '/')}/" if day else None
        if isinstance(value, str | int) and str(value).strip():
            lines.append((tag, _line(str(value))))
    written: set[str] = set(own_tags.values())
    for variable, tag in _TEXT_TAGS:
        value = paper.csl.get(variable)
        if variable in own_tags:
            continue
        if isinstance(value, str | int) and str(value).strip() and tag not in written:
            lines.append((tag, _line(str(value))))
            written.add(tag)
    number = None if "number" in own_tags else paper.csl.get("number")
    if isinstance(number, str | int) and str(number).strip():
        # An article's number is C7 (as Scopus, EndNote and Web of Science write it), which
        # reads back as such; under M1 another tool read nothing, and cited no "Article N".
        tag = "C7" if ris_type in ARTICLE_CODES else "M1"
        lines.append(("SV" if kind in _SERIES_NUMBERED else tag, _line(str(number))))
    in_series = paper.csl.get("collection-number")
    if isinstance(in_series, str | int) and str(in_series).strip() and not any(
        tag == "SV" for tag, _ in lines
    ):
        lines.append(("SV", _line(str(in_series))))  # the number in the series (T3)
    page = str(paper.csl.get("page") or "")
    if page.strip():
        first, _, last = page.replace("\u2013", "-").replace("--", "-").partition("-")
        lines.append(("SP", first.strip()))
        if last.strip():
            lines.append(("EP", last.strip()))
    else:
        lines += _extent_lines(paper, source)
    # Several numbers are written apart by spaces, commas or semicolons ("0959-8138,
    # 1756-1833": the print and the online ISSN), each an SN line.
    numbers = [part for variable in ("ISSN", "ISBN") if isinstance(paper.csl.get(variable), str)
               for part in str(paper.csl[variable]).replace(",", " ").replace(";", " ").split()]
    # A number given as both (a BibTeX isbn field holding the ISSN) is written once.
    lines += [("SN", part) for part in distinct_numbers(numbers)]
    issued = iso_from_parts(paper.csl.get("issued"))
    if paper.year is not None:
        lines.append(("PY", str(paper.year)))
    if issued or paper.date:
        parts = (issued or paper.date or "").split("-")
        # A date of the paper's own (arXiv's or OpenReview's submission day), not the day it
        # was published, says so in DA's fourth part (RIS's "other information"), so that
        # it comes back as the paper's date, cited as the year.
        other = "" if issued or parts == [str(paper.year)] else "submitted"
        day = "/".join(parts + [""] * (3 - len(parts)))
        lines.append(("DA", f"{day}/{other}" if other or len(parts) < 3 else day))
    accessed = iso_from_parts(paper.csl.get("accessed"))
    if accessed:
        lines.append(("Y2", accessed.replace("-", "/")))
    doi = source_doi(paper.csl, paper.doi)
    if doi:
        lines.append(("DO", doi.strip()))
    url = paper_url(paper)
    if url:
        lines.append(("UR", url))
    arxiv = f"https://arxiv.org/abs/{paper.arxiv_id}" if paper.arxiv_id else ""
    if arxiv and url and url != arxiv:
        # A paper found elsewhere (OpenReview, a DOI) keeps its arXiv id as a second link.
        lines.append(("UR", arxiv))
    if paper.openreview_id and openreview_forum_id(url) != paper.openreview_id:
        # And its OpenReview forum, by which it meets its reviews again after an import.
        lines.append(("UR", openreview_forum_url(paper.openreview_id)))
    lines += _pubmed_lines(paper, source)
    lines += [("KW", _line(k)) for k in paper.keywords or [] if k.strip()]
    plain = to_plain(paper.abstract or "", ligatures=bool(bibtex_source(paper)))
    paragraphs = [_line(p) for p in plain.split("\n\n")]
    paragraphs = [p for p in paragraphs if p]
    notice = source.get("@copyright")
    if paragraphs and isinstance(notice, str) and notice:
        paragraphs[-1] += f" {_line(notice)}"  # where the database wrote it (set apart on import)
    if paragraphs:
        # One paragraph a line: the lines after the tag's continue its value (as MEDLINE-style
        # exports write structured abstracts), so the paragraphs come back apart.
        lines.append(("AB", "\n".join(paragraphs)))
    for tag, values in source.items():
        if tag.startswith("@") or len(tag) != 2:
            continue
        for value in values if isinstance(values, list) else [values]:
            if isinstance(value, str) and value.strip():
                lines.append((tag, _line(value)))
    if bibtex:
        bibtex = with_arxiv_id(bibtex, paper)
    book_authors = [_name(n) for n in csl_names(paper, "container-author") if _name(n)]
    if bibtex and book_authors:
        # RIS has no tag for the authors of the book a chapter is in; BibTeX's is bookauthor.
        bibtex = {**bibtex, "bookauthor": " and ".join(book_authors)}
    if bibtex and title and not paper.title_derived and title != _line(paper.title):
        # A BibTeX title is kept as TeX: TI has its text, a note the TeX it came as.
        bibtex = {**bibtex, "title": paper.title}
    if bibtex and paper.abstract and "\n\n".join(paragraphs) != paper.abstract:
        # A BibTeX abstract is kept as TeX too, in a note of one paragraph a line.
        bibtex = {**bibtex, "abstract": paper.abstract}
    lines += _bibtex_lines(bibtex, lines)
    lines += _openreview_lines(paper)
    if not bibtex and not source.get("@type") and ris_csl_type(ris_type) != kind:
        # A type RIS has none for (CSL's preprint, written UNPB, came back a manuscript), in
        # a note as Better BibTeX's fields are; a BibTeX record's entry type says its own.
        lines.append(("N1", f"{TEX_PREFIX}csltype: {_line(kind)}"))
    if paper.aliases:
        # The keys of entries merged into the paper and its former keys, which RIS has no tag
        # for: documents citing them still find it after an import (biblatex's ids).
        lines.append(("N1", f"{TEX_PREFIX}ids: {', '.join(paper.aliases)}"))
    return "".join(f"{tag}  - {value}\n" for tag, value in lines) + "ER  - \n\n"


def _extent_lines(paper: Paper, source: dict[str, Any]) -> list[tuple[str, str]]:
    """A work's number of pages (a book's, a thesis's) as its extent in SP, where RIS's book
    and EndNote hold it: "752 pages", which any tool reads back as the count, not as the
    page cited (a bare number is, from a tool other than Zotero). A record's own SP (a
    catalogue's "xvii, 1115 pages") is written back as it came instead."""
    count = str(paper.csl.get("number-of-pages") or "").strip()
    if not count or "SP" in source:
        return []
    return [("SP", _line(count if count.lower().endswith("pages") else f"{count} pages"))]


def _record_number(paper: Paper, source: dict[str, Any]) -> str | None:
    """The number the source's database gave the record (a Lens.org id, an EndNote record
    number), written back as its ID when the paper's key is only the one its names, year
    and title make: read again, the record gets that key again and keeps its number. A key
    the user chose is written instead (the number then goes after it)."""
    kept = source.get("ID")
    if not (isinstance(kept, list) and len(kept) == 1 and isinstance(kept[0], str)):
        return None
    from reader.sources.ris_tools import record_number

    if not record_number(kept[0].strip()):
        return None  # an accession number of letters reads as no key only beside its tool's
    base = citekey_base(paper.title or "", key_names(paper.authors or [], paper.csl),
                        paper.year)
    key = entry_key(paper)
    suffix = key.removeprefix(base)
    if not base or not key.startswith(base) or not (suffix == "" or suffix.isalpha()):
        return None
    return kept[0].strip() or None


def _pubmed_lines(paper: Paper, source: dict[str, Any]) -> list[tuple[str, str]]:
    """A PMID as PubMed's record number, as EndNote writes it (``AN`` with ``DB  -
    PubMed``), which RIS readers take for the PMID; a record's own AN and DB go back as
    they came instead."""
    pmid = paper.csl.get("PMID")
    if not isinstance(pmid, str | int) or not str(pmid).strip().isdigit() or (
        {"AN", "DB"} & set(source)
    ):
        return []
    return [("AN", str(pmid).strip()), ("DB", "PubMed")]


def _openreview_lines(paper: Paper) -> list[tuple[str, str]]:
    """What OpenReview says of a submission beyond its record, which RIS has no tags for, in
    notes as the BibTeX fields it would be (``tex.pubstate: withdrawn``, ``tex.tldr: …``,
    ``tex.primaryarea: …``): the form Better BibTeX reads in Zotero's Extra field. A decision
    short of acceptance (rejected, under review) is a state too, read back as the decision;
    an accepted one is ``tex.decision: poster``, a withdrawn one ``tex.decision: withdrawn``."""
    state = "withdrawn" if paper.withdrawn else export_state(paper.decision)
    lines = [("N1", f"{TEX_PREFIX}pubstate: {state}")] if state else []
    venue = submitted_venue(paper)
    if venue:
        # Where it was submitted, which the record (a manuscript) names nowhere else.
        lines.append(("N1", f"{TEX_PREFIX}eventtitle: {_line(venue)}"))
    for name, value in (("tldr", paper.tldr), ("primaryarea", paper.primary_area),
                        ("decision", decision_field(paper.decision, paper.withdrawn))):
        text = _line(value or "")
        if text:
            lines.append(("N1", f"{TEX_PREFIX}{name}: {text}"))
    return lines


def _bibtex_lines(fields: dict[str, Any], written: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """A BibTeX record's own fields, which RIS has no tags for, as lines our importer reads back.

    The entry type (``tex.entrytype: mastersthesis``: RIS has one type for every thesis), the
    field names the record's variables came from (``tex.@fields: publisher=organization``)
    and every verbatim field (``tex.crossref: whole-set``) go in notes, which other
    programs show as notes; a ``file`` is RIS's file attachment (``L1``).
    """
    if not fields:
        return []
    lines = [("N1", f"{TEX_PREFIX}entrytype: {_line(str(fields.get('@type') or 'misc'))}")]
    for name, value in fields.items():
        if name == "@type":
            continue
        if isinstance(value, dict):
            text = ", ".join(f"{k}={v}" for k, v in value.items())
        elif isinstance(value, list):
            text = ", ".join(str(v) for v in value)
        else:
            text = str(value)
        if name == "abstract":
            text = "\n".join(p for p in (_line(p) for p in text.split("\n\n")) if p)
        else:
            text = _line(text)
        if name == "file":
            if text and ("L1", text) not in written:
                lines.append(("L1", text))
        elif text or isinstance(value, str):
            # An empty field stays: the crossref child's "key = {}" says the key is not its
            # parent's.
            lines.append(("N1", f"{TEX_PREFIX}{name}: {text}".rstrip()))
    return lines


def _name(name: dict[str, Any]) -> str:
    """A CSL name as RIS writes it: ``Last, First, Suffix`` (a literal as it is)."""
    if name.get("literal"):
        return _line(str(name["literal"]))
    family = " ".join(
        str(name[p]) for p in ("non-dropping-particle", "family") if name.get(p)
    )
    given = " ".join(str(name[p]) for p in ("given", "dropping-particle") if name.get(p))
    if family and not given and not name.get("suffix"):
        # A family name alone keeps its comma: without it, it reads back as a literal.
        return _line(f"{family},")
    parts = [family, given] + ([str(name["suffix"])] if name.get("suffix") else [])
    return _line(", ".join(p for p in parts if p))


def _line(text: str) -> str:
    """Text on one line: RIS values cannot hold line breaks."""
    return " ".join(text.split())
