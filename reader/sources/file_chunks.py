"""A file's bytes as an import reads them: unpacked when gzipped, counted against the
bounds of :mod:`reader.sources.limits`, and only from a regular file (a pipe may never end).
"""

from __future__ import annotations

import stat
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from reader.sources import ImportFormatError
from reader.sources.limits import megabytes, record_limit, record_refusal, whole_limit
from reader.sources.unpack import GZIP_ERRORS, unpacking

__all__ = ["Bound", "file_chunks", "refuse_special"]


def refuse_special(path: Path) -> None:
    """Refuse what is not a regular file before opening it: a directory, and a named pipe,
    socket or device, which may never end (a pipe with no writer blocks the open itself)."""
    try:
        mode = path.stat().st_mode
    except OSError as exc:
        raise ImportFormatError(f"{path}: cannot read: {exc.strerror or exc}") from exc
    if stat.S_ISDIR(mode):
        raise ImportFormatError(f"{path}: is a directory; name the files to import")
    if not stat.S_ISREG(mode):
        kind = "a named pipe" if stat.S_ISFIFO(mode) else "a device or socket"
        raise ImportFormatError(
            f"{path}: {kind}, not a regular file; reader imports files (save it to one first)"
        )


class Bound:
    """Counts the decompressed bytes of a file as they are read: the line being read (a
    record is at most a line) and, for a file read whole, all of them; over either bound
    the read stops with a refusal naming it."""

    def __init__(self, path: Path, whole: bool) -> None:
        self.path = path
        self.record = record_limit()
        self.whole = whole_limit() if whole else None
        self.total = 0
        self.run = 0  # bytes since the last line end
        self.line = 1  # the line the run is on

    @property
    def step(self) -> int:
        """The most bytes to read at once: a line inside one read is then within bounds."""
        return self.record

    def count(self, data: bytes) -> None:
        """Count one read; raise over a bound."""
        self.total += len(data)
        if self.whole is not None and self.total > self.whole:
            raise ImportFormatError(
                f"{self.path}: over the {megabytes(self.whole)} limit for a file of this "
                "format, which is read whole (unpacked, it is larger still); the file is "
                "refused (READER_FILE_LIMIT_MB raises the limit)"
            )
        last = max(data.rfind(b"\n"), data.rfind(b"\r"))
        if last < 0:
            self.run += len(data)
        else:
            ends = [i for i in (data.find(b"\n"), data.find(b"\r")) if i >= 0]
            if self.run + min(ends) > self.record:
                self._refuse()
            self.line += data.count(b"\n") or data.count(b"\r")
            self.run = len(data) - last - 1
        if self.run > self.record:
            self._refuse()

    def _refuse(self) -> None:
        raise ImportFormatError(record_refusal(self.path, self.line, self.record))


def file_chunks(path: Path, size: int, whole: bool = False) -> Iterator[bytes]:
    """The file's bytes (unpacked when gzipped), ``size`` at a time (less when the bound on
    one record is lower), within the bounds of :mod:`reader.sources.limits`."""
    refuse_special(path)
    bound = Bound(path, whole)
    size = min(size, bound.step)
    try:
        with path.open("rb") as raw:
            gzipped = raw.read(2) == b"\x1f\x8b"
            raw.seek(0)
            # (Unpacking on a thread of its own made reading a conference's gzipped reviews
            # alone 20% faster, but not its import: the reading and the writing processes
            # keep both cores busy already.)
            yield from _read(unpacking(raw) if gzipped else raw, size, bound)
    except GZIP_ERRORS as exc:
        raise ImportFormatError(f"{path}: a damaged gzip file: {exc}") from exc
    except OSError as exc:
        raise ImportFormatError(f"{path}: cannot read: {exc.strerror or exc}") from exc


def _read(source: BinaryIO, size: int, bound: Bound) -> Iterator[bytes]:
    """``source``'s bytes, ``size`` at a time, counted against the bound."""
    while data := source.read(size):
        bound.count(data)
        yield data
