"""A JSON array read an item at a time from its file gives what reading it whole gives: the
same items with the same lines, the same errors at the same line and column, and for
CSL-JSON the same records and problem lines."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reader.sources import ImportFormatError, csljson, parse_text, read_text, stream_file
from reader.sources.jsonarray import iter_array
from reader.sources.jsonload import JsonRecord, load_records
from reader.sources.textfile import open_text

DATA = Path(__file__).resolve().parent / "data"

ITEMS = json.loads((DATA / "items-26.csl.json").read_text(encoding="utf-8"))

TEXTS = [
    json.dumps(ITEMS, indent=2, ensure_ascii=False),
    json.dumps(ITEMS, ensure_ascii=False),
    json.dumps(ITEMS[:5], indent="\t").replace("\n", "\r\n"),
    '[{"type": "book", "title": "x"}, 1234567, 8.5e3, -2, true, null, "s", [1, 2]]',
    '[{"a": 1e5}\n,\n\n  {"b": "\\u00e9\\ud834\\udd1e"}  ]  \n',
    "[ ]",
    # Broken: each must fail where the whole text fails.
    '[\n {"id": "a"},\n {"id":\n]',
    '[{"a": 1}] [',
    '[{"a": 1}',
    '[{"a": 1},',
    '[{"a": 1}\n {"b": 2}]',
    '[{"a": "cut \\u12"}]',
    '[{"a": "never closed}]',
    "[{}, " + "9" * 5000 + "]",
    '[{"title": ' + "[" * 10_000 + "]" * 10_000 + "}]",
    json.dumps(ITEMS[:3], indent=2)[:-40],
]


def _cut(text: str, size: int) -> list[str]:
    return [text[i:i + size] for i in range(0, len(text), size)]


def _outcome(read: object) -> list[JsonRecord] | str:
    try:
        return list(read())  # type: ignore[operator]
    except ImportFormatError as exc:
        return str(exc)


@pytest.mark.parametrize("size", [1, 2, 7, 100, 10**6])
def test_an_array_read_in_pieces_is_read_as_the_whole(size: int) -> None:
    for text in TEXTS:
        whole = _outcome(lambda: load_records(text, "f.json"))  # noqa: B023
        pieces = _outcome(lambda: iter_array(_cut("\ufeff" + text, size), "f.json"))  # noqa: B023
        assert pieces == whole, text[:60]


def test_errors_name_the_line_and_column_of_the_whole_file() -> None:
    text = json.dumps(ITEMS[:4], indent=2)
    broken = text.replace('"title":', '"title": nope,', 3)
    line = broken[: broken.index("nope")].count("\n") + 1
    column = broken.index("nope") - broken.rfind("\n", 0, broken.index("nope"))
    message = f"f.json:{line}:{column}: not valid JSON: Expecting value"
    with pytest.raises(ImportFormatError, match=message):
        list(iter_array(_cut(broken, 10), "f.json"))
    with pytest.raises(ImportFormatError, match=message):
        load_records(broken, "f.json")


def test_csljson_is_streamed_from_the_file(tmp_path: Path) -> None:
    path = tmp_path / "items.json"
    path.write_text(json.dumps([*ITEMS, 5, {"type": "book"}], indent=2), encoding="utf-8")
    streamed = stream_file(path)
    # What the CSL-JSON reader makes of the file read whole and given to it in one piece.
    whole = parse_text(read_text(path).text, path.name, "csljson")
    assert streamed.format == "csljson"
    assert streamed.count == len(ITEMS) + 1  # the objects
    assert list(streamed.records) == whole.records
    assert streamed.problems == whole.problems
    assert [p.split(":", 2)[2] for p in whole.problems] == [
        " record #27 is a number, not an object; skipped",
        " record #28 has no title or abstract; skipped",
    ]
    # Read in small pieces: what the reader makes of the text given whole.
    problems: list[str] = []
    in_pieces = csljson.stream_file(open_text(path, 64), "items.json", problems)
    assert in_pieces is not None
    given_whole = csljson.parse(path.read_text(encoding="utf-8"), "items.json")
    assert (list(in_pieces[0]), problems) == (given_whole.records, given_whole.problems)


def test_a_broken_array_is_refused_before_any_record(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    text = json.dumps(ITEMS, indent=2)
    path.write_text(text[: len(text) // 2], encoding="utf-8")
    with pytest.raises(ImportFormatError) as whole:
        parse_text(read_text(path).text, path.name, "csljson")
    with pytest.raises(ImportFormatError) as streamed:
        stream_file(path)
    assert str(streamed.value) == str(whole.value)
    assert str(whole.value).startswith("bad.json:")


def test_openreview_lines_are_checked_as_read_a_latin1_line_named(tmp_path: Path) -> None:
    """JSON lines are not read whole to settle their encoding: each line is decoded as it
    is read, and one that is not UTF-8 is read as Latin-1 and named, the others as UTF-8."""
    lines = (DATA / "openreview-40.jsonl").read_bytes().splitlines()[:3]
    third = json.loads(lines[2])
    third["content"]["title"] = "Caf\u00e9 \u00fcber alles"
    lines[2] = json.dumps(third, ensure_ascii=False).encode("latin-1")
    lines[0] = lines[0].replace(b'"id"', b'"note": "\xe2\x9c\x93 UTF-8", "id"', 1)
    path = tmp_path / "mixed.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    streamed = stream_file(path)
    titles = [record.title for record in streamed.records]
    assert titles[2] == "Café über alles"
    assert len(titles) == 3
    where = lines[2].index(b"\xe9") + 1
    assert streamed.problems == [
        f"mixed.jsonl:3: not valid UTF-8 (byte {where} of the line); read as Windows-1252 "
        "(Latin-1) — check accented letters and quotes"
    ]
    assert not streamed.warnings
    # A file read whole still settles one encoding for all of it, with a warning.
    assert open_text(path).encoding == "latin-1"


def test_json_lines_read_from_bytes_keep_every_odd_line_as_before(tmp_path: Path) -> None:
    """The lines of an OpenReview file are decoded from their bytes by a faster decoder;
    what it refuses (NaN, a lone surrogate, Latin-1 bytes, broken JSON, deep nesting) is
    read as the standard library reads it, with the same values and the same messages."""
    from reader.sources.limits import DEPTH_MAX

    def note(n: int, title: str = "", extra: str = "") -> bytes:
        title = title or f'"Paper {n}"'
        return (f'{{"id": "paper{n:05d}", "forum": "paper{n:05d}", "content": {{"title": '
                f'{{"value": {title}}}, "abstract": {{"value": "About {n}."}}{extra}}}}}\n'
                ).encode()

    lines = [
        note(1),
        note(2, extra=', "score": {"value": NaN}'),
        note(3, title='"Lone \\ud800 surrogate"'),
        note(4, title='"Cafe"').replace(b"Cafe", b"Caf\xe9"),  # Latin-1, not UTF-8
        b'{"id": "broken", \n',
        b'{"id": "deep", "content": ' + b"[" * (DEPTH_MAX + 2) + b"]" * (DEPTH_MAX + 2) + b"}\n",
        note(7),
    ]
    path = tmp_path / "odd.jsonl"
    path.write_bytes(b"".join(lines))
    streamed = stream_file(path)
    records = list(streamed.records)
    assert [r.title for r in records] == [
        "Paper 1", "Paper 2", "Lone \ufffd surrogate", "Café", "Paper 7"]
    problems = "\n".join(streamed.problems)
    assert "odd.jsonl:4: not valid UTF-8" in problems
    assert "not valid JSON (column" in problems
    assert "nested more than" in problems
