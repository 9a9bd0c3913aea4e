"""Bounded work per input: a file is counted as it is unpacked, and refused at a bound on one
record (or on a file read whole), never unpacked whole first; nesting is capped.

The bombs are made here, small: a few megabytes that unpack past a bound lowered for the
test (READER_RECORD_LIMIT_MB, READER_FILE_LIMIT_MB), and the memory taken while reading one
is measured against the bound, not against the size it unpacks to.
"""

from __future__ import annotations

import gzip
import json
import os
import threading
import time
import tracemalloc
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest

from reader.library import Library
from reader.sources import ImportFormatError, stream_file
from tests.parsing import parse_file

MB = 1 << 20


def gzip_of(path: Path, parts: Iterable[bytes]) -> Path:
    """Write the parts to ``path`` gzipped (highly repetitive parts stay a few KB)."""
    with gzip.open(path, "wb", compresslevel=6) as out:
        for part in parts:
            out.write(part)
    return path


def repeated(unit: bytes, size: int) -> Iterable[bytes]:
    """``size`` bytes of ``unit`` over and over, a megabyte at a time."""
    block = (unit * (MB // len(unit) + 1))[:MB]
    for _ in range(size // MB):
        yield block


def peak_while(read: Callable[[], object]) -> tuple[int, BaseException | None]:
    """The most memory Python held while ``read`` ran, and what it raised."""
    tracemalloc.start()
    raised: BaseException | None = None
    try:
        read()
    except Exception as exc:  # noqa: BLE001 - the test looks at it
        raised = exc
    finally:
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    return peak, raised


def read_all(path: Path, fmt: str | None = None) -> None:
    streamed = stream_file(path, fmt)
    for _ in streamed.records:
        pass


@pytest.fixture
def low_bounds(monkeypatch: pytest.MonkeyPatch) -> None:
    """A record of at most 1 MB and a file read whole of at most 4 MB."""
    monkeypatch.setenv("READER_RECORD_LIMIT_MB", "1")
    monkeypatch.setenv("READER_FILE_LIMIT_MB", "4")


def kaggle_line(abstract: str, number: int = 1) -> bytes:
    return (json.dumps({"id": f"2101.{number:05d}", "title": f"Paper {number}",
                        "authors": "A. Author", "abstract": abstract}) + "\n").encode()


def test_a_record_that_unpacks_past_the_bound_is_refused_as_it_is_read(
    low_bounds: None, tmp_path: Path
) -> None:
    # One JSON line whose abstract unpacks to 12 MB (the attack's had 1 GB), after a good one.
    head = kaggle_line("A short abstract about sparse transport.")
    opening = b'{"id": "2101.00002", "title": "Huge", "authors": "B", "abstract": "'
    bomb = gzip_of(tmp_path / "bomb.jsonl.gz",
                   [head, opening, *repeated(b"a", 12 * MB), b'"}\n'])
    assert bomb.stat().st_size < 100_000
    started = time.monotonic()
    peak, raised = peak_while(lambda: read_all(bomb, "arxiv-kaggle"))
    assert isinstance(raised, ImportFormatError)
    assert str(raised) == (
        f"{bomb}: the record at line 2 is over the 1 MB limit for one record; the file is "
        "refused (READER_RECORD_LIMIT_MB raises the limit)"
    )
    # Refused at the bound: never more than a few times the bound held, not the 12 MB.
    assert peak < 6 * MB, peak
    assert time.monotonic() - started < 5


def test_an_array_of_whitespace_is_refused_at_the_bound(low_bounds: None, tmp_path: Path) -> None:
    bomb = gzip_of(tmp_path / "spaces.json.gz", [b"[", *repeated(b" ", 12 * MB), b"]"])
    for fmt in (None, "csljson", "paperlists"):
        peak, raised = peak_while(lambda fmt=fmt: read_all(bomb, fmt))  # type: ignore[misc]
        assert isinstance(raised, ImportFormatError), fmt
        assert "over the 1 MB limit for one record" in str(raised)
        assert peak < 6 * MB, (fmt, peak)


def test_a_file_read_whole_is_refused_past_its_bound(low_bounds: None, tmp_path: Path) -> None:
    # Short lines, each within the bound on a record; the file as a whole is not.
    lines = b"".join(kaggle_line("word " * 40, n) for n in range(1, 200))
    bomb = gzip_of(tmp_path / "many.json.gz", [b"[", *repeated(lines.replace(b"\n", b",\n"),
                                                             12 * MB), b"{}]"])
    peak, raised = peak_while(lambda: parse_file(bomb, "paperlists"))
    assert isinstance(raised, ImportFormatError)
    assert "over the 4 MB limit for a file of this format, which is read whole" in str(raised)
    assert peak < 12 * MB, peak


def test_a_giant_paragraph_of_an_abstract_list_refuses_it_early(
    low_bounds: None, tmp_path: Path
) -> None:
    # Short lines with no blank line between them: one paragraph of 32 MB, read a line at a
    # time, so only the bound on a paragraph (a record) stops it.
    good = b"ICLR 2026 list\n\nA first abstract about optimal transport and its uses.\n\n"
    bomb = gzip_of(tmp_path / "list.txt.gz",
                   [good, *repeated(b"sparse words go on and on without an end\n", 32 * MB)])
    started = time.monotonic()
    peak, raised = peak_while(lambda: read_all(bomb))
    assert isinstance(raised, ImportFormatError)
    assert "the record at line 5 is over the 1 MB limit for one record" in str(raised)
    # What a stretch of the file read at a time takes (the bound, a few copies of it).
    assert peak < 12 * MB, peak
    assert time.monotonic() - started < 5


def test_an_abstract_list_is_read_a_paragraph_at_a_time(tmp_path: Path) -> None:
    # 12 MB of abstracts: opening the list and reading its first records holds a stretch of
    # it, never the whole (nor a copy of it).
    paragraph = "Optimal transport under noise, with a bound that holds for every sample. " * 8
    text = "ICLR 2026 list\n\n" + "".join(f"{paragraph}{n}\n\n" for n in range(20_000))
    path = tmp_path / "list.txt"
    path.write_text(text)
    assert len(text) > 11 * MB
    first: list[str] = []

    def read() -> None:
        streamed = stream_file(path)
        assert streamed.format == "seed" and streamed.count >= 20_000
        for record in streamed.records:
            first.append(record.abstract)
            if len(first) == 10:
                break

    peak, raised = peak_while(read)
    assert raised is None and first[9].endswith(" 9")
    assert peak < 10 * MB, peak


def test_a_field_over_its_bound_skips_the_record_named(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("READER_FIELD_LIMIT_MB", "0.5")
    path = tmp_path / "two.jsonl"
    path.write_bytes(kaggle_line("fine " * 20, 1) + kaggle_line("long " * 200_000, 2))
    streamed = stream_file(path, "arxiv-kaggle")
    assert [r.title for r in streamed.records] == ["Paper 1"]
    (problem,) = streamed.problems
    assert "its abstract is 999,999 characters, over the 0.5 MB limit for one field" in problem


def test_ten_thousand_nested_braces_read_fast_and_shallow(tmp_path: Path) -> None:
    bib = tmp_path / "nested.bib"
    bib.write_text("@article{deep, title = {Nested " + "{" * 10_000 + "core" + "}" * 10_000
                   + "}, year = 2024}\n")
    started = time.monotonic()
    (record,) = parse_file(bib).records
    assert time.monotonic() - started < 2
    assert record.title == "Nested core"


def test_braces_nested_past_the_cap_are_flattened_and_named(tmp_path: Path) -> None:
    bib = tmp_path / "deep65.bib"
    bib.write_text("@article{k65, title={" + "{" * 65 + "x" + "}" * 65 + "}, year=2020}\n"
                   "@article{k64, title={" + "{" * 63 + "y" + "}" * 63 + "}, year=2020}\n")
    parsed = parse_file(bib)
    assert [r.title for r in parsed.records] == ["x", "y"]
    assert parsed.problems == [
        "deep65.bib:1: entry 'k65' nests braces more than 64 deep (title): the deeper "
        "braces were left out, their text kept"
    ]


def test_a_json_file_nested_past_the_cap_is_refused_saying_so(
    tmp_path: Path, empty_library: Library
) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text('[{"title": "Deep", "note": "' + "[" * 100 + '", "x": ' + "[" * 65
                    + "]" * 65 + "}]")
    with pytest.raises(ImportFormatError, match="JSON nested more than 64 deep"):
        empty_library.import_files([deep])
    # Brackets inside strings are text, not nesting.
    shallow = tmp_path / "shallow.json"
    shallow.write_text('[{"what": "' + "[" * 100 + '"}]')
    with pytest.raises(ImportFormatError, match="matches none of the JSON formats"):
        empty_library.import_files([shallow])
    assert empty_library.store.count() == 0


def test_json_nested_past_the_cap_is_named(tmp_path: Path) -> None:
    deep = {"id": "2101.00009", "title": "Deep", "abstract": "x", "authors": "A"}
    inner: dict[str, object] = deep
    for _ in range(100):  # well within Python's recursion, past the cap of 64
        inner["more"] = {}
        inner = inner["more"]  # type: ignore[assignment]
    path = tmp_path / "deep.jsonl"
    path.write_bytes(kaggle_line("fine", 1) + (json.dumps(deep) + "\n").encode())
    parsed = parse_file(path, "arxiv-kaggle")
    assert [r.title for r in parsed.records] == ["Paper 1"]
    assert parsed.problems == [
        "deep.jsonl:2: JSON nested more than 64 deep, too deeply to be paper records; line skipped"
    ]


def test_a_named_pipe_is_refused_not_waited_on(tmp_path: Path, empty_library: Library) -> None:
    fifo = tmp_path / "papers.bib"
    os.mkfifo(fifo)
    raised: list[BaseException] = []

    def run() -> None:
        try:
            empty_library.import_files([fifo])
        except Exception as exc:  # noqa: BLE001 - the test looks at it
            raised.append(exc)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(5)
    try:
        assert not worker.is_alive(), "the import waits on a pipe nobody writes to"
    finally:
        if worker.is_alive():  # let it go: a writer that closes at once ends the pipe
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
            worker.join(5)
    assert len(raised) == 1 and isinstance(raised[0], ImportFormatError)
    assert str(raised[0]) == (
        f"{fifo}: a named pipe, not a regular file; reader imports files (save it to one first)"
    )


def _openreview_copies(path: Path, copies: int) -> Path:
    """The papers of the real reviews sample (each with its replies), ``copies`` times,
    each copy with ids of its own; then a reply whose paper is not in the file."""
    lines = (Path(__file__).parent / "data" / "openreview-replies-3.jsonl").read_text()
    notes = [json.loads(line) for line in lines.splitlines() if line.strip()]
    with path.open("w", encoding="utf-8") as out:
        for copy in range(copies):
            for note in notes:
                made = dict(note, id=f"{note['id']}c{copy}")
                made["content"] = dict(note["content"])
                made["content"]["abstract"] = f"{note['content']['abstract']} ({copy})"
                made["replies"] = [
                    dict(r, id=f"{r['id']}c{copy}", forum=made["id"], replyto=made["id"])
                    for r in note["replies"]
                ]
                out.write(json.dumps(made) + "\n")
        stray = dict(notes[0]["replies"][0], id="strayreply1", forum="nosuchpaper")
        out.write(json.dumps(stray) + "\n")
    return path


def test_a_reviews_file_past_the_whole_file_bound_is_read_a_line_at_a_time(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """An OpenReview JSON-lines file with every review (a whole conference's is 370 MB
    unpacked) is read from the disk a line at a time, never whole: over the bound for a
    file read whole it is imported all the same, holding a few records at a time, with
    the same papers, replies and orphans as the file read whole."""
    path = _openreview_copies(tmp_path / "reviews.jsonl", 400)
    assert path.stat().st_size > 25 * MB
    monkeypatch.setenv("READER_FILE_LIMIT_MB", "2")
    papers: list[int] = []
    orphans: list[str] = []

    def read() -> None:
        streamed = stream_file(path)
        assert streamed.format == "openreview" and streamed.count == 1201
        for record in streamed.records:
            papers.append(len(record.replies))
        orphans.extend(r.id for r in streamed.orphans)

    peak, raised = peak_while(read)
    assert raised is None, raised
    assert len(papers) == 1200 and sum(papers) == 400 * 16
    assert orphans == ["strayreply1"]
    # A few pieces of the file read (a megabyte each) and a record or two: not the file.
    assert peak < 10 * MB, peak
    small = _openreview_copies(tmp_path / "small.jsonl", 5)
    whole = parse_file(small)
    streamed = list(stream_file(small).records)
    assert streamed == whole.records


def test_the_import_says_how_many_records_were_read_with_a_remark(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from reader.cli import cli

    bib = tmp_path / "deep65.bib"
    bib.write_text("@article{k65, title={" + "{" * 65 + "x" + "}" * 65 + "}, year=2020}\n")
    args = ["--library", str(tmp_path / "lib"), "import", str(bib)]
    said = CliRunner().invoke(cli, args, obj={})
    assert said.exit_code == 0, said.output
    assert "1 read: 1 new" in said.output
    assert "1 remark on how the file was read (see --verbose)" in said.output
    listed = CliRunner().invoke(cli, [*args, "--verbose"], obj={})
    assert "nests braces more than 64 deep" in listed.output
    assert "remark on how" not in listed.output


def test_a_huge_field_of_distinct_words_is_indexed_only_so_far(
    empty_library: Library, tmp_path: Path
) -> None:
    """A field within the size bound but of a hundred thousand distinct words: its start is
    searched, the rest kept and shown; indexing it all built every word's postings in
    memory (880 MB for a million words)."""
    from reader.search.schema import INDEXED_CHARS

    words = [f"w{n}x" for n in range(100_000)]
    path = tmp_path / "huge.jsonl"
    path.write_bytes(kaggle_line(" ".join(words)) + b"\n")
    started = time.perf_counter()
    empty_library.import_files([path])
    assert time.perf_counter() - started < 30
    [paper] = empty_library.papers(empty_library.all_ids())
    assert paper.abstract.endswith(words[-1])  # kept whole
    assert empty_library.search("w1x").ids == [paper.id]
    past = len(" ".join(words[:20_000])) > INDEXED_CHARS
    assert past and empty_library.search(words[-1]).ids == []


def test_a_gzipped_list_is_not_unpacked_before_its_first_record(tmp_path: Path) -> None:
    """Its lines are estimated from its start and its trailer (exact when the start is the
    whole file), not counted by unpacking it all once more before the import begins."""
    from reader.sources.textfile import open_text

    small = gzip_of(tmp_path / "small.jsonl.gz", [kaggle_line("x", n) for n in range(50)])
    assert open_text(small, check=False).line_count == 50
    lines = [kaggle_line("word " * 400, n) for n in range(4_000)]  # about 8 MB unpacked
    big = gzip_of(tmp_path / "big.jsonl.gz", lines)
    estimated = open_text(big, check=False).line_count
    assert 3_600 <= estimated <= 4_400
    assert sum(1 for _ in stream_file(big).records) == 4_000


def test_a_record_over_the_bound_part_way_says_what_was_written(
    low_bounds: None, tmp_path: Path
) -> None:
    """A batched import meets the bomb after some batches are in: the refusal says how many
    papers were written before it and how to take them back."""
    def note(n: int) -> bytes:
        return (json.dumps({"id": f"forum{n}", "forum": f"forum{n}", "content": {
            "title": {"value": f"Paper {n}"},
            "abstract": {"value": f"Abstract number {n} about transport."}}}) + "\n").encode()

    opening = b'{"id": "huge", "forum": "huge", "content": {"abstract": {"value": "'
    bomb = gzip_of(tmp_path / "late.jsonl.gz",
                   [*map(note, range(2_500)), opening, *repeated(b"a", 3 * MB), b'"}}}\n'])
    library = Library(tmp_path / "lib")
    with pytest.raises(ImportFormatError) as raised:
        library.import_files([bomb], batch=1_000)
    written = library.store.count()
    assert written == 2_000
    assert raised.value.line().endswith(
        "(after 2,000 of its papers were written: "
        f"`reader --library {tmp_path / 'lib'} import --undo` removes them)"
    )
    assert "late.jsonl.gz: late.jsonl.gz" not in raised.value.line()
    library.close()


def test_an_arxiv_snapshot_past_the_whole_file_bound_is_read_a_line_at_a_time(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Kaggle's arXiv snapshot is gigabytes of JSON lines: a part of it larger than a file
    read whole may be is read a line at a time, with the same records and the same word
    on the fields kept as written as the file read whole."""
    from reader.sources import arxiv_kaggle

    lines = [json.dumps({
        "id": f"2101.{n:05d}", "submitter": "Ada", "title": f"Paper {n}", "authors": "A. B",
        "categories": "cs.LG",
        "abstract": "A short abstract about sparse transport. " * 20,
        "versions": [{"version": "v1", "created": "Mon, 2 Apr 2007 19:18:42 GMT"}],
    }) + "\n" for n in range(1, 3_001)]
    path = tmp_path / "arxiv-metadata.json"
    path.write_text("".join(lines), encoding="utf-8")
    assert path.stat().st_size > 2 * MB
    monkeypatch.setenv("READER_FILE_LIMIT_MB", "1")
    streamed = stream_file(path)
    assert streamed.format == "arxiv-kaggle" and streamed.count == 3_000
    records = list(streamed.records)
    whole = arxiv_kaggle.parse("".join(lines), path.name)
    assert records == whole.records
    assert streamed.warnings == whole.warnings and "submitter" in streamed.warnings[0]


def test_what_an_import_knew_is_let_go_before_the_index_follows(
    tmp_path: Path, empty_library: Library
) -> None:
    """The import's identity maps (150 MB of 300,000 papers) are not held while the index
    is built beside them, with its workers' memory added to this process's."""
    import gc

    from reader.intake.merge import _Import

    alive: list[int] = []

    def indexing(done: int, total: int) -> None:
        gc.collect()
        alive.append(sum(isinstance(o, _Import) for o in gc.get_objects()))

    lines = [json.dumps({"id": f"2101.{n:05d}", "title": f"Paper number {n} of many",
                         "abstract": f"An abstract of paper {n} about graphs and words.",
                         "authors": "A. Author"}) for n in range(30)]
    path = tmp_path / "arxiv.jsonl"
    path.write_text("\n".join(lines) + "\n")
    empty_library.imports.import_files([path], indexing=indexing)
    assert alive and set(alive) == {0}
