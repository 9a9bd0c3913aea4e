"""Plain-text abstract lists: a header line naming venue and year, then one abstract per
blank-line-separated paragraph, with no titles (the format of the ICLR 2026 lists).

Any text could be read that way, so a text is taken for one only when it starts as the
lists do: its first line a header naming a venue and a year (``ICLR 2026 论文列表``), the
paragraphs after it prose, none of them starting as Markdown or code does (a heading, a
fence, a list item, a table row, a tag, a comment). A README, a source file or a file that
is one long line is refused with the reason; ``--format seed`` reads it as a list anyway.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from reader.models import PaperRecord
from reader.sources import ImportFormatError, ParseResult, Streamed
from reader.sources.limits import record_limit, record_refusal
from reader.sources.textfile import TextFile, cleaned_lines
from reader.text.render import to_plain
from reader.text.sanitize import clean_imported, visible
from reader.text.titles import derive_title

_YEAR = re.compile(r"(?<!\d)(19[5-9]\d|20\d\d)(?!\d)")
# A venue is a Latin token with at least two letters and a capital: ICLR, NeurIPS, ACL'24 …
_VENUE = re.compile(r"[A-Za-z][A-Za-z0-9&\-]*[A-Za-z0-9]")
_BLANK = re.compile(r"\n[ \t\u3000]*\n")
# A header is short; a first paragraph longer than this is an abstract, not a header.
_MAX_HEADER = 200
# Derived titles are kept whole enough for a citation; lists cut them to their width.
TITLE_MAX = 160

#: A paragraph longer than this is no abstract (the longest real ones are a few thousand
#: characters): it is skipped, named, rather than stored, indexed and sketched whole.
ABSTRACT_MAX = 100_000
#: How much of a text :func:`abstract_list_problem` reads: a dozen abstracts or more.
SAMPLE = 20_000
# What starts a Markdown heading, fence, rule or front matter, list item, table row, quote,
# HTML tag, docstring or comment; an abstract starts with a word.
_MARKUP = re.compile(
    r"(?:#|`{3}|~{3}|-{3}|[-*+•][ \t]|\d{1,3}[.)][ \t]|[|>]|<|//|/\*|%|\"{3}|'{3})"
)
_NOT_HEADER = "not a header naming a venue and a year"
_HEADER_LIKE = "the header of an abstract list does ('ICLR 2026 …')"
_QUOTE = 60


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
    """Whether a text starts as a plain-text abstract list does."""
    return abstract_list_problem(text) is None


def abstract_list_problem(text: str) -> str | None:
    """Why ``text`` does not start as a plain-text abstract list, or None when it does;
    only its first :data:`SAMPLE` characters are read."""
    sample = text[:SAMPLE].lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    blocks = ((lines or [""], line) for lines, line, _ in _paragraphs(sample.split("\n")))
    first = next(blocks, None)
    if first is None:
        return "it is empty"
    lines, _ = first
    header = lines[0].strip()
    if len(header) > _MAX_HEADER:
        return f"its first line is longer than {_MAX_HEADER} characters, {_NOT_HEADER}"
    if _MARKUP.match(header):
        return f"its first line ({_quote(header)}) is Markdown or code, {_NOT_HEADER}"
    venue, year = parse_header(header)
    if venue is None or year is None:
        return f"its first line ({_quote(header)}) names no venue and year, as {_HEADER_LIKE}"
    if len(lines) > 1:
        return f"its header ({_quote(header)}) is not followed by a blank line"
    abstracts = 0
    for lines, line in blocks:
        opening = lines[0].strip()
        if _MARKUP.match(opening):
            return f"line {line} ({_quote(opening)}) is Markdown or code, not an abstract"
        abstracts += 1
    if not abstracts:
        return f"its header ({_quote(header)}) is followed by no abstract"
    # Prose is mostly words; data formats are mostly punctuation and short tokens.
    letters = sum(c.isalpha() or c.isspace() for c in sample)
    if letters / len(sample) <= 0.8:
        return "it is mostly punctuation and digits, not prose"
    return None


def _quote(line: str) -> str:
    """A line of the file, shortened and made safe to show in a one-line message."""
    shown = line if len(line) <= _QUOTE else line[: _QUOTE - 1] + "…"
    return "'" + visible(shown) + "'"


def parse(text: str, source: str) -> ParseResult:
    """Records of a plain-text abstract list; ``source`` names the file in messages."""
    result = ParseResult()
    result.records = list(records(text, source, result.problems))
    return result


def records(
    text: str, source: str, problems: list[str] | None = None
) -> Iterator[PaperRecord]:
    """The records of a plain-text abstract list, one by one; a paragraph too long to be an
    abstract is skipped, with a line in ``problems``."""
    text = clean_imported(text)
    if not text or text.isspace():
        raise ImportFormatError(f"{source}: the file is empty")
    return _records(text.split("\n"), source, problems)


def stream_file(file: TextFile, source: str, problems: list[str]) -> Streamed:
    """The records of ``parse``, read from the file a paragraph at a time as they are asked
    for, and about how many there are (the paragraphs): a long list is never held whole,
    nor a paragraph longer than an abstract."""
    return _records(cleaned_lines(file.pieces()), source, problems), _count_paragraphs(file)


def _count_paragraphs(file: TextFile) -> int:
    """About how many paragraphs the file has: its blank lines, plus one."""
    found, tail = 1, ""
    for piece in file.pieces():
        # The tail is one character: a blank line across two pieces is counted once.
        window = tail + piece
        found += window.count("\n\n") + window.count("\n\r\n")
        tail = window[-1:]
    return found


def _records(
    lines: Iterable[str], source: str, problems: list[str] | None
) -> Iterator[PaperRecord]:
    """The records of the (cleaned) lines of an abstract list, one by one."""
    venue: str | None = None
    year: int | None = None
    seen_header = False
    for block, line_no, size in _paragraphs(lines, source):
        if block is None:
            # Left unread past the bound: a file of one 40 MB line is never held whole.
            seen_header = True
            if problems is not None:
                problems.append(
                    f"{source}:{line_no}: a paragraph of {size:,} characters, too long for "
                    f"an abstract (at most {ABSTRACT_MAX:,}); skipped"
                )
            continue
        text = "\n".join(block).strip()
        if not seen_header:
            seen_header = True
            if "\n" not in text and len(text) <= _MAX_HEADER:
                venue, year = parse_header(text)
                if venue or year:
                    continue
        abstract = " ".join(line.strip() for line in text.splitlines() if line.strip())
        if not abstract:
            continue
        if _only_links(abstract):
            # Read as an abstract, a link would become a paper titled by its URL.
            if problems is not None:
                problems.append(f"{source}:{line_no}: paper links, not an abstract ('reader "
                                "add' fetches papers by their links); skipped")
            continue
        yield PaperRecord(
            abstract=abstract,
            title=derive_title(to_plain(abstract), max_len=TITLE_MAX),
            title_derived=True,
            venue=venue,
            year=year,
            source=f"{source}:{line_no}",
        )


def _only_links(text: str) -> bool:
    """Whether every word of ``text`` is a paper's id or link (OpenReview, arXiv, DOI)."""
    if "/" not in text and ":" not in text:
        return False  # prose, at no cost: an id alone is taken for a link only with one
    from reader.sources.remote.ids import classify

    words = text.split()
    return all(classify(word) for word in words) and any("/" in w or ":" in w for w in words)


def _paragraphs(
    lines: Iterable[str], source: str | None = None
) -> Iterator[tuple[list[str] | None, int, int]]:
    """The lines of each blank-line separated block, with the line it starts on and its
    length in characters; a block longer than an abstract is not kept (None in place of its
    lines), and, reading the file ``source``, one longer than the bound on a record
    refuses the file as it is read."""
    block: list[str] = []
    start = size = 0
    kept = True
    limit = record_limit() if source is not None else None
    for number, line in enumerate(lines, start=1):
        if line.strip(" \t\u3000"):
            if not size and not block:
                start = number
            size += len(line)
            if limit is not None and size > limit:
                raise ImportFormatError(record_refusal(source, start, limit))
            kept = kept and size <= ABSTRACT_MAX
            if kept:
                block.append(line)
            else:
                block.clear()
        elif block or size:
            yield (block if kept else None), start, size
            block, size, kept = [], 0, True
    if block or size:
        yield (block if kept else None), start, size
