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

In four modules: :mod:`~reader.signals.decisions`,
:mod:`~reader.signals.scores`, :mod:`~reader.signals.replies`,
:mod:`~reader.signals.summary`; every name is here too.
"""

from __future__ import annotations

from reader.signals.decisions import (
    DECISIONS,
    EXPORT_STATES,
    UNDER_REVIEW,
    carried_decision,
    decision_field,
    decision_label,
    export_state,
    normalize_decision,
    state_decision,
)
from reader.signals.replies import (
    COMMENT_KINDS,
    DECISION_KINDS,
    META_REVIEW_KINDS,
    PROCEDURAL_KINDS,
    REVIEW_KINDS,
    SECTION_LIMIT,
    SIGNAL_FIELDS,
    Reply,
    kind_of,
    kind_of_invitation,
    shown_sections,
)
from reader.signals.scores import (
    RATING_FIELDS,
    SCORE_FIELDS,
    Score,
    finite,
    number_list,
    one_decimal,
    parse_score,
)
from reader.signals.summary import (
    RatingScale,
    Signals,
    aggregate_signals,
    latest_replies,
    merge_signals,
    scale_for,
    signals_from_replies,
)

__all__ = [
    "COMMENT_KINDS",
    "DECISIONS",
    "EXPORT_STATES",
    "decision_label",
    "carried_decision",
    "decision_field",
    "export_state",
    "state_decision",
    "UNDER_REVIEW",
    "DECISION_KINDS",
    "META_REVIEW_KINDS",
    "PROCEDURAL_KINDS",
    "RATING_FIELDS",
    "REVIEW_KINDS",
    "SCORE_FIELDS",
    "SECTION_LIMIT",
    "SIGNAL_FIELDS",
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
    "one_decimal",
    "parse_score",
    "scale_for",
    "shown_sections",
    "signals_from_replies",
]
