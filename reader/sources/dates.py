"""Years and dates as the text formats write them (``2012``, ``2012/07/03``, ``2012-7``)."""

from __future__ import annotations

import re

__all__ = ["MONTHS", "month_number", "year_and_date"]

#: Month numbers by the first three letters of the month's English name.
MONTHS = {m: n for n, m in enumerate(
    "jan feb mar apr may jun jul aug sep oct nov dec".split(), start=1)}

_YEAR = re.compile(r"(?<!\d)(\d{4})(?!\d)")
_DATE = re.compile(r"^\s*(\d{4})(?:[-/](\d{1,2})(?:[-/](\d{1,2}))?)?")


def year_and_date(year_text: str, *date_texts: str) -> tuple[int | None, str | None]:
    """The year (from ``year_text``, else the first date text holding one) and an ISO date
    (``2012-07-03``, ``2012-07`` or ``2012``) from the first text that spells that year out."""
    match = _YEAR.search(year_text) or next(
        (m for m in (_YEAR.search(t) for t in date_texts) if m), None
    )
    if match is None:
        return None, None
    year = int(match.group(1))
    for text in (*date_texts, year_text):
        date = _DATE.match(text)
        if date and int(date.group(1)) == year:
            month = int(date.group(2)) if date.group(2) else 0
            day = int(date.group(3)) if date.group(3) else 0
            if 1 <= month <= 12:
                if 1 <= day <= 31:
                    return year, f"{year:04d}-{month:02d}-{day:02d}"
                return year, f"{year:04d}-{month:02d}"
    return year, f"{year:04d}"


def month_number(word: str) -> int | None:
    """1–12 for a month's English name or its abbreviation ("Apr", "April", "apr."), else
    None."""
    word = word.strip().rstrip(".").lower()
    return MONTHS.get(word[:3]) if len(word) >= 3 and word.isalpha() else None
