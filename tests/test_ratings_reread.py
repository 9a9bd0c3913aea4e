"""Ratings stored as an older reader read them are read again from their own words: by the
upgrade (migration 0013), and by an import of the same file, which says "ratings re-read"
and not "edited" when only the reading changed."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from reader.library import Library
from reader.store import paper_signals as stored_signals

DATA = Path(__file__).parent / "data"
SAMPLE = DATA / "openreview-replies-3.jsonl"
PAPER, REVIEW = "DkHt2K1g2Y", "eIvfGTSO8v"
# NeurIPS 2024's 7, written whole: over 200 characters, which an older reader took for no
# number.
SEVEN = (
    "7: Accept: Technically solid paper, with high impact on at least one sub-area, or "
    "moderate-to-high impact on more than one areas, with good-to-excellent evaluation, "
    "resources, reproducibility, and no unaddressed ethical considerations."
)


def _neurips_file(tmp_path: Path) -> Path:
    rows: list[dict[str, Any]] = [
        json.loads(line) for line in SAMPLE.read_text(encoding="utf-8").splitlines()]
    row = next(r for r in rows if r["id"] == PAPER)
    review = next(r for r in row["replies"] if r["id"] == REVIEW)
    review["content"]["rating"] = {"value": SEVEN}
    path = tmp_path / "neurips.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _as_the_old_reader_stored_it(database: Path, upgraded: bool = False) -> list[float]:
    """Write the review's rating as the older reader did (no number, left out of the
    paper's ratings) and mark the library as made before migration 0013 (unless
    ``upgraded``: as a reader reading labels better still would find it); the paper's
    ratings as it then held them."""
    conn = sqlite3.connect(database)
    with conn:
        reply = conn.execute("SELECT id, paper_id FROM replies WHERE note_id = ?",
                             (REVIEW,)).fetchone()
        conn.execute("UPDATE replies SET rating = NULL WHERE id = ?", (reply[0],))
        for version, scores in conn.execute(
                "SELECT id, scores FROM reply_versions WHERE reply_id = ?", (reply[0],)
        ).fetchall():
            read = json.loads(scores)
            read["rating"]["value"] = None
            conn.execute("UPDATE reply_versions SET scores = ?, rating = NULL WHERE id = ?",
                         (json.dumps(read, separators=(",", ":")), version))
        signals = stored_signals.signals_of(conn, reply[1])
        assert signals is not None
        old = list(signals.ratings)
        old.remove(7.0)
        mean = sum(old) / len(old)
        conn.execute(
            "UPDATE paper_signals SET ratings = ?, rating_mean = ?, rating_count = ? "
            "WHERE paper_id = ?", (json.dumps(old), mean, len(old), reply[1]))
        if not upgraded:
            conn.execute("PRAGMA user_version = 12")
    conn.close()
    return old


def _ratings(library: Library) -> tuple[float, ...]:
    conn = sqlite3.connect(library.paths.database)
    paper = conn.execute("SELECT id FROM papers WHERE openreview_id = ?", (PAPER,)).fetchone()
    signals = stored_signals.signals_of(conn, paper[0])
    rating = conn.execute("SELECT rating FROM replies WHERE note_id = ?", (REVIEW,)).fetchone()
    conn.close()
    assert signals is not None and rating[0] == 7.0
    return signals.ratings


def test_the_upgrade_reads_stored_ratings_again(tmp_path: Path) -> None:
    """A library whose NeurIPS 7 was stored as no number has it counted once opened by
    this reader, without the file; no rating counts as changed by its reviewer."""
    library = Library(tmp_path / "lib")
    library.imports.write_files([_neurips_file(tmp_path)])
    database = library.paths.database
    library.close()
    old = _as_the_old_reader_stored_it(database)
    library = Library(tmp_path / "lib")
    try:
        ratings = _ratings(library)
        assert 7.0 in ratings and len(ratings) == len(old) + 1
        conn = sqlite3.connect(database)
        assert conn.execute("SELECT count(*) FROM reply_versions v JOIN replies r ON "
                            "r.id = v.reply_id WHERE r.note_id = ?", (REVIEW,)).fetchone() == (1,)
        conn.close()
        again = library.imports.write_files([_neurips_file(tmp_path)])
        assert (again.merged, again.reply_versions, again.ratings_changed) == (0, 0, 0)
    finally:
        library.close()


def test_a_paper_that_only_gained_a_review_has_no_changed_ratings(tmp_path: Path) -> None:
    """is:rating-changed is for reviewers who changed a rating: a fourth review added to
    three unchanged ones changes the paper's ratings, but none of them moved."""
    rows: list[dict[str, Any]] = [
        json.loads(line) for line in SAMPLE.read_text(encoding="utf-8").splitlines()]
    row = next(r for r in rows if r["id"] == PAPER)
    full = list(row["replies"])
    row["replies"] = [r for r in full if r["id"] != REVIEW]
    older = tmp_path / "older.jsonl"
    older.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    row["replies"] = full
    newer = tmp_path / "newer.jsonl"
    newer.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    library = Library(tmp_path / "lib")
    try:
        library.imports.write_files([older])
        before = _ratings_of(library)
        summary = library.imports.write_files([newer])
        assert len(_ratings_of(library)) == len(before) + 1
        assert summary.ratings_changed == 0
        changed = library.search("is:rating-changed").ids
        conn = sqlite3.connect(library.paths.database)
        paper = conn.execute("SELECT id FROM papers WHERE openreview_id = ?", (PAPER,)).fetchone()
        conn.close()
        assert paper[0] not in changed
    finally:
        library.close()


def _ratings_of(library: Library) -> tuple[float, ...]:
    conn = sqlite3.connect(library.paths.database)
    paper = conn.execute("SELECT id FROM papers WHERE openreview_id = ?", (PAPER,)).fetchone()
    signals = stored_signals.signals_of(conn, paper[0])
    conn.close()
    assert signals is not None
    return signals.ratings


def test_an_import_of_the_same_file_reads_ratings_again_and_edits_no_review(
    tmp_path: Path
) -> None:
    """The file imported again over ratings stored as an older reading gives the numbers
    and says they were re-read: the reviews' words are the same, so none is "edited" and
    no rating counts as changed."""
    library = Library(tmp_path / "lib")
    library.imports.write_files([_neurips_file(tmp_path)])
    database = library.paths.database
    library.close()
    old = _as_the_old_reader_stored_it(database, upgraded=True)
    library = Library(tmp_path / "lib")
    try:
        assert 7.0 not in _ratings_of(library)
        summary = library.imports.write_files([_neurips_file(tmp_path)])
        assert len(_ratings(library)) == len(old) + 1
        assert (summary.reply_versions, summary.ratings_changed) == (0, 0)
        assert "1 review's rating re-read from its words" in summary.signals_line()
        assert "edited repl" not in summary.signals_line()
    finally:
        library.close()
