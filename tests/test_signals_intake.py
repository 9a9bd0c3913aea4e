"""What an import says of replies it cannot count as usual, through the real import into a
real library: a review whose rating is no number is named, and a reply kept for a paper not
in the library is no skipped record."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from reader.cli import cli
from reader.library import Library
from reader.store import paper_signals as stored_signals

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


def _review(rows: list[dict[str, Any]], paper: str, note: str) -> dict[str, Any]:
    row = next(r for r in rows if r["id"] == paper)
    found: dict[str, Any] = next(r for r in row["replies"] if r["id"] == note)
    return found


def test_a_rating_that_is_no_number_is_named(empty_library: Library, tmp_path: Path) -> None:
    rows = _rows()
    _review(rows, "DkHt2K1g2Y", "hzYRm24GXW")["content"]["rating"] = {"value": "N/A"}
    summary = empty_library.imports.write_files([_write(tmp_path / "na.jsonl", rows)])
    assert (summary.read, summary.skipped) == (3, 0)
    assert "review hzYRm24GXW of paper DkHt2K1g2Y: rating 'N/A' is not a number; kept as " \
        "written" in summary.problems
    assert "1 rating not a number, kept as written" in summary.signals_line()
    conn = sqlite3.connect(empty_library.paths.database)
    signals = stored_signals.signals_of(conn, _paper_id(conn, "DkHt2K1g2Y"))
    assert signals is not None and signals.rating_count == 3 and signals.reviews == 4


def test_a_reply_whose_paper_is_missing_is_no_skipped_paper(
    tmp_path: Path, empty_library: Library
) -> None:
    rows = _rows()
    paper = {k: v for k, v in rows[1].items() if k != "replies"}
    lost = dict(rows[0]["replies"][0])
    path = _write(tmp_path / "flat.jsonl", [lost, paper])
    summary = empty_library.imports.write_files([path])
    assert (summary.read, summary.new, summary.skipped) == (1, 1, 0)
    assert summary.signals_line() == "1 new reply; 1 reply kept for a paper not in the library"
    result = CliRunner().invoke(
        cli, ["--library", str(empty_library.paths.root), "import", "--dry-run",
              "--verbose", str(path)],
    )
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert not any(line.startswith("; ") for line in lines)
    assert "1 read: 0 new, 0 merged, 1 unchanged, 0 skipped — dry run, nothing was written" \
        in lines


def test_an_older_snapshot_without_replies_keeps_the_count_of_those_held(
    empty_library: Library, tmp_path: Path
) -> None:
    """OpenReview v1's ``details.replies: []`` (a snapshot taken before the reviews) says
    0 reviews; the replies the library holds are what the paper's count says, as they
    are what its ratings and its reviews listed say."""
    rows = _rows()
    empty_library.imports.write_files([_write(tmp_path / "new.jsonl", rows)])
    older = {k: v for k, v in rows[0].items() if k != "replies"}
    older["content"] = {k: v for k, v in older["content"].items() if k != "venue"}
    older["details"] = {"replyCount": 0, "replies": []}
    empty_library.imports.write_files([_write(tmp_path / "older.jsonl", [older])])
    conn = sqlite3.connect(empty_library.paths.database)
    signals = stored_signals.signals_of(conn, _paper_id(conn, rows[0]["id"]))
    assert signals is not None and signals.rating_count == 4
    assert (signals.reviews, signals.comments) == (4, 1)
