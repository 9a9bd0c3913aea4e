"""A paper's conference signals as export columns (CSV cells and JSON fields), named as
the CSV and JSON readers read them back: the mean rating and its spread, the count of
ratings, the ratings, the confidences and their mean, the decision and the source's words
for it."""

from __future__ import annotations

from typing import Any

from reader.signals import Signals

__all__ = ["SIGNAL_COLUMNS", "signal_cells", "signal_fields"]

#: The CSV columns that follow the paper's own when signals are exported: the mean rating,
#: its standard deviation, how many ratings, the ratings ("; "-joined), the confidences
#: and their mean, the normalised decision and the source's words for it.
SIGNAL_COLUMNS = (
    "rating", "rating_std", "rating_count", "ratings", "confidences", "confidence_mean",
    "decision", "decision_raw",
)


def _number(value: float) -> str:
    """``6`` for 6.0, ``5.25`` for 5.25."""
    return str(int(value)) if value == int(value) else repr(value)


def _cell(value: float | None) -> str:
    return "" if value is None else _number(round(value, 4))


def signal_cells(signals: Signals | None) -> list[str]:
    """The CSV cells of a paper's signals (empty for none)."""
    if signals is None:
        return [""] * len(SIGNAL_COLUMNS)
    return [
        _cell(signals.rating_mean),
        _cell(signals.rating_std),
        str(signals.rating_count) if signals.rating_count else "",
        "; ".join(_number(r) for r in signals.ratings),
        "; ".join(_number(c) for c in signals.confidences),
        _cell(signals.confidence_mean),
        signals.decision or "",
        signals.decision_raw or "",
    ]


def signal_fields(signals: Signals | None) -> dict[str, Any]:
    """A paper's signals in a JSON export, the columns of :data:`SIGNAL_COLUMNS` (null or
    empty: none)."""
    if signals is None:
        return {"rating": None, "rating_std": None, "rating_count": 0, "ratings": [],
                "confidences": [], "confidence_mean": None, "decision": None,
                "decision_raw": None}
    return {
        "rating": signals.rating_mean,
        "rating_std": signals.rating_std,
        "rating_count": signals.rating_count,
        "ratings": list(signals.ratings),
        "confidences": list(signals.confidences),
        "confidence_mean": signals.confidence_mean,
        "decision": signals.decision,
        "decision_raw": signals.decision_raw,
    }
