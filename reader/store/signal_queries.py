"""The conference signals as the query language and the sort orders read them: the papers
a signal filter (``rating:>=6``, ``decision:oral``, ``is:rating-changed`` …) selects, and
the keys of the orders by rating, by spread and by confidence-weighted rating.

Each is one statement over ``paper_signals`` (its indexes on rating_mean, rating_std,
decision and ratings_changed_import), so a filter or a sort over a whole conference costs
milliseconds, whatever the size of the review text beside it.

A filter compares the numbers as written (``rating:>=6`` is a mean of 6 or more on the
paper's own scale); a sort compares like with like: venues rate on different scales (ICLR
2017 and COLM 1–10, ICLR 2026 0–10 in steps of two, NeurIPS 2025 1–6), so papers are
ordered by where their number stands on their own scale.
"""

from __future__ import annotations

import json
import math
import sqlite3
from collections.abc import Callable, Iterable

from reader.signals import RatingScale

__all__ = [
    "SIGNAL_ORDERS", "SortKey", "decision_ids", "flag_ids", "number_ids", "signal_sort_keys",
]

# The column each number filter compares.
_NUMBER_COLUMNS = {
    "rating": "rating_mean",
    "confidence": "confidence_mean",
    "reviews": "reviews",
}

#: The sort orders read from the signals (see signal_sort_keys).
SIGNAL_ORDERS = frozenset({"rating", "spread", "weighted"})


def number_ids(
    conn: sqlite3.Connection,
    name: str,
    low: float | None = None,
    high: float | None = None,
    *,
    low_open: bool = False,
    high_open: bool = False,
) -> set[int]:
    """The papers whose ``name`` (``rating``: the mean rating, ``confidence``: the mean
    confidence, ``reviews``: the count of reviews) lies between ``low`` and ``high`` (None:
    no bound; each included unless open). Papers without the number are not among them."""
    column = _NUMBER_COLUMNS[name]
    where = [f"{column} IS NOT NULL"]
    args: list[float] = []
    if low is not None:
        where.append(f"{column} {'>' if low_open else '>='} ?")
        args.append(low)
    if high is not None:
        where.append(f"{column} {'<' if high_open else '<='} ?")
        args.append(high)
    sql = f"SELECT paper_id FROM paper_signals WHERE {' AND '.join(where)}"
    return {row[0] for row in conn.execute(sql, args)}


def decision_ids(conn: sqlite3.Connection, decisions: list[str]) -> set[int]:
    """The papers whose normalised decision is one of ``decisions``."""
    marks = ",".join("?" * len(decisions))
    sql = f"SELECT paper_id FROM paper_signals WHERE decision IN ({marks})"
    return {row[0] for row in conn.execute(sql, decisions)}


_FLAGS = {
    # The last import that changed any rating (the partial index answers the max).
    "rating-changed": (
        "SELECT paper_id FROM paper_signals WHERE ratings_changed_import = "
        "(SELECT max(ratings_changed_import) FROM paper_signals)"
    ),
    "reviews": "SELECT paper_id FROM paper_signals WHERE reviews > 0",
    "rating": "SELECT paper_id FROM paper_signals WHERE rating_mean IS NOT NULL",
}


def flag_ids(conn: sqlite3.Connection, flag: str) -> set[int]:
    """The papers with a signal flag: ``rating-changed`` (ratings changed by the last
    import that changed any), ``reviews`` (official reviews stored or counted),
    ``rating`` (a mean rating)."""
    return {row[0] for row in conn.execute(_FLAGS[flag])}


#: A paper's place in a signal order, compared highest first: ``(1, position)`` for a
#: paper rated on a known scale (the position from 0, the scale's bottom, to 1, its top),
#: ``(0, number)`` for one whose scale is not known, which is compared with no other.
SortKey = tuple[int, float]


def signal_sort_keys(conn: sqlite3.Connection, order: str) -> dict[int, SortKey]:
    """Each paper's key for ``order`` (higher first), for the papers that have one:

    - ``rating``: the mean rating;
    - ``spread``: the ratings' standard deviation, among papers with two ratings or more
      (controversial first);
    - ``weighted``: the mean of the ratings weighted by the reviewers' confidence, where
      every rating has its confidence; else the plain mean.

    Each is read against the paper's rating scale (see :data:`SortKey`): a mean of 4 on
    0–10 (40% of the way up) comes before a mean of 4.3 on 1–10 (37%), and a spread is
    a share of its scale's range. On one scale the order is that of the numbers. Papers
    whose scale is not known follow those whose scale is, by the numbers alone.
    """
    if order == "rating":
        rows = conn.execute(
            "SELECT paper_id, rating_mean, scale FROM paper_signals "
            "WHERE rating_mean IS NOT NULL"
        )
        return _placed(rows, _position)
    if order == "spread":
        rows = conn.execute(
            "SELECT paper_id, rating_std, scale FROM paper_signals WHERE rating_std IS NOT NULL "
            "AND rating_count >= 2"
        )
        return _placed(rows, _share)
    if order == "weighted":
        rows = conn.execute(
            "SELECT paper_id, rating_mean, ratings, confidences, scale FROM paper_signals "
            "WHERE rating_mean IS NOT NULL"
        )
        weighted = (
            (paper_id, _weighted(mean, ratings, confidences), scale)
            for paper_id, mean, ratings, confidences, scale in rows
        )
        return _placed(weighted, _position)
    raise ValueError(f"not a signal order: {order}")


def _position(value: float, scale: RatingScale) -> float:
    return scale.fraction(value)


def _share(value: float, scale: RatingScale) -> float:
    span = scale.high - scale.low
    return value / span if span > 0 else 0.0


def _placed(
    rows: Iterable[tuple[int, float, str | None]],
    on_scale: Callable[[float, RatingScale], float],
) -> dict[int, SortKey]:
    """The sort keys of rows of (paper id, number, scale as stored): the number read on
    the scale by ``on_scale`` where the scale is known."""
    scales: dict[str | None, RatingScale | None] = {}
    keys: dict[int, SortKey] = {}
    for paper_id, value, stored in rows:
        if stored not in scales:
            scales[stored] = RatingScale.parse(stored)  # a conference holds a few
        scale = scales[stored]
        if scale is None:
            keys[paper_id] = (0, float(value))
        else:
            keys[paper_id] = (1, on_scale(float(value), scale))
    return keys


def _weighted(mean: float, ratings_json: str, confidences_json: str) -> float:
    """The confidence-weighted mean of a paper's ratings, or ``mean`` when the ratings and
    confidences do not pair up (a review without a confidence, aggregates only)."""
    if confidences_json in ("[]", "") or ratings_json in ("[]", ""):
        return float(mean)
    ratings = json.loads(ratings_json)
    confidences = json.loads(confidences_json)
    if len(ratings) != len(confidences):
        return float(mean)
    total = math.fsum(confidences)
    if total <= 0:
        return float(mean)
    return math.fsum(r * c for r, c in zip(ratings, confidences, strict=True)) / total
