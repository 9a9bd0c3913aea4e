"""RIS files (``TY  - JOUR`` … ``ER  -`` records), as exported by reference managers and databases.

The file is split into records here, line by line, so that every problem can name its line and
one bad record never costs the others; each record is then read by rispy on its own. A record
that never reaches its ``ER`` line, or holds a malformed tag line, is reported and skipped.
An import reads the file a record at a time as it writes them: a long list is never held
whole, neither its text nor its records.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import partial

import rispy

from reader.models import PaperRecord
from reader.record import TEX_PREFIX, iso_from_parts, keep_written_doi
from reader.record import display_name as record_display
from reader.sources import ImportFormatError, ParseResult, Streamed
from reader.sources.bibtex_fields import kept_as_written
from reader.sources.dates import ris_date, year_and_date
from reader.sources.ris_fields import TAG_LINE, csl_and_extra
from reader.sources.ris_notes import ris_aliases, ris_arxiv, ris_openreview, ris_withdrawn
from reader.sources.ris_tags import (
    first,
    fold_lines,
    keywords_and_tags,
    paragraphs,
    tag_table,
    tag_values,
)
from reader.sources.ris_tools import (
    EBSCO,
    OVID,
    ZOTERO,
    as_written_apart,
    exporter,
    linked_doi,
    links,
    record_key,
    tag_meanings,
    venue_tags,
    zotero_notes,
)
from reader.sources.stand_ins import abstract_given, copyright_apart
from reader.sources.textfile import TextFile, cleaned_lines
from reader.text.identifiers import (
    doi_as_written,
    normalize_doi,
    openreview_forum_in,
)
from reader.text.render import plain_line, to_plain
from reader.text.rich_text import html_title
from reader.text.sanitize import clean_imported
from reader.text.titles import derive_title, without_full_stop

__all__ = ["parse", "read_record", "stream_file"]

TITLE_MAX = 160

_RECORD_START = re.compile(r"^TY  -", re.MULTILINE)
# A line that tries to be a tag line but is spaced wrongly ("AU - Smith", "TI   -x").
_BROKEN_TAG = re.compile(r"^[A-Z][A-Z0-9](?: ?| {3,})-(?:\s|$)")
# Where one tag line is glued to the next on one line: a run of spaces before "XX  - ".
_GLUED = re.compile(r"\s{3,}(?=[A-Z][A-Z0-9]  - )")
# Ovid numbers the records of an export: "6. " on a line of its own before each.
_RECORD_NUMBER = re.compile(r"^\s*\d+\.\s*$")

# rispy maps tags to long names; the tags themselves are clearer here ("AU", "T2" …).
_MAPPING = {tag: tag for tag in rispy.TAG_KEY_MAPPING}
_LIST_TAGS = ["A1", "A2", "A3", "A4", "AU", "ED", "ID", "KW", "N1", "UR", "SN"]

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
    """The lines of one record between ``TY`` and ``ER``, the tag and value of each (None
    and the line for a continuation line), and what is wrong with it."""

    start: int
    lines: list[str] = field(default_factory=list)
    tags: list[tuple[str | None, str]] = field(default_factory=list)
    error: str | None = None
    #: Whether a bare number ("6.") came before it, as Ovid numbers the records it exports.
    numbered: bool = False


def parse(text: str, source: str) -> ParseResult:
    """Records of a RIS text; ``source`` names the file in messages."""
    try:
        return _parse(text, source)
    except ImportFormatError:
        raise
    except Exception as exc:  # a bug here must not take the import down
        raise ImportFormatError(f"{source}: could not be read as RIS ({exc})") from exc


def stream_file(file: TextFile, source: str, problems: list[str]) -> Streamed | None:
    """The records of ``parse`` for the file's text, read from the file a record at a time
    as they are asked for, and at most how many there are (the ``TY`` lines); problem lines
    are added to ``problems`` as their records are met. None when no line starts a record:
    the text read whole says why it is not RIS."""
    count = file.count_lines_starting(b"TY  -")
    if not count:
        return None
    return _streamed(cleaned_lines(file.pieces()), source, problems), count


def read_record(lines: list[str], source: str, start: int) -> PaperRecord | None:
    """One record written as RIS lines by another reader (EndNote's XML), read as a file's
    record starting at line ``start`` is."""
    item = _Record(start)
    for _, line, tag, value in _tag_lines(lines):
        item.lines.append(line)
        item.tags.append((tag, value))
    return _record(item, source)


def _checked(text: str, source: str) -> str:
    """The text cleaned, or ImportFormatError when no record starts in it."""
    text = clean_imported(text)
    if not _RECORD_START.search(text):
        raise ImportFormatError(f"{source}: not RIS (no 'TY  - ' line starts a record)")
    return text


def _parse(text: str, source: str) -> ParseResult:
    result = ParseResult()
    result.records.extend(_streamed(_lines(_checked(text, source)), source, result.problems))
    return result


def _streamed(lines: Iterable[str], source: str, problems: list[str]) -> Iterator[PaperRecord]:
    for item in _split(lines, source):
        if item.error:
            problems.append(item.error)
            continue
        one = ParseResult()
        one.add(f"{source}:{item.start}", partial(_record, item, source))
        problems.extend(one.problems)
        yield from one.records


def _lines(text: str) -> Iterator[str]:
    """The lines of a text, as ``text.split("\\n")`` has them, one at a time."""
    start = 0
    while (end := text.find("\n", start)) >= 0:
        yield text[start:end]
        start = end + 1
    yield text[start:]


def _split(lines: Iterable[str], source: str) -> Iterator[_Record]:
    """The records of a file in order, tag lines outside any record as records in error."""
    current: _Record | None = None
    stray: int | None = None  # first line of tag lines that belong to no record
    numbered = False
    for number, line, tag, value in _tag_lines(lines):
        if tag == "TY":
            if stray is not None:
                yield _stray(source, stray)
                stray = None
            if current is not None:
                current.error = (
                    f"{source}:{current.start}: record has no 'ER  -' line (the next record"
                    f" starts at line {number}); skipped"
                )
                yield current
            current = _Record(number, [line], [(tag, value)], numbered=numbered)
            numbered = False
        elif current is None:
            if line.strip():
                numbered = bool(_RECORD_NUMBER.match(line))
            # Text before the first record (export headers such as "Provider: …") and blank
            # lines between records are normal; tag lines there mean a record lost its TY.
            if (tag or _BROKEN_TAG.match(line)) and stray is None:
                stray = number
            if tag == "ER" and stray is not None:
                yield _stray(source, stray)
                stray = None
        elif tag == "ER":
            current.lines.append("ER  - ")
            current.tags.append(("ER", ""))
            yield current
            current = None
        else:
            if tag is None and _BROKEN_TAG.match(line) and current.error is None:
                current.error = (
                    f"{source}:{number}: malformed tag line {line[:40]!r} (expected 'XX  - value')"
                    f" in the record starting at line {current.start}; skipped"
                )
            current.lines.append(line)
            current.tags.append((tag, value))
    if stray is not None:
        yield _stray(source, stray)
    if current is not None:
        current.error = (
            f"{source}:{current.start}: record has no 'ER  -' line (the file ends first); skipped"
        )
        yield current


def _tag_lines(lines: Iterable[str]) -> Iterator[tuple[int, str, str | None, str]]:
    """Each line's number, text, tag and value (None and the text for a line without a tag).

    A line holding several tag lines glued together with runs of spaces (``UR  - https://…
    U2  - L2029880245``, as Rayyan writes some) is given as those lines, each its own tag.
    """
    for number, raw in enumerate(lines, start=1):
        line = raw.rstrip()
        match = TAG_LINE.match(line)
        if not match:
            yield number, line, None, line
            continue
        if "  - " not in (match.group(2) or "")[1:]:
            yield number, line, match.group(1), match.group(2) or ""
            continue
        for piece in _GLUED.split(line):
            found = TAG_LINE.match(piece)
            if found:
                yield number, piece, found.group(1), found.group(2) or ""


def _stray(source: str, line: int) -> _Record:
    """A record in error for tag lines found outside any record."""
    message = f"{source}:{line}: tag lines outside a record (no 'TY  - ' line before them); skipped"
    return _Record(line, error=message)


def _record(item: _Record, source: str) -> PaperRecord | None:
    """The paper of one record, or None when it has neither title nor abstract."""
    tex_abstract, lines = _tex_abstract(item)
    parsed = rispy.loads("\n".join(lines), mapping=_MAPPING, list_tags=_LIST_TAGS)
    if not parsed:
        raise ValueError("rispy found no record")
    tags = as_written_apart(tag_table(parsed[0]))
    title = html_title(fold_lines(first(tags, "TI", "T1")))  # (Web of Science's <i>…</i>)
    abstract = abstract_given(_abstract(item, "AB") or _abstract(item, "N2"))
    tool = exporter(tags, item.numbered)
    csl, extra = csl_and_extra(tags, item.tags, tool)
    abstract, notice = copyright_apart(abstract)
    if notice is not None:  # (the RIS export writes it back after the abstract, no tag of its own)
        extra.setdefault("ris", {}).setdefault("@copyright", notice)
    user_note = zotero_notes(csl, extra) if tool == ZOTERO else None  # (see zotero_notes)
    kind_code = fold_lines(first(tags, "TY")).upper()
    # (Zotero's book names its series in T2, its conference paper the proceedings in C3.)
    venue = fold_lines(first(tags, *venue_tags(tag_meanings(tool, kind_code)))) or None
    if tool in (OVID, EBSCO):  # (each ends every title with a full stop: "A primer (3rd ed.).")
        title, venue = without_full_stop(title), venue and without_full_stop(venue)
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
    keywords, user_tags, tags_rewritten = keywords_and_tags(tags, tool)
    year, date = year_and_date(first(tags, "PY", "Y1", "DA"), first(tags, "DA", "PY", "Y1"))
    issued = iso_from_parts(csl.get("issued"))
    if issued and date and issued.startswith(date) and len(issued) > len(date):
        date = issued  # the month another tag gave (Ovid's Y2 "2021 Apr" beside PY 2021)
    if first(tags, "DA").strip().lower().endswith("/submitted"):
        # The paper's own date, as our export marks it, even in the year before its year
        # (an OpenReview submission day).
        date = ris_date(first(tags, "DA")) or date
    urls = [url for value in tag_values(tags, "UR") for url in links(value)]
    bibtex = extra.get("bibtex", {})
    for name, value in bibtex.items():  # (pmid: PMID, as the BibTeX importer reads it)
        if (variable := kept_as_written(name)) and isinstance(value, str):
            csl.setdefault(variable, value)
    tex_title = bibtex.pop("title", None)
    if isinstance(tex_title, str) and not title_derived and plain_line(tex_title) == title:
        title = tex_title  # a BibTeX record's title, kept as the TeX it was written in
    if bibtex.pop("abstract", None) is not None:
        if to_plain(tex_abstract).split() == abstract.split():
            abstract = tex_abstract  # a BibTeX record's abstract, kept as TeX
    arxiv_id, urls = ris_arxiv(bibtex, urls)
    written_doi = doi_as_written(fold_lines(first(tags, "DO")) or linked_doi(tags))
    doi = normalize_doi(written_doi)
    if doi and doi.startswith("10/") and urls and "doi" in urls[0].lower():
        # A short DOI ("10/fqd6hj"): the doi.org URL holds the full one, by which the paper
        # is recognised. The DOI is kept as written.
        doi = normalize_doi(urls[0]) or doi
    keep_written_doi(csl, written_doi, doi)
    withdrawn, tldr, area = ris_openreview(tags)
    return ris_withdrawn(PaperRecord(
        abstract=abstract,
        title=title,
        title_derived=title_derived,
        authors=authors,
        venue=venue,
        year=year,
        keywords=keywords,
        url=urls[0] if urls else None,
        openreview_id=openreview_forum_in(urls),
        arxiv_id=arxiv_id,
        doi=doi,
        source=f"{source}:{item.start}",
        date=date,
        withdrawn=withdrawn,
        tldr=tldr or None,
        primary_area=area or None,
        kind=bibtex.get("@type") or _KINDS.get(kind_code, kind_code.lower() or None),
        citekey=record_key(tags, tool, extra),
        aliases=ris_aliases(tags),
        csl=csl,
        extra=extra,
        note=user_note,
        tags=user_tags,
        tags_rewritten=tags_rewritten,
    ), tags)


_TEX_ABSTRACT = f"{TEX_PREFIX}abstract:"


def _tex_abstract(item: _Record) -> tuple[str, list[str]]:
    """The TeX abstract our export wrote in a ``tex.abstract`` note, one paragraph a line,
    and the record's lines without its continuation lines (which rispy takes for notes).
    """
    paragraphs: list[str] = []
    rest: list[str] = []
    reading = False
    for line, (tag, value) in zip(item.lines, item.tags, strict=True):
        if tag is not None:
            reading = tag == "N1"
            if reading:
                note = fold_lines(value)
                reading = note.startswith(_TEX_ABSTRACT)
            if reading and not paragraphs:
                paragraphs.append(note[len(_TEX_ABSTRACT):].strip())
        elif reading:
            if line.strip():
                paragraphs.append(fold_lines(line))
            continue
        rest.append(line)
    return "\n\n".join(paragraphs), rest


def _abstract(item: _Record, tag: str) -> str:
    """The value of ``tag`` with its continuation lines, keeping paragraph breaks.

    rispy joins continuation lines with spaces, which runs the sections of a structured
    abstract ("Methods: …", "Results: …") together. A continuation line starts a new paragraph
    when the line before it ends a sentence or is a short heading, and is otherwise a wrapped
    line of the same paragraph.
    """
    pieces: list[str] = []
    for line, (found, value) in zip(item.lines, item.tags, strict=True):
        if found is not None:
            if pieces:
                break
            if found == tag:
                pieces.append(fold_lines(value))
        elif pieces:
            pieces.append(fold_lines(line))
    return paragraphs(pieces)
