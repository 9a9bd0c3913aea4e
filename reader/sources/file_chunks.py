"""A file's bytes as an import reads them: unpacked when gzipped (on a thread of its own
for a file read a line at a time), counted against the bounds of
:mod:`reader.sources.limits`, and only from a regular file (a pipe may never end).
"""

from __future__ import annotations

import gzip
import queue
import stat
import threading
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from reader.sources import ImportFormatError
from reader.sources.limits import megabytes, record_limit, record_refusal, whole_limit

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


def file_chunks(
    path: Path, size: int, whole: bool = False, *, ahead: bool = False
) -> Iterator[bytes]:
    """The file's bytes (unpacked when gzipped), ``size`` at a time (less when the bound on
    one record is lower), within the bounds of :mod:`reader.sources.limits`; with ``ahead``,
    a gzipped file is unpacked on a thread of its own, a few pieces ahead of the reader."""
    refuse_special(path)
    bound = Bound(path, whole)
    size = min(size, bound.step)
    try:
        with path.open("rb") as raw:
            gzipped = raw.read(2) == b"\x1f\x8b"
            raw.seek(0)
            if gzipped and ahead:
                # Unpacked on another thread, a large piece at a time (zlib lets go of the
                # interpreter as it inflates): a conference's reviews take more than a
                # second to unpack, now beside their decoding.
                yield from _ahead(_gunzip(raw, min(_UNPACKED, bound.step), bound))
            elif gzipped:
                yield from _gunzip(raw, size, bound)
            else:
                yield from _read(raw, size, bound)
    except (EOFError, zlib.error, gzip.BadGzipFile) as exc:
        raise ImportFormatError(f"{path}: a damaged gzip file: {exc}") from exc
    except OSError as exc:
        raise ImportFormatError(f"{path}: cannot read: {exc.strerror or exc}") from exc


def _read(source: BinaryIO, size: int, bound: Bound) -> Iterator[bytes]:
    """``source``'s bytes, ``size`` at a time, counted against the bound."""
    while data := source.read(size):
        bound.count(data)
        yield data


def _gunzip(raw: BinaryIO, size: int, bound: Bound) -> Iterator[bytes]:
    """A gzip file's unpacked bytes, at most ``size`` at a time (a bomb is never unpacked
    further than its reader asks), member after member as gzip reads them; a file that
    ends inside a member is damaged (EOFError, as the gzip module says it)."""
    unpack = zlib.decompressobj(wbits=31)
    inside = False  # whether the current member has begun
    while packed := raw.read(size):
        while packed:
            if not inside:
                # Zero bytes between members, or after the last, are padding (as gzip has it).
                packed = packed.lstrip(b"\0")
                if not packed:
                    break
            inside = True
            data = unpack.decompress(packed, size)
            if data:
                bound.count(data)
                yield data
            if unpack.eof:
                # The next member, if any.
                packed, inside = unpack.unused_data, False
                unpack = zlib.decompressobj(wbits=31)
            else:
                packed = unpack.unconsumed_tail
    if inside:
        raise EOFError("Compressed file ended before the end-of-stream marker was reached")


#: Chunks read ahead of their reader (a few MB held at most).
_AHEAD = 2
#: The most a gzipped file is unpacked at once: large pieces, so that the unpacking thread
#: seldom waits for the interpreter (a conference's decoding holds it between them).
_UNPACKED = 4 << 20


def _ahead(chunks: Iterator[bytes]) -> Iterator[bytes]:
    """``chunks``, made on a thread of their own up to :data:`_AHEAD` ahead of the reader;
    what making them raised is raised here. A reader that stops early stops the thread."""
    ready: queue.Queue[tuple[bytes | None, BaseException | None]] = queue.Queue(_AHEAD)
    stop = threading.Event()

    def put(item: tuple[bytes | None, BaseException | None]) -> None:
        while not stop.is_set():
            try:
                ready.put(item, timeout=0.1)
                return
            except queue.Full:
                continue

    def make() -> None:
        try:
            for data in chunks:
                put((data, None))
                if stop.is_set():
                    return
            put((None, None))
        except BaseException as exc:  # noqa: BLE001  (handed to the reader, which raises it)
            put((None, exc))

    maker = threading.Thread(target=make, name="reader-unpack", daemon=True)
    maker.start()
    try:
        while True:
            data, error = ready.get()
            if error is not None:
                raise error
            if data is None:
                return
            yield data
    finally:
        stop.set()
        maker.join()
