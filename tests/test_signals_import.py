"""Conference signals through a real import: replies and signals written with their papers
in the import's transaction, a re-import with edited ratings kept as history and counted,
the same reply in two files one reply, replies waiting for their paper, and aggregates of
a list merged into papers already there by OpenReview id."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from reader.library import Library
from reader.library.read_ahead import read_ahead
from reader.sources import stream_file
from reader.store import paper_signals as stored_signals
from reader.store import replies as stored_replies

DATA = Path(__file__).parent / "data"
SAMPLE = DATA / "openreview-replies-3.jsonl"


def _rows() -> list[dict[str, Any]]:
    return [json.loads(line) for line in SAMPLE.read_text(encoding="utf-8").splitlines()]


def _write(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


def _paper_id(conn: sqlite3.Connection, openreview_id: str) -> int:
    return int(conn.execute(
        "SELECT id FROM papers WHERE openreview_id = ?", (openreview_id,)).fetchone()[0])


def _last_import(conn: sqlite3.Connection) -> int:
    return int(conn.execute("SELECT max(id) FROM imports").fetchone()[0])


def test_an_import_writes_replies_and_signals_and_a_reimport_their_changes(
    empty_library: Library, tmp_path: Path
) -> None:
    library = empty_library
    first = library.imports.write_files([SAMPLE])
    assert (first.new, first.replies_new, first.reply_versions) == (3, 15, 1)
    # Both versions of a review edited after the rebuttal (6, then 4) are in the file: kept,
    # and its paper counted as one whose ratings changed, as its history shows.
    assert (first.ratings_changed, first.new_decisions) == (1, 0)
    conn = sqlite3.connect(library.paths.database)
    paper = _paper_id(conn, "DkHt2K1g2Y")
    signals = stored_signals.signals_of(conn, paper)
    assert signals is not None and signals.ratings == (4.0, 6.0, 6.0, 4.0)
    assert signals.decision == "pending" and signals.reviews == 4 and signals.comments == 1
    assert conn.execute("SELECT count(*) FROM replies").fetchone()[0] == 15
    assert conn.execute("SELECT count(*) FROM reply_versions").fetchone()[0] == 16

    # The same file again: nothing new, nothing changed.
    again = library.imports.write_files([SAMPLE])
    assert (again.replies_new, again.reply_versions, again.ratings_changed) == (0, 0, 0)

    # After the rebuttal: one review raised 4 → 6, a decision posted.
    rows = _rows()
    row = next(r for r in rows if r["id"] == "DkHt2K1g2Y")
    review = next(r for r in row["replies"] if r["id"] == "eIvfGTSO8v")
    review["content"]["rating"] = {"value": 6}
    review["mdate"] += 86_400_000
    review["content"]["weaknesses"] = {"value": "Addressed in the rebuttal."}
    row["replies"].append({
        "id": "DecDkHt2K1", "forum": "DkHt2K1g2Y", "replyto": "DkHt2K1g2Y",
        "invitations": ["ICLR.cc/2026/Conference/Submission109/-/Decision"],
        "signatures": ["ICLR.cc/2026/Program_Chairs"], "cdate": 1769000000000,
        "mdate": 1769000000000,
        "content": {"title": {"value": "Paper Decision"}, "decision": {"value": "Accept (Oral)"}},
    })
    edited = library.imports.write_files([_write(tmp_path / "after.jsonl", rows)])
    assert (edited.ratings_changed, edited.new_decisions) == (1, 1)
    assert (edited.replies_new, edited.reply_versions) == (1, 1)
    assert edited.signals_line() == (
        "1 paper whose reviewers changed a rating, 1 new decision; 1 new reply "
        "and 1 edited reply"
    )
    conn = sqlite3.connect(library.paths.database)
    assert stored_signals.papers_with_changed_ratings(conn, _last_import(conn)) == [paper]
    history = stored_replies.rating_history(conn, paper)["eIvfGTSO8v"]
    assert [v.rating for v in history] == [4.0, 6.0]
    signals = stored_signals.signals_of(conn, paper)
    assert signals is not None and signals.ratings == (6.0, 6.0, 6.0, 4.0)
    assert (signals.decision, signals.decision_raw) == ("oral", "Accept (Oral)")
    old = stored_replies.version_text(conn, "eIvfGTSO8v", history[0].mdate)
    assert old is not None and old["weaknesses"].startswith("\uff11.")


def test_the_same_reply_in_two_files_is_one_reply(empty_library: Library, tmp_path: Path) -> None:
    rows = _rows()
    one = _write(tmp_path / "one.jsonl", rows[:2])
    two = _write(tmp_path / "two.jsonl", rows[1:])
    empty_library.imports.write_files([one, two])
    conn = sqlite3.connect(empty_library.paths.database)
    assert conn.execute("SELECT count(*) FROM replies").fetchone()[0] == 15
    assert conn.execute("SELECT count(*) FROM reply_versions").fetchone()[0] == 16


def test_replies_without_their_paper_wait_for_it(empty_library: Library, tmp_path: Path) -> None:
    rows = _rows()
    flat = [dict(reply) for reply in rows[0]["replies"]]
    summary = empty_library.imports.write_files([_write(tmp_path / "flat.jsonl", flat)])
    assert summary.new == 0 and summary.replies_waiting == 5
    assert any("not in the file" in p for p in summary.problems)
    conn = sqlite3.connect(empty_library.paths.database)
    assert len(stored_replies.waiting_replies(conn, "DkHt2K1g2Y")) == 5
    paper_only = dict(rows[0], replies=None)
    paper_only.pop("replies")
    empty_library.imports.write_files([_write(tmp_path / "paper.jsonl", [paper_only])])
    conn = sqlite3.connect(empty_library.paths.database)
    paper = _paper_id(conn, "DkHt2K1g2Y")
    assert len(stored_replies.replies_of(conn, paper)) == 5
    signals = stored_signals.signals_of(conn, paper)
    assert signals is not None and signals.rating_count == 4


def test_a_list_of_orals_merges_into_papers_there_by_openreview_id(
    empty_library: Library, tmp_path: Path
) -> None:
    empty_library.imports.write_files([SAMPLE])
    orals = {"generated_at": "2026-04-01", "papers": [
        {"title": "Reasoning as Representation: Rethinking Visual Reinforcement Learning in "
                  "Image Quality Assessment", "openreview_id": "DkHt2K1g2Y",
         "authors": ["Ada Lovelace"], "venue": "ICLR 2026 Oral", "avg_rating": 9.9,
         "n_ratings": 4, "room": "Hall 1"},
    ]}
    path = tmp_path / "orals.json"
    path.write_text(json.dumps(orals), encoding="utf-8")
    summary = empty_library.imports.write_files([path])
    assert (summary.new, summary.merged, summary.new_decisions) == (0, 1, 1)
    conn = sqlite3.connect(empty_library.paths.database)
    paper = _paper_id(conn, "DkHt2K1g2Y")
    signals = stored_signals.signals_of(conn, paper)
    assert signals is not None
    assert signals.decision == "oral"
    assert signals.ratings == (4.0, 6.0, 6.0, 4.0)  # the reviews' ratings over the list's mean
    assert signals.rating_mean == 5.0


def test_read_ahead_carries_replies_and_waiting_replies(tmp_path: Path) -> None:
    rows = _rows()
    flat = [dict(reply, forum="Elsewhere1") for reply in rows[0]["replies"][:2]]
    path = _write(tmp_path / "ahead.jsonl", [*rows, *flat])
    item = stream_file(path)
    with read_ahead(item, 1) as records:
        got = [r.record if hasattr(r, "record") else r for r in records]
    assert sum(len(r.replies) for r in got) == 16
    assert sorted(r.id for r in item.orphans) == sorted(r["id"] for r in flat)


def test_a_rating_edited_without_a_new_date_is_an_edit_all_the_same(
    empty_library: Library, tmp_path: Path
) -> None:
    """A file whose review was edited by hand (or a source that does not move ``mdate``):
    the new rating is taken, the old kept as history, the paper is not "unchanged", and the
    same edited file again changes nothing more."""
    library = empty_library
    library.imports.write_files([SAMPLE])
    rows = _rows()
    row = next(r for r in rows if r["id"] == "DkHt2K1g2Y")
    review = next(r for r in row["replies"] if r["id"] == "hzYRm24GXW")
    conn = sqlite3.connect(library.paths.database)
    paper = _paper_id(conn, "DkHt2K1g2Y")
    before = stored_replies.rating_history(conn, paper)["hzYRm24GXW"][-1].rating
    review["content"]["rating"] = {"value": 2}
    edited_file = _write(tmp_path / "edited.jsonl", rows)

    edited = library.imports.write_files([edited_file])
    assert (edited.merged, edited.ratings_changed) == (1, 1)
    conn = sqlite3.connect(library.paths.database)
    history = stored_replies.rating_history(conn, paper)["hzYRm24GXW"]
    assert [v.rating for v in history][-2:] == [before, 2.0]
    assert stored_signals.papers_with_changed_ratings(conn, _last_import(conn)) == [paper]
    assert [r.rating.value for r in stored_replies.replies_of(conn, paper)
            if r.id == "hzYRm24GXW" and r.rating] == [2.0]

    again = library.imports.write_files([edited_file])
    assert (again.merged, again.reply_versions, again.ratings_changed) == (0, 0, 0)


# NeurIPS 2024's rating options, written whole: the higher ones run past 200 characters.
NEURIPS_SEVEN = (
    "7: Accept: Technically solid paper, with high impact on at least one sub-area, or "
    "moderate-to-high impact on more than one areas, with good-to-excellent evaluation, "
    "resources, reproducibility, and no unaddressed ethical considerations."
)


def test_a_rating_with_a_long_label_counts_by_its_number(
    empty_library: Library, tmp_path: Path
) -> None:
    """NeurIPS labels its 7 and above with sentences of over 200 characters: each is the
    number it opens with, in the mean like any other, not "a rating not a number"."""
    rows = _rows()
    row = next(r for r in rows if r["id"] == "DkHt2K1g2Y")
    review = next(r for r in row["replies"] if r["id"] == "eIvfGTSO8v")
    review["content"]["rating"] = {"value": NEURIPS_SEVEN}
    summary = empty_library.imports.write_files([_write(tmp_path / "neurips.jsonl", rows)])
    assert "not a number" not in summary.signals_line()
    conn = sqlite3.connect(empty_library.paths.database)
    signals = stored_signals.signals_of(conn, _paper_id(conn, "DkHt2K1g2Y"))
    assert signals is not None and 7.0 in signals.ratings


def test_a_decision_given_in_other_words_is_a_merge_not_unchanged(
    empty_library: Library, tmp_path: Path
) -> None:
    """A table's "poster" then the venue's "Accept (Poster)": the same decision, but the
    words the library shows are rewritten, so the paper is merged (and the words kept for
    undo), never counted unchanged; said back in a word, the words stay and nothing is."""
    said = {"word": "poster", "words": "Accept (Poster)"}
    for name, decision in said.items():
        (tmp_path / f"{name}.csv").write_text(
            f"title,abstract,decision\nSparse Things,We study sparse things.,{decision}\n",
            encoding="utf-8")
    empty_library.import_files([tmp_path / "word.csv"])

    reworded = empty_library.imports.write_files([tmp_path / "words.csv"])
    again = empty_library.imports.write_files([tmp_path / "word.csv"])

    assert (reworded.merged, reworded.unchanged) == (1, 0)
    assert (again.merged, again.unchanged) == (0, 1)
    [paper] = empty_library.store.iter_papers()
    assert empty_library.signals([paper.id])[paper.id].decision_raw == "Accept (Poster)"
