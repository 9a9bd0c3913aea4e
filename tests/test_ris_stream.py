"""The RIS reader's shortcuts give what the plain way gives: values folded onto one line as
the regex folds them, and a file read a record at a time as it is read whole."""

from __future__ import annotations

import codecs
import gzip
import re
import sys
from pathlib import Path

import pytest

from reader.models import PaperRecord
from reader.sources import ImportFormatError, parse_text, read_text, ris, ris_fields, stream_file
from reader.sources.textfile import cleaned_lines, open_text
from reader.text.sanitize import clean_imported

_BLANKS = re.compile(r"\s+")


def _folded_by_regex(value: str) -> str:
    return _BLANKS.sub(" ", value).strip()


def test_fold_lines_folds_every_blank_the_regex_folds() -> None:
    blanks = [chr(c) for c in range(sys.maxunicode + 1) if _BLANKS.fullmatch(chr(c))]
    values = ["", " ", "plain", " a  b ", "a\tb\nc", "x\x1cy", "caf\u00e9\u00a0au\u2009lait "]
    values += [f"a{blank}b{blank}{blank}c{blank}" for blank in blanks]
    values += [f"{blank}word" for blank in blanks]
    for value in values:
        assert ris_fields.fold_lines(value) == _folded_by_regex(value), repr(value)


# --- a file read a record at a time -----------------------------------------------------------

DATA = Path(__file__).resolve().parent / "data"

# Header lines, tag lines before the first TY, a record without its ER, a malformed tag
# line, a BOM and a zero-width space where a record starts, decomposed accents, controls,
# CRLF and lone CR line ends, a record cut off by the end of the file.
ODD = (
    "\ufeffProvider: Example Export\r\n\r\n"
    "AU  - Orphan, Tag\nER  - \n"
    "TY  - JOUR\r\nTI  - One \u200bwith\u0007 junk\r\nAB  - Cafe\u0301  au\u00a0lait\r\n"
    "  a wrapped line.\r\nER  - \r\n"
    "TY  - JOUR\rTI  - Lone CR\rKW  - a; b\rER  - \r"
    "TY  - JOUR\nTI  - Lost its end\n"
    "TY  - JOUR\nTI  - Three\nAU - Badly, Spaced\nER  - \n"
    "\ufeffTY  - JOUR\nTI  - After a BOM\nER  - \n"
    "TY  - CONF\nTI  - \U0001d518 outside the BMP\nT2  - Venue\nER  - \n"
    "TY  - JOUR\nTI  - Truncated"
)


def _streamed(path: Path, chunk: int) -> tuple[list[PaperRecord], list[str], int]:
    problems: list[str] = []
    streamed = ris.stream_file(open_text(path, chunk), path.name, problems)
    assert streamed is not None
    records, count = streamed
    return list(records), problems, count


@pytest.mark.parametrize("chunk", [1, 3, 64, 1 << 20])
def test_a_file_read_a_record_at_a_time_gives_what_the_whole_text_gives(
    tmp_path: Path, chunk: int
) -> None:
    texts = {"odd.ris": ODD, "crlf.ris": ODD.replace("\n", "\r\n")}
    texts |= {p.name: p.read_text(encoding="utf-8") for p in sorted(DATA.glob("*.ris"))}
    for name, text in texts.items():
        path = tmp_path / name
        path.write_bytes(text.encode("utf-8"))
        whole = ris.parse(read_text(path).text, name)
        records, problems, count = _streamed(path, chunk)
        assert records == whole.records, name
        assert problems == whole.problems, name
        assert count >= len(records)
    records, problems, count = _streamed(tmp_path / "odd.ris", chunk)
    assert [r.title for r in records] == [
        "One with junk", "Lone CR", "After a BOM", "\U0001d518 outside the BMP"
    ]
    assert records[0].abstract == "Caf\u00e9 au lait a wrapped line."
    assert problems[0] == (
        "odd.ris:3: tag lines outside a record (no 'TY  - ' line before them); skipped"
    )
    assert count == 6  # the lines starting with TY; the one after a BOM is not counted


def test_stream_file_reads_ris_from_the_file(tmp_path: Path) -> None:
    path = tmp_path / "odd.ris.gz"
    path.write_bytes(gzip.compress(ODD.encode("latin-1", errors="replace")))
    streamed = stream_file(path)
    # What the RIS reader makes of the file read whole and given to it in one piece.
    content = read_text(path)
    whole = parse_text(content.text, path.name, "ris")
    assert streamed.format == "ris"
    assert (streamed.sha256, streamed.warnings) == (content.sha256, content.warnings)
    assert content.warnings and "not valid UTF-8" in content.warnings[0]
    assert list(streamed.records) == whole.records
    assert streamed.problems == whole.problems


def test_a_file_with_no_record_start_is_refused_as_before(tmp_path: Path) -> None:
    path = tmp_path / "x.ris"
    path.write_text("TI  - no TY line\nER  - \n", encoding="utf-8")
    with pytest.raises(ImportFormatError, match=r"^x\.ris: not RIS"):
        stream_file(path, "ris")


# --- the text, a piece at a time --------------------------------------------------------------


def _cut(text: str, sizes: list[int]) -> list[str]:
    pieces, start, n = [], 0, 0
    while start < len(text):
        size = sizes[n % len(sizes)]
        pieces.append(text[start:start + size])
        start, n = start + size, n + 1
    return pieces


def test_cleaned_lines_are_the_lines_of_the_cleaned_whole() -> None:
    texts = [ODD, ODD.replace("\n", "\r"), "", "\r", "\r\n", "a\rb\r\nc\n\rd\r", "x\u0301\n\u0301y"]
    for text in texts:
        for sizes in ([1], [1, 2, 3], [5, 50], [10**6]):
            assert list(cleaned_lines(_cut(text, sizes))) == clean_imported(text).split("\n")


@pytest.mark.parametrize("chunk", [1, 2, 3, 5, 1 << 20])
def test_a_text_file_read_in_pieces_reads_as_read_text_reads_it(
    tmp_path: Path, chunk: int
) -> None:
    samples = {
        "bom.txt": "\ufeffTY  - A\r\nTI  - \u00e9\U0001d518\rTY  - B\n".encode(),
        "latin1.txt": "\ufeffTY  - x\n".encode() + b"\xff" + "\u00e9\nTY  - y".encode(),
        "half-bom.txt": b"\xef\xbb",
        "cut.txt": "abc\U0001d518".encode()[:-1],
        "empty.txt": b"",
    }
    for name, data in list(samples.items()):
        samples[name + ".gz"] = gzip.compress(data)
    for name, data in samples.items():
        path = tmp_path / name
        path.write_bytes(data)
        whole = read_text(path)
        text = open_text(path, chunk)
        assert (text.sha256, text.warnings) == (whole.sha256, whole.warnings), name
        assert "".join(text.pieces()) == whole.text, name
        # The bytes of a BOM start no line, read as Latin-1 or not.
        unmarked = whole.text.removeprefix(codecs.BOM_UTF8.decode("latin-1"))
        lines = re.findall(r"(?:^|(?<=[\r\n]))TY  -", unmarked)
        assert text.count_lines_starting(b"TY  -") == len(lines), name
