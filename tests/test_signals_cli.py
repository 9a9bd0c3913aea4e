"""The command line on conference signals, through click's runner on a real library:
``reader reviews REF`` (human and ``--json``), ``reader search --json`` rows with ratings,
decision, counts and ids, ``--sort``, a REF given as an OpenReview id, an arXiv id or a
DOI, CSV and JSON exports with the signals, and a misspelt field said."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from reader.cli import cli

SAMPLE = Path(__file__).parent / "data" / "openreview-replies-3.jsonl"
# A rebuttal answering the first review of the first paper, and a reviewer's answer to it.
REBUTTAL = {
    "id": "Rebut1abcd", "forum": "DkHt2K1g2Y", "replyto": "eIvfGTSO8v",
    "invitations": ["ICLR.cc/2026/Conference/Submission109/-/Official_Comment"],
    "signatures": ["ICLR.cc/2026/Conference/Submission109/Authors"],
    "cdate": 1763000000000, "mdate": 1763000000000,
    "content": {"title": {"value": "Rebuttal"},
                "comment": {"value": "We fixed the \x1b[2Jdata leakage in Table 2."}},
}
ANSWER = {
    "id": "Answer1abc", "forum": "DkHt2K1g2Y", "replyto": "Rebut1abcd",
    "invitations": ["ICLR.cc/2026/Conference/Submission109/-/Official_Comment"],
    "signatures": ["ICLR.cc/2026/Conference/Submission109/Reviewer_6GPX"],
    "cdate": 1763100000000, "mdate": 1763100000000,
    "content": {"comment": {"value": "Thanks, I raise my score."}},
}


@pytest.fixture
def lib(tmp_path: Path) -> Path:
    """A library of the three sample papers with their replies, and a rebuttal thread."""
    rows = [json.loads(line) for line in SAMPLE.read_text(encoding="utf-8").splitlines()]
    rows[0]["replies"] += [REBUTTAL, ANSWER]
    path = tmp_path / "sample.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    root = tmp_path / "lib"
    _invoke(root, "import", str(path))
    conn = sqlite3.connect(root / "library.sqlite")
    with conn:
        conn.execute("UPDATE papers SET arxiv_id = '2510.01234', doi = '10.1234/defacto.5' "
                     "WHERE openreview_id = 'sLkis6UGKk'")
    conn.close()
    return root


def _invoke(root: Path, *args: str, ok: bool = True) -> Result:
    result = CliRunner().invoke(cli, ["--library", str(root), *args], obj={})
    if ok:
        assert result.exit_code == 0, result.output
    else:
        assert result.exit_code != 0, result.output
    return result


def _json(result: Result) -> Any:
    return json.loads(result.stdout)


def test_reviews_json_lists_every_reply_with_its_scores_and_texts(lib: Path) -> None:
    replies = _json(_invoke(lib, "reviews", "DkHt2K1g2Y", "--json"))
    assert len(replies) == 7
    by_id = {r["id"]: r for r in replies}
    review = by_id["eIvfGTSO8v"]
    assert (review["kind"], review["replyto"], review["rating"]) == (
        "Official_Review", "DkHt2K1g2Y", 4.0)
    assert review["confidence"] == 5.0
    assert review["scores"]["soundness"] == {"value": 3.0, "raw": "3"}
    assert set(review["texts"]) >= {"summary", "strengths", "weaknesses", "questions"}
    rebuttal = by_id["Rebut1abcd"]
    assert (rebuttal["kind"], rebuttal["replyto"], rebuttal["rating"]) == (
        "Official_Comment", "eIvfGTSO8v", None)
    assert rebuttal["texts"]["comment"].startswith("We fixed")


def test_reviews_thread_comments_under_what_they_answer(lib: Path) -> None:
    out = _invoke(lib, "reviews", "DkHt2K1g2Y").stdout
    assert out.splitlines()[1].startswith("ratings 4 6 6 4 · mean 5.0")
    lines = out.splitlines()
    review = next(i for i, line in enumerate(lines)
                  if line.startswith("Official_Review eIvfGTSO8v"))
    rebuttal = next(i for i, line in enumerate(lines) if "Official_Comment Rebut1abcd" in line)
    answer = next(i for i, line in enumerate(lines) if "Official_Comment Answer1abc" in line)
    assert review < rebuttal < answer
    assert lines[rebuttal].startswith("    └ ") and lines[answer].startswith("        └ ")
    # Nothing between the review and its rebuttal but the review's own text.
    assert not any(line.startswith("Official_") for line in lines[review + 1 : rebuttal])
    assert "rating 4" in lines[review] and "confidence 5" in lines[review]
    assert "\x1b" not in out  # a terminal escape in a reply is inert


def test_reviews_of_a_paper_without_replies(lib: Path, tmp_path: Path) -> None:
    seed = tmp_path / "one.bib"
    seed.write_text("@article{alone2026, title={A paper alone}, year={2026}}\n",
                    encoding="utf-8")
    _invoke(lib, "import", str(seed))
    result = _invoke(lib, "reviews", "A paper alone")
    assert "No replies stored" in result.output
    assert _json(_invoke(lib, "reviews", "A paper alone", "--json")) == []


def test_search_json_rows_carry_signals_and_ids(lib: Path) -> None:
    rows = _json(_invoke(lib, "search", "--json", "has:reviews", "--sort", "rating"))
    by_id = {r["openreview_id"]: r for r in rows}
    assert set(by_id) == {"DkHt2K1g2Y", "sLkis6UGKk", "qvEYHU4vub"}
    first = by_id["DkHt2K1g2Y"]
    assert (first["rating"], first["ratings"], first["decision"], first["reviews"]) == (
        5.0, [4.0, 6.0, 6.0, 4.0], "pending", 4)
    assert (by_id["sLkis6UGKk"]["arxiv_id"], by_id["sLkis6UGKk"]["doi"]) == (
        "2510.01234", "10.1234/defacto.5")
    assert by_id["qvEYHU4vub"]["decision"] == "withdrawn"
    # --sort rating: the withdrawn paper (mean 2) last.
    assert rows[-1]["openreview_id"] == "qvEYHU4vub"
    assert [r["openreview_id"] for r in _json(_invoke(
        lib, "search", "--json", "rating:<3"))] == ["qvEYHU4vub"]


@pytest.mark.parametrize("ref", [
    "sLkis6UGKk", "https://openreview.net/forum?id=sLkis6UGKk", "2510.01234",
    "arXiv:2510.01234v2", "10.1234/defacto.5", "https://doi.org/10.1234/DEFACTO.5",
])
def test_a_ref_may_be_an_openreview_id_an_arxiv_id_or_a_doi(lib: Path, ref: str) -> None:
    out = _invoke(lib, "star", ref).stdout
    assert out.startswith("Starred:") and "DeFacto" in out
    assert [r["openreview_id"] for r in _json(_invoke(lib, "search", "--json", "is:starred"))
            ] == ["sLkis6UGKk"]


def test_exports_carry_rating_ratings_and_decision(lib: Path) -> None:
    rows = list(csv.DictReader(io.StringIO(_invoke(lib, "export", "--format", "csv").stdout)))
    first = next(r for r in rows if r["title"].startswith("Reasoning as Representation"))
    assert (first["rating"], first["ratings"], first["decision"]) == ("5", "4; 6; 6; 4", "pending")
    papers = _json(_invoke(lib, "export", "--format", "json"))
    withdrawn = next(p for p in papers if p["openreview_id"] == "qvEYHU4vub")
    assert (withdrawn["rating"], withdrawn["ratings"], withdrawn["decision"]) == (
        2.0, [2.0, 4.0, 2.0, 0.0], "withdrawn")


def test_a_misspelt_field_is_said(lib: Path) -> None:
    # Left out and said, as an unknown filter is.
    result = _invoke(lib, "search", "titel:reasoning")
    assert "unknown field titel: (left out) — did you mean title:?" in result.stderr
    result = _invoke(lib, "export", "--format", "csv", "--query", "ratng:>=5", ok=False)
    assert "did you mean rating:?" in result.output and "nothing exported" in result.output
