"""The conference signals of a table row or a JSON paper object, from its values by
record field (the names of :data:`reader.sources.table_fields.SYNONYMS`): ratings, counts,
confidences, a decision, and a venue that names the decision ("ICLR 2026 Oral")."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

from reader.models import PaperRecord
from reader.signals import Signals, aggregate_signals, normalize_decision, number_list
from reader.sources.csv_header import column_field

__all__ = [
    "contradicted_mean", "kept_as_written", "overruled_venue", "overrules", "table_signals",
    "venue_and_decision",
]

# Fields whose text is numbers; one that holds none is kept in extra["table"].
_NUMBER_FIELDS = (
    "ratings", "rating_avg", "rating_std", "rating_count", "confidence", "confidence_avg"
)
# A mean as a table writes it, its decimals apart ("7.67"; paperlists' "[7.67, 0.47]").
_FIRST_NUMBER = re.compile(r"[-+]?\d+(?:\.(\d+))?")
# "ICLR 2026 Oral", "NeurIPS 2024 Spotlight": a venue, a year, then a decision.
_VENUE_DECISION = re.compile(r"^(?P<venue>\S.*?)\s+(?P<year>(?:19|20)\d\d)\s+(?P<rest>\S.*)$")
# "ICML 2025": a venue and its year, nothing after.
_VENUE_YEAR = re.compile(r"^(?P<venue>\S.*?)\s+(?P<year>(?:19|20)\d\d)$")


def venue_and_decision(text: str) -> tuple[str, int | None, str]:
    """``"ICLR 2026 Oral"`` → ICLR, 2026, "ICLR 2026 Oral" (the raw decision); ``"ICLR 2026
    Workshop on Tiny Papers"`` → "ICLR Workshop on Tiny Papers", 2026, the same words (a
    workshop is a venue of its own); ``"ICML 2025"`` → ICML, 2025, no decision. Any venue
    whose words after a year name no decision stays as it is."""
    match = _VENUE_DECISION.match(text)
    if match and (_titled(match.group("venue")) or not match.group("rest")[0].isalnum()):
        # A proceedings' title ("54th Annual Meeting of the ACL, ACL 2016 - Long Papers",
        # "Proceedings of the 2019 Conference … (Long and Short Papers)"): a name to keep
        # whole, not a venue, a year and a decision.
        return text, None, ""
    if match is None:
        alone = _VENUE_YEAR.match(text)
        if alone is None:
            return text, None, ""
        return alone.group("venue"), int(alone.group("year")), ""
    decision = normalize_decision(match.group("rest"))
    if decision in (None, "pending"):
        return text, None, ""
    venue = match.group("venue")
    if decision == "workshop":
        venue = f"{venue} {match.group('rest')}"
    return venue, int(match.group("year")), text


def _titled(venue: str) -> bool:
    """Whether the words before a venue's year are the start of a title ("Proceedings of
    the", "Advances in …"), not a conference's name ("ICLR", "NeurIPS"): a comma, a word
    written lower-case, or more words than a name has."""
    words = venue.split()
    return "," in venue or len(words) > 3 or any(w[0].islower() for w in words)


def table_signals(
    values: dict[str, str], decision: str, venue: str | None, year: int | None
) -> Signals | None:
    """The ratings and the decision a row gives, as signals."""
    ratings = number_list(values.get("ratings")) or []
    averages = number_list(values.get("rating_avg")) or []
    if not ratings and len(averages) > 1:
        ratings, averages = averages, []  # a "rating" column holding every review's rating
    count = number_list(values.get("rating_count"))
    std = number_list(values.get("rating_std"))
    confidences = number_list(values.get("confidence")) or []
    confidence_avg = number_list(values.get("confidence_avg"))
    if not ratings and len(confidences) == 1:
        confidence_avg, confidences = confidence_avg or confidences, []
    return aggregate_signals(
        ratings,
        confidences if len(confidences) == len(ratings) else (),
        decision=decision or None,
        rating_mean=averages[0] if averages else None,
        rating_std=std[0] if std else None,
        rating_count=int(count[0]) if count else None,
        confidence_mean=confidence_avg[0] if confidence_avg else None,
        venue=venue,
        year=year,
    )


def kept_as_written(values: dict[str, str]) -> dict[str, str]:
    """The fields meant to hold numbers that hold none (``"N/A"``), as written; and the
    table's own mean when the ratings it gives make another (:func:`contradicted_mean`
    finds it on the record)."""
    kept = {
        field: values[field]
        for field in _NUMBER_FIELDS
        if values.get(field) and number_list(values[field]) is None
    }
    if _disagrees(values.get("rating_avg", ""), number_list(values.get("ratings")) or []):
        kept["rating_avg"] = values["rating_avg"]
    return kept


def contradicted_mean(record: PaperRecord) -> tuple[str, str, float] | None:
    """A table's column of mean ratings, its mean as written and the mean of the ratings
    the same row gives, when they disagree (``"avg_rating"``, ``"6.1"`` beside ``[8, 8,
    7]``); None when they agree or the row gives no ratings. The ratings make the paper's
    mean: the file's is kept as written, under the column's name."""
    column, written = next(((name, text) for name, text in record.extra.get("table", {}).items()
                            if column_field(name) == "rating_avg"), ("", None))
    signals = record.signals
    if not isinstance(written, str) or signals is None or signals.rating_mean is None:
        return None
    if not _disagrees(written, signals.ratings):
        return None
    return column, written, signals.rating_mean


def _disagrees(written: str, ratings: Sequence[float]) -> bool:
    """Whether a mean as a table writes it is other than the mean of ``ratings`` rounded
    to as many places as it has: "7.67" agrees with [8, 8, 7], "7.5" does not."""
    first = _FIRST_NUMBER.search(written) if ratings else None
    if first is None:
        return False
    places = len(first.group(1) or "")
    mean = math.fsum(ratings) / len(ratings)
    # Half a unit of its last place, with room for a float's error: 7.25 stays 7.25.
    return abs(mean - float(first.group(0))) > 0.5 * 10.0 ** -places + 1e-9


def overrules(decision: str, venue_decision: str) -> bool:
    """Whether a row's decision column says otherwise than the decision its venue names
    ("Reject" beside "ICLR 2026 Oral"): the column's is the paper's decision."""
    said = normalize_decision(decision.strip()) if decision.strip() else None
    return bool(said and venue_decision and said != normalize_decision(venue_decision))


def overruled_venue(record: PaperRecord) -> tuple[str, str] | None:
    """The venue column, and its text as written, whose decision the row's decision column
    overruled (kept among the source fields, as the reader of the table keeps it); None
    when there is none."""
    decision = record.signals.decision if record.signals else None
    for name, text in record.extra.get("table", {}).items():
        if decision and isinstance(text, str) and column_field(name) == "venue":
            said = venue_and_decision(text)[2]
            if said and normalize_decision(said) != decision:
                return name, text
    return None
