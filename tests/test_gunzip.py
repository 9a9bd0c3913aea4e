"""Gzipped files unpacked a piece at a time, as the gzip module unpacks them whole: members
one after another, padding after the last, a file cut short refused as damaged."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from reader.sources import ImportFormatError
from reader.sources.file_chunks import file_chunks as _chunks


def _lines(n: int, tag: str) -> bytes:
    return b"".join(f'{{"id": "{tag}{i}", "title": "Paper {i} of {tag}"}}\n'.encode()
                    for i in range(n))


def test_members_and_padding_unpack_as_gzip_does(tmp_path: Path) -> None:
    first, second = _lines(5000, "a"), _lines(7000, "b")
    path = tmp_path / "two.jsonl.gz"
    path.write_bytes(gzip.compress(first) + gzip.compress(second) + b"\0" * 512)
    got = b"".join(_chunks(path, 1 << 16))
    with gzip.open(path) as unpacked:
        assert got == unpacked.read() == first + second


def test_a_file_cut_short_is_refused_as_damaged(tmp_path: Path) -> None:
    packed = gzip.compress(_lines(20000, "c"))
    path = tmp_path / "cut.jsonl.gz"
    path.write_bytes(packed[: len(packed) // 2])
    with pytest.raises(ImportFormatError, match="a damaged gzip file"):
        b"".join(_chunks(path, 1 << 16))


def test_a_corrupted_member_is_refused_as_damaged(tmp_path: Path) -> None:
    packed = bytearray(gzip.compress(_lines(20000, "d")))
    packed[len(packed) // 2 : len(packed) // 2 + 64] = b"\xff" * 64
    path = tmp_path / "bad.jsonl.gz"
    path.write_bytes(bytes(packed))
    with pytest.raises(ImportFormatError, match="a damaged gzip file"):
        b"".join(_chunks(path, 1 << 16))


def test_without_isal_the_standard_gzip_unpacks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where ISA-L has no wheel, zlib unpacks the same bytes (more slowly)."""
    import importlib
    import sys

    import reader.sources.unpack as unpack

    monkeypatch.setitem(sys.modules, "isal", None)  # import isal → ImportError
    try:
        fallback = importlib.reload(unpack)
        assert fallback._gzip is gzip
        data = _lines(3000, "e")
        path = tmp_path / "one.jsonl.gz"
        path.write_bytes(gzip.compress(data))
        with path.open("rb") as raw:
            assert fallback.unpacking(raw).read() == data
    finally:
        monkeypatch.undo()
        importlib.reload(unpack)
