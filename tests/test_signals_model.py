"""The model of conference signals: decisions normalised from their drift, scores read
with their labels, kinds from invitations, and what ratings add up to."""

from __future__ import annotations

import math
import sqlite3
from pathlib import Path

import pytest

from reader.signals import (
    DECISIONS,
    RatingScale,
    Reply,
    Signals,
    aggregate_signals,
    kind_of,
    kind_of_invitation,
    merge_signals,
    normalize_decision,
    number_list,
    parse_score,
    scale_for,
    signals_from_replies,
)
from reader.store.base import migrations
from reader.store.database import Store

# How venues and years have written decisions, and what each means.
DRIFT = {
    "Accept (Oral)": "oral",
    "ICLR 2026 Oral": "oral",
    "NeurIPS 2024 oral": "oral",
    "Oral": "oral",
    "Accept (Talk)": "oral",
    "Accept: notable-top-5%": "oral",
    "Accept (Spotlight)": "spotlight",
    "Accept: notable-top-25%": "spotlight",
    "spotlight poster": "spotlight",
    "ICLR 2025 Spotlight": "spotlight",
    "Accept (Poster)": "poster",
    "poster": "poster",
    "Poster": "poster",
    "conditionalposter": "poster",
    "Accept: poster": "poster",
    "ICLR 2019 Poster": "poster",
    "Accept": "accept",
    "Accepted": "accept",
    "Reject": "reject",
    "Rejected": "reject",
    "Invite to Workshop Track": "workshop",
    "Workshop": "workshop",
    "ICLR 2026 Workshop": "workshop",
    "Desk Reject": "desk-rejected",
    "Desk Rejected": "desk-rejected",
    "ICLR 2026 Conference Desk Rejected Submission": "desk-rejected",
    "Withdrawn": "withdrawn",
    "ICLR 2026 Conference Withdrawn Submission": "withdrawn",
    "Withdrawn Submission": "withdrawn",
    "ICLR 2026 Conference Submission": "pending",
    "Submitted to ICLR 2026": "pending",
    "Under review": "pending",
    "Pending": "pending",
}


@pytest.mark.parametrize(("raw", "expected"), sorted(DRIFT.items()))
def test_decisions_are_normalised_from_their_drift(raw: str, expected: str) -> None:
    assert normalize_decision(raw) == expected
    assert expected in DECISIONS


@pytest.mark.parametrize("raw", ["", "   ", None, 7, "ICLR 2026", "Some paper"])
def test_text_naming_no_decision_is_none(raw: object) -> None:
    assert normalize_decision(raw) is None


def test_scores_keep_the_number_and_the_label() -> None:
    score = parse_score("rating", "6: Marginally above acceptance threshold")
    assert score is not None and score.value == 6.0
    assert score.label == "Marginally above acceptance threshold"
    assert score.raw == "6: Marginally above acceptance threshold"
    three = parse_score("soundness", "3 good")  # ICLR 2024
    assert three is not None and (three.value, three.label) == (3.0, "good")
    assert parse_score("title", "3 reasons to read this") is None
    assert parse_score("soundness", 3) == parse_score("soundness", 3)
    plain = parse_score("rating", 8)
    assert plain is not None and plain.value == 8.0 and plain.raw == "8" and plain.label == ""


@pytest.mark.parametrize("raw", ["N/A", "", "n/a", "-"])
def test_a_rating_that_is_no_number_keeps_its_text(raw: str) -> None:
    score = parse_score("rating", raw)
    assert score is not None and score.value is None and score.raw == raw


def test_prose_and_decisions_are_not_scores() -> None:
    assert parse_score("summary", "1. The paper proposes\n2. It shows") is None
    assert parse_score("recommendation", "Accept (Poster)") is None
    assert parse_score("comment", "Thanks!") is None
    assert parse_score("flag", True) is None
    big = parse_score("rating", 10**400)
    assert big is not None and big.value is None


@pytest.mark.parametrize(
    ("invitation", "kind"),
    [
        ("ICLR.cc/2026/Conference/Submission109/-/Official_Review", "Official_Review"),
        ("ICLR.cc/2026/Conference/Submission109/-/Official_Comment", "Official_Comment"),
        ("ICLR.cc/2026/Conference/Submission109/-/Withdrawal", "Withdrawal"),
        ("ICLR.cc/2020/Conference/Paper1/-/Decision", "Decision"),
        ("ICLR.cc/2019/Conference/-/Paper1/Meta_Review", "Meta_Review"),
        ("ICLR.cc/2018/Conference/-/Acceptance_Decision", "Acceptance_Decision"),
        ("ICLR.cc/2017/conference/-/paper1/official/review", "Official_Review"),
        ("ICLR.cc/2017/conference/-/paper1/public/comment", "Public_Comment"),
    ],
)
def test_a_kind_is_the_suffix_of_an_invitation(invitation: str, kind: str) -> None:
    assert kind_of_invitation(invitation) == kind


def test_the_kind_is_not_the_edit_invitation_the_list_grows_by() -> None:
    assert kind_of([
        "ICLR.cc/2026/Conference/Submission109/-/Official_Review",
        "ICLR.cc/2026/Conference/-/Edit",
    ]) == "Official_Review"
    assert kind_of(["ICLR.cc/2026/Conference/-/Edit",
                    "ICLR.cc/2026/Conference/Submission1/-/Official_Review"]) == "Official_Review"
    assert kind_of([]) == "Unknown"


def _review(ident: str, rating: object, confidence: object = 4, mdate: int = 1) -> Reply:
    return Reply(ident, "P", "P", "Official_Review",
                 {"summary": "s", "rating": rating, "confidence": confidence}, mdate=mdate)


def test_signals_from_replies_count_each_review_once_at_its_latest() -> None:
    replies = [
        _review("a", 2), _review("b", 4), _review("c", 6, mdate=1), _review("c", 8, mdate=5),
        _review("d", "N/A"),
        Reply("x", "P", "a", "Official_Comment", {"comment": "We thank the reviewer"}),
        Reply("y", "P", "P", "Decision", {"decision": "Accept (Oral)"}),
    ]
    signals = signals_from_replies(replies, decision="ICLR 2026 Conference Submission",
                                   venue="ICLR", year=2026)
    assert signals.ratings == (2.0, 4.0, 8.0)
    assert signals.rating_count == 3 and signals.reviews == 4 and signals.comments == 1
    assert signals.rating_mean == pytest.approx(14 / 3)
    assert signals.rating_std == pytest.approx(math.sqrt(((2 - 14 / 3) ** 2 + (4 - 14 / 3) ** 2
                                                          + (8 - 14 / 3) ** 2) / 2))
    assert (signals.decision, signals.decision_raw) == ("oral", "Accept (Oral)")
    assert str(signals.scale) == "0,2,4,6,8,10"


def test_the_std_is_the_sample_one_as_shown() -> None:
    signals = aggregate_signals([2, 4, 6, 6])
    assert signals is not None
    assert f"{signals.rating_mean:.1f} ± {signals.rating_std:.1f}" == "4.5 ± 1.9"


def test_a_mean_of_zero_with_no_reviews_is_no_rating() -> None:
    assert aggregate_signals(rating_mean=0.0) is None
    unrated = aggregate_signals(rating_mean=0.0, decision="Reject")
    assert unrated is not None and unrated.rating_mean is None and unrated.rating_count == 0
    zero = aggregate_signals([0.0, 0.0])
    assert zero is not None and zero.rating_mean == 0.0  # two reviews rating 0: a rating


def test_aggregates_alone_are_kept() -> None:
    signals = aggregate_signals(rating_mean=6.5, rating_std=0.5, rating_count=4,
                                decision="Poster", venue="COLM", year=2025)
    # Four ratings: four reviews, though the list gives no reply itself.
    assert signals == Signals(decision="poster", decision_raw="Poster", rating_mean=6.5,
                              rating_std=0.5, rating_count=4, scale=RatingScale(1, 10),
                              reviews=4)


def test_number_lists() -> None:
    assert number_list("6;6;7") == [6.0, 6.0, 7.0]
    assert number_list([6, "8", None, True]) == [6.0, 8.0]
    assert number_list("N/A") is None
    assert number_list("") is None
    assert number_list(5.5) == [5.5]


def test_merging_keeps_reviews_over_aggregates_and_decisions_over_pending() -> None:
    reviews = signals_from_replies([_review("a", 6), _review("b", 8)],
                                   decision="ICLR 2026 Conference Submission")
    listed = aggregate_signals(rating_mean=5.0, rating_count=2, decision="ICLR 2026 Oral")
    merged = merge_signals(reviews, listed)
    assert merged is not None
    assert merged.ratings == (6.0, 8.0) and merged.rating_mean == 7.0
    assert merged.decision == "oral" and merged.reviews == 2
    again = merge_signals(merged, signals_from_replies([], decision="Submitted to ICLR 2026"))
    assert again is not None and again.decision == "oral"


def test_scales_by_venue_and_year() -> None:
    assert str(scale_for("ICLR", 2026)) == "0,2,4,6,8,10"
    assert str(scale_for("ICLR", 2024)) == "1,3,5,6,8,10"
    assert str(scale_for("iclr", 2019)) == "1..10"
    assert scale_for("Nowhere", 2020) is None
    assert RatingScale.parse("0,2,4,6,8,10") == scale_for("ICLR", 2026)
    assert RatingScale.parse("1..10") == RatingScale(1, 10)
    assert RatingScale(0, 10).fraction(6) == 0.6


def test_means_are_rounded_half_up_as_people_round() -> None:
    from reader.signals import one_decimal

    # Formatting a float rounds an exact half to even: 3.25 was "3.2" beside 3.75's "3.8".
    assert [one_decimal(v) for v in (3.25, 3.75, 5.0, 6.666, 3.2499999999999996)] == [
        "3.3", "3.8", "5.0", "6.7", "3.2"]


def test_a_mean_given_with_its_count_says_how_many_ratings_it_is_of() -> None:
    """A list of accepted papers gives a mean and how many ratings: shown as "(3 ratings)",
    not "of 3", which read as a scale out of 3."""
    from rich.style import Style

    from reader.signals import Signals
    from reader.ui.signals import PaperSignals, signals_block

    shown = signals_block(PaperSignals(Signals(rating_mean=6.7, rating_count=3)),
                          Style(), Style(), Style()).plain
    assert "mean 6.7 (3 ratings)" in shown and " of 3" not in shown


def test_a_library_of_before_the_workshop_decision_reads_its_workshop_papers_again(
    tmp_path: Path,
) -> None:
    """A library written when "Invite to Workshop Track" was stored as ``reject``: opened
    now, those papers are ``workshop``, and a plain rejection stays one."""
    database = tmp_path / "library.sqlite"
    conn = sqlite3.connect(database)
    for version, path in migrations():
        if version > 9:
            break
        conn.executescript(path.read_text())
    conn.execute("PRAGMA user_version = 9")
    for n, raw in enumerate(("Invite to Workshop Track", "Workshop", "Reject",
                             "ICLR 2018 Conference Workshopless"), start=1):
        conn.execute(
            "INSERT INTO papers (id, title, abstract, abstract_key, authors, citekey, added_at,"
            " updated_at) VALUES (?, ?, 'An abstract.', ?, '[]', ?, 'x', 'x')",
            (n, f"Paper {n}", f"k{n}", f"key{n}"))
        conn.execute("INSERT INTO paper_signals (paper_id, decision, decision_raw, updated_at)"
                     " VALUES (?, 'reject', ?, 'x')", (n, raw))
    conn.commit()
    conn.close()
    store = Store(database)
    decisions = [d for (d,) in store.conn.execute(
        "SELECT decision FROM paper_signals ORDER BY paper_id")]
    store.close()
    assert decisions == ["workshop", "workshop", "reject", "reject"]


def test_a_numbered_list_in_a_text_field_is_no_score() -> None:
    """ICLR 2026: 28 of 1,666 replies had a one-line strengths "1. Paper is well-written…",
    read as a score of 1 and hidden from the review."""
    assert parse_score("strengths", "1. Paper is well-written and easy to follow.") is None
    assert parse_score("weaknesses", "2) The baselines are weak.") is None
    # Scores keep every form they come in.
    assert parse_score("recommendation", "8. accept").value == 8.0  # type: ignore[union-attr]
    assert parse_score("rating", "6: Marginally above").value == 6.0  # type: ignore[union-attr]
    assert parse_score("novelty", "3 good").value == 3.0  # type: ignore[union-attr]
    assert parse_score("review_quality", "4: high").value == 4.0  # type: ignore[union-attr]


def test_a_score_field_reads_a_long_label_and_prose_stays_prose() -> None:
    """A field that is a score reads its number whatever the label's length (NeurIPS's
    run past 200 characters); elsewhere a long text opening with "1." stays a list."""
    label = "Accept: Technically solid paper, with high impact " + "on one area, " * 20
    seven = parse_score("rating", f"7: {label}")
    assert seven is not None and seven.value == 7.0 and seven.label == label.strip()
    assert parse_score("strengths", f"1: {label}") is None
    pasted = parse_score("rating", "7: " + "A review pasted in the field. " * 40)
    assert pasted is not None and pasted.value is None
