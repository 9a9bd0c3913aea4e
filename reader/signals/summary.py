"""What a paper's replies, or a list's aggregates, add up to (:class:`Signals`), against
the venue's rating scale (:class:`RatingScale`)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from msgspec import Struct, structs

from reader.signals.decisions import export_state, normalize_decision
from reader.signals.replies import DECISION_KINDS, META_REVIEW_KINDS, PROCEDURAL_KINDS, Reply
from reader.signals.scores import finite

__all__ = [
    "RatingScale",
    "Signals",
    "aggregate_signals",
    "latest_replies",
    "merge_signals",
    "scale_for",
    "signals_from_replies",
]


class RatingScale(Struct, frozen=True):
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


class Signals(Struct, frozen=True):
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
    if reviews is None and count:
        # A list that gives each rating (or how many) gives the number of reviews too.
        reviews = count
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
        elif reply.kind not in PROCEDURAL_KINDS:
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
        merged = structs.replace(
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
        merged = structs.replace(merged, decision=old.decision, decision_raw=old.decision_raw)
    elif new.decision is None or (
        new.decision == old.decision
        and (new.decision_raw or "").lower() in (new.decision, export_state(new.decision))
    ):
        # The same decision said in a word ("poster" beside "Accept (Poster)", as a
        # table or an export of the library says it; "Under review" and "Rejected", the
        # exports' words for pending and reject, beside "ICLR 2026 Conference Submission")
        # keeps the source's own words.
        merged = structs.replace(merged, decision=old.decision, decision_raw=old.decision_raw)
    return structs.replace(
        merged,
        scale=new.scale or old.scale,
        reviews=new.reviews if new.reviews is not None else old.reviews,
        comments=new.comments if new.comments is not None else old.comments,
    )
