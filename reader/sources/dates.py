"""Years and dates as the text formats write them (``2012``, ``2012/07/03``, ``2012-7``)."""

from __future__ import annotations

import re

__all__ = ["ISO_DATE", "MONTHS", "month_number", "ris_date", "year_and_date"]

#: Month numbers by the first three letters of the month's English name.
MONTHS = {m: n for n, m in enumerate(
    "jan feb mar apr may jun jul aug sep oct nov dec".split(), start=1)}

_ISO_DATE = re.compile(r"\d{4}-\d{1,2}(?:-\d{1,2})?")
# A date written day first with dots, as Citavi writes its access dates ("12.03.2020").
_DOTTED_DATE = re.compile(r"^(\d{1,2})\.(\d{1,2})\.(\d{4})$")
# A year and a month's name, perhaps a day: Ovid's and PubMed's "2021 Apr 15".
_YEAR_MONTH = re.compile(r"(\d{4})\s+([A-Za-z]{3,}\.?)(?:\s+(\d{1,2}))?")
_YEAR = re.compile(r"(?<!\d)(\d{4})(?!\d)")
_DATE = re.compile(r"^\s*(\d{4})(?:[-/](\d{1,2})(?:[-/](\d{1,2}))?)?")


#: An ISO date as a library stores one: ``2012``, ``2012-07`` or ``2012-07-03``.
ISO_DATE = re.compile(r"\d{4}(?:-(?:0[1-9]|1[0-2])(?:-(?:0[1-9]|[12]\d|3[01]))?)?")


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


def ris_date(text: str) -> str:
    """``2012-07-03`` from RIS's ``2012/07/03`` (or ``2012///``, or ``03.07.2012``, the
    day first, as Citavi writes it, or ``2012-07-03`` already, as OpenAlex writes it, or
    ``2012 Jul 3``, as Ovid does)."""
    if _ISO_DATE.fullmatch(text.strip().rstrip("/")):
        return text.strip().rstrip("/")
    dotted = _DOTTED_DATE.match(text.strip())
    if dotted:
        day, month, year = dotted.groups()
        return f"{year}-{int(month):02d}-{int(day):02d}"
    written = _YEAR_MONTH.fullmatch(text.strip())
    if written:
        # "2021 Apr", "2021 Apr 15": Ovid's and PubMed's dates.
        year, month, day = written.groups()
        number = month_number(month)
        if number is None:
            return year
        return f"{year}-{number:02d}" + (f"-{int(day):02d}" if day else "")
    # Year, month and day, then RIS's "other information" (our export's "submitted").
    parts = [p for p in text.strip().split("/")[:3] if p.strip()]
    return "-".join(parts) if parts and parts[0].strip().isdigit() else ""
