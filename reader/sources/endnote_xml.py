"""EndNote's XML export (File, Export, "XML"): ``<xml><records><record>…`` with one
``<record>`` per reference.

Each record is written as the RIS record EndNote's own RIS export makes of the same fields
and read by the RIS reader, so a library exported both ways imports as the same papers,
field for field. The XML is read with the standard library's pull parser, a line at a time:
every record is known by the line it starts on, a long export is never held as a tree, and a
file cut off in the middle still gives the records before the cut. Documents with a DTD or
entity declarations are refused before parsing (EndNote writes none; entities can expand
without bound). Elements no RIS tag holds are named in the import summary.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Iterator
from functools import partial

from reader.models import PaperRecord
from reader.sources import ImportFormatError, ParseResult
from reader.sources.ris import read_record
from reader.sources.xmlsafe import refuse_declarations
from reader.text.sanitize import clean_imported

__all__ = ["looks_like_endnote_xml", "parse"]

#: EndNote's reference types (``<ref-type name="…">``) as the RIS types its RIS export
#: writes for them; a type not here is ``GEN``, as EndNote writes its Generic type.
_TYPES = {
    "journal article": "JOUR", "electronic article": "EJOUR", "magazine article": "MGZN",
    "newspaper article": "NEWS", "book": "BOOK", "edited book": "EDBOOK",
    "electronic book": "EBOOK", "book section": "CHAP", "electronic book section": "ECHAP",
    "conference proceedings": "CONF", "conference paper": "CPAPER", "thesis": "THES",
    "report": "RPRT", "web page": "ELEC", "manuscript": "MANSCPT",
    "unpublished work": "UNPB", "patent": "PAT", "computer program": "COMP",
    "dataset": "DATA", "serial": "SER", "standard": "STAND", "statute": "STAT",
    "case": "CASE", "figure": "FIGURE", "chart or table": "CHART",
    "audiovisual material": "ADVS", "film or broadcast": "VIDEO", "grant": "GRANT",
    "government document": "GOVDOC", "dictionary": "DICT", "encyclopedia": "ENCYC",
    "online multimedia": "MULTI", "online database": "DBASE",
    "personal communication": "PCOMM", "pamphlet": "PAMP", "map": "MAP",
    "hearing": "HEAR", "bill": "BILL", "ancient text": "ANCIENT", "music": "MUSIC",
    "catalog": "CTLG", "legal rule or regulation": "LEGAL", "interview": "GEN",
}

#: Elements (by their path under ``<record>``) and the RIS tags EndNote's RIS export
#: writes them as.
_TAGS = {
    "rec-number": "ID",
    "contributors/authors/author": "AU",
    "contributors/secondary-authors/author": "A2",
    "contributors/tertiary-authors/author": "A3",
    "contributors/subsidiary-authors/author": "A4",
    "contributors/translated-authors/author": "A4",
    "auth-address": "AD",
    "titles/title": "TI",
    "titles/secondary-title": "T2",
    "titles/tertiary-title": "T3",
    "titles/alt-title": "J2",
    "titles/short-title": "ST",
    "titles/translated-title": "TT",
    "pages": "SP",
    "volume": "VL",
    "number": "IS",
    "issue": "IS",
    "section": "SE",
    "edition": "ET",
    "num-vols": "NV",
    "reprint-edition": "RP",
    "orig-pub": "OP",
    "keywords/keyword": "KW",
    "dates/year": "PY",
    "dates/pub-dates/date": "DA",
    "pub-location": "CY",
    "publisher": "PB",
    "isbn": "SN",
    "accession-num": "AN",
    "call-num": "CN",
    "electronic-resource-num": "DO",
    "abstract": "AB",
    "label": "LB",
    "caption": "CA",
    "notes": "N1",
    "work-type": "M3",
    "remote-database-name": "DB",
    "remote-database-provider": "DP",
    "language": "LA",
    "urls/related-urls/url": "UR",
    "urls/web-urls/url": "UR",
    "urls/pdf-urls/url": "L1",
    "urls/text-urls/url": "L1",
    "urls/image-urls/url": "L4",
    "access-date": "Y2",
    **{f"custom{n}": f"C{n}" for n in range(1, 8)},
    **{f"misc{n}": f"M{n}" for n in range(1, 4)},
}
#: What a thesis's fields are in EndNote (its Thesis type names them otherwise): the
#: advisor, the academic department and the degree have no place in a citation or a RIS
#: tag (APA: "[Doctoral dissertation, University of Lagos]"), and are named as not kept.
_THESIS_APART = {
    "contributors/secondary-authors/author": "advisor",
    "titles/secondary-title": "academic department",
    "volume": "degree",
}
#: The types whose ``pages`` are their number of pages, not a range in a container.
_PAGE_COUNTS = frozenset({"thesis", "book", "edited book", "electronic book", "report"})
#: The user's own notes on the reference: the paper's note, not a field a style prints.
_USER_NOTE = "research-notes"
#: The journal's names, taken where the titles do not give them.
_PERIODICAL = {"periodical/full-title": "T2", "periodical/abbr-1": "J2"}
#: Elements that are EndNote's own bookkeeping, not the reference's: nothing is lost.
_BOOKKEEPING = {"database", "source-app", "foreign-keys", "modified-date"}
#: Containers of the elements above.
_CONTAINERS = {"contributors", "titles", "periodical", "keywords", "dates", "urls",
               "authors", "secondary-authors", "tertiary-authors", "subsidiary-authors",
               "translated-authors", "pub-dates", "related-urls", "web-urls", "pdf-urls",
               "text-urls", "image-urls"}


def looks_like_endnote_xml(head: str) -> bool:
    """Whether the start of an XML text is EndNote's export: ``<xml>`` then ``<records>``
    (after an optional declaration), or a ``<record>`` naming EndNote as its source."""
    start = head.lstrip("\ufeff \t\r\n")
    if start.startswith("<?xml"):
        start = start[start.find("?>") + 2:].lstrip()
    opening = start[:64].replace(" ", "").replace("\n", "").replace("\r", "").lower()
    return opening.startswith(("<xml><records>", "<records><record>")) or (
        opening.startswith("<xml>") and "<source-app" in head and "EndNote" in head
    )


def parse(text: str, source: str) -> ParseResult:
    """Records of an EndNote XML export; ``source`` names the file in messages."""
    try:
        return _parse(text, source)
    except ImportFormatError:
        raise
    except Exception as exc:  # a bug here must not take the import down
        raise ImportFormatError(f"{source}: could not be read as EndNote XML ({exc})") from exc


def _parse(text: str, source: str) -> ParseResult:
    text = clean_imported(text)
    refuse_declarations(text, source, "EndNote's XML has none")
    if not text.strip():
        raise ImportFormatError(f"{source}: the file is empty")
    result = ParseResult()
    unkept: Counter[str] = Counter()
    parser: ET.XMLPullParser[ET.Element] = ET.XMLPullParser(events=("start", "end"))
    depth, start, number, records = 0, 0, 0, 0
    try:
        for number, line in enumerate(text.split("\n"), start=1):
            parser.feed(line + "\n")
            for event, element in _events(parser):
                if event == "start":
                    depth += 1
                    if depth == 1 and element.tag not in ("xml", "records"):
                        raise ImportFormatError(
                            f"{source}: not an EndNote XML export (its document element is "
                            f"<{element.tag}>, not <xml>)"
                        )
                    if element.tag == "record":
                        start = number
                    continue
                depth -= 1
                if element.tag == "record":
                    records += 1
                    lines = list(_ris_lines(element, unkept))
                    note = _text(element.find(_USER_NOTE))
                    result.add(f"{source}:{start}", partial(_read, lines, note, source, start))
                    element.clear()  # a long export need not stay in memory
        parser.close()
    except ET.ParseError as exc:
        where = getattr(exc, "position", (number, 0))[0]
        message = str(exc).split(":")[0]
        if not records:
            raise ImportFormatError(f"{source}:{where}: not well-formed XML ({message})") from exc
        result.problems.append(f"{source}:{where}: the XML is broken here ({message}); "
                               "records after this line were not read")
    if not records and not result.problems:
        raise ImportFormatError(f"{source}: an EndNote XML export with no <record> in it")
    if unkept:
        named = ", ".join(f"{name} ({count})" for name, count in sorted(unkept.items()))
        result.warnings.append(f"{source}: EndNote fields no RIS tag holds, not kept: {named}")
    return result


def _read(lines: list[str], note: str, source: str, start: int) -> PaperRecord | None:
    """The paper of a record's RIS lines, with the user's research notes as its note."""
    record = read_record(lines, source, start)
    if record is not None and note:
        record.note = note
    return record


def _events(parser: ET.XMLPullParser[ET.Element]) -> Iterator[tuple[str, ET.Element]]:
    """The start and end events read so far, each with its element."""
    for item in parser.read_events():
        if len(item) == 2 and isinstance(item[1], ET.Element):
            yield str(item[0]), item[1]


def _ris_lines(record: ET.Element, unkept: Counter[str]) -> Iterator[str]:
    """The RIS record EndNote's RIS export writes for ``record``, line by line; the names
    of elements no tag holds counted in ``unkept``."""
    kind = record.find("ref-type")
    name = (kind.get("name", "") if kind is not None else "").strip().lower()
    yield f"TY  - {_TYPES.get(name, 'GEN')}"
    given: set[str] = set()
    for path, tag in _TAGS.items():
        for element in record.findall(path):
            value = _text(element)
            if not value:
                continue
            if name == "thesis" and path in _THESIS_APART:
                unkept[_THESIS_APART[path]] += 1
                continue
            if tag == "SP" and name in _PAGE_COUNTS and value.isdigit():
                value = f"{value} pages"  # (a page count, as the RIS reader knows it)
            given.add(tag)
            yield from _tag_line(tag, value)
    for path, tag in _PERIODICAL.items():
        value = _text(record.find(path))
        if value and tag not in given:
            yield from _tag_line(tag, value)
    _count_unkept(record, "", unkept)
    yield "ER  - "


def _count_unkept(element: ET.Element, prefix: str, unkept: Counter[str]) -> None:
    """Count the elements under ``element`` with text that no tag above takes."""
    for child in element:
        path = f"{prefix}{child.tag}"
        if path in _TAGS or path in _PERIODICAL or path in ("ref-type", _USER_NOTE):
            continue
        if child.tag in _BOOKKEEPING or child.tag in _CONTAINERS:
            if child.tag in _CONTAINERS:
                _count_unkept(child, f"{path}/", unkept)
            continue
        if _text(child):
            unkept[path] += 1


def _text(element: ET.Element | None) -> str:
    """The text of an element: EndNote writes it in ``<style>`` runs (one per change of
    font or face), and older versions bare."""
    if element is None:
        return ""
    return "".join(element.itertext()).replace("\r\n", "\n").replace("\r", "\n").strip()


def _tag_line(tag: str, value: str) -> Iterator[str]:
    """A RIS tag line, its value's further lines as continuation lines: a line that reads
    as a tag line of its own is indented, so that it stays part of the value."""
    lines = value.split("\n")
    yield f"{tag}  - {lines[0]}"
    for line in lines[1:]:
        yield f" {line}" if line[2:6] == "  - " else line
