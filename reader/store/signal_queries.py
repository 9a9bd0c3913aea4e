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

from reader.signals import RatingScale

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
    """The papers whose normalised decision is one of ``decisions``; ``withdrawn`` finds
    the papers marked withdrawn too (as ``is:withdrawn`` does), whose record says so with
    no decision of the venue's (a BibTeX export's pubstate read back)."""
    marks = ",".join("?" * len(decisions))
    sql = f"SELECT paper_id FROM paper_signals WHERE decision IN ({marks})"
    found = {row[0] for row in conn.execute(sql, decisions)}
    if "withdrawn" in decisions:
        found |= {row[0] for row in conn.execute("SELECT id FROM papers WHERE withdrawn = 1")}
    return found


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


# Where a paper whose rating scale is not known is placed: this far below every position
# on a known scale (0 to 1), still in the order of its own number among such papers.
_NO_SCALE = 1e6


def signal_sort_keys(conn: sqlite3.Connection, order: str) -> dict[int, float]:
    """Each paper's key for ``order`` (higher first), for the papers that have one:

    - ``rating``: the mean rating;
    - ``spread``: the ratings' standard deviation, among papers with two ratings or more
      (controversial first);
    - ``weighted``: the mean of the ratings weighted by the reviewers' confidence, where
      every rating has its confidence; else the plain mean.

    Each is read against the paper's rating scale: the key is where the number stands on
    it, from 0 at its bottom to 1 at its top (a spread, as a share of its range). A mean of
    4 on 0–10 (0.4) comes before a mean of 4.3 on 1–10 (0.37); on one scale the order is
    that of the numbers. Papers whose scale is not known follow all others, by their
    numbers alone.
    """
    if order == "rating":
        return _placed(conn, "rating_mean", "rating_mean IS NOT NULL", spread=False)
    if order == "spread":
        return _placed(conn, "rating_std", "rating_std IS NOT NULL AND rating_count >= 2",
                       spread=True)
    if order == "weighted":
        scales: dict[str | None, RatingScale | None] = {}
        keys: dict[int, float] = {}
        rows = conn.execute(
            "SELECT paper_id, rating_mean, ratings, confidences, scale FROM paper_signals "
            "WHERE rating_mean IS NOT NULL"
        )
        for paper_id, mean, ratings, confidences, stored in rows:
            if stored not in scales:
                scales[stored] = RatingScale.parse(stored)  # a conference holds a few
            scale = scales[stored]
            weighted = _weighted(mean, ratings, confidences)
            keys[paper_id] = scale.fraction(weighted) if scale else weighted - _NO_SCALE
        return keys
    raise ValueError(f"not a signal order: {order}")


def _placed(conn: sqlite3.Connection, column: str, where: str, *, spread: bool
            ) -> dict[int, float]:
    """The keys of ``column`` over the papers matching ``where``: one statement per rating
    scale the table holds (a handful), each placing its papers' numbers on that scale."""
    keys: dict[int, float] = {}
    stored_scales = [row[0] for row in conn.execute(
        f"SELECT DISTINCT scale FROM paper_signals WHERE {where}"
    )]
    for stored in stored_scales:
        scale = RatingScale.parse(stored)
        rows = f"FROM paper_signals WHERE {where} AND scale IS ?"
        if scale is None:
            keys.update(conn.execute(f"SELECT paper_id, {column} - ? {rows}",
                                     (_NO_SCALE, stored)))
            continue
        span = scale.high - scale.low
        if span <= 0:
            keys.update(conn.execute(f"SELECT paper_id, 0.0 {rows}", (stored,)))
        elif spread:
            keys.update(conn.execute(f"SELECT paper_id, {column} / ? {rows}", (span, stored)))
        else:
            # As RatingScale.fraction: a number outside the scale stands at its end.
            keys.update(conn.execute(
                f"SELECT paper_id, min(1.0, max(0.0, ({column} - ?) / ?)) {rows}",
                (scale.low, span, stored),
            ))
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
