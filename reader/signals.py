"""Conference signals: the replies a paper received (reviews, meta-reviews, decisions,
comments) and what they add up to (ratings, their mean and spread, the decision).

Pure data and pure functions, shared by the sources (which build them), the store (which
keeps them) and whatever shows or searches them. Nothing here reaches a file.

- :class:`Reply` is one OpenReview-style note answering a paper: its ``kind`` is the suffix
  of its invitation (``Official_Review``, ``Meta_Review``, ``Decision``,
  ``Official_Comment``, ``Public_Comment``, ``Withdrawal`` …); its ``content`` holds every
  field as the source wrote it, in order; ``scores`` and ``texts`` are read from it.
- :class:`Score` is one numeric field as written (``"6: Marginally above acceptance
  threshold"``): the number and the words after it, or no number (``"N/A"``).
- :class:`Signals` is a paper's summary: the decision normalised to one of
  :data:`DECISIONS` (and the raw string), the official reviews' ratings with mean, spread
  and count, the mean confidence, the venue's rating scale, counts of reviews and
  comments. A source that only gives aggregates (a mean, a count) fills those alone.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

__all__ = [
    "COMMENT_KINDS",
    "DECISIONS",
    "DECISION_KINDS",
    "META_REVIEW_KINDS",
    "REVIEW_KINDS",
    "RatingScale",
    "Reply",
    "Score",
    "Signals",
    "aggregate_signals",
    "finite",
    "kind_of",
    "kind_of_invitation",
    "latest_replies",
    "merge_signals",
    "normalize_decision",
    "number_list",
    "parse_score",
    "scale_for",
    "signals_from_replies",
]

# --- decisions --------------------------------------------------------------------------------

#: The normalised decisions, from best to worst; ``pending`` is a paper under review.
DECISIONS = (
    "oral",
    "spotlight",
    "poster",
    "accept",
    "reject",
    "desk-rejected",
    "withdrawn",
    "pending",
)

# How venues and years have spelled decisions, as word patterns tried in order (the first
# that matches wins): each pattern is a tuple of words that must all occur, as whole words,
# in the lower-cased text. Examples of the drift each row covers are in the comments; the
# tests hold the full list.
_DECISION_WORDS: tuple[tuple[str, tuple[tuple[str, ...], ...]], ...] = (
    # "Withdrawn", "ICLR 2026 Conference Withdrawn Submission", "withdraw"
    ("withdrawn", (("withdrawn",), ("withdraw",), ("withdrawal",))),
    # "Desk Reject", "Desk Rejected Submission", "desk_rejected"
    ("desk-rejected", (("desk", "reject"), ("desk", "rejected"), ("deskreject",))),
    # "Reject", "Rejected"; "Invite to Workshop Track" and paperlists' "Workshop" (ICLR
    # 2017–18) are rejections from the main conference, with the raw string kept.
    ("reject", (("reject",), ("rejected",), ("workshop",), ("rejection",))),
    # "Accept (Oral)", "ICLR 2026 Oral", "Accept (Talk)", "Accept: notable-top-5%"
    ("oral", (("oral",), ("talk",), ("notable", "top", "5"), ("award",), ("best", "paper"))),
    # "Accept (Spotlight)", "spotlight poster", "Accept: notable-top-25%", CVPR "Highlight"
    ("spotlight", (("spotlight",), ("notable", "top", "25"), ("highlight",))),
    # "Accept (Poster)", "poster", "conditionalposter" (ICLR 2017), "Accept: poster"
    ("poster", (("poster",), ("conditionalposter",))),
    # "Accept", "Accepted", ACL "Main"/"Findings", "Long", "Short", "Journal"
    (
        "accept",
        (
            ("accept",),
            ("accepted",),
            ("findings",),
            ("main",),
            ("long",),
            ("short",),
            ("journal",),
            ("publish",),
            ("published",),
        ),
    ),
    # "Pending", "Under review", "ICLR 2026 Conference Submission", paperlists "Active"
    (
        "pending",
        (
            ("pending",),
            ("under", "review"),
            ("submission",),
            ("submitted",),
            ("active",),
        ),
    ),
)
_DECISION_TOKEN = re.compile(r"[a-z]+|\d+")


def normalize_decision(raw: Any) -> str | None:
    """One of :data:`DECISIONS` for a decision as some venue wrote it (``"Accept
    (Oral)"`` → ``oral``, ``"ICLR 2026 Oral"`` → ``oral``, ``"Desk Reject"`` →
    ``desk-rejected``), or None when the text names no decision (or is not text)."""
    if not isinstance(raw, str) or not raw.strip():
        return None
    words = set(_DECISION_TOKEN.findall(raw.lower()))
    for decision, patterns in _DECISION_WORDS:
        if any(all(word in words for word in pattern) for pattern in patterns):
            return decision
    return None


# --- scores -----------------------------------------------------------------------------------

# "6: Marginally above acceptance threshold", "3 good", "8", "-1", "4.5". The words after a
# number are its label; a number followed by something that is not a separator is not a score.
_SCORE_TEXT = re.compile(r"\s*([-+]?\d+(?:\.\d+)?)\s*(?:(?::|\.(?!\d)|\)|-|–|—)\s*(.*))?\Z", re.S)
# "3 good" (ICLR 2024's soundness): a number and words, read so only in a score field.
_SCORE_WORDS = re.compile(r"\s*([-+]?\d+(?:\.\d+)?)\s+(\S.*)\Z", re.S)
# Labels are short and on one line; a longer text opening with "1." is a numbered list.
_MAX_LABEL = 200


def _split_number(text: str, loose: bool) -> tuple[str, str] | None:
    """The number a score's text opens with and the words after it; ``loose`` also
    takes a number followed by words with no separator (``"3 good"``)."""
    match = _SCORE_TEXT.match(text) or (_SCORE_WORDS.match(text) if loose else None)
    if match is None:
        return None
    label = (match.group(2) or "").strip()
    if len(label) > _MAX_LABEL or "\n" in label:
        return None
    return match.group(1), label


@dataclass(frozen=True, slots=True)
class Score:
    """One numeric field of a reply as written: ``value`` is the number (None when the
    field holds none, such as ``"N/A"`` or ``""``), ``raw`` the text as the source wrote it
    (numbers as their digits)."""

    name: str
    value: float | None
    raw: str

    @property
    def label(self) -> str:
        """The words after the number (``"Marginally above acceptance threshold"``), or the
        whole text when there is no number."""
        split = _split_number(self.raw, loose=True)
        return self.raw.strip() if split is None else split[1]

    def as_json(self) -> dict[str, Any]:
        """``{"value": 6.0, "raw": "6: …"}``, as the store keeps a version's scores."""
        return {"value": self.value, "raw": self.raw}


def parse_score(name: str, value: Any) -> Score | None:
    """The score a field holds: a number, a string that opens with one (``"6: Marginally
    above acceptance threshold"``), or, for a field that is always a score (``rating``,
    ``confidence`` …), a string without one (``"N/A"``: no number, raw text kept). None
    when the field is not a score (prose, a decision such as ``"Accept (Poster)"``)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        raw = repr(value) if isinstance(value, float) else _digits(value)
        return Score(name, finite(value), raw)
    if not isinstance(value, str):
        return None
    split = _split_number(value, loose=name in SCORE_FIELDS)
    number = finite(split[0]) if split else None
    if number is not None:
        return Score(name, number, value)
    if name in SCORE_FIELDS:
        return Score(name, None, value)
    return None


def finite(value: Any) -> float | None:
    """A number (or the digits of one) as a finite float; None for what is none (an
    integer too large for a float, infinity, NaN, text that is no number)."""
    if isinstance(value, bool):
        return None
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):
        return None
    return number if math.isfinite(number) else None


def _digits(value: int) -> str:
    """An integer's digits; a few of them for one too long to print whole."""
    try:
        return str(value)
    except ValueError:  # more digits than Python will convert
        return "<a number too long to show>"


#: Fields that are scores whatever they hold (a rating "N/A" is a rating with no number).
SCORE_FIELDS = frozenset(
    {
        "rating",
        "confidence",
        "soundness",
        "presentation",
        "contribution",
        "correctness",
        "technical_novelty_and_significance",
        "empirical_novelty_and_significance",
        "novelty",
        "clarity",
        "significance",
        "originality",
        "quality",
        "reproducibility",
        "overall_assessment",
        "overall_rating",
        "final_rating",
    }
)
#: Fields a reviewer's overall rating has been given in, most usual first: ``rating``, and
#: ``recommendation`` in its place (ICLR 2022–23) when it holds a number.
RATING_FIELDS = ("rating", "recommendation", "overall_rating", "final_rating",
                 "overall_assessment", "overall_recommendation")

# --- replies ----------------------------------------------------------------------------------

#: Kinds of reply that are official reviews (their ratings make a paper's rating).
REVIEW_KINDS = frozenset({"Official_Review", "Review"})
#: Kinds of reply that state a decision (ICLR 2017 "acceptance", 2018 "Acceptance_Decision").
DECISION_KINDS = frozenset({"Decision", "Acceptance_Decision", "Acceptance", "Final_Decision"})
#: Kinds of reply written by an area chair.
META_REVIEW_KINDS = frozenset({"Meta_Review", "Metareview", "Meta_Review_Revision"})
#: Kinds that are neither discussion nor assessment.
_PROCEDURAL_KINDS = frozenset(
    {"Withdrawal", "Desk_Rejection", "Withdraw", "Desk_Reject", "Revision", "Edit",
     "Ethics_Review_Flag", "Camera_Ready_Revision"}
)
#: Kinds that are discussion (counted as comments): everything else that answers a paper.
COMMENT_KINDS = frozenset(
    {"Official_Comment", "Public_Comment", "Comment", "Rebuttal", "Author_Rebuttal",
     "Rebuttal_Comment", "Author_Comment"}
)
# Invitation suffixes shared by every note a venue edits: not the note's kind.
_GENERIC_INVITATIONS = frozenset({"Edit", "Revision"})
# A path segment naming the paper an invitation belongs to ("Paper12", "paper12",
# "Submission1234").
_PAPER_SEGMENT = re.compile(r"^(?:paper|submission)\d+$", re.IGNORECASE)


def kind_of_invitation(invitation: str) -> str:
    """A reply's kind from one invitation: what follows ``/-/``, without the paper's own
    segment, each part capitalised and joined by ``_``.

    ``ICLR.cc/2026/Conference/Submission109/-/Official_Review`` → ``Official_Review``;
    ``ICLR.cc/2019/Conference/-/Paper1/Meta_Review`` → ``Meta_Review``;
    ``ICLR.cc/2017/conference/-/paper1/official/review`` → ``Official_Review``.
    """
    tail = invitation.rsplit("/-/", 1)[-1]
    parts = [p for p in tail.split("/") if p and not _PAPER_SEGMENT.match(p)]
    if not parts:
        return tail or invitation
    return "_".join(p[:1].upper() + p[1:] for p in parts)


def kind_of(invitations: Sequence[str]) -> str:
    """The kind of a reply from its invitations (the list grows with each edit): the first
    that names more than an edit; ``Edit`` when none does, ``Unknown`` with none at all."""
    kinds = [kind_of_invitation(i) for i in invitations if isinstance(i, str) and i]
    for kind in kinds:
        if kind not in _GENERIC_INVITATIONS:
            return kind
    return kinds[0] if kinds else "Unknown"


@dataclass(slots=True)
class Reply:
    """One note answering a paper (OpenReview's shape, any source).

    ``id`` is the note's id; ``forum`` the id of the paper it belongs to (None when the
    source gave none); ``replyto`` the note it answers (the paper for a review, a review
    for a rebuttal); ``cdate``/``mdate`` milliseconds since 1970 (creation, last
    modification). ``content`` holds every field of the note's content in the source's
    order, each value unwrapped from API v2's ``{"value": …}`` and otherwise verbatim
    (hostile text included: it is data, made inert where it is shown); ``scores`` and
    ``texts`` are read from it when the reply is made.
    """

    id: str
    forum: str | None
    replyto: str | None
    kind: str
    content: dict[str, Any] = field(default_factory=dict)
    invitations: tuple[str, ...] = ()
    signatures: tuple[str, ...] = ()
    number: int | None = None
    cdate: int | None = None
    mdate: int | None = None
    #: The numeric fields, by name, in content order.
    scores: dict[str, Score] = field(init=False, repr=False, compare=False)
    #: The text fields (summary, strengths, weaknesses, questions, comment, metareview,
    #: decision, …) as ``(name, text)``, in content order, verbatim.
    texts: tuple[tuple[str, str], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        scores: dict[str, Score] = {}
        texts: list[tuple[str, str]] = []
        for name, value in self.content.items():
            score = parse_score(name, value)
            if score is not None:
                scores[name] = score
            elif isinstance(value, str):
                texts.append((name, value))
        self.scores = scores
        self.texts = tuple(texts)

    @property
    def modified(self) -> int | None:
        """When this version was written: ``mdate``, else ``cdate``."""
        return self.mdate if self.mdate is not None else self.cdate

    @property
    def signer(self) -> str:
        """Who wrote it, as the last part of its first signature: ``Reviewer_6GPX``,
        ``Authors``, ``Area_Chair_x1Yz``, ``Program_Chairs``, ``~Ada_Lovelace1``."""
        if not self.signatures:
            return ""
        return self.signatures[0].rstrip("/").rsplit("/", 1)[-1]

    @property
    def is_review(self) -> bool:
        """Whether it is an official review (whose rating counts)."""
        return self.kind in REVIEW_KINDS

    @property
    def rating(self) -> Score | None:
        """The reviewer's overall rating, from the first rating field holding a number
        (else the first holding none, so that an ``"N/A"`` rating is still shown)."""
        found = [self.scores[name] for name in RATING_FIELDS if name in self.scores]
        numbered = [score for score in found if score.value is not None]
        if numbered:
            return numbered[0]
        return found[0] if found else None

    @property
    def confidence(self) -> Score | None:
        """The reviewer's confidence, if given."""
        return self.scores.get("confidence")

    @property
    def decision(self) -> str | None:
        """The decision this reply states, as written: a Decision note's ``decision``; a
        meta-review's ``decision`` or a ``recommendation`` that is not a number (ICLR
        2019–20); None for other replies."""
        if self.kind in DECISION_KINDS or self.kind in META_REVIEW_KINDS:
            for name in ("decision", "recommendation"):
                value = self.content.get(name)
                if isinstance(value, str) and value.strip() and name not in self.scores:
                    return value
        return None

    def content_json(self) -> str:
        """The content as compact JSON text (non-ASCII kept as it is), as it is stored."""
        return json.dumps(self.content, ensure_ascii=False, separators=(",", ":"))

    def text_hash(self) -> str:
        """A digest of the content without its scores: two versions with the same hash
        have the same text, whatever their ratings."""
        words = {name: value for name, value in self.content.items() if name not in self.scores}
        text = json.dumps(words, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
        return hashlib.sha1(text.encode("utf-8", "surrogatepass")).hexdigest()

    def scores_json(self) -> str:
        """The scores as compact JSON text, each with its number and the content's own
        value (``{"rating": {"value": 6.0, "raw": 6}, …}``): a version's scores, from
        which its content is rebuilt with the text of another version."""
        return json.dumps(
            {name: {"value": score.value, "raw": self.content.get(name, score.raw)}
             for name, score in self.scores.items()},
            ensure_ascii=False,
            separators=(",", ":"),
        )


# --- rating scales ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RatingScale:
    """The ratings a venue allows: ``low``..``high``, and the steps when only some values
    are allowed (ICLR 2026: 0, 2, 4, 6, 8, 10)."""

    low: float
    high: float
    steps: tuple[float, ...] = ()

    def __str__(self) -> str:
        if self.steps:
            return ",".join(_number_text(step) for step in self.steps)
        return f"{_number_text(self.low)}..{_number_text(self.high)}"

    @classmethod
    def parse(cls, text: str | None) -> RatingScale | None:
        """The scale written by ``str()`` (``"1..10"`` or ``"0,2,4,6,8,10"``), or None."""
        if not text:
            return None
        try:
            if ".." in text:
                low, high = text.split("..", 1)
                return cls(float(low), float(high))
            steps = tuple(float(part) for part in text.split(","))
        except ValueError:
            return None
        return cls(min(steps), max(steps), steps) if steps else None

    def fraction(self, value: float) -> float:
        """Where ``value`` stands on the scale, 0 at the bottom and 1 at the top."""
        if self.high == self.low:
            return 0.0
        return min(1.0, max(0.0, (value - self.low) / (self.high - self.low)))


def _number_text(value: float) -> str:
    """``6`` for 6.0, ``5.5`` for 5.5."""
    return str(int(value)) if value == int(value) else str(value)


_ONE_TO_TEN = RatingScale(1, 10)
# The rating scales of venues and years, as their review forms state them. A year not listed
# takes the scale of the nearest earlier year listed for the venue.
_SCALES: dict[str, tuple[tuple[int, RatingScale], ...]] = {
    "ICLR": (
        (2017, _ONE_TO_TEN),
        (2024, RatingScale(1, 10, (1, 3, 5, 6, 8, 10))),
        (2026, RatingScale(0, 10, (0, 2, 4, 6, 8, 10))),
    ),
    "NeurIPS": ((2019, _ONE_TO_TEN), (2025, RatingScale(1, 6))),
    "ICML": ((2023, _ONE_TO_TEN), (2025, RatingScale(1, 5))),
    "COLM": ((2024, _ONE_TO_TEN),),
    "TMLR": (),
}


def scale_for(venue: str | None, year: int | None) -> RatingScale | None:
    """The rating scale of a venue in a year, when it is known."""
    if not venue:
        return None
    table = _SCALES.get(venue) or next(
        (rows for name, rows in _SCALES.items() if name.lower() == venue.lower()), ()
    )
    chosen: RatingScale | None = None
    for since, scale in table:
        if year is None or year >= since:
            chosen = scale
    return chosen


# --- a paper's signals ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Signals:
    """What a paper's reviews and decision add up to.

    ``decision`` is one of :data:`DECISIONS` (None when no source said), ``decision_raw``
    the words the source used. ``ratings`` are the official reviews' ratings (one per
    review, in order) and ``confidences`` their confidences where given; ``rating_mean``,
    ``rating_std`` (the sample standard deviation; 0 for one rating) and ``rating_count``
    are computed from them, or, when a source gives only aggregates (paperlists'
    ``rating_avg``, a table's ``avg_rating`` and ``n_ratings``), kept as it gives them,
    ``ratings`` then empty. ``reviews`` and ``comments`` count replies (None when the
    source gives no replies). ``scale`` is the venue's rating scale, when known.
    """

    decision: str | None = None
    decision_raw: str | None = None
    ratings: tuple[float, ...] = ()
    confidences: tuple[float, ...] = ()
    rating_mean: float | None = None
    rating_std: float | None = None
    rating_count: int = 0
    confidence_mean: float | None = None
    scale: RatingScale | None = None
    reviews: int | None = None
    comments: int | None = None

    @property
    def is_empty(self) -> bool:
        """Whether it says nothing at all."""
        return self == Signals()


def _mean(values: Sequence[float]) -> float | None:
    if not values:
        return None
    try:
        return finite(math.fsum(values) / len(values))
    except OverflowError:  # ratings of absurd size
        return None


def _std(values: Sequence[float]) -> float | None:
    """The sample standard deviation (n − 1), as "mean 4.5 ± 1.9" shows it; 0 for one."""
    if not values:
        return None
    if len(values) == 1:
        return 0.0
    mean = _mean(values)
    try:
        spread = math.fsum((v - mean) ** 2 for v in values) if mean is not None else math.inf
    except OverflowError:  # ratings of absurd size: no spread worth showing
        return None
    return finite(math.sqrt(spread / (len(values) - 1)))


def aggregate_signals(
    ratings: Sequence[float] = (),
    confidences: Sequence[float] = (),
    *,
    decision: str | None = None,
    rating_mean: float | None = None,
    rating_std: float | None = None,
    rating_count: int | None = None,
    confidence_mean: float | None = None,
    venue: str | None = None,
    year: int | None = None,
    reviews: int | None = None,
    comments: int | None = None,
) -> Signals | None:
    """Signals from what a list or a table gives: ratings (the aggregates computed from
    them), or aggregates alone. A mean of 0 with no ratings and no count is a paper not
    yet rated (paperlists writes 0), not a rating of 0. None when nothing is known."""
    ratings = tuple(ratings)
    confidences = tuple(confidences)
    if ratings:
        rating_mean, rating_std = _mean(ratings), _std(ratings)
        rating_count = len(ratings)
    elif rating_mean is not None and not rating_count and rating_mean == 0:
        rating_mean = rating_std = None
    if confidences:
        confidence_mean = _mean(confidences)
    elif confidence_mean == 0 and not rating_count and rating_mean is None:
        confidence_mean = None
    count = rating_count or 0
    if rating_mean is None:
        rating_std = None
    decision_raw = decision.strip() if isinstance(decision, str) and decision.strip() else None
    signals = Signals(
        decision=normalize_decision(decision_raw),
        decision_raw=decision_raw,
        ratings=ratings,
        confidences=confidences,
        rating_mean=rating_mean,
        rating_std=rating_std,
        rating_count=count,
        confidence_mean=confidence_mean,
        scale=scale_for(venue, year) if (ratings or rating_mean is not None) else None,
        reviews=reviews,
        comments=comments,
    )
    return None if signals.is_empty else signals


def latest_replies(replies: Iterable[Reply]) -> list[Reply]:
    """Each reply once, as its latest version (by ``mdate``, else ``cdate``), in the order
    the replies were first met: a source may give a review as it was and as it was edited."""
    chosen: dict[str, Reply] = {}
    for reply in replies:
        kept = chosen.get(reply.id)
        if kept is None or (reply.modified or 0) >= (kept.modified or 0):
            chosen[reply.id] = reply
    return list(chosen.values())


def signals_from_replies(
    replies: Iterable[Reply],
    *,
    decision: str | None = None,
    venue: str | None = None,
    year: int | None = None,
) -> Signals:
    """A paper's signals from its replies: each official review's rating once (its
    latest version), the decision of a Decision note (else a meta-review's, else
    ``decision``, the paper's own word such as its venue "ICLR 2026 Poster" or a
    withdrawal), the counts of reviews and comments."""
    ordered = sorted(latest_replies(replies), key=lambda r: (r.cdate or 0, r.id))
    ratings: list[float] = []
    confidences: list[float] = []
    reviews = comments = 0
    stated: str | None = None
    meta: str | None = None
    withdrawn = False
    for reply in ordered:
        if reply.is_review:
            reviews += 1
            rating = reply.rating
            if rating is not None and rating.value is not None:
                ratings.append(rating.value)
                confidence = reply.confidence
                if confidence is not None and confidence.value is not None:
                    confidences.append(confidence.value)
        elif reply.kind in DECISION_KINDS:
            stated = reply.decision or stated
        elif reply.kind in META_REVIEW_KINDS:
            meta = reply.decision or meta
        elif reply.kind in ("Withdrawal", "Withdraw"):
            withdrawn = True
        elif reply.kind not in _PROCEDURAL_KINDS:
            comments += 1
    chosen = stated or meta
    if chosen is None and decision and normalize_decision(decision) not in (None, "pending"):
        chosen = decision
    if chosen is None and withdrawn:
        chosen = "Withdrawn"
    chosen = chosen or decision
    raw = chosen.strip() if chosen and chosen.strip() else None
    return Signals(
        decision=normalize_decision(raw),
        decision_raw=raw,
        ratings=tuple(ratings),
        confidences=tuple(confidences),
        rating_mean=_mean(ratings),
        rating_std=_std(ratings),
        rating_count=len(ratings),
        confidence_mean=_mean(confidences),
        scale=scale_for(venue, year),
        reviews=reviews,
        comments=comments,
    )


def merge_signals(old: Signals | None, new: Signals | None) -> Signals | None:
    """What a paper's signals become when a new source adds to what was known: ratings
    read from reviews outrank aggregates; a decision outranks ``pending`` and an unknown
    one, and a newer decision replaces an older one; counts known replace unknown."""
    if old is None or new is None:
        return new if old is None else old
    merged = new
    if not new.ratings and (old.ratings or new.rating_mean is None):
        merged = replace(
            merged,
            ratings=old.ratings,
            confidences=old.confidences,
            rating_mean=old.rating_mean,
            rating_std=old.rating_std,
            rating_count=old.rating_count,
            confidence_mean=old.confidence_mean if new.confidence_mean is None
            else new.confidence_mean,
        )
    if new.decision in (None, "pending") and old.decision not in (None, "pending"):
        merged = replace(merged, decision=old.decision, decision_raw=old.decision_raw)
    elif new.decision is None:
        merged = replace(merged, decision=old.decision, decision_raw=old.decision_raw)
    return replace(
        merged,
        scale=new.scale or old.scale,
        reviews=new.reviews if new.reviews is not None else old.reviews,
        comments=new.comments if new.comments is not None else old.comments,
    )


# --- reading numbers from lists ----------------------------------------------------------------

_NUMBER = re.compile(r"[-+]?\d+(?:\.\d+)?")


def number_list(value: Any) -> list[float] | None:
    """Numbers from a list (``[6, 8]``), a ``;``- or ``,``-joined string (``"6;6;8"``,
    paperlists), or a single number; None when the value holds none. Parts that are not
    numbers (``"N/A"``) are left out."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int | float):
        number = finite(value)
        return [number] if number is not None else None
    if isinstance(value, list):
        found = []
        for item in value:
            if isinstance(item, int | float | str) and not isinstance(item, bool):
                found += number_list(item) or []
        return found or None
    if isinstance(value, str):
        parts = re.split(r"[;,|]", value) if re.search(r"[;,|]", value) else value.split()
        numbers = []
        for part in parts:
            match = _NUMBER.match(part.strip())
            number = finite(match.group(0)) if match else None
            if number is not None:
                numbers.append(number)
        return numbers or None
    return None
