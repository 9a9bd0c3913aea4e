"""A paper's conference signals as export columns: the mean rating, the ratings and the
decision, as CSV cells and as JSON fields."""

from __future__ import annotations

from typing import Any

from reader.signals import Signals

__all__ = ["SIGNAL_COLUMNS", "signal_cells", "signal_fields"]

#: The CSV columns that follow the paper's own when signals are exported: the mean
#: rating, the ratings ("; "-joined) and the normalised decision.
SIGNAL_COLUMNS = ("rating", "ratings", "decision")


def _number(value: float) -> str:
    """``6`` for 6.0, ``5.25`` for 5.25."""
    return str(int(value)) if value == int(value) else repr(value)


def signal_cells(signals: Signals | None) -> list[str]:
    """The CSV cells of a paper's signals (empty for none)."""
    if signals is None:
        return ["", "", ""]
    mean = "" if signals.rating_mean is None else _number(round(signals.rating_mean, 4))
    return [mean, "; ".join(_number(r) for r in signals.ratings), signals.decision or ""]


def signal_fields(signals: Signals | None) -> dict[str, Any]:
    """A paper's signals in a JSON export: ``rating`` (the mean), ``ratings``,
    ``decision`` and the ``decision_raw`` words it came from (null or empty: none)."""
    return {
        "rating": signals.rating_mean if signals else None,
        "ratings": list(signals.ratings) if signals else [],
        "decision": signals.decision if signals else None,
        "decision_raw": signals.decision_raw if signals else None,
    }
