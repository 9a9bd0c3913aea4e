"""What a damaged write-ahead log still holds: its intact frames applied to a copy of the
database it belongs to, and the reader's marks read from that copy.

SQLite reads a log up to its first frame whose checksum fails, and drops every frame after
it: 64 bytes overwritten in the middle lose every change committed after them, though
their pages are still there, intact. Each frame's checksum is computed from the one before
it; checked against the checksum the frame before *records* (not the one it ought to have),
every intact frame is found as such, wherever the damage is. Those frames are applied here,
in order, to a copy of the database file, never to the library itself; what they make is
read, compared with the library, and brought back only as the user chooses
(:mod:`reader.library.recovery`).
"""

from __future__ import annotations

import shutil
import sqlite3
import struct
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["Salvaged", "SavedMarks", "marks_in", "read_marks", "salvage_log"]

_HEADER = 32
_FRAME_HEADER = 24
_MAGIC = (0x377F0682, 0x377F0683)


@dataclass(frozen=True, slots=True)
class Salvaged:
    """A database copy with a log's intact frames applied."""

    path: Path
    #: Frames applied, and frames of the log's generation passed over as damaged.
    applied: int
    damaged: int
    #: ``PRAGMA integrity_check``'s first line on the copy ("ok" when whole).
    check: str


@dataclass(slots=True)
class SavedMarks:
    """The papers and the reader's marks a database holds."""

    titles: dict[int, str] = field(default_factory=dict)
    starred: set[int] = field(default_factory=set)
    #: Paper id → when it was marked read.
    read: dict[int, str] = field(default_factory=dict)
    tags: dict[int, set[str]] = field(default_factory=dict)
    notes: dict[int, str] = field(default_factory=dict)


def _checksum(data: bytes, big_endian: bool, s0: int, s1: int) -> tuple[int, int]:
    """SQLite's log checksum of ``data`` (a multiple of 8 bytes), from ``(s0, s1)``."""
    words = struct.unpack(f"{'>' if big_endian else '<'}{len(data) // 4}I", data)
    for i in range(0, len(words), 2):
        s0 = (s0 + words[i] + s1) & 0xFFFFFFFF
        s1 = (s1 + words[i + 1] + s0) & 0xFFFFFFFF
    return s0, s1


def salvage_log(database: Path, log: Path, into: Path) -> Salvaged:
    """Copy ``database`` to ``into`` and apply the intact frames of ``log`` (its write-ahead
    log, kept aside) to the copy: frames of the log's generation (its salts) whose own
    checksum holds, in order, up to the last commit among them. Raises OSError when a file
    cannot be read or written, ValueError when ``log`` is not a write-ahead log."""
    data = log.read_bytes()
    if len(data) < _HEADER:
        raise ValueError("too short for a write-ahead log")
    magic, _version, page_size = struct.unpack(">III", data[:12])
    salts = data[16:24]
    if magic not in _MAGIC or page_size < 512 or page_size & (page_size - 1):
        raise ValueError("not a write-ahead log (its header is damaged)")
    big_endian = magic & 1 == 1
    shutil.copyfile(database, into)
    frame_size = _FRAME_HEADER + page_size
    first = struct.unpack(">II", data[24:32])
    previous: tuple[tuple[int, int], tuple[int, int]] = (first, first)
    pending: list[tuple[int, bytes]] = []
    applied = damaged = 0
    size_pages = 0
    with into.open("r+b") as out:
        for start in range(_HEADER, len(data) - frame_size + 1, frame_size):
            header = data[start:start + _FRAME_HEADER]
            page = data[start + _FRAME_HEADER:start + frame_size]
            recorded = struct.unpack(">II", header[16:24])
            # Seeded by what the frame before records, or (its record damaged) by what it
            # should have recorded.
            body = header[:8] + page
            got = _checksum(body, big_endian, *previous[0])
            intact = got == recorded or (
                previous[1] != previous[0]
                and _checksum(body, big_endian, *previous[1]) == recorded
            )
            previous = (recorded, got)
            if header[8:16] != salts:
                continue  # a frame of an earlier generation of the log, or a damaged one
            number, commit = struct.unpack(">II", header[:8])
            if not intact or number == 0:
                damaged += 1
                continue
            pending.append((number, page))
            if commit:
                for n, body in pending:
                    out.seek((n - 1) * page_size)
                    out.write(body)
                applied += len(pending)
                pending = []
                size_pages = commit
        if size_pages:
            out.truncate(size_pages * page_size)
    conn = sqlite3.connect(f"file:{into}?immutable=1", uri=True)
    try:
        row = conn.execute("PRAGMA integrity_check").fetchone()
        check = str(row[0]) if row else "no answer"
    except sqlite3.DatabaseError as exc:
        check = str(exc)
    finally:
        conn.close()
    return Salvaged(into, applied, damaged, check)


def marks_in(database: Path) -> SavedMarks:
    """The papers, stars, read marks, tags and notes a database file holds, read as far as
    it can be (a damaged copy may give some of them); opened read-only, changed in
    nothing."""
    conn = sqlite3.connect(f"file:{database}?immutable=1", uri=True)
    try:
        return read_marks(conn)
    finally:
        conn.close()


def read_marks(conn: sqlite3.Connection) -> SavedMarks:
    """What :func:`marks_in` reads, through an open connection (the library's own)."""
    marks = SavedMarks()
    queries = (
        ("SELECT id, title, starred, read_at FROM papers", _papers),
        ("SELECT paper_id, tag FROM tags", _tags),
        ("SELECT paper_id, body FROM notes", _notes),
    )
    for sql, take in queries:
        try:
            for row in conn.execute(sql):
                take(marks, row)
        except sqlite3.DatabaseError:
            continue  # that table is damaged in a copy: the others may not be
    return marks


def _papers(marks: SavedMarks, row: tuple[int, str, int, str | None]) -> None:
    paper_id, title, starred, read_at = row
    marks.titles[paper_id] = title
    if starred:
        marks.starred.add(paper_id)
    if read_at:
        marks.read[paper_id] = read_at


def _tags(marks: SavedMarks, row: tuple[int, str]) -> None:
    marks.tags.setdefault(row[0], set()).add(row[1])


def _notes(marks: SavedMarks, row: tuple[int, str]) -> None:
    if row[1].strip():
        marks.notes[row[0]] = row[1]
