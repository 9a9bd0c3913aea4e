"""How much of one input reader takes on: the bounds every file is read within.

A file is counted as it is read, in decompressed bytes, so that a small gzip file that
unpacks to gigabytes is refused at the bound, not after it has been unpacked:

- one record: no line (and no JSON array item, no abstract-list paragraph) may be longer
  than :func:`record_limit`; a record is at most a line in the line formats, and a longer
  one is a bomb or a file that is not a list of papers;
- a file read whole (the formats that are not read a record at a time) at most
  :func:`whole_limit`;
- one field of a record (a title, an abstract, a note) at most :func:`field_limit`
  characters: such a record is skipped, named;
- nesting (JSON arrays and objects, BibTeX braces) at most :data:`DEPTH_MAX` deep.

The first three can be raised (or lowered) for one run with ``READER_RECORD_LIMIT_MB``,
``READER_FILE_LIMIT_MB`` and ``READER_FIELD_LIMIT_MB``.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from reader.models import PaperRecord

__all__ = [
    "DEPTH_MAX", "field_limit", "megabytes", "record_limit", "record_refusal", "whole_limit",
    "within_field_limit",
]

MB = 1 << 20

#: One record, in decompressed bytes (the longest real ones, an OpenReview paper with
#: every review, are under 100 KB).
RECORD_MB = 16.0
#: A file read whole, in decompressed bytes: its text is held, and parsed, at once.
WHOLE_MB = 96.0
#: One field of a record, in characters (the longest real abstracts are a few thousand;
#: an abstract of 5 MB is still kept).
FIELD_MB = 8.0
#: Nesting depth of JSON values and BibTeX braces (real records nest a handful deep).
DEPTH_MAX = 64


def _limit(variable: str, default: float) -> int:
    """A bound in bytes: ``variable`` (megabytes, fractions allowed) when set, else the
    default."""
    value = os.environ.get(variable, "").strip()
    try:
        megs = float(value) if value else default
    except ValueError:
        megs = default
    return max(int(megs * MB), 1)


def record_limit() -> int:
    """The most decompressed bytes one record (one line) may take."""
    return _limit("READER_RECORD_LIMIT_MB", RECORD_MB)


def whole_limit() -> int:
    """The most decompressed bytes of a file read whole."""
    return _limit("READER_FILE_LIMIT_MB", WHOLE_MB)


def field_limit() -> int:
    """The most characters one field of a record may hold."""
    return _limit("READER_FIELD_LIMIT_MB", FIELD_MB)


def megabytes(size: int) -> str:
    """``16 MB``, ``0.5 MB``: a bound as messages say it."""
    return f"{size / MB:g} MB"


def record_refusal(source: object, line: int, limit: int) -> str:
    """The refusal of a file holding a record over the bound, naming where it starts."""
    return (
        f"{source}: the record at line {line:,} is over the {megabytes(limit)} limit for one "
        f"record; the file is refused (READER_RECORD_LIMIT_MB raises the limit)"
    )


#: How much of a refused JSON file is looked at for nesting (a record that deep shows it
#: long before that).
_DEPTH_LOOKED_AT = 1 << 20


def nests_too_deeply(text: str) -> bool:
    """Whether the JSON at the start of ``text`` nests its brackets deeper than
    :data:`DEPTH_MAX` (brackets inside strings not counted): why no format took it."""
    depth = 0
    in_string = escaped = False
    for char in text[:_DEPTH_LOOKED_AT]:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > DEPTH_MAX:
                return True
        elif char in "]}":
            depth -= 1
    return False


def within_field_limit(
    records: Iterable[PaperRecord], problems: list[str]
) -> Iterator[PaperRecord]:
    """The records whose every field is within the bound on one field; each other one is
    skipped with a problem line naming the field (a 100,000-line title is no title)."""
    limit = field_limit()
    for record in records:
        name, size = _largest_field(record)
        if size > limit:
            problems.append(
                f"{record.source or 'a record'}: its {name} is {size:,} characters, over the "
                f"{megabytes(limit)} limit for one field; skipped"
            )
            continue
        yield record


def _largest_field(record: PaperRecord) -> tuple[str, int]:
    """The name and length of the record's longest text field (values of the source's own
    fields included)."""
    sizes = {
        "abstract": len(record.abstract),
        "title": len(record.title),
        "note": len(record.note or ""),
        "tldr": len(record.tldr or ""),
        "venue": len(record.venue or ""),
        "author list": sum(map(len, record.authors)),
        "keywords": sum(map(len, record.keywords)),
    }
    for fields in (record.csl, *record.extra.values()):
        for name, value in fields.items():
            if isinstance(value, str):
                sizes[str(name)] = max(sizes.get(str(name), 0), len(value))
    name = max(sizes, key=sizes.__getitem__)
    return name, sizes[name]
