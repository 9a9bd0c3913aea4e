"""The command line on conference signals, through click's runner on a real library:
``reader reviews REF`` (human and ``--json``), ``reader search --json`` rows with ratings,
decision, counts and ids, ``--sort``, a REF given as an OpenReview id, an arXiv id or a
DOI, CSV and JSON exports with the signals, and a misspelt field said."""

from __future__ import annotations

import csv
import io
import json
import shutil
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
    # Said, and nothing searched, as `export` does: without the field, the words left
    # listed every paper of the library as if they matched.
    result = _invoke(lib, "search", "titel:reasoning", ok=False)
    assert result.exit_code == 1 and not result.stdout
    assert "unknown field titel: (did you mean title:?); nothing searched" in result.stderr
    result = _invoke(lib, "export", "--format", "csv", "--query", "ratng:>=5", ok=False)
    assert "did you mean rating:?" in result.output and "nothing exported" in result.output


def test_a_closed_pipe_ends_quietly(lib: Path) -> None:
    """``reader search … | head -2``: the reader of the output went away; the command ends
    without an error (exit 141, as a process killed by SIGPIPE), whether it printed a table
    or JSON."""
    import os
    import subprocess
    import sys

    script = "import sys\nfrom reader.entry import main\nsys.argv = sys.argv[1:]\nmain()\n"
    for args in (["search", "rating:>=0"], ["search", "--json", "rating:>=0"],
                 ["reviews", "DkHt2K1g2Y"], ["stats"]):
        read_end, write_end = os.pipe()
        os.close(read_end)  # closed before anything is written: the first write fails
        try:
            done = subprocess.run(
                [sys.executable, "-c", script, "reader", "--library", str(lib), *args],
                stdout=write_end, stderr=subprocess.PIPE, text=True, timeout=60,
            )
        finally:
            os.close(write_end)
        assert done.returncode == 141, (args, done.stderr)
        assert done.stderr == "", (args, done.stderr)


@pytest.mark.parametrize(("query", "said"), [
    ("decision:orla", "decision:orla: not a decision"),
    ("decision:workshops", "decision:workshops: not a decision"),
    ("rating:abc", "rating:abc: not a number or range (rating:>=6, rating:4..6)"),
    ("confidence:high", "confidence:high: not a number or range"),
])
def test_a_bad_filter_value_is_said_as_such(lib: Path, query: str, said: str) -> None:
    result = _invoke(lib, "search", "--json", query, ok=False)
    assert said in result.stderr
    assert "unknown filter" not in result.stderr
    # Left out, the filter would list the whole library as if it were the answer.
    assert result.exit_code == 1 and "nothing searched" in result.stderr
    assert result.stdout == ""


def test_a_bad_decision_lists_the_decisions_and_the_nearest() -> None:
    from reader.search.query import parse_query

    parsed = parse_query("decision:orla graphs")
    short = parsed.notice()
    assert short is not None and "did you mean oral?" in short and len(short) <= 110
    full = parsed.notice(full=True)
    assert full is not None
    assert ("decision:orla: not a decision — one of oral, spotlight, poster, accept, workshop, "
            "reject, desk-rejected, withdrawn, pending, accepted, rejected; did you mean oral?"
            ) in full
    assert parse_query("is:strred").notice() is not None  # an unknown filter still said
    assert "unknown filter" in (parse_query("is:strred").notice() or "")


def test_human_output_shows_control_and_bidi_characters_inert(lib: Path) -> None:
    conn = sqlite3.connect(lib / "library.sqlite")
    with conn:
        conn.execute("UPDATE papers SET title = 'Safe \u202eevil\u202c \x1b[2J end' "
                     "WHERE openreview_id = 'DkHt2K1g2Y'")
    conn.close()
    for args in (["search", "decision:pending"], ["reviews", "DkHt2K1g2Y"]):
        out = _invoke(lib, *args).stdout
        assert "\u202e" not in out and "\x1b" not in out, args
        assert "\u27e8U+202E\u27e9evil\u27e8U+202C\u27e9" in out, (args, out)
        assert "\u241b[2J" in out, (args, out)
    rows = _json(_invoke(lib, "search", "--json", "decision:pending"))
    assert rows[0]["title"] == "Safe \u202eevil\u202c \x1b[2J end"  # JSON stays exact
    out = _invoke(lib, "reviews", "DkHt2K1g2Y").stdout
    assert "\u241b[2Jdata leakage" in out  # the rebuttal's escape, shown not removed


def test_reviews_show_a_changed_rating(lib: Path, tmp_path: Path) -> None:
    rows = [json.loads(line) for line in SAMPLE.read_text(encoding="utf-8").splitlines()]
    row = next(r for r in rows if r["id"] == "DkHt2K1g2Y")
    review = next(r for r in row["replies"] if r["id"] == "eIvfGTSO8v")
    review["content"]["rating"] = {"value": 8}
    review["mdate"] += 86_400_000
    edited = tmp_path / "edited.jsonl"
    edited.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    _invoke(lib, "import", str(edited))
    out = _invoke(lib, "reviews", "DkHt2K1g2Y").stdout
    heading = next(line for line in out.splitlines() if "eIvfGTSO8v" in line)
    assert "rating 8 (was 4)" in heading, heading
    by_id = {r["id"]: r for r in _json(_invoke(lib, "reviews", "DkHt2K1g2Y", "--json"))}
    assert by_id["eIvfGTSO8v"]["rating_history"] == [4, 8]
    assert by_id["eIvfGTSO8v"]["rating"] == 8
    unchanged = next(r for r in by_id.values()
                     if r["rating"] is not None and r["id"] != "eIvfGTSO8v")
    assert unchanged["rating_history"] == [unchanged["rating"]]


def test_search_table_shows_rating_and_decision(lib: Path) -> None:
    out = _invoke(lib, "search", "--sort", "rating", "rating:>=0").stdout
    lines = out.splitlines()
    assert len(lines) == 3
    first = next(line for line in lines if "Reasoning as Representation" in line)
    assert " 5.0 " in first and "pending" in first, first
    withdrawn = next(line for line in lines if "withdrawn" in line)
    assert " 2.0 " in withdrawn, withdrawn


def test_doctor_checks_the_index_of_review_text_and_builds_it_when_missing(lib: Path) -> None:
    CliRunner().invoke(cli, ["--library", str(lib), "search", 'review:"the"'], obj={})  # builds it
    assert "review text index: ok (" in _invoke(lib, "doctor").output
    shutil.rmtree(lib / "index-reviews")
    said = _invoke(lib, "doctor").output
    assert "review text index: missing; built (" in said, said
    assert "review text index: ok (" in _invoke(lib, "doctor").output


def test_cite_and_export_show_controls_inert_on_a_terminal_only(lib: Path) -> None:
    """On a terminal a U+202E in a title would reverse what follows it: shown as a stand-in
    there, written as it is to a pipe or a file."""
    import os
    import pty
    import subprocess
    import sys

    conn = sqlite3.connect(lib / "library.sqlite")
    with conn:
        conn.execute("UPDATE papers SET title = 'Safe \u202eevil\u202c end' "
                     "WHERE openreview_id = 'DkHt2K1g2Y'")
    conn.close()
    for args in (["cite", "DkHt2K1g2Y"], ["export", "--query", "decision:pending"]):
        master, slave = pty.openpty()
        done = subprocess.run([sys.executable, "-m", "reader", "--library", str(lib), *args],
                              stdout=slave, stderr=subprocess.DEVNULL, timeout=60,
                              cwd=Path(__file__).parent.parent, check=False)
        os.close(slave)
        shown = b""
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            if not chunk:
                break
            shown += chunk
        os.close(master)
        assert done.returncode == 0, args
        text = shown.decode("utf-8")
        assert "\u202e" not in text and "\u27e8U+202E\u27e9evil" in text, (args, text)
        piped = _invoke(lib, *args).stdout
        assert "Safe \u202eevil\u202c end" in piped, args


def test_a_submission_under_review_is_cited_as_one(lib: Path) -> None:
    """A paper whose decision is pending is not yet a paper of the conference: BibTeX says
    "Under review" (as OpenReview's own entries do), biblatex its pubstate, CSL its status,
    and the styles that print a status print it. A decided paper is cited as it was."""
    ref = "DkHt2K1g2Y"  # pending
    bibtex = _invoke(lib, "cite", "--format", "bibtex", ref).stdout
    assert "note = {Under review}" in bibtex
    assert "pubstate = {under review}" in _invoke(lib, "cite", "--format", "biblatex", ref).stdout
    [item] = _json(_invoke(lib, "cite", "--format", "csljson", ref))
    assert item["status"] == "under review"
    assert "Under review" in _invoke(lib, "cite", "--format", "text", "--style", "apa", ref).stdout
    conn = sqlite3.connect(lib / "library.sqlite")
    with conn:
        conn.execute("UPDATE paper_signals SET decision = 'poster' WHERE paper_id = "
                     "(SELECT id FROM papers WHERE openreview_id = ?)", (ref,))
    conn.close()
    assert "review" not in _invoke(lib, "cite", "--format", "bibtex", ref).stdout.replace(
        "openreview", "")


def test_a_withdrawn_submission_is_cited_as_withdrawn(lib: Path) -> None:
    """A withdrawn submission was never a paper of the conference: the styles that print a
    status say it was withdrawn, instead of "(2026). ICLR." alone."""
    ref = "DkHt2K1g2Y"
    conn = sqlite3.connect(lib / "library.sqlite")
    with conn:
        conn.execute("UPDATE papers SET withdrawn = 1 WHERE openreview_id = ?", (ref,))
    conn.close()
    [item] = _json(_invoke(lib, "cite", "--format", "csljson", ref))
    assert item["status"] == "withdrawn"
    for style in ("apa", "mla", "chicago-author-date"):
        shown = _invoke(lib, "cite", "--format", "text", "--style", style, ref).stdout
        assert shown.count("Withdrawn") == 1 and "ICLR" not in shown, (style, shown)
    # IEEE prints no kind of manuscript: it names no venue either.
    assert "ICLR" not in _invoke(lib, "cite", "--format", "text", "--style", "ieee", ref).stdout


def test_a_decision_turned_over_is_named_not_only_counted(tmp_path: Path) -> None:
    """A list that turns an accepted paper down counts a new decision, and names the paper
    and the change: a change of mind is news, a first decision only a count."""
    from click.testing import CliRunner

    from reader.cli import cli

    first = tmp_path / "first.csv"
    first.write_text(
        "title,openreview_url,decision\n"
        "A Paper on Things,https://openreview.net/forum?id=abcDEF1234,Accept (Oral)\n"
        "Another Paper,https://openreview.net/forum?id=ghiJKL5678,Reject\n",
        encoding="utf-8",
    )
    second = tmp_path / "second.csv"
    second.write_text(first.read_text(encoding="utf-8").replace("Accept (Oral)", "Reject"),
                      encoding="utf-8")
    home = ["--library", str(tmp_path / "lib")]
    assert CliRunner().invoke(cli, [*home, "import", str(first)], obj={}).exit_code == 0
    result = CliRunner().invoke(cli, [*home, "import", str(second)], obj={})
    assert result.exit_code == 0, result.output
    assert ("1 new decision (1 of them another than before: paper oral → reject)"
            in result.output), result.output


def test_a_withdrawn_paper_given_an_acceptance_is_said(tmp_path: Path) -> None:
    """A list accepting a paper its authors withdrew: both kept, and the user told."""
    from click.testing import CliRunner

    from reader.cli import cli

    row = "A Paper on Things,https://openreview.net/forum?id=abcDEF1234,{}\n"
    home = ["--library", str(tmp_path / "lib")]
    for name, decision in (("w1.csv", "Withdrawn"), ("w2.csv", "Accept (Poster)")):
        (tmp_path / name).write_text("title,openreview_url,decision\n" + row.format(decision),
                                     encoding="utf-8")
    assert CliRunner().invoke(cli, [*home, "import", str(tmp_path / "w1.csv")],
                              obj={}).exit_code == 0
    said = CliRunner().invoke(cli, [*home, "import", "--verbose", str(tmp_path / "w2.csv")],
                              obj={}).output
    assert ("1 withdrawn paper given an acceptance by the file: both kept, as the sources "
            "say them") in said
    assert "w2.csv:2: decision 'poster' for a paper withdrawn: both kept" in said


def test_reviews_print_tex_as_the_window_draws_it_and_break_between_words(
    tmp_path: Path,
) -> None:
    """`reader reviews` printed "$s_1$" where the window drew s₁, and broke lines inside
    hyphenated words ("MM-" / "SDP")."""
    rows = [json.loads(line) for line in SAMPLE.read_text(encoding="utf-8").splitlines()]
    # "MM-" fits on the first line of 88 characters, "MM-SDP" does not.
    text = "x" * 82 + " MM-SDP relaxation of $s_1$ is loose."
    rows[0]["replies"] += [{**ANSWER, "content": {"comment": {"value": text}}}]
    path = tmp_path / "sample.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    root = tmp_path / "lib"
    _invoke(root, "import", str(path))
    out = _invoke(root, "reviews", "DkHt2K1g2Y").stdout
    assert "relaxation of s₁ is loose" in out and "$s_1$" not in out
    assert not [line for line in out.splitlines() if line.endswith("MM-")]
