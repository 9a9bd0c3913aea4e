"""Conference signals read from files: OpenReview replies (API v2 and v1, inside a paper's
note or beside it), paperlists ratings, tables and JSON lists of accepted papers; and the
bad inputs, each kept or said, none lost."""

from __future__ import annotations

import gzip
import json
import statistics
from pathlib import Path
from typing import Any

import pytest

from reader.library import Library
from reader.signals import REVIEW_KINDS, kind_of, parse_score
from reader.sources import detect_format, openreview, paperlists, stream_file
from tests.parsing import parse_file

DATA = Path(__file__).parent / "data"
SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"
SAMPLE = SHARED / "openreview" / "iclr2026-with-reviews-400.jsonl.gz"


def _raw_value(field: Any) -> Any:
    return field["value"] if isinstance(field, dict) and "value" in field else field


def _check_against_raw(rows: list[dict[str, Any]], path: Path) -> None:
    """Every reply of the raw notes kept on its paper, every score as the file has it,
    every text verbatim, and each paper's ratings those of its reviews' latest versions."""
    streamed = stream_file(path)
    records = list(streamed.records)
    assert streamed.problems == [] and streamed.orphans == []
    by_id = {r.openreview_id: r for r in records}
    assert len(by_id) == len(rows)
    for row in rows:
        record = by_id[row["id"]]
        raw_replies = row["replies"]
        assert len(record.replies) == len(raw_replies)
        kept = {(r.id, r.mdate): r for r in record.replies}
        latest: dict[str, dict[str, Any]] = {}
        for raw in raw_replies:
            reply = kept[(raw["id"], raw["mdate"])]
            assert reply.forum == raw["forum"] == row["id"]
            assert reply.replyto == raw["replyto"]
            assert reply.kind == kind_of(raw["invitations"])
            assert reply.signatures == tuple(raw["signatures"])
            assert reply.cdate == raw["cdate"]
            content = {name: _raw_value(value) for name, value in raw["content"].items()}
            assert reply.content == content
            for name, value in content.items():
                if isinstance(value, int | float) and not isinstance(value, bool):
                    assert reply.scores[name].value == float(value), (raw["id"], name)
                elif isinstance(value, str) and name not in reply.scores:
                    assert (name, value) in reply.texts
            if raw["id"] not in latest or raw["mdate"] >= latest[raw["id"]]["mdate"]:
                latest[raw["id"]] = raw
        reviews = sorted(
            (r for r in latest.values() if "/-/Official_Review" in r["invitations"][0]),
            key=lambda r: (r["cdate"], r["id"]),
        )
        ratings = [float(_raw_value(r["content"]["rating"])) for r in reviews]
        confidences = [float(_raw_value(r["content"]["confidence"])) for r in reviews]
        signals = record.signals
        assert signals is not None
        assert list(signals.ratings) == ratings
        assert list(signals.confidences) == confidences
        assert signals.reviews == len(reviews) and signals.rating_count == len(ratings)
        if ratings:
            assert signals.rating_mean == pytest.approx(statistics.mean(ratings))
            assert signals.confidence_mean == pytest.approx(statistics.mean(confidences))
        if len(ratings) > 1:
            assert signals.rating_std == pytest.approx(statistics.stdev(ratings))
        comments = [r for r in latest.values() if "/-/Official_Comment" in r["invitations"][0]]
        assert signals.comments == len(comments)
        assert signals.decision == ("withdrawn" if row["withdrawn"] else "pending")


def test_the_shared_sample_keeps_every_reply_and_every_score() -> None:
    if not SAMPLE.exists():
        pytest.skip("the shared OpenReview sample is not in this checkout")
    with gzip.open(SAMPLE, "rt", encoding="utf-8") as handle:
        rows = [json.loads(line) for line in handle]
    assert sum(len(row["replies"]) for row in rows) == 1666
    _check_against_raw(rows, SAMPLE)
    records = list(stream_file(SAMPLE).records)
    assert sum(len(r.replies) for r in records) == 1666
    # 23 reviews are in the file twice, before and after an edit: both versions kept.
    assert len({reply.id for r in records for reply in r.replies}) == 1643


def test_a_small_copy_of_the_sample_is_read_the_same_way() -> None:
    path = DATA / "openreview-replies-3.jsonl"
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    _check_against_raw(rows, path)
    edited = next(r for r in stream_file(path).records if r.openreview_id == "sLkis6UGKk")
    versions = [(r.mdate, r.rating.value) for r in edited.replies
                if r.id == "RJzgSNYrxX" and r.rating]
    assert sorted(versions) == [(1762915493035, 6.0), (1763705421797, 4.0)]
    assert edited.signals is not None and 4.0 in edited.signals.ratings


# --- API v1, by hand from its documented shape ---------------------------------------------------


def _v1_submission(ident: str, year: int, number: int, venue: str = "") -> dict[str, Any]:
    content = {"title": f"A paper of {year}", "abstract": "We study things.",
               "authors": ["Ada Lovelace"]}
    if venue:
        content["venue"] = venue
    return {"id": ident, "forum": ident, "replyto": None, "number": number,
            "cdate": 1538087862000, "invitation": f"ICLR.cc/{year}/Conference/-/Blind_Submission",
            "content": content}


def _v1_note(ident: str, forum: str, replyto: str, invitation: str, signer: str,
             content: dict[str, Any], cdate: int = 1540000000000) -> dict[str, Any]:
    return {"id": ident, "forum": forum, "replyto": replyto, "invitation": invitation,
            "signatures": [signer], "cdate": cdate, "tcdate": cdate, "tmdate": cdate,
            "content": content}


def test_v1_forum_answer_of_2019_with_a_meta_review_recommendation(tmp_path: Path) -> None:
    paper = _v1_submission("rJl0r3R9KX", 2019, 1234)
    review = _v1_note(
        "HkxReview1", "rJl0r3R9KX", "rJl0r3R9KX",
        "ICLR.cc/2019/Conference/-/Paper1234/Official_Review",
        "ICLR.cc/2019/Conference/Paper1234/AnonReviewer2",
        {"title": "Solid", "review": "The paper is clear.\n\nMinor: typo in $\\alpha$.",
         "rating": "6: Marginally above acceptance threshold",
         "confidence": "4: The reviewer is confident but not absolutely certain that the "
                       "evaluation is correct"},
    )
    review2 = _v1_note(
        "HkxReview2", "rJl0r3R9KX", "rJl0r3R9KX",
        "ICLR.cc/2019/Conference/-/Paper1234/Official_Review",
        "ICLR.cc/2019/Conference/Paper1234/AnonReviewer1",
        {"title": "Weak", "review": "Not convincing.",
         "rating": "4: Ok but not good enough - rejection",
         "confidence": "3: The reviewer is fairly confident that the evaluation is correct"},
        cdate=1540000000001,
    )
    rebuttal = _v1_note(
        "BklAnswer1", "rJl0r3R9KX", "HkxReview1",
        "ICLR.cc/2019/Conference/-/Paper1234/Official_Comment",
        "ICLR.cc/2019/Conference/Paper1234/Authors",
        {"title": "Thanks", "comment": "We fixed the typo."},
    )
    meta = _v1_note(
        "SkeMeta1", "rJl0r3R9KX", "rJl0r3R9KX",
        "ICLR.cc/2019/Conference/-/Paper1234/Meta_Review",
        "ICLR.cc/2019/Conference/Paper1234/Area_Chair1",
        {"metareview": "Accept.", "recommendation": "Accept (Poster)",
         "confidence": "5: The area chair is absolutely certain"},
    )
    public = _v1_note("PubC1", "rJl0r3R9KX", "rJl0r3R9KX",
                      "ICLR.cc/2019/Conference/-/Paper1234/Public_Comment", "~Some_One1",
                      {"title": "Q", "comment": "Code?"})
    path = tmp_path / "forum.json"
    # A /notes?forum=ID answer: the replies come before the paper here.
    path.write_text(json.dumps({"notes": [review, rebuttal, meta, public, paper, review2],
                                "count": 6}))
    result = parse_file(path)
    assert result.format == "openreview" and result.problems == []
    (record,) = result.records
    assert [r.id for r in record.replies] == [
        "HkxReview1", "BklAnswer1", "SkeMeta1", "PubC1", "HkxReview2"]
    first = record.replies[0]
    assert first.kind == "Official_Review" and first.signer == "AnonReviewer2"
    assert first.rating is not None and first.rating.value == 6.0
    assert first.rating.label == "Marginally above acceptance threshold"
    assert ("review", "The paper is clear.\n\nMinor: typo in $\\alpha$.") in first.texts
    assert record.replies[1].replyto == "HkxReview1"
    signals = record.signals
    assert signals is not None
    assert signals.ratings == (6.0, 4.0) and signals.confidences == (4.0, 3.0)
    assert signals.confidence_mean == 3.5  # the area chair's confidence is not a reviewer's
    assert (signals.decision, signals.decision_raw) == ("poster", "Accept (Poster)")
    assert signals.reviews == 2 and signals.comments == 2
    assert str(signals.scale) == "1..10"


def test_v1_recommendation_in_place_of_rating_and_a_decision_note_2022(tmp_path: Path) -> None:
    paper = _v1_submission("Pap2022", 2022, 7)
    review = _v1_note(
        "Rev2022", "Pap2022", "Pap2022", "ICLR.cc/2022/Conference/Paper7/-/Official_Review",
        "ICLR.cc/2022/Conference/Paper7/Reviewer_abcd",
        {"summary_of_the_paper": "It does X.", "main_review": "Good.",
         "correctness": "3: Some of the paper’s claims have minor issues.",
         "technical_novelty_and_significance": "3: The contributions are significant.",
         "recommendation": "8: accept, good paper",
         "confidence": "4: You are confident in your assessment."},
    )
    decision = _v1_note("Dec2022", "Pap2022", "Pap2022",
                        "ICLR.cc/2022/Conference/Paper7/-/Decision",
                        "ICLR.cc/2022/Conference/Program_Chairs",
                        {"title": "Paper Decision", "decision": "Accept (Spotlight)",
                         "comment": "Well received."})
    paper["details"] = {"directReplies": [review, decision], "replies": [review, decision]}
    path = tmp_path / "venue.json"
    path.write_text(json.dumps([paper]))
    (record,) = parse_file(path).records
    assert [r.id for r in record.replies] == ["Rev2022", "Dec2022"]  # in both lists: once
    review_read = record.replies[0]
    assert review_read.rating is not None and review_read.rating.value == 8.0
    assert review_read.rating.name == "recommendation"
    assert review_read.scores["correctness"].value == 3.0
    assert record.signals is not None
    assert record.signals.ratings == (8.0,)
    assert (record.signals.decision, record.signals.decision_raw) == (
        "spotlight", "Accept (Spotlight)")


def test_v1_acceptance_decisions_of_2017_and_2018(tmp_path: Path) -> None:
    p17 = _v1_submission("Pap2017", 2017, 42)
    r17 = _v1_note("Rev2017", "Pap2017", "Pap2017",
                   "ICLR.cc/2017/conference/-/paper42/official/review",
                   "ICLR.cc/2017/conference/paper42/AnonReviewer1",
                   {"title": "ok", "review": "Fine.", "rating": "7: Good paper, accept",
                    "confidence": "3: The reviewer is fairly confident"})
    d17 = _v1_note("Dec2017", "Pap2017", "Pap2017", "ICLR.cc/2017/conference/-/paper42/acceptance",
                   "ICLR.cc/2017/pcs", {"title": "ICLR committee final decision",
                                        "decision": "Accept (Oral)", "comment": "Great."})
    p18 = _v1_submission("Pap2018", 2018, 9)
    p18["details"] = {"replies": [_v1_note(
        "Dec2018", "Pap2018", "Pap2018", "ICLR.cc/2018/Conference/-/Acceptance_Decision",
        "ICLR.cc/2018/Conference/Program_Chairs",
        {"title": "Acceptance Decision", "decision": "Invite to Workshop Track"})]}
    path = tmp_path / "old.jsonl"
    path.write_text("\n".join(json.dumps(n) for n in (p17, r17, d17, p18)) + "\n")
    streamed = stream_file(path)
    records = {r.openreview_id: r for r in streamed.records}
    assert streamed.problems == [] and streamed.orphans == []
    s17, s18 = records["Pap2017"].signals, records["Pap2018"].signals
    assert s17 is not None and s18 is not None
    assert records["Pap2017"].replies[0].kind == "Official_Review"
    assert s17.ratings == (7.0,) and s17.decision == "oral"
    assert records["Pap2017"].replies[1].kind == "Acceptance"
    assert (s18.decision, s18.decision_raw) == ("workshop", "Invite to Workshop Track")
    assert s18.reviews == 0 and s18.rating_mean is None


# --- orphans and bad replies -------------------------------------------------------------------


def _v2_reply(ident: str, forum: str | None, kind: str, content: dict[str, Any],
              mdate: int = 1762915452770) -> dict[str, Any]:
    note: dict[str, Any] = {
        "id": ident, "replyto": forum or "Somewhere", "cdate": 1761753510248, "mdate": mdate,
        "invitations": [f"ICLR.cc/2026/Conference/Submission1/-/{kind}"],
        "signatures": ["ICLR.cc/2026/Conference/Submission1/Reviewer_AAAA"],
        "content": {name: {"value": value} for name, value in content.items()},
    }
    if forum is not None:
        note["forum"] = forum
    return note


def _v2_paper(ident: str, replies: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    paper: dict[str, Any] = {
        "id": ident, "forum": ident, "cdate": 1756728828308, "mdate": 1763632278021,
        "content": {"title": {"value": f"Paper {ident}"}, "abstract": {"value": "We do."},
                    "venue": {"value": "ICLR 2026 Conference Submission"},
                    "venueid": {"value": "ICLR.cc/2026/Conference/Submission"}},
    }
    if replies is not None:
        paper["replies"] = replies
    return paper


def test_replies_whose_paper_is_not_in_the_file_are_kept_aside_and_said(tmp_path: Path) -> None:
    lost = _v2_reply("LostRev1", "NotHere1", "Official_Review", {"rating": 6, "summary": "s"})
    lost2 = _v2_reply("LostRev2", "NotHere1", "Official_Review", {"rating": 2, "summary": "t"})
    nowhere = _v2_reply("NoForum1", None, "Official_Comment", {"comment": "hello"})
    nowhere["replyto"] = ""
    nowhere["forum"] = ""
    paper = _v2_paper("Here0001")
    mine = _v2_reply("MyRev001", "Here0001", "Official_Review", {"rating": 8, "summary": "u"})
    path = tmp_path / "flat.jsonl"
    path.write_text("\n".join(json.dumps(n) for n in (lost, paper, mine, lost2)) + "\n")
    streamed = stream_file(path)
    (record,) = list(streamed.records)
    assert [r.id for r in record.replies] == ["MyRev001"]
    assert sorted(r.id for r in streamed.orphans) == ["LostRev1", "LostRev2"]
    assert streamed.problems == [
        "flat.jsonl: 2 replies to 1 paper not in the file ('NotHere1'); kept aside for when "
        "the paper is imported"
    ]
    # A reply with no forum at all (no replyto either) reads as a paper without a title.
    path.write_text(json.dumps({"notes": [paper, nowhere]}))
    result = openreview.parse(path.read_text(), "noforum.json")
    assert len(result.records) == 1
    assert len(result.problems) == 1 and "noforum.json" in result.problems[0]


def test_a_reply_with_no_forum_inside_its_paper_belongs_to_that_paper() -> None:
    reply = _v2_reply("Inner001", None, "Official_Review", {"rating": 4, "summary": "x"})
    text = json.dumps(_v2_paper("Outer001", [reply, {"content": {}}]))
    result = openreview.parse(text, "inner.jsonl")
    (record,) = result.records
    assert [(r.id, r.forum) for r in record.replies] == [("Inner001", "Outer001")]
    assert result.problems == ["inner.jsonl:1: reply #2 of paper 'Outer001' has no id; skipped"]


def test_a_flat_reply_naming_its_paper_only_by_forum_joins_it() -> None:
    reply = _v2_reply("Flat0001", "Paper001", "Official_Review", {"rating": 6, "summary": "x"})
    reply.pop("replyto")
    text = json.dumps({"notes": [_v2_paper("Paper001"), reply]})
    result = openreview.parse(text, "f.json")
    assert [r.id for r in result.records[0].replies] == ["Flat0001"]
    assert result.orphans == [] and result.problems == []


def test_bad_ratings_long_reviews_and_hostile_text(tmp_path: Path) -> None:
    long_text = "word " * 2_100_000  # a 10 MB review
    hostile = "\x1b[2J\x1b]52;c;cm0gLXJmIH4=\x07<script>alert(1)</script> ![x](http://e/x.png)"
    replies = [
        _v2_reply("NaRating", "Bad00001", "Official_Review",
                  {"rating": "N/A", "confidence": "", "summary": "no rating"}),
        _v2_reply("LongRev1", "Bad00001", "Official_Review",
                  {"rating": 6, "confidence": 3, "weaknesses": long_text}),
        _v2_reply("Hostile1", "Bad00001", "Official_Comment", {"comment": hostile}),
    ]
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(_v2_paper("Bad00001", replies)) + "\n")
    streamed = stream_file(path)
    (record,) = list(streamed.records)
    assert streamed.problems == []
    na, long_review, comment = record.replies
    assert na.rating is not None and na.rating.value is None and na.rating.raw == "N/A"
    assert na.scores["confidence"].value is None and na.scores["confidence"].raw == ""
    assert long_review.texts == (("weaknesses", long_text),)
    assert comment.texts == (("comment", hostile),)  # data, verbatim: made inert when shown
    assert record.signals is not None
    assert record.signals.ratings == (6.0,) and record.signals.reviews == 2


# --- paperlists, tables, JSON lists ------------------------------------------------------------


@pytest.mark.parametrize("name", ["colm2025.json", "iclr2017.json"])
def test_paperlists_ratings_and_status_against_the_file(name: str) -> None:
    path = SHARED / "paperlists" / name
    if not path.exists():
        pytest.skip("the shared paperlists files are not in this checkout")
    raw = {str(item["id"]): item for item in json.loads(path.read_text(encoding="utf-8"))}
    result = paperlists.parse(path.read_text(encoding="utf-8"), name)
    assert len(result.records) >= len(raw) - 1
    for record in result.records:
        item = next(i for i in raw.values() if i["title"] == record.title)
        ratings = [float(x) for x in item["rating"].split(";") if x]
        signals = record.signals
        assert signals is not None
        assert list(signals.ratings) == ratings
        assert signals.decision_raw == item["status"]
        if ratings:
            avg = item["rating_avg"]
            mean = avg[0] if isinstance(avg, list) else avg
            assert signals.rating_mean == pytest.approx(mean)


def test_paperlists_rating_avg_of_zero_with_no_reviews_is_no_rating() -> None:
    items = [
        {"id": "a1", "title": "Unreviewed", "status": "Withdraw", "rating": "", "confidence": "",
         "rating_avg": 0, "confidence_avg": 0, "site": "https://openreview.net/forum?id=a1",
         "author": "A B", "aff": "", "bibtex": ""},
        {"id": "a2", "title": "Reviewed", "status": "Active", "rating": "6;8;N/A",
         "confidence": "4;4", "rating_avg": [7.0, 1.0], "author": "C D", "aff": "",
         "bibtex": ""},
        {"id": "a3", "title": "Mean only", "status": "Reject", "rating_avg": [4.5, 0.5],
         "author": "E F", "aff": "", "bibtex": ""},
    ]
    result = paperlists.parse(json.dumps(items), "iclr2026.json")
    unreviewed, reviewed, mean_only = (r.signals for r in result.records)
    assert unreviewed is not None and unreviewed.rating_mean is None
    assert unreviewed.confidence_mean is None and unreviewed.decision == "withdrawn"
    assert reviewed is not None and reviewed.ratings == (6.0, 8.0)
    assert reviewed.decision == "pending" and reviewed.rating_mean == 7.0
    assert mean_only is not None and (mean_only.rating_mean, mean_only.rating_std) == (4.5, 0.5)


def test_a_table_of_accepted_papers(tmp_path: Path) -> None:
    path = tmp_path / "accepted.csv"
    path.write_text(
        "Title,Authors,OpenReview ID,avg_rating,n_ratings,ratings,Venue,Room,Session time\n"
        "Graph Things,Ada Lovelace; Alan Turing,hcuEdq6eKD,7.5,4,8;8;6;8,ICLR 2026 Oral,"
        "Hall 1,Thu 10:00\n"
        "A Quiet Paper,Bob Ray,,N/A,,,ICLR 2026 Poster,,\n"
        "Kept Venue,Cy Doe,,6,3,,Journal of Things,,\n",
        encoding="utf-8",
    )
    result = parse_file(path)
    assert result.format == "csv" and result.problems == []
    oral, quiet, kept = result.records
    assert (oral.venue, oral.year, oral.openreview_id) == ("ICLR", 2026, "hcuEdq6eKD")
    assert oral.authors == ["Ada Lovelace", "Alan Turing"]
    assert oral.signals is not None
    assert (oral.signals.decision, oral.signals.decision_raw) == ("oral", "ICLR 2026 Oral")
    assert oral.signals.ratings == (8.0, 8.0, 6.0, 8.0) and oral.signals.rating_mean == 7.5
    assert oral.extra == {"table": {"Room": "Hall 1", "Session time": "Thu 10:00"}}
    assert quiet.signals is not None and quiet.signals.rating_mean is None
    assert quiet.signals.decision == "poster"
    # No number: the text kept, under the file's own name for the column.
    assert quiet.extra == {"table": {"avg_rating": "N/A"}}
    assert kept.venue == "Journal of Things" and kept.signals is not None
    assert (kept.signals.rating_mean, kept.signals.rating_count) == (6.0, 3)


def test_a_wrapped_json_list_of_orals(tmp_path: Path) -> None:
    papers = [
        {"title": "Graph Things", "authors": ["Ada Lovelace", "Alan Turing"],
         "openreview_id": "hcuEdq6eKD", "avg_rating": 7.5, "n_ratings": 4,
         "venue": "ICLR 2026 Oral", "room": "Hall 1", "session_time": "2026-04-24T10:00"},
        {"title": "Another", "authors": [{"name": "Cy Doe"}], "rating_avg": 0, "status": "Poster",
         "forum": "https://openreview.net/forum?id=SOxO7e6ySB"},
    ]
    path = tmp_path / "orals.json"
    path.write_text(json.dumps({"generated_at": "2026-04-01T10:00:00Z", "papers": papers}))
    assert detect_format(path.read_text()) == "json-table"
    result = parse_file(path)
    assert result.format == "json-table" and result.problems == []
    first, second = result.records
    assert (first.venue, first.year, first.openreview_id) == ("ICLR", 2026, "hcuEdq6eKD")
    assert first.signals is not None and first.signals.decision == "oral"
    assert (first.signals.rating_mean, first.signals.rating_count) == (7.5, 4)
    assert first.extra == {"table": {"room": "Hall 1", "session_time": "2026-04-24T10:00"}}
    assert second.authors == ["Cy Doe"] and second.openreview_id == "SOxO7e6ySB"
    assert second.signals is not None and second.signals.rating_mean is None
    # The bare list reads the same.
    path.write_text(json.dumps(papers))
    assert [r.title for r in parse_file(path).records] == ["Graph Things", "Another"]


def test_a_wrapped_list_of_openreview_notes_or_paperlists_entries(tmp_path: Path) -> None:
    path = tmp_path / "wrapped.json"
    path.write_text(json.dumps({"fetched": "today", "submissions": [_v2_paper("Wrap0001", [])]}))
    result = parse_file(path)
    assert result.format == "openreview" and [r.openreview_id for r in result.records] == [
        "Wrap0001"]
    assert result.records[0].signals is not None and result.records[0].signals.reviews == 0


def test_an_api_answer_saved_on_one_line_imports_its_papers(
    empty_library: Library, tmp_path: Path
) -> None:
    # json.dumps writes the wrapping object on one line, which reads as JSON lines: the
    # line is the wrapper, not a note, and its papers are in it.
    path = tmp_path / "answer.json"
    papers = [_v2_paper("Line0001", []), _v2_paper("Line0002", [])]
    path.write_text(json.dumps({"count": 2, "notes": papers}), encoding="utf-8")
    summary = empty_library.import_files([path])
    assert (summary.new, summary.problems) == (2, [])
    path.write_text(json.dumps({"fetched": "today", "submissions": papers}), encoding="utf-8")
    assert empty_library.import_files([path]).unchanged == 2


def test_review_kinds_are_those_whose_ratings_count() -> None:
    assert "Official_Review" in REVIEW_KINDS and "Meta_Review" not in REVIEW_KINDS
    assert parse_score("rating", "10: Top 5% of accepted papers") is not None


def test_a_paperlists_file_named_otherwise_still_names_its_venue(tmp_path: Path) -> None:
    """Its Workshop and Reject entries name no venue of their own: the file's name does
    ("paperlists-iclr2017-4.json" as "iclr2017.json"), and their ratings are on ICLR's scale."""
    renamed = tmp_path / "paperlists-iclr2017-4.json"
    renamed.write_bytes((DATA / "iclr2017-workshop-4.json").read_bytes())
    records = parse_file(renamed).records
    assert {(r.venue, r.year) for r in records} == {("ICLR", 2017)}


def test_a_reviewers_ethics_flag_is_read_shown_and_searched() -> None:
    from reader.signals import Reply, shown_sections
    from reader.store.review_texts import _words

    flag = ["Yes, Research integrity issues (e.g., plagiarism, dual submission)"]
    flagged = Reply("r1", "P", "P", "Official_Review",
                    {"summary": "A summary.", "flag_for_ethics_review": flag})
    assert ("Flag for ethics review", flag[0]) in shown_sections(flagged)
    none = Reply("r2", "P", "P", "Official_Review",
                 {"summary": "A summary.", "flag_for_ethics_review": ["No ethics review needed."]})
    assert [name for name, _ in shown_sections(none)] == ["Summary"]
    assert flag[0] in _words(json.dumps(flagged.content))
