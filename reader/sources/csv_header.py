"""A paper table's header: which line it is, under which delimiter its cells are read, and
which record field each column stands for (by the synonyms of
:data:`reader.sources.table_fields.SYNONYMS`, as CSV and JSON tables name them)."""

from __future__ import annotations

import csv
import re

from reader.sources import ImportFormatError
from reader.sources.table_fields import FIELD_OF as _FIELD_OF

__all__ = [
    "DELIMITERS", "cells_of", "choose_delimiter", "column_field", "excel_separator", "header_key",
    "looks_like_header", "table_problem",
]

DELIMITERS = (",", ";", "\t", "|")
# Enough of the file for the sniffer to see a few rows, little enough to stay fast.
_SNIFF_BYTES = 64 * 1024
# A header cell is a short label; a longer one means the line is prose, not a header.
_MAX_HEADER_CELL = 60
_SPACES = re.compile(r"\s+")
# Excel's line naming the delimiter above the header ("sep=;"), which it writes and reads
# where the system's list separator is not the comma.
_SEP_LINE = re.compile(r"\s*sep=(.)\s*", re.IGNORECASE)


def excel_separator(line: str) -> str | None:
    """The delimiter an Excel ``sep=;`` line names, or None for any other line."""
    match = _SEP_LINE.fullmatch(line)
    return match.group(1) if match else None


def column_field(header: str) -> str | None:
    """The record field a column header stands for (``"Author(s)"`` → ``"authors"``)."""
    return _FIELD_OF.get(header_key(header))


def header_key(header: str) -> str:
    """A header as the synonyms are written: lower case, ``_`` as a space, single-spaced."""
    return _SPACES.sub(" ", header.replace("_", " ")).strip().strip("\"'").strip().lower()


def looks_like_header(line: str) -> bool:
    """Whether ``line`` is a CSV header: two or more short cells, one naming a title or abstract."""
    for delimiter in DELIMITERS:
        cells = cells_of(line, delimiter)
        if len(cells) < 2 or any(len(cell) > _MAX_HEADER_CELL for cell in cells):
            continue
        if {column_field(cell) for cell in cells} & {"title", "abstract"}:
            return True
    return False


def cells_of(line: str, delimiter: str) -> list[str]:
    """The cells of one line, read with ``delimiter``."""
    try:
        return next(csv.reader([line], delimiter=delimiter, strict=False), [])
    except csv.Error:
        return []


def choose_delimiter(
    text: str, header_line: str, source: str, named: str | None = None
) -> tuple[str, list[str]]:
    """The delimiter under which the header names a title or abstract column, and the header.

    The one the file ``named`` (Excel's ``sep=`` line) is tried first, then the sniffer's
    guess; it is easily fooled by commas in abstracts, so every other common delimiter is
    tried after it, and the header decides.
    """
    candidates: list[str] = [named] if named else []
    try:
        sniffed = csv.Sniffer().sniff(text[:_SNIFF_BYTES], delimiters="".join(DELIMITERS))
        candidates += [sniffed.delimiter] if sniffed.delimiter not in candidates else []
    except csv.Error:
        pass  # too little or too irregular text to guess from; the header decides alone
    candidates += [d for d in DELIMITERS if d not in candidates]
    widest: list[str] = []
    for delimiter in candidates:
        cells = cells_of(header_line, delimiter)
        if {column_field(cell) for cell in cells} & {"title", "abstract"}:
            return delimiter, cells
        if len(cells) > len(widest):
            widest = cells
    names = ", ".join(repr(cell.strip()[:40]) for cell in widest[:20]) or "none"
    raise ImportFormatError(
        f"{source}: not a paper table: no title or abstract column in the header "
        f"(columns found: {names})"
    )


def table_problem(text: str, source: str) -> str | None:
    """Why ``text``, which reads as a table (a first line of two or more short cells and
    the next, if any, of as many, under one delimiter), is no paper table: its columns
    found, as :func:`choose_delimiter` refuses it, which says a title or abstract column is
    what a paper needs. None for text that is no table (prose, an abstract list), whose
    refusal is another's to say."""
    lines = [line for line in text.replace("\r", "\n").split("\n")[:20] if line.strip()]
    for delimiter in DELIMITERS:
        cells = cells_of(lines[0], delimiter) if lines else []
        if len(cells) < 2 or any(len(cell) > _MAX_HEADER_CELL for cell in cells):
            continue
        if len(lines) == 1 or len(cells_of(lines[1], delimiter)) == len(cells):
            try:
                choose_delimiter(text, lines[0], source)
            except ImportFormatError as exc:
                return str(exc)
            return None
    return None
