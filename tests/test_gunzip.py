"""Gzipped files unpacked as the gzip module unpacks them, a piece at a time and, for a
file read a line at a time, on a thread of its own: members one after another, padding
after the last, a file cut short refused as damaged, a reader that stops early stopping
the thread."""

from __future__ import annotations

import gzip
import threading
from pathlib import Path

import pytest

from reader.sources import ImportFormatError
from reader.sources.file_chunks import file_chunks as _chunks
from reader.sources.textfile import open_text


def _lines(n: int, tag: str) -> bytes:
    return b"".join(f'{{"id": "{tag}{i}", "title": "Paper {i} of {tag}"}}\n'.encode()
                    for i in range(n))


@pytest.mark.parametrize("ahead", [False, True])
def test_members_and_padding_unpack_as_gzip_does(tmp_path: Path, ahead: bool) -> None:
    first, second = _lines(5000, "a"), _lines(7000, "b")
    path = tmp_path / "two.jsonl.gz"
    path.write_bytes(gzip.compress(first) + gzip.compress(second) + b"\0" * 512)
    got = b"".join(_chunks(path, 1 << 16, ahead=ahead))
    with gzip.open(path) as unpacked:
        assert got == unpacked.read() == first + second


@pytest.mark.parametrize("ahead", [False, True])
def test_a_file_cut_short_is_refused_as_damaged(tmp_path: Path, ahead: bool) -> None:
    packed = gzip.compress(_lines(20000, "c"))
    path = tmp_path / "cut.jsonl.gz"
    path.write_bytes(packed[: len(packed) // 2])
    with pytest.raises(ImportFormatError, match="a damaged gzip file"):
        b"".join(_chunks(path, 1 << 16, ahead=ahead))


def test_lines_read_ahead_are_the_files_lines_and_a_reader_may_stop(tmp_path: Path) -> None:
    text = _lines(30000, "d")
    path = tmp_path / "many.jsonl.gz"
    path.write_bytes(gzip.compress(text))
    lines = list(open_text(path, check=False).byte_lines())
    assert lines == text.rstrip(b"\n").split(b"\n")
    before = {t.name for t in threading.enumerate()}
    reading = open_text(path, check=False).byte_lines()
    assert next(reading).startswith(b'{"id": "d0"')
    reading.close()  # a reader that stops: the unpacking thread stops with it
    assert "reader-unpack" not in {t.name for t in threading.enumerate()} - before
