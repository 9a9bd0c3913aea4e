"""Field helpers shared by the JSON importers: each accepts any JSON value and never
raises (text, titles, abstracts, lists, years, dates, venues)."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime
from email.utils import parsedate_to_datetime
from typing import Any

from reader.text.sanitize import clean_imported

# --- field helpers --------------------------------------------------------------------------

# Only what needs replacing: a run of blanks or a tab (not every single space).
_H_SPACE = re.compile(r"[ \t]{2,}|\t")
_SURROGATE = re.compile("[\ud800-\udfff]")
_BLANK_LINES = re.compile(r"\n[ \t]*(?:\n[ \t]*)+")
_YEAR = re.compile(r"(?<!\d)(1[89]\d\d|20\d\d|21\d\d)(?!\d)")
# A venue acronym has at least two capitals: ICLR, NeurIPS, CoRL, TMLR, COLM.
_ACRONYM = re.compile(r"(?<![\w-])[A-Za-z]*[A-Z][a-z]*[A-Z][A-Za-z]*(?![\w-])")
# Acronym-shaped words that name a site or a status, not a venue.
_NOT_VENUES = frozenset({"OpenReview", "TL", "DR", "PDF", "URL", "DOI", "ID"})
_MIN_YEAR, _MAX_YEAR = 1800, 2199
_ISO_DAY = re.compile(r"(\d{4})-\d\d-\d\d")


def text_value(value: Any) -> str:
    """``value`` as text: strings as they are, integers as digits, anything else empty."""
    if isinstance(value, str):
        if value.isascii():
            return value  # no surrogate to check for (most values: a C check, no copy)
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            # JSON can escape half a surrogate pair ("\\ud800"), which UTF-8 cannot store.
            return _SURROGATE.sub("\ufffd", value)
        return value
    # Numbers do turn up where text belongs (an id, a numeric title); other types are junk.
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return ""


def clean_title(value: Any) -> str:
    """Imported single-line text (title, name, venue): cleaned, whitespace folded."""
    if isinstance(value, str) and value.isascii() and value.isprintable():
        # Printable ASCII has nothing to clean, only spaces to fold: the usual name or
        # keyword (an import reads dozens per record) is returned as it is.
        if "  " not in value and value[:1] != " " and value[-1:] != " ":
            return value
        return " ".join(value.split())
    return " ".join(clean_imported(text_value(value)).split())


def _fold_blanks(line: str) -> str:
    """Runs of blanks and tabs as one space (the substring tests skip the regex for the
    usual line, which has neither)."""
    if "  " in line or "\t" in line:
        return _H_SPACE.sub(" ", line)
    return line


def clean_abstract(value: Any, *, unwrap: bool = False, indented_paragraphs: bool = False) -> str:
    """Imported abstract: cleaned, stripped, runs of spaces folded, paragraph breaks kept.

    ``unwrap`` joins hard-wrapped lines within a paragraph; ``indented_paragraphs`` also
    starts a paragraph at every indented line, as arXiv abstracts mark them.
    """
    text = clean_imported(text_value(value))
    if indented_paragraphs:
        text = re.sub(r"\n(?=[ \t]+\S)", "\n\n", text.strip("\n"))
    paragraphs = []
    for block in _BLANK_LINES.split(text):
        lines = [_fold_blanks(line).strip() for line in block.split("\n")]
        lines = [line for line in lines if line]
        if lines:
            paragraphs.append((" " if unwrap else "\n").join(lines))
    return "\n\n".join(paragraphs)


def string_list(value: Any, separator: str | None = None) -> list[str]:
    """Distinct non-empty cleaned strings from a list, or from a string split on the
    ``separator`` regex (the whole string when None)."""
    if isinstance(value, list):
        items = [text_value(item) for item in value]
    else:
        text = text_value(value)
        items = re.split(separator, text) if separator else [text]
    seen: dict[str, None] = {}
    for item in items:
        cleaned = clean_title(item)
        if cleaned:
            seen.setdefault(cleaned, None)
    return list(seen)


def year_value(value: Any) -> int | None:
    """A plausible year from an integer or a string that holds one, else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if _MIN_YEAR <= value <= _MAX_YEAR else None
    if isinstance(value, str):
        match = _YEAR.search(value)
        return int(match.group(1)) if match else None
    return None


def iso_date(year: Any, month: Any = None, day: Any = None) -> str | None:
    """``2020-05-01``, ``2020-05`` or ``2020`` from parts that may be numbers or digits."""
    y = _small_int(year)
    if y is None or not _MIN_YEAR <= y <= _MAX_YEAR:
        return None
    m = _small_int(month)
    if m is None or not 1 <= m <= 12:
        return f"{y:04d}"
    d = _small_int(day)
    if d is not None:
        try:
            return date(y, m, d).isoformat()
        except ValueError:
            pass  # 30 February: the month is still right
    return f"{y:04d}-{m:02d}"


def _small_int(value: Any) -> int | None:
    """An integer from an int or a short digit string (as CSL date parts often are)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isdigit() and len(value.strip()) <= 4:
        return int(value.strip())
    return None


def _from_epoch_ms(value: Any) -> datetime | None:
    """The UTC moment of a millisecond timestamp, when it is one of a plausible year."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        moment = datetime.fromtimestamp(value / 1000, tz=UTC)
    except (OverflowError, OSError, ValueError):
        return None
    return moment if _MIN_YEAR <= moment.year <= _MAX_YEAR else None


def date_from_epoch_ms(value: Any) -> str | None:
    """ISO date (UTC) of a millisecond timestamp such as OpenReview's ``cdate``."""
    moment = _from_epoch_ms(value)
    return None if moment is None else moment.date().isoformat()


def moment_from_epoch_ms(value: Any) -> str | None:
    """ISO moment in UTC (``2025-11-12T09:30:00Z``) of a millisecond timestamp such as
    OpenReview's ``mdate``: the precision that tells two versions of one day apart."""
    moment = _from_epoch_ms(value)
    # isoformat is strftime's text (the year is four digits here) at a third of its cost.
    return None if moment is None else moment.isoformat(timespec="seconds")[:19] + "Z"


def moment_from_text(value: Any) -> str | None:
    """ISO moment in UTC of a written date or time (``2025-11-12``, ``2025-11-12T09:30:00+01:00``,
    ``Mon, 2 Apr 2007 19:18:42 GMT``) or a millisecond timestamp; a date alone stays a date
    (it sorts before every moment of its day). None when nothing reads as one."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        # Seconds or milliseconds since 1970: milliseconds are past 10^11.
        return moment_from_epoch_ms(value if value > 1e11 else value * 1000)
    text = text_value(value).strip()
    if not text:
        return None
    if text.isdigit() and len(text) >= 10:
        return moment_from_text(int(text))
    if (found := _ISO_DAY.fullmatch(text)) is not None:
        year = int(found.group(1))
        return text if _MIN_YEAR <= year <= _MAX_YEAR else None
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        try:
            moment = parsedate_to_datetime(text)
        except (TypeError, ValueError, IndexError, OverflowError):
            return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    if not _MIN_YEAR <= moment.year <= _MAX_YEAR:
        return None
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


#: Keys (and column names, folded) that hold when a source last modified its record.
MODIFIED_KEYS = (
    "mdate", "tmdate", "modified", "updated", "last_modified", "lastmodified", "modified_at",
    "updated_at", "date_modified", "datemodified", "last_updated", "update_date",
)


def modified_of(item: dict[str, Any]) -> str | None:
    """When a source last modified a record, from the first key of MODIFIED_KEYS it has."""
    for key in MODIFIED_KEYS:
        if key in item and (found := moment_from_text(item[key])):
            return found
    return None


def venue_from_text(text: str) -> tuple[str | None, int | None]:
    """Venue acronym and year named in text such as ``Submitted to ICLR 2026``."""
    year_match = _YEAR.search(text)
    candidates = [m for m in _ACRONYM.finditer(text) if m.group(0) not in _NOT_VENUES]
    year = int(year_match.group(1)) if year_match else None
    if not candidates:
        return None, year
    if year_match is None:
        return candidates[0].group(0), None
    # The venue is the acronym nearest the year, preferring one before it ("ICLR 2026 …").
    before = [m for m in candidates if m.end() <= year_match.start()]
    chosen = before[-1] if before else candidates[0]
    return chosen.group(0), year


# The Datasets and Benchmarks track, which NeurIPS publishes apart from its main track: as
# OpenReview names it ("NeurIPS 2024 Datasets and Benchmarks Track", a venueid's
# "Datasets_and_Benchmarks_Track", 2023's "Track Datasets and Benchmarks") and paperlists
# ("Datasets & Benchmarks").
_DATASETS_TRACK = re.compile(r"datasets[\s_]+(?:and|&)[\s_]+benchmarks", re.IGNORECASE)


def track_venue(venue: str | None, *texts: str) -> str | None:
    """The venue with the track the texts name ("NeurIPS Datasets and Benchmarks Track"):
    a paper of the track is cited as its proceedings name it, not as the main track's."""
    if venue and any(_DATASETS_TRACK.search(text or "") for text in texts):
        return f"{venue} Datasets and Benchmarks Track"
    return venue
