"""A file's records read to the end, as an import reads them (:func:`reader.sources.stream_file`),
for tests that look at what a file gives rather than at what the library makes of it."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from reader.models import PaperRecord
from reader.sources import stream_file


@dataclass(frozen=True, slots=True)
class ParsedFile:
    """The records read from one file, the format they were read as, and what went wrong."""

    path: Path
    format: str
    records: list[PaperRecord]
    problems: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    sha256: str = ""


def parse_file(path: Path, fmt: str | None = None) -> ParsedFile:
    """Read one file in the given format, or the format detected from its content, to its
    last record (the problems are those of the whole file only once all are read)."""
    streamed = stream_file(Path(path), fmt)
    records = list(streamed.records)
    return ParsedFile(
        streamed.path, streamed.format, records, streamed.problems, streamed.warnings,
        streamed.sha256,
    )
