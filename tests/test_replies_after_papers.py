"""A conference imported with its reviews shows its papers first: every paper, with its
ratings, decision and counts, is committed (and a window's list shows it) before the text
of its replies is written, on a second reading of the file; what the import leaves is what
an import writing everything at once leaves; an import stopped while it writes the replies
keeps the papers, and the next one brings the rest."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

import reader.library.read_ahead as read_ahead_module
from reader.library import Library
from reader.library.import_process import run_import

DATA = Path(__file__).parent / "data"
SAMPLE = DATA / "openreview-replies-3.jsonl"


def conference(path: Path, count: int) -> Path:
    """``count`` papers with their replies: copies of the three of the sample, each copy
    under new note ids (its replies following) and a title of its own."""
    rows = [json.loads(line) for line in SAMPLE.read_text(encoding="utf-8").splitlines()]
    with path.open("w", encoding="utf-8") as out:
        for i in range(count):
            row = json.loads(json.dumps(rows[i % len(rows)]))
            copy = i // len(rows)
            if copy:
                ids = {note["id"]: f"{note['id']}c{copy}" for note in [row, *row["replies"]]}
                row["id"] = ids[row["id"]]
                for reply in row["replies"]:
                    reply["id"], reply["forum"] = ids[reply["id"]], row["id"]
                    reply["replyto"] = ids.get(reply.get("replyto"), reply.get("replyto"))
                title = row["content"]["title"]
                if isinstance(title, dict):
                    title["value"] += f" (copy {copy})"
                else:
                    row["content"]["title"] = f"{title} (copy {copy})"
            out.write(json.dumps(row) + "\n")
    return path


def state(database: Path) -> dict[str, Any]:
    """What another connection sees of the papers, their signals and their replies, by
    OpenReview ids (the same in any library)."""
    conn = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    try:
        return {
            "papers": conn.execute("SELECT count(*) FROM papers").fetchone()[0],
            "signals": sorted(conn.execute(
                "SELECT p.openreview_id, s.decision, s.ratings, s.confidences, s.rating_mean, "
                "s.reviews, s.comments, s.scale FROM paper_signals s "
                "JOIN papers p ON p.id = s.paper_id"
            )),
            "changed": sorted(row[0] for row in conn.execute(
                "SELECT p.openreview_id FROM paper_signals s JOIN papers p ON p.id = s.paper_id "
                "WHERE s.ratings_changed_import IS NOT NULL"
            )),
            "replies": sorted(conn.execute(
                "SELECT r.note_id, p.openreview_id, r.kind, r.rating, r.content, r.text_hash "
                "FROM replies r LEFT JOIN papers p ON p.id = r.paper_id"
            )),
            "versions": sorted(conn.execute(
                "SELECT r.note_id, v.mdate, v.rating, v.scores, v.text_hash, v.content "
                "FROM reply_versions v JOIN replies r ON r.id = v.reply_id"
            )),
            "history": sorted(conn.execute(
                "SELECT p.openreview_id, i.action FROM import_items i "
                "JOIN papers p ON p.id = i.paper_id"
            )),
        }
    finally:
        conn.close()


def test_papers_show_with_their_signals_before_their_replies_are_written(
    empty_library: Library,
) -> None:
    library = empty_library
    database = library.paths.database
    seen: dict[str, Any] = {}
    summary = library.imports.write_files(
        [SAMPLE], papers_in=lambda: seen.update(state(database)),
    )
    done = state(database)
    # Every paper with its ratings, decision and counts, as they end; no reply yet.
    assert seen["papers"] == done["papers"] == 3
    assert seen["signals"] == done["signals"] and len(done["signals"]) == 3
    assert seen["replies"] == [] and len(done["replies"]) == 15
    # The summary counts the replies written on the second reading.
    assert (summary.new, summary.replies_new, summary.reply_versions) == (3, 15, 1)
    assert summary.ratings_changed == len(done["changed"]) == 1


#: Records from which a file is read ahead here: three of the reading process's chunks, not
#: the 2,000 of a real import (the same path, in a third of the time).
READ_AHEAD_AT = 2 * read_ahead_module.CHUNK + 100


@pytest.mark.parametrize("count", [3, READ_AHEAD_AT + 10], ids=["in-process", "read-ahead"])
def test_papers_first_leave_what_one_reading_leaves(
    tmp_path: Path, count: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same file imported in two readings (papers first) and in one (``strict`` reads
    a file once, replies with their papers): the same rows, history and summary; again,
    unchanged; and an edited copy, the same changes. (Read ahead by another process, the
    first import only: the rest is the same work on more records.)"""
    monkeypatch.setattr(read_ahead_module, "MIN_RECORDS", READ_AHEAD_AT)
    path = conference(tmp_path / "conference.jsonl", count) if count > 3 else SAMPLE
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    review = rows[0]["replies"][1]
    review["content"]["rating"] = {"value": 10}
    review["mdate"] += 1
    rows[1]["replies"].pop()
    edited = tmp_path / "edited.jsonl"
    edited.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    results: list[tuple[list[str], dict[str, Any]]] = []
    for strict in (False, True):
        library = Library(tmp_path / f"lib-{strict}")
        try:
            imports = ((path, None), (path, None), (edited, 500))[:3 if count == 3 else 1]
            summaries = [
                library.imports.write_files([file], strict=strict, batch=batch)
                for file, batch in imports
            ]
            results.append(([str(s) + s.signals_line() for s in summaries],
                            state(library.paths.database)))
        finally:
            library.close()
    assert results[0] == results[1]
    said = results[0][0]
    assert said[0].startswith(f"{count:,} read: {count:,} new")
    if count == 3:
        assert said[1].startswith("3 read: 0 new, 0 merged, 3 unchanged")
        assert said[2].startswith("3 read: 0 new, 1 merged, 2 unchanged")


def test_an_import_stopped_while_writing_replies_is_finished_by_the_next(
    empty_library: Library,
) -> None:
    """Ctrl-C while the replies are written: the papers and their signals stay, with the
    replies of the batches committed; importing the file again writes the rest, saying
    so, and the library is as one whole import leaves it."""
    library = empty_library

    def stop(done: int, total: int) -> None:
        if done == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        library.imports.write_files([SAMPLE], batch=1, replies_progress=stop)
    stopped = state(library.paths.database)
    assert stopped["papers"] == 3 and len(stopped["signals"]) == 3
    assert 0 < len(stopped["replies"]) < 15
    again = library.imports.write_files([SAMPLE])
    assert (again.new, again.merged, again.unchanged) == (0, 2, 1)
    assert again.replies_new == 15 - len(stopped["replies"])
    finished = state(library.paths.database)
    assert finished["signals"] == stopped["signals"]
    assert len(finished["replies"]) == 15 and len(finished["versions"]) == 16


def test_the_import_process_says_when_the_papers_are_in(
    tmp_path: Path, empty_library: Library
) -> None:
    """The import a window starts reports ``papers`` once every paper is committed, then
    indexes them, then writes the replies (``replies`` progress), then the summary: the
    abstracts never wait for the reviews."""
    path = conference(tmp_path / "conference.jsonl", 30)
    root = empty_library.paths.root
    empty_library.close()
    kinds = [e.kind for e in run_import(root, [path], batch=500)]
    papers = kinds.index("papers")
    assert "progress" not in kinds[papers:]
    assert papers < kinds.index("indexing") < kinds.index("replies") < kinds.index("imported")
    assert "indexing" not in kinds[kinds.index("replies"):kinds.index("imported")]
    assert kinds[-1] == "indexed"
    library = Library(root)
    try:
        done = state(library.paths.database)
        assert done["papers"] == 30
        assert len(done["replies"]) == len({
            reply["id"] for line in path.read_text(encoding="utf-8").splitlines()
            for reply in json.loads(line)["replies"]})
        assert library.reviews.reviews_state() == "ok"
    finally:
        library.close()


def test_replies_that_waited_for_their_paper_are_counted_with_its_own(tmp_path: Path) -> None:
    """Replies kept for a paper not in the library (a file of them alone), then the paper
    with replies of its own: the same signals and rows as one reading leaves, shown with
    the paper's first reading."""
    rows = [json.loads(line) for line in SAMPLE.read_text(encoding="utf-8").splitlines()]
    flat, own = rows[0]["replies"][:2], rows[0]["replies"][2:]
    waiting = tmp_path / "waiting.jsonl"
    waiting.write_text("".join(json.dumps(reply) + "\n" for reply in flat), encoding="utf-8")
    paper = tmp_path / "paper.jsonl"
    paper.write_text(json.dumps(dict(rows[0], replies=own)) + "\n", encoding="utf-8")
    results = []
    for strict in (False, True):
        library = Library(tmp_path / f"lib-{strict}")
        seen: dict[str, Any] = {}
        try:
            library.imports.write_files([waiting], strict=strict)
            summary = library.imports.write_files(
                [paper], strict=strict,
                papers_in=lambda: seen.update(state(library.paths.database)),  # noqa: B023
            )
            results.append((str(summary) + summary.signals_line(),
                            state(library.paths.database)))
        finally:
            library.close()
        if not strict:
            # Shown with the replies that waited and its own, before its own are written.
            assert seen["signals"] == results[0][1]["signals"]
            assert len(seen["replies"]) == len(flat)
    assert results[0] == results[1]
    assert len(results[0][1]["replies"]) == len(rows[0]["replies"])


def test_a_file_changed_between_its_two_readings_is_said(
    empty_library: Library, tmp_path: Path
) -> None:
    """A file rewritten while its papers are written (a review added to one paper): the
    replies of the papers read the same twice are kept, the summary says the rest may
    not be, and importing the file again brings them."""
    library = empty_library
    path = tmp_path / "conference.jsonl"
    rows = [json.loads(line) for line in SAMPLE.read_text(encoding="utf-8").splitlines()]
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")

    def rewrite() -> None:
        added = dict(rows[1]["replies"][0], id="AddedLater1")
        rows[1]["replies"].append(added)
        path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")

    changed = {reply["id"] for reply in rows[1]["replies"]}
    summary = library.imports.write_files([path], papers_in=rewrite)
    assert summary.new == 3 and summary.skipped == 0
    assert [p for p in summary.problems if "changed" in p] == [
        f"{path.resolve()}: the file changed while it was read; the replies of 1 of its "
        "papers may not all be kept: import it again to bring them"
    ]
    assert len(state(library.paths.database)["replies"]) == 15 - len(changed)
    again = library.imports.write_files([path])
    assert again.replies_new == len(changed) + 1
    assert not any("changed" in p for p in again.problems)
    assert len(state(library.paths.database)["replies"]) == 16


def test_a_papers_replies_are_read_from_its_file_before_they_are_written(
    tmp_path: Path, empty_library: Library
) -> None:
    """Between the two readings, each paper's replies read from the file (gzipped here,
    another paper's reply naming it beside its own line) are the replies the import then
    writes, threaded alike; a file not of OpenReview papers gives none."""
    import gzip

    library = empty_library
    plain = conference(tmp_path / "c.jsonl", 6)
    lines = plain.read_text(encoding="utf-8").splitlines()
    second_id = json.loads(lines[1])["id"]
    # A comment on the first paper that names the second: its line, met first, is not the
    # second's.
    row = json.loads(lines[0])
    row["replies"][0]["content"]["related"] = {"value": second_id}
    lines[0] = json.dumps(row)
    assert json.dumps(second_id) in lines[0]
    source = tmp_path / "c.jsonl.gz"
    source.write_bytes(gzip.compress(("\n".join(lines) + "\n").encode("utf-8")))
    ahead: dict[int, list[tuple[str, int]]] = {}

    def papers_in() -> None:
        for paper_id in library.all_ids():
            assert library.conference.replies(paper_id) == []  # not written yet
            shown = library.conference.discussion_ahead(paper_id)
            ahead[paper_id] = [(p.reply.id, p.depth) for p in shown.postings]

    library.imports.write_files([source], papers_in=papers_in)
    assert len(ahead) == 6 and all(ahead.values())
    for paper_id, postings in ahead.items():
        written = library.conference.discussion(paper_id)
        assert [(p.reply.id, p.depth) for p in written.postings] == postings
    bib = tmp_path / "one.bib"
    bib.write_text("@article{a, title={A title of a paper}, year={2020}}\n")
    library.imports.write_files([bib])
    other = library.search("title").ids[0]
    assert len(library.conference.discussion_ahead(other)) == 0


def test_a_read_ahead_stops_when_told(tmp_path: Path) -> None:
    """The reader moved on to another paper: the file is read no further."""
    from reader.sources.openreview import replies_in_file

    path = conference(tmp_path / "c.jsonl", 3)
    first = json.loads(path.read_text(encoding="utf-8").splitlines()[0])["id"]
    assert replies_in_file(path, first)
    assert replies_in_file(path, first, stopped=lambda: True) == []


def test_an_import_stopped_and_finished_counts_the_ratings_both_runs_changed(
    tmp_path: Path, empty_library: Library,
) -> None:
    """A kill while the reviews were written, then the file again: is:rating-changed and
    the summary counted only what the second run changed (45 of 90 papers, in a new user's
    trial)."""
    whole = Library(tmp_path / "whole")
    try:
        whole.imports.write_files([SAMPLE])
        changed_once = whole.search("is:rating-changed").ids
    finally:
        whole.close()
    library = empty_library

    def stop(done: int, total: int) -> None:
        if done == 3:  # the paper whose rating changed has its replies written
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        library.imports.write_files([SAMPLE], batch=1, replies_progress=stop)
    again = library.imports.write_files([SAMPLE])
    changed = library.search("is:rating-changed").ids
    assert changed and len(changed) == len(changed_once)
    assert again.ratings_changed == len(changed)
    # The same file once more changes nothing, and takes over nothing.
    assert library.imports.write_files([SAMPLE]).ratings_changed == 0
