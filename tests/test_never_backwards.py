"""Never backwards: an older snapshot of a list does not put its text back over newer text,
an undated one not over dated text, and text replaced where no date tells which is newer
is kept as a revision, restorable."""

from __future__ import annotations

import csv
import json
import sqlite3
from pathlib import Path

from click.testing import CliRunner

from reader.cli import cli
from reader.library import Library
from reader.sources.arxiv_kaggle import parse as parse_kaggle
from reader.sources.jsonfields import moment_from_text

NOV = 1_762_000_000_000  # 2025-11-01, the submission snapshot
JAN = 1_768_000_000_000  # 2026-01-09, the camera-ready snapshot

A, B, C = "Rt8kLm2QxA", "Fw3nZp9VbC", "Hq5sTd7YeK"  # OpenReview forum ids
SUBMITTED = {
    A: ("Sparse Routers for Mixtures", "We route tokens sparsely across experts and show "
        "the routers learn balanced loads without an auxiliary loss term at all."),
    B: ("Residual Flows Revisited", "Residual flows are revisited with a new estimator of "
        "the log determinant whose variance is bounded for every depth of the network."),
    C: ("Calibrated Agents", "Agents that plan with language models are calibrated by a "
        "simple rescaling of their value estimates learned from held-out episodes."),
}
CAMERA_READY = {
    A: ("Sparse Routers for Mixtures of Experts", SUBMITTED[A][1] + " Camera-ready: "
        "we add experiments at scale and a proof of convergence for the balancing rule."),
    B: (SUBMITTED[B][0], SUBMITTED[B][1] + " Camera-ready: a tighter bound, and "
        "density estimation results on four image data sets."),
    C: SUBMITTED[C],
}


def _snapshot(path: Path, papers: dict[str, tuple[str, str]], mdate: int | None) -> Path:
    lines = []
    for forum, (title, abstract) in papers.items():
        note: dict[str, object] = {
            "id": forum, "forum": forum, "number": len(lines) + 1, "cdate": NOV - 10**9,
            "invitations": ["ICLR.cc/2026/Conference/-/Submission"],
            "content": {"title": {"value": title}, "abstract": {"value": abstract},
                        "venue": {"value": "ICLR 2026 Poster"}},
        }
        if mdate is not None:
            note["mdate"] = mdate
        lines.append(json.dumps(note))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _texts(library: Library) -> dict[str, tuple[str, str]]:
    with sqlite3.connect(library.paths.database) as conn:
        return {r[0]: (r[1], r[2]) for r in conn.execute(
            "SELECT openreview_id, title, abstract FROM papers")}


def _key(library: Library, forum: str) -> tuple[int, str]:
    """The id and citation key of the paper of an OpenReview forum."""
    with sqlite3.connect(library.paths.database) as conn:
        row = conn.execute(
            "SELECT id, citekey FROM papers WHERE openreview_id = ?", (forum,)
        ).fetchone()
    return int(row[0]), str(row[1])


def test_an_older_snapshot_keeps_the_newer_camera_ready_text(
    empty_library: Library, tmp_path: Path
) -> None:
    library = empty_library
    library.import_files([_snapshot(tmp_path / "jan.jsonl", CAMERA_READY, JAN)])
    summary = library.import_files([_snapshot(tmp_path / "nov.jsonl", SUBMITTED, NOV)])
    assert _texts(library) == CAMERA_READY
    assert library.queries.stats()["papers"] == 3
    assert (summary.older_abstracts, summary.older_titles, summary.revisions_kept) == (2, 1, 0)
    assert summary.text_line() == (
        "2 abstracts and 1 title left as they were: the file's text is dated before the one in "
        "the library"
    )


def test_a_newer_snapshot_replaces_older_text_and_keeps_it(
    empty_library: Library, tmp_path: Path
) -> None:
    library = empty_library
    library.import_files([_snapshot(tmp_path / "nov.jsonl", SUBMITTED, NOV)])
    summary = library.import_files([_snapshot(tmp_path / "jan.jsonl", CAMERA_READY, JAN)])
    assert _texts(library) == CAMERA_READY
    assert (summary.retitled, summary.revised, summary.older_abstracts) == (1, 1, 0)
    # Dated on both sides: a replacement, not one to report; the old text is kept anyway.
    assert summary.revisions_kept == 0
    kept = library.queries.text_revisions(_key(library, A)[0])
    assert [(r.field, r.text) for r in kept] == [
        ("title", SUBMITTED[A][0]), ("abstract", SUBMITTED[A][1])
    ]
    assert kept[0].modified == moment_from_text(NOV)


def test_undated_text_is_replaced_and_kept_as_a_restorable_revision(
    empty_library: Library, tmp_path: Path
) -> None:
    library = empty_library
    library.import_files([_snapshot(tmp_path / "jan.jsonl", CAMERA_READY, None)])
    summary = library.import_files([_snapshot(tmp_path / "nov.jsonl", SUBMITTED, None)])
    assert _texts(library) == SUBMITTED
    assert summary.revisions_kept == 3  # two abstracts and a title
    assert summary.text_line() == (
        "2 abstracts and 1 title replaced (no date said which text was newer), the old kept "
        "as revisions (reader revisions REF)"
    )
    runner = CliRunner()
    base = ["--library", str(library.paths.root)]
    paper_id, key = _key(library, A)
    listed = runner.invoke(cli, [*base, "revisions", key], obj={})
    assert listed.exit_code == 0, listed.output
    assert "title" in listed.output and "abstract" in listed.output
    shown = runner.invoke(cli, [*base, "revisions", key, "--show", "2"], obj={})
    assert shown.output.strip() == CAMERA_READY[A][1]
    restored = runner.invoke(cli, [*base, "revisions", key, "--restore", "2"], obj={})
    assert restored.exit_code == 0, restored.output
    assert _texts(library)[A] == (SUBMITTED[A][0], CAMERA_READY[A][1])
    again = library.queries.text_revisions(paper_id)
    assert again[-1].kind == "restore" and again[-1].text == SUBMITTED[A][1]
    # Importing the camera-ready file once more finds the paper by its restored abstract.
    library.import_files([_snapshot(tmp_path / "jan2.jsonl", CAMERA_READY, None)])
    assert library.queries.stats()["papers"] == 3


def test_the_sources_carry_the_records_modification_date(tmp_path: Path) -> None:
    line = {
        "id": "2101.00001", "title": "A", "abstract": "An abstract of a paper.",
        "versions": [{"version": "v1", "created": "Fri, 1 Jan 2021 10:00:00 GMT"},
                     {"version": "v3", "created": "Mon, 1 Mar 2021 12:00:00 GMT"},
                     {"version": "v2", "created": "Mon, 1 Feb 2021 12:00:00 GMT"}],
    }
    (record,) = parse_kaggle(json.dumps(line) + "\n", "a.jsonl").records
    assert record.modified == "2021-03-01T12:00:00Z"
    assert record.date == "2021-01-01"


def _wrapped(path: Path, papers: dict[str, tuple[str, str]], made: str) -> Path:
    """A list of the papers as a site's dump wraps it: dated by the wrapper alone, each
    paper by its OpenReview id under ``id``."""
    rows = [{"id": forum, "title": title, "abstract": abstract, "venue": "ICLR 2026 Poster",
             "authors": "Ann Lee; Bo Li"} for forum, (title, abstract) in papers.items()]
    path.write_text(json.dumps({"generated_at": made, "papers": rows}), encoding="utf-8")
    return path


def test_a_wrapped_list_is_dated_by_its_wrapper_and_known_by_its_ids(
    empty_library: Library, tmp_path: Path
) -> None:
    library = empty_library
    library.import_files([_wrapped(tmp_path / "jan.json", CAMERA_READY, "2026-01-09T10:00Z")])
    summary = library.import_files(
        [_wrapped(tmp_path / "nov.json", SUBMITTED, "2025-11-01T10:00:00Z")])
    assert (summary.new, summary.older_abstracts, summary.older_titles) == (0, 2, 1)
    assert _texts(library) == CAMERA_READY
    # A citation key or a row number under "id" is no OpenReview id.
    from reader.sources.jsontable import _looks_like_forum

    assert [_looks_like_forum(v) for v in (A, "lee2026cam", "1234567890", 17)] == [
        True, False, False, False]


def test_a_tables_date_modified_dates_its_text(empty_library: Library, tmp_path: Path) -> None:
    """Zotero's CSV says when each item was last changed: an item changed before the
    library's text was written (the submission abstract) does not put it back."""
    library = empty_library
    library.import_files([_snapshot(tmp_path / "jan.jsonl", CAMERA_READY, JAN)])
    older = tmp_path / "zotero.csv"
    with older.open("w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow(["Title", "Abstract Note", "Url", "Date Modified"])
        for forum, (title, abstract) in SUBMITTED.items():
            writer.writerow([title, abstract, f"https://openreview.net/forum?id={forum}",
                             "2025-10-01 09:00:00"])
    summary = library.import_files([older])
    assert _texts(library) == CAMERA_READY
    assert summary.older_abstracts == 2 and summary.revisions_kept == 0


def test_an_undated_table_leaves_a_dated_title_and_imports_settle(
    empty_library: Library, tmp_path: Path
) -> None:
    # A decisions table naming a paper by its short name and link: it adds the decision,
    # and the OpenReview title, dated, stays, however often either file is imported again.
    library = empty_library
    dated = _snapshot(tmp_path / "jan.jsonl", {A: CAMERA_READY[A]}, JAN)
    table = tmp_path / "decisions.csv"
    table.write_text(f"title,openreview_url,decision\nSparse,https://openreview.net/forum?id={A},"
                     "ICLR 2026 Poster\n", encoding="utf-8")
    library.import_files([dated])
    for path in (table, dated, table, dated):
        summary = library.import_files([path])
        assert _texts(library)[A] == CAMERA_READY[A]
        assert summary.revisions_kept == 0
    summary = library.import_files([table])
    assert summary.text_line() == "1 title left as it was: the file's text is undated, the " \
        "library's dated"
    assert library.queries.text_revisions(_key(library, A)[0]) == []


def test_a_dated_file_over_a_tables_undated_title_says_the_dates_decided(
    empty_library: Library, tmp_path: Path
) -> None:
    # The table first: its short names are undated, the OpenReview file's titles dated.
    # What decided is said, not "no date said which text was newer"; and a withdrawal only
    # one paper took is counted as one, beside what the others took.
    library = empty_library
    table = tmp_path / "decisions.csv"
    table.write_text(
        "title,openreview_url,decision\n"
        f"Sparse,https://openreview.net/forum?id={A},Withdrawn\n"
        f"Residual,https://openreview.net/forum?id={B},Reject\n", encoding="utf-8")
    library.import_files([table])
    summary = library.import_files([_snapshot(tmp_path / "jan.jsonl", CAMERA_READY, JAN)])
    assert summary.revisions_kept == 0
    assert summary.text_line() == (
        "2 titles replaced: the file's text is dated, the library's undated, the old kept as "
        "revisions (reader revisions REF)")
    other = Library(tmp_path / "other")
    try:
        other.import_files([_snapshot(tmp_path / "nov.jsonl", SUBMITTED, NOV)])
        summary = other.import_files([table])
    finally:
        other.close()
    assert summary.filled_line() == (
        "2 papers already in the library took withdrawn (1 paper), other fields (1 paper) "
        "from the file")
