"""The conference signals as the query language and the sort orders read them: the papers
a signal filter (``rating:>=6``, ``decision:oral``, ``is:rating-changed`` …) selects, and
the keys of the orders by rating, by spread and by confidence-weighted rating.

Each is one statement over ``paper_signals`` (its indexes on rating_mean, rating_std,
decision and ratings_changed_import), so a filter or a sort over a whole conference costs
milliseconds, whatever the size of the review text beside it.
"""

from __future__ import annotations

import json
import math
import sqlite3

__all__ = ["SIGNAL_ORDERS", "decision_ids", "flag_ids", "number_ids", "signal_sort_keys"]

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


def signal_sort_keys(conn: sqlite3.Connection, order: str) -> dict[int, float]:
    """Each paper's key for ``order`` (higher first), for the papers that have one:

    - ``rating``: the mean rating (read in the order of its index);
    - ``spread``: the ratings' standard deviation, among papers with two ratings or more
      (controversial first);
    - ``weighted``: the mean of the ratings weighted by the reviewers' confidence, where
      every rating has its confidence; else the plain mean.
    """
    if order == "rating":
        return dict(conn.execute(
            "SELECT paper_id, rating_mean FROM paper_signals WHERE rating_mean IS NOT NULL "
            "ORDER BY rating_mean DESC"
        ))
    if order == "spread":
        return dict(conn.execute(
            "SELECT paper_id, rating_std FROM paper_signals WHERE rating_std IS NOT NULL "
            "AND rating_count >= 2 ORDER BY rating_std DESC"
        ))
    if order == "weighted":
        keys: dict[int, float] = {}
        rows = conn.execute(
            "SELECT paper_id, rating_mean, ratings, confidences FROM paper_signals "
            "WHERE rating_mean IS NOT NULL"
        )
        for paper_id, mean, ratings, confidences in rows:
            keys[paper_id] = _weighted(mean, ratings, confidences)
        return keys
    raise ValueError(f"not a signal order: {order}")


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
