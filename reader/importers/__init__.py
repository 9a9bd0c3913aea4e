"""Readers for the file formats reader imports, and the choice between them.

Each importer turns a file into :class:`~reader.models.PaperRecord` objects and raises
:class:`ImportFormatError` with the file and line when the input is not what it claims.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from reader.models import PaperRecord


class ImportFormatError(Exception):
    """A file could not be read as a list of papers; the message names file and line."""


@dataclass(slots=True)
class ParseResult:
    """What a reader made of a text: good records, and one line per bad one.

    A problem names the file and the line or record (``bad.bib:112: entry 'smith2020' has no
    closing brace``); the records around it are kept.
    """

    records: list[PaperRecord] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class ParsedFile:
    """The records read from one file and the format they were read as."""

    path: Path
    format: str
    records: list[PaperRecord]
    problems: list[str] = field(default_factory=list)


def read_text(path: Path) -> str:
    """Read a text file as UTF-8 (with or without BOM), with a clear error otherwise."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ImportFormatError(f"{path}: cannot read: {exc.strerror or exc}") from exc
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ImportFormatError(
            f"{path}: not UTF-8 text (byte {exc.start}); save it as UTF-8 and import again"
        ) from exc


#: Formats recognised by their content; only those in READERS can be imported yet.
_SIGNATURES = (
    ("json", re.compile(r"\A\s*[\[{]")),
    ("bibtex", re.compile(r"\A\s*(%[^\n]*\n\s*)*@\w+\s*[{(]")),
    ("ris", re.compile(r"\A\s*TY  - ")),
    ("xml", re.compile(r"\A\s*<")),
)
READERS = ("seed",)
_FORMAT_NAMES = {"json": "JSON", "bibtex": "BibTeX", "ris": "RIS", "xml": "XML"}


def detect_format(text: str) -> str:
    """The format a text is written in, judged from its first characters."""
    for name, signature in _SIGNATURES:
        if signature.match(text[:4096]):
            return name
    return "seed"


def parse_file(path: Path, fmt: str | None = None) -> ParsedFile:
    """Read one file in the given format, or the format detected from its content."""
    from reader.importers import seed

    text = read_text(path)
    fmt = fmt or detect_format(text)
    if fmt not in READERS:
        raise ImportFormatError(
            f"{path}: looks like {_FORMAT_NAMES.get(fmt, fmt)} data, which this "
            f"version of reader cannot import yet (it reads plain-text abstract lists)"
        )
    records: Iterator[PaperRecord] = seed.parse(text, str(path))
    return ParsedFile(path, fmt, list(records))
