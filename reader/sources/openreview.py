"""OpenReview submissions: JSON lines or a JSON array of notes (or an API ``{"notes": […]}``
response), each ``{id, cdate, withdrawn, content: {title, abstract, …}}``.

``content`` comes in two shapes: plain values (API v1 and most dumps, ``content.title``) and
API v2's wrapped values (``content.title.value``); each field may be either.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

from reader.models import PaperRecord
from reader.sources import ParseResult
from reader.sources.jsonfields import (
    clean_abstract,
    clean_title,
    date_from_epoch_ms,
    string_list,
    venue_from_text,
)
from reader.sources.jsonload import JsonRecord, iter_lines, load_records
from reader.sources.jsonsniff import (
    Outcome,
    build_result,
    convert_records,
    finish_record,
    record_label,
)
from reader.text.identifiers import openreview_id, openreview_url

# The TL;DR has been spelled differently across venues and API versions.
_TLDR_KEYS = ("tldr", "TLDR", "TL;DR", "one-sentence_summary")
# venueid looks like "ICLR.cc/2026/Conference" (or ".../Withdrawn_Submission").
_VENUEID = re.compile(r"^([A-Za-z][A-Za-z0-9]*)[.]")
_VENUEID_YEAR = re.compile(r"/((?:19|20)\d\d)(?:/|$)")


def parse(text: str, source: str) -> ParseResult:
    """Records of an OpenReview JSON-lines or JSON-array text; ``source`` names the file."""
    return build_result(_unwrap_notes(load_records(text, source)), _convert)


def stream(text: str, source: str, problems: list[str]) -> tuple[Iterator[PaperRecord], int]:
    """The records of ``parse``, read one at a time as they are asked for (JSON lines;
    other layouts are read whole), and at most how many there are; problem lines are added
    to ``problems`` as their records are met."""
    lines = iter_lines(text, source)
    if lines is None:
        result = parse(text, source)
        problems.extend(result.problems)
        return iter(result.records), len(result.records)
    records, count = lines
    return convert_records(_unwrap_notes(records), _convert, problems), count


def _unwrap_notes(records: Iterable[JsonRecord]) -> Iterator[JsonRecord]:
    """The notes of an API response object in place of the object itself."""
    position = 0
    for record in records:
        value = record.value
        notes = value.get("notes") if isinstance(value, dict) else None
        if isinstance(notes, list) and "content" not in value:
            for note in notes:
                position += 1
                yield JsonRecord(
                    note, f"{record.file}#{position}", record.file, record.line, position
                )
        else:
            position += 1
            yield record._replace(position=position)


def _value(field: Any) -> Any:
    """A content field's value, whether plain (v1) or wrapped as ``{"value": …}`` (v2)."""
    if isinstance(field, dict):
        return field.get("value")
    return field


def _convert(record: JsonRecord) -> Outcome:
    """One note as a paper, or the problem that keeps it out."""
    note: dict[str, Any] = record.value
    content = note.get("content")
    if not isinstance(content, dict):
        content = {}
    raw_id = note.get("id")
    forum_id = openreview_id(raw_id) if isinstance(raw_id, str) else None

    venue_text = clean_title(_value(content.get("venue")))
    venue, year = venue_from_text(venue_text)
    venueid = clean_title(_value(content.get("venueid")))
    if venue is None and (match := _VENUEID.match(venueid)):
        venue = match.group(1)
    if year is None and (match := _VENUEID_YEAR.search(venueid)):
        year = int(match.group(1))
    created = date_from_epoch_ms(note.get("cdate")) or date_from_epoch_ms(note.get("tcdate"))
    if year is None and created:
        year = int(created[:4])

    tldr = ""
    for key in _TLDR_KEYS:
        tldr = clean_title(_value(content.get(key)))
        if tldr:
            break

    paper = PaperRecord(
        abstract=clean_abstract(_value(content.get("abstract"))),
        title=clean_title(_value(content.get("title"))),
        # Names come as display names ("Given Family"); v1 may also give one comma string.
        authors=string_list(_value(content.get("authors")), r"\s*,\s*"),
        venue=venue,
        year=year,
        keywords=string_list(_value(content.get("keywords")), r"\s*[,;]\s*"),
        url=openreview_url(forum_id) if forum_id else None,
        openreview_id=forum_id,
        date=created,
        withdrawn=_is_withdrawn(note, venue_text, venueid),
        tldr=tldr or None,
        primary_area=clean_title(_value(content.get("primary_area"))) or None,
        citekey=_bibtex_key(_value(content.get("_bibtex"))),
    )
    return finish_record(paper, record, record_label(record, ("id", "number")))


_BIBTEX_KEY = re.compile(r"@\w+\s*\{\s*([^,\s{}]+)\s*,")


def _bibtex_key(value: Any) -> str | None:
    """The key of the BibTeX entry OpenReview gives with a note (``_bibtex``), if any."""
    match = _BIBTEX_KEY.search(value) if isinstance(value, str) else None
    if not match or match.group(1).lower().startswith("anonymous"):
        return None  # a submission under review: its key names no author
    return match.group(1)


def _is_withdrawn(note: dict[str, Any], venue_text: str, venueid: str) -> bool:
    """Whether the note is a withdrawn submission, by its flag or by its venue."""
    flag = note.get("withdrawn")
    if flag is True or (isinstance(flag, str) and flag.strip().lower() == "true"):
        return True
    return "withdrawn" in venue_text.lower() or "withdrawn" in venueid.lower()
