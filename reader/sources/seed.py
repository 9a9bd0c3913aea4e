"""Plain-text abstract lists: a header line naming venue and year, then one abstract per
blank-line-separated paragraph, with no titles (the format of the ICLR 2026 lists)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from reader.models import PaperRecord
from reader.sources import ImportFormatError, ParseResult
from reader.text.render import to_plain
from reader.text.sanitize import clean_imported
from reader.text.titles import derive_title

_YEAR = re.compile(r"(?<!\d)(19[5-9]\d|20\d\d)(?!\d)")
# A venue is a Latin token with at least two letters and a capital: ICLR, NeurIPS, ACL'24 …
_VENUE = re.compile(r"[A-Za-z][A-Za-z0-9&\-]*[A-Za-z0-9]")
_BLANK = re.compile(r"\n[ \t\u3000]*\n")
# A header is short; a first paragraph longer than this is an abstract, not a header.
_MAX_HEADER = 200
# Derived titles are kept whole enough for a citation; lists cut them to their width.
TITLE_MAX = 160


def parse_header(line: str) -> tuple[str | None, int | None]:
    """Venue and year named by a header line such as ``ICLR 2026 论文列表``."""
    year_match = _YEAR.search(line)
    if not year_match:
        return None, None
    year = int(year_match.group(1))
    candidates = [
        m
        for m in _VENUE.finditer(line)
        if any(c.isupper() for c in m.group(0)) and not m.group(0).isdigit()
    ]
    if not candidates:
        return None, year
    # The venue is the capitalised token nearest the year ("Accepted papers, ACL 2024").
    nearest = min(
        candidates,
        key=lambda m: min(abs(m.end() - year_match.start()), abs(m.start() - year_match.end())),
    )
    return nearest.group(0), year


def looks_like_abstract_list(text: str) -> bool:
    """Whether a text reads as prose paragraphs (with or without a header line)."""
    sample = text[:20_000]
    if len(sample.split()) < 8:
        return False
    # Prose is mostly words; data formats are mostly punctuation and short tokens.
    letters = sum(c.isalpha() or c.isspace() for c in sample)
    return letters / max(1, len(sample)) > 0.8


def parse(text: str, source: str) -> ParseResult:
    """Records of a plain-text abstract list; ``source`` names the file in messages."""
    return ParseResult(list(records(text, source)))


def records(text: str, source: str) -> Iterator[PaperRecord]:
    """The records of a plain-text abstract list, one by one."""
    text = clean_imported(text)
    if not text.strip():
        raise ImportFormatError(f"{source}: the file is empty")
    venue: str | None = None
    year: int | None = None
    line_no = 1
    seen_header = False
    for block, start_line in _paragraphs(text):
        line_no = start_line
        if not seen_header:
            seen_header = True
            if "\n" not in block and len(block) <= _MAX_HEADER:
                venue, year = parse_header(block)
                if venue or year:
                    continue
        abstract = " ".join(line.strip() for line in block.splitlines() if line.strip())
        if not abstract:
            continue
        yield PaperRecord(
            abstract=abstract,
            title=derive_title(to_plain(abstract), max_len=TITLE_MAX),
            title_derived=True,
            venue=venue,
            year=year,
            source=f"{source}:{line_no}",
        )


def _paragraphs(text: str) -> Iterator[tuple[str, int]]:
    """Blank-line separated blocks of ``text`` with the line each starts on."""
    block: list[str] = []
    start = 1
    for number, line in enumerate(text.split("\n"), start=1):
        if line.strip(" \t\u3000"):
            if not block:
                start = number
            block.append(line)
        elif block:
            yield "\n".join(block).strip(), start
            block = []
    if block:
        yield "\n".join(block).strip(), start
