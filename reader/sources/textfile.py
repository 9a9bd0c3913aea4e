"""A file's text read a stretch at a time, as :func:`reader.sources.read_text` reads it whole.

:func:`open_text` reads the file once to take its checksum and settle its encoding (UTF-8,
or Latin-1 with the same warning when any byte is not UTF-8), keeping none of it; the text
is then decoded again as it is asked for, so that a long list never sits in memory whole.
A file read a line at a time (JSON lines) need not be checked first: each line is decoded
as it is read, and a line that is not UTF-8 is read as Latin-1 and named.
Readers that work line by line take :func:`cleaned_lines`: the lines of
``clean_imported(text)``, cut where no cleaning reaches across.
"""

from __future__ import annotations

import codecs
import hashlib
import itertools
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from reader.import_summary import ReadRemark
from reader.sources import ImportFormatError
from reader.sources.file_chunks import file_chunks, refuse_special
from reader.sources.unpack import READ_ERRORS, unpacking
from reader.text.latin1 import latin1
from reader.text.sanitize import clean_imported

__all__ = [
    "TextFile", "cleaned_lines", "open_text", "read_bounded", "refuse_binary", "refuse_special"
]

#: Bytes read from the file at a time.
CHUNK = 1 << 20
_BOM = codecs.BOM_UTF8


@dataclass(frozen=True, slots=True)
class TextFile:
    """A text file whose checksum and encoding are known, read again as it is asked for."""

    path: Path
    sha256: str
    #: ``utf-8`` (a leading BOM dropped, as ``utf-8-sig`` does) or ``latin-1`` (read as
    #: Windows writes it: :mod:`reader.text.latin1`).
    encoding: str
    warnings: list[str]
    chunk: int = CHUNK
    #: How many lines the text has (a last one without its ``\n`` counted), counted as
    #: the file was read through, at no further cost.
    line_count: int = 0
    #: Whether the whole file was found to be in ``encoding``; if not (a file read a line
    #: at a time), :meth:`lines` reads a line that is not UTF-8 as Latin-1 and names it in
    #: ``problems``, and :meth:`pieces` (which only sniffs such a file) replaces it.
    checked: bool = True
    problems: list[str] = field(default_factory=list)

    def pieces(self) -> Iterator[str]:
        """The decoded text, a piece at a time (a character is never cut in two)."""
        if self.encoding == "latin-1":
            for data in file_chunks(self.path, self.chunk):
                yield latin1(data)
            return
        errors = "strict" if self.checked else "replace"
        pending = b""
        for data in _after_bom(file_chunks(self.path, self.chunk)):
            data = pending + data
            text, used = codecs.utf_8_decode(data, errors, False)
            pending = data[used:]
            if text:
                yield text
        if pending:
            yield codecs.utf_8_decode(pending, errors, True)[0]

    def lines(self) -> Iterator[str]:
        """The text's lines as ``text.split("\\n")`` has them, but for a last empty one, a
        line at a time; a leading BOM dropped. Each line is decoded alone: the bytes are
        split, which costs half of splitting the decoded text (a ``\\n`` byte is never
        part of another character, in UTF-8 as in Latin-1)."""
        for number, line in enumerate(self.byte_lines(), start=1):
            yield self.decoded(line, number)

    def byte_lines(self) -> Iterator[bytes]:
        """The lines of :meth:`lines` before they are decoded (``decoded`` makes each the
        line :meth:`lines` gives): for a reader that can take UTF-8 bytes itself."""
        chunks = file_chunks(self.path, self.chunk)
        if self.encoding != "latin-1":
            chunks = _after_bom(chunks)
        return _split_lines(chunks)

    def decoded(self, line: bytes, number: int) -> str:
        """Line ``number`` (from 1) of :meth:`byte_lines` as text; the first without a BOM
        (a Latin-1 file's read as "ï»¿" never is one)."""
        text = self._decoded(line, number)
        return text.removeprefix("\ufeff") if number == 1 else text

    def _decoded(self, line: bytes, number: int) -> str:
        """One line as text: in the file's encoding, or, in a file not checked whole, as
        Latin-1 where it is not UTF-8 (named in ``problems``)."""
        if self.checked:
            return latin1(line) if self.encoding == "latin-1" else line.decode(self.encoding)
        try:
            return line.decode("utf-8")
        except UnicodeDecodeError as exc:
            self.problems.append(ReadRemark(
                f"{self.path.name}:{number}: not valid UTF-8 (byte {exc.start + 1} of the "
                "line); read as Windows-1252 (Latin-1) — check accented letters and quotes"
            ))
            return latin1(line)

    def head(self) -> str:
        """The start of the text: its first piece."""
        return next(self.pieces(), "")

    def count_lines_starting(self, prefix: bytes) -> int:
        """How many lines start with ``prefix`` (after a ``\\n``, a lone ``\\r`` or at the
        start of the text), counted in the bytes: at most how many records start so."""
        marks = (b"\n" + prefix, b"\r" + prefix)
        found = 0
        keep = len(prefix)
        tail = b"\n"  # the start of the text starts a line
        for data in _after_bom(file_chunks(self.path, self.chunk)):
            # The tail is shorter than a mark: a mark it holds whole was counted already.
            window = tail + data
            found += sum(window.count(mark) for mark in marks)
            tail = window[max(len(window) - keep, 0):]
        return found


def open_text(path: Path, chunk: int = CHUNK, *, check: bool = True) -> TextFile:
    """Read a (possibly gzipped) file through once: its checksum, and whether it is UTF-8
    (else Latin-1, with the warning :func:`reader.sources.read_text` gives). Without
    ``check``, for a file read a line at a time, its lines are only counted: each is
    decoded as it is read (checking the whole of a conference's reviews first was a second
    of the import before anything could show)."""
    digest = hashlib.sha256()
    refuse_special(path)
    unread: list[OSError] = []

    def take_digest() -> None:
        try:
            with path.open("rb") as raw:
                while data := raw.read(chunk):
                    digest.update(data)
        except OSError as exc:
            unread.append(exc)

    # Taken beside the decoding, on the other core (hashing lets go of the interpreter):
    # the papers of a file wait for both, a quarter of a second per 300 MB each.
    hashing = threading.Thread(target=take_digest, name="reader-checksum", daemon=True)
    hashing.start()
    estimated = None if check else _estimated_lines(path)
    if estimated is not None:
        # A gzipped file read a line at a time: its lines are estimated, not counted, as
        # counting them meant unpacking the whole file once more before the first record
        # (1.3 s of a conference's reviews). Each line's bound is checked as it is read.
        hashing.join()
        if unread:
            error = unread[0]
            raise ImportFormatError(f"{path}: cannot read: {error.strerror or error}") from error
        return TextFile(path, digest.hexdigest(), "utf-8", [], chunk, estimated, check)
    encoding, warnings = "utf-8", []
    pending, done, lines, last = b"", 0, 0, b"\n"
    try:
        for data in _after_bom(file_chunks(path, chunk)):
            lines += data.count(b"\n")
            last = data[-1:] or last
            if not check:
                continue
            data = pending + data
            used = codecs.utf_8_decode(data, "strict", False)[1]
            pending = data[used:]
            done += used
        codecs.utf_8_decode(pending, "strict", True)
    except UnicodeDecodeError as exc:
        encoding = "latin-1"
        warnings.append(
            f"{path}: not valid UTF-8 (byte {done + exc.start}); read as Windows-1252 "
            "(Latin-1) — check accented letters and quotes"
        )
    finally:
        hashing.join()
    if unread:
        error = unread[0]
        raise ImportFormatError(f"{path}: cannot read: {error.strerror or error}") from error
    if encoding != "utf-8":  # (the count stopped with the decoding)
        lines, last = 0, b"\n"
        for data in file_chunks(path, chunk):
            lines, last = lines + data.count(b"\n"), data[-1:] or last
    return TextFile(path, digest.hexdigest(), encoding, warnings, chunk,
                    lines + (last != b"\n"), check)


#: How much of a gzipped file is unpacked to estimate its lines (a few dozen of the longest
#: records, and no more than the bound on one record holds at once).
_SAMPLE = 1 << 20


def _estimated_lines(path: Path) -> int | None:
    """About how many lines a gzipped file has, from its first few MB and the unpacked size
    its trailer gives (exact when the sample is the whole file); None when it is not
    gzipped or cannot be read so (then it is counted)."""
    try:
        with path.open("rb") as raw:
            if raw.read(2) != b"\x1f\x8b":
                return None
            raw.seek(-4, 2)
            # The unpacked size modulo 4 GiB (of the last member, were there several).
            unpacked = int.from_bytes(raw.read(4), "little")
            packed = raw.tell()
            raw.seek(0)
            sample = unpacking(raw).read(_SAMPLE)
            whole = len(sample) < _SAMPLE
    except READ_ERRORS:
        return None
    lines = sample.count(b"\n") + (not sample.endswith(b"\n") and bool(sample))
    if whole:
        return lines
    if unpacked < packed:  # the size wrapped past 4 GiB: a bomb, refused as it is read
        unpacked += 1 << 32
    return max(lines + 1, -(-unpacked * sample.count(b"\n") // len(sample)))


def _split_lines(chunks: Iterable[bytes]) -> Iterator[bytes]:
    """The lines of a file read in chunks, without their line ends."""
    rest = b""
    for data in chunks:
        rest += data
        if b"\n" not in data:
            continue
        *lines, rest = rest.split(b"\n")
        yield from lines
    if rest:
        yield rest


def lines_holding(
    path: Path, needle: bytes, stopped: Callable[[], bool] | None = None
) -> Iterator[bytes]:
    """The lines of a file (unpacked when gzipped) that hold ``needle``: one record looked
    up in a long list of JSON lines without decoding the others. Once ``stopped()`` is
    true (asked at every chunk read) no more are looked for."""
    chunks = file_chunks(path, CHUNK)
    if stopped is not None:
        chunks = itertools.takewhile(lambda _chunk: not stopped(), chunks)
    for line in _split_lines(chunks):
        if needle in line:
            yield line


def read_bounded(path: Path) -> tuple[bytes, str]:
    """A file's bytes, unpacked when gzipped, read whole within the bounds (a record, the
    whole), and the checksum of the file as it is on the disk."""
    digest = hashlib.sha256()
    refuse_special(path)
    try:
        with path.open("rb") as raw:
            while data := raw.read(CHUNK):
                digest.update(data)
    except OSError as exc:
        raise ImportFormatError(f"{path}: cannot read: {exc.strerror or exc}") from exc
    return b"".join(file_chunks(path, CHUNK, whole=True)), digest.hexdigest()


def _after_bom(chunks: Iterable[bytes]) -> Iterator[bytes]:
    """The chunks without a UTF-8 byte order mark at the very start."""
    started = b""
    chunks = iter(chunks)
    for data in chunks:
        started += data
        if len(started) >= len(_BOM) or not _BOM.startswith(started):
            break
    yield started.removeprefix(_BOM)
    yield from chunks


def cleaned_lines(pieces: Iterable[str]) -> Iterator[str]:
    """The lines of ``clean_imported(text)`` for the text the pieces make up, as
    ``.split("\\n")`` has them, one at a time.

    Each stretch cleaned ends at a line end (``\\n``, or a ``\\r`` that no ``\\n`` follows):
    a line end is never deleted and composes with nothing, so no cleaning reaches across
    it, and cleaning the stretches one by one gives what cleaning the whole gives.
    """
    rest = ""
    for piece in pieces:
        rest += piece
        # A "\r" at the very end may be the first half of a "\r\n": not a cut yet.
        cut = max(rest.rfind("\n"), rest.rfind("\r", 0, len(rest) - 1))
        if cut < 0:
            continue
        lines = clean_imported(rest[: cut + 1]).split("\n")
        rest = rest[cut + 1:]
        yield from lines[:-1]  # (the empty string after the last line end)
    yield from clean_imported(rest).split("\n")


#: How much of a file's start is looked at for a NUL byte, which no text has.
BINARY_SAMPLE = 8192
#: What a file that is no list of papers starts with, and what it is (a PDF may have no
#: NUL byte in its first kilobytes, and was refused as "Markdown or code").
_DOCUMENTS = ((b"%PDF-", "a PDF"), (b"PK\x03\x04", "a zip archive (or a Word or ODF document)"),
              (b"{\\rtf", "an RTF document"))


def refuse_binary(path: Path, data: bytes) -> None:
    """Refuse a file whose first bytes say it is no text: a PDF, an archive, a binary."""
    for start, what in _DOCUMENTS:
        if data.startswith(start):
            raise ImportFormatError(
                f"{path}: {what}, not a list of papers (reader imports lists of abstracts "
                "and references: export them from the tool the file came from)"
            )
    at = data.find(b"\x00", 0, BINARY_SAMPLE)
    if at >= 0:
        # Where: a text file with one stray NUL is as refused as a binary, and its line is
        # what the user mends.
        line = data.count(b"\n", 0, at) + 1
        raise ImportFormatError(
            f"{path}: a binary file, not a list of papers (a NUL byte, which no text has, "
            f"on line {line})"
        )
