"""A long file is parsed in a second process while the first one writes: the library ends
the same as when one process does both, bad records are still reported, and the second
process never outlives the import."""

from __future__ import annotations

import json
import multiprocessing
import os
import shutil
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

import reader.library.read_ahead as read_ahead_module
from reader.intake.prepare import Prepared, prepare
from reader.library import Library
from reader.library.read_ahead import hand_over, read_ahead
from reader.models import PaperRecord
from reader.sources import ImportFormatError, StreamedFile, stream_file
from tests.test_index_build import write_openreview

REPO = Path(__file__).resolve().parents[1]

needs_fork = pytest.mark.skipif(
    "fork" not in multiprocessing.get_all_start_methods(), reason="no fork here"
)


def long_list(path: Path, library: Library, count: int) -> Path:
    """``count`` OpenReview records, then revisions of sample papers (merged by their
    abstracts), a record repeated, and two bad lines."""
    write_openreview(path, count)
    sample = list(library.store.iter_papers())[:5]
    with path.open("a", encoding="utf-8") as out:
        for i, paper in enumerate(sample):
            abstract = paper.abstract.replace(" the ", " a ", 2)
            note = {"id": f"rev{i}", "content": {"title": f"Revised {i}", "abstract": abstract}}
            out.write(json.dumps(note) + "\n")
        out.write("{not json\n")
        out.write(json.dumps({"id": "paper00003", "content": {"title": "Again"}}) + "\n")
        out.write(json.dumps({"id": "x", "content": {}}) + "\n")
    return path


def stored(directory: Path) -> dict[str, list[tuple[object, ...]]]:
    """What an import leaves in a library, without its clock."""
    conn = sqlite3.connect(directory / "library.sqlite")
    columns = [
        row[1] for row in conn.execute("PRAGMA table_info(papers)")
        if row[1] not in ("added_at", "updated_at", "generation")
    ]
    out = {
        "papers": conn.execute(f"SELECT {', '.join(columns)} FROM papers ORDER BY id").fetchall(),
        "items": conn.execute(
            "SELECT paper_id, action FROM import_items ORDER BY paper_id").fetchall(),
        "imports": conn.execute(
            "SELECT read, new, present, merged, unchanged, skipped FROM imports").fetchall(),
        "aliases": conn.execute("SELECT * FROM citekey_aliases ORDER BY alias").fetchall(),
    }
    conn.close()
    return out


def test_a_long_file_read_ahead_is_stored_as_when_read_in_one_process(
    library: Library, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`reader import` (one thread: it reads ahead) and an import in this process with
    reading ahead turned off leave the same papers, history and summary."""
    count = read_ahead_module.MIN_RECORDS + 200
    path = long_list(tmp_path / "long.jsonl", library, count)
    library.close()
    source = library.paths.root
    ahead, inline = tmp_path / "ahead", tmp_path / "inline"
    shutil.copytree(source, ahead)
    shutil.copytree(source, inline)

    done = subprocess.run(
        [sys.executable, "-m", "reader", "--library", str(ahead), "import", str(path)],
        capture_output=True, text=True, cwd=REPO, check=True,
    )
    monkeypatch.setattr(read_ahead_module, "MIN_RECORDS", 10**9)
    one = Library(inline)
    summary = one.imports.write_files([path])
    one.close()

    assert str(summary) in done.stdout
    assert (summary.new, summary.merged, summary.skipped) == (count, 6, 2)
    assert stored(ahead) == stored(inline)


def _streamed(records: Iterator[PaperRecord], count: int) -> StreamedFile:
    return StreamedFile(Path("made-up.jsonl"), "openreview", records, count)


@needs_fork
def test_records_come_from_a_child_with_the_bad_lines_met(
    library: Library, tmp_path: Path
) -> None:
    if threading.active_count() > 1:
        pytest.skip("this process runs threads: it reads in-process, as it must")
    # Long enough that the child still waits on a full pipe once the first record is
    # taken (with 300, a fast child had sent them all, and was gone, 1 run in 8).
    count = 3_000
    path = long_list(tmp_path / "long.jsonl", library, count)
    item = stream_file(path)
    with read_ahead(item, min_records=1) as records:
        first = next(records)
        assert multiprocessing.active_children()  # parsing runs beside this process
        rest = list(records)
    assert not multiprocessing.active_children()
    assert isinstance(first, Prepared)
    assert [p.record.openreview_id for p in [first, *rest]][:3] == [
        "paper00000", "paper00001", "paper00002"
    ]
    assert len(rest) + 1 == count + 5 + 1
    assert len(item.problems) == 2 and "long.jsonl" in item.problems[0]


@needs_fork
def test_an_import_that_stops_early_stops_the_child(library: Library, tmp_path: Path) -> None:
    if threading.active_count() > 1:
        pytest.skip("this process runs threads: it reads in-process, as it must")
    item = stream_file(write_openreview(tmp_path / "long.jsonl", 3_000))
    with read_ahead(item, min_records=1) as records:
        next(records)
    assert not multiprocessing.active_children()


@needs_fork
def test_a_child_that_dies_is_a_clear_error(tmp_path: Path) -> None:
    if threading.active_count() > 1:
        pytest.skip("this process runs threads: it reads in-process, as it must")

    def dying() -> Iterator[PaperRecord]:
        yield PaperRecord(abstract="One abstract that is long enough to keep.", title="One")
        os._exit(3)  # in the child: as if the machine killed it for its memory

    with pytest.raises(ImportFormatError, match="stopped before its end"), read_ahead(
        _streamed(dying(), 5_000), min_records=1
    ) as records:
        list(records)
    assert not multiprocessing.active_children()


def test_a_short_file_or_a_threaded_process_reads_in_process(tmp_path: Path) -> None:
    item = stream_file(write_openreview(tmp_path / "short.jsonl", 10))
    with read_ahead(item) as records:
        assert records is item.records
    with read_ahead(item, min_records=0) as records:
        assert records is item.records
    release = threading.Event()
    other = threading.Thread(target=release.wait)
    other.start()
    try:
        with read_ahead(item, min_records=1) as records:
            assert records is item.records  # forking now could leave a lock held in the child
    finally:
        release.set()
        other.join()


@needs_fork
def test_the_writer_gets_the_same_records_whichever_process_prepared_them(
    library: Library, tmp_path: Path
) -> None:
    """The writer waits for the first chunk (the child leaves it unprepared) and takes the
    later ones as they come: each record is what preparing it in-process gives."""
    if threading.active_count() > 1:
        pytest.skip("this process runs threads: it reads in-process, as it must")
    path = long_list(tmp_path / "long.jsonl", library, 1_200)
    with read_ahead(stream_file(path), min_records=1) as records:
        read = list(records)
    assert read == [prepare(record) for record in stream_file(path).records]


class _Flag:
    """A stand-in for the shared flag: set once ``after`` records have been looked at."""

    def __init__(self, after: int) -> None:
        self.after = after

    @property
    def value(self) -> int:
        self.after -= 1
        return int(self.after < 0)


def test_a_chunk_is_prepared_until_the_writer_waits(tmp_path: Path) -> None:
    records = list(stream_file(write_openreview(tmp_path / "ten.jsonl", 10)).records)
    ready, rest = hand_over(list(records), _Flag(after=4))
    assert len(ready) == 4 and len(rest) == 6
    assert [PaperRecord(*fields) for fields in rest] == records[4:]
    assert hand_over(list(records), _Flag(after=10**6))[1] == []
    assert hand_over(list(records), _Flag(after=0))[0] == []


@needs_fork
def test_an_import_into_an_empty_library_sketches_nothing_and_the_next_still_merges(
    empty_library: Library, tmp_path: Path
) -> None:
    """A sketch finds a revised abstract among the papers there before the file: into an
    empty library none is made, in either process; a revision imported next is merged."""
    records = list(stream_file(write_openreview(tmp_path / "ten.jsonl", 10)).records)
    ready, _ = hand_over(records, _Flag(after=10**6), sketches=False)
    assert all(not read_ahead_module._from_wire(wire).sketch for wire in ready)
    assert not prepare(records[0], sketches=False).sketch and prepare(records[0]).sketch

    first = write_openreview(tmp_path / "long.jsonl", read_ahead_module.MIN_RECORDS + 50)
    assert empty_library.imports.write_files([first]).new == read_ahead_module.MIN_RECORDS + 50
    paper = empty_library.store.paper(7)
    assert paper is not None
    # A list of abstracts alone: the paper is known by its abstract, revised.
    second = tmp_path / "revised.txt"
    revised = paper.abstract.replace(" we study ", " we examine ")
    second.write_text(f"ICLR 2026\n\n{revised}\n", encoding="utf-8")
    summary = empty_library.imports.write_files([second])
    assert (summary.new, summary.merged) == (0, 1)


def _with_replies(path: Path, count: int) -> Path:
    """``count`` submissions, each with a review (edited once for every third paper, both
    versions given) and a comment answering it."""
    with path.open("w", encoding="utf-8") as out:
        for i in range(count):
            forum = f"sub{i:05d}"
            review = {
                "id": f"rev{i:05d}", "forum": forum, "replyto": forum,
                "cdate": 1_760_000_000_000, "mdate": 1_760_000_000_000,
                "invitations": ["ICLR.cc/2026/Conference/-/Official_Review"],
                "signatures": [f"ICLR.cc/2026/Conference/Submission{i}/Reviewer_ab{i}"],
                "content": {"rating": {"value": 2 * (i % 5)}, "confidence": {"value": 3},
                            "summary": {"value": f"Paper {i} studies the thing ü {i % 7}."}},
            }
            replies = [review]
            if i % 3 == 0:
                edited = json.loads(json.dumps(review))
                edited["mdate"] += 86_400_000
                edited["content"]["rating"]["value"] = 6
                replies.append(edited)
            replies.append({
                "id": f"com{i:05d}", "forum": forum, "replyto": f"rev{i:05d}",
                "cdate": 1_761_000_000_000, "mdate": 1_761_000_000_000,
                "invitations": ["ICLR.cc/2026/Conference/-/Official_Comment"],
                "signatures": ["ICLR.cc/2026/Conference/Submission1/Authors"],
                "content": {"comment": {"value": "We thank the reviewer."}},
            })
            note = {"id": forum, "cdate": 1_759_000_000_000, "content": {
                "title": {"value": f"Submission number {i} on things"},
                "abstract": {"value": f"We study problem {i} with method {i * 7} and show it."},
                "venue": {"value": "ICLR 2026 Conference Submission"},
            }, "replies": replies}
            out.write(json.dumps(note) + "\n")
    return path


def _replies_stored(directory: Path) -> list[list[tuple[object, ...]]]:
    conn = sqlite3.connect(directory / "library.sqlite")
    try:
        return [conn.execute(query).fetchall() for query in (
            "SELECT r.note_id, p.openreview_id, r.forum, r.replyto, r.kind, r.signer, r.cdate, "
            "r.mdate, r.rating, r.confidence, r.invitations, r.signatures, r.content, "
            "r.text_hash FROM replies r LEFT JOIN papers p ON p.id = r.paper_id ORDER BY 1",
            "SELECT r.note_id, v.mdate, v.rating, v.scores, v.text_hash, v.content "
            "FROM reply_versions v JOIN replies r ON r.id = v.reply_id ORDER BY 1, 2",
            "SELECT p.openreview_id, s.decision, s.rating_mean, s.ratings, s.confidences, "
            "s.reviews, s.comments, s.ratings_changed_import FROM paper_signals s "
            "JOIN papers p ON p.id = s.paper_id ORDER BY 1",
        )]
    finally:
        conn.close()


def test_replies_read_ahead_are_stored_as_when_read_in_one_process(
    library: Library, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The reading process makes the replies' stored form (digest, scores, packed text):
    what it hands the writer stores every reply, version and signal as the writer would."""
    count = read_ahead_module.MIN_RECORDS + 100
    path = _with_replies(tmp_path / "replies.jsonl", count)
    library.close()
    ahead, inline = tmp_path / "ahead", tmp_path / "inline"
    shutil.copytree(library.paths.root, ahead)
    shutil.copytree(library.paths.root, inline)
    subprocess.run(
        [sys.executable, "-m", "reader", "--library", str(ahead), "import", str(path)],
        capture_output=True, text=True, cwd=REPO, check=True,
    )
    monkeypatch.setattr(read_ahead_module, "MIN_RECORDS", 10**9)
    one = Library(inline)
    one.imports.write_files([path])
    one.close()
    inline_rows = _replies_stored(inline)
    assert len(inline_rows[0]) == 2 * count
    assert _replies_stored(ahead) == inline_rows


@needs_fork
def test_the_window_watch_does_not_keep_its_import_from_reading_ahead() -> None:
    """The import process a window starts watches the window in a thread that only waits
    on its pipe: it may fork beside it; beside any other thread it may not."""
    if threading.active_count() > 1:
        pytest.skip("this process runs threads of its own")
    release = threading.Event()
    for name, allowed in (("reader-watch", True), ("some-other-work", False)):
        thread = threading.Thread(target=release.wait, name=name, daemon=True)
        thread.start()
        try:
            assert read_ahead_module._may_fork() is allowed, name
        finally:
            release.set()
            thread.join()
            release.clear()
