"""Scores as reviews write them: a number and its label (``"6: Marginally above
acceptance threshold"``), or no number (``"N/A"``); and numbers read from the lists that
paperlists and tables give (``"6;6;8"``)."""

from __future__ import annotations

import math
import re
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from msgspec import Struct

from reader.text.pattern import Pattern

__all__ = [
    "RATING_FIELDS", "SCORE_FIELDS", "Score", "finite", "number_list", "one_decimal",
    "parse_score",
]

# "6: Marginally above acceptance threshold", "3 good", "8", "-1", "4.5". The words after a
# number are its label; a number followed by something that is not a separator is not a score.
_SCORE_TEXT = Pattern(r"\s*([-+]?\d+(?:\.\d+)?)\s*(?:(?::|\.(?!\d)|\)|-|–|—)\s*(.*))?\Z", re.S)
# "3 good" (ICLR 2024's soundness): a number and words, read so only in a score field.
_SCORE_WORDS = Pattern(r"\s*([-+]?\d+(?:\.\d+)?)\s+(\S.*)\Z", re.S)
# In a field not known for scores, only a number alone or a labelled one ("7: Good paper"):
# "1. Paper is well-written" there is the first item of a list, a strength, not a score.
_LABELLED = Pattern(r"\s*([-+]?\d+(?:\.\d+)?)\s*(?::\s*(.*))?\Z", re.S)
# Labels are short and on one line; a longer text opening with "1." is a numbered list.
_MAX_LABEL = 200
# In a field that is a score whatever it holds (``rating``, ``confidence`` …) no list is
# written, and labels are longer: NeurIPS 2024's "7: Accept: Technically solid paper, …"
# runs to 230 characters and its 8 to 10 beyond. A bound remains so that a reply pasting
# its review into the field is still read as no number.
_MAX_SCORE_LABEL = 1_000


def one_decimal(value: float) -> str:
    """``value`` to one decimal, a half rounded up as people round: a mean of 3.25 is
    "3.3" (formatting rounds a float's half to even, "3.2", beside 3.75 as "3.8")."""
    # repr is the shortest text that reads back as the float, so 3.25 is rounded as 3.25
    # and a sum's 3.2499999999999996 stays below the half.
    return str(Decimal(repr(value)).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP))


def _split_number(text: str, loose: bool, strict: bool = False) -> tuple[str, str] | None:
    """The number a score's text opens with and the words after it; ``loose`` also
    takes a number followed by words with no separator (``"3 good"``) and a longer label,
    for a field that is always a score; ``strict`` only a number alone or followed by a
    colon."""
    if strict:
        match = _LABELLED.match(text)
    else:
        match = _SCORE_TEXT.match(text) or (_SCORE_WORDS.match(text) if loose else None)
    if match is None:
        return None
    label = (match.group(2) or "").strip()
    if len(label) > (_MAX_SCORE_LABEL if loose else _MAX_LABEL) or "\n" in label:
        return None
    return match.group(1), label


class Score(Struct, frozen=True):
    """One numeric field of a reply as written: ``value`` is the number (None when the
    field holds none, such as ``"N/A"`` or ``""``), ``raw`` the text as the source wrote it
    (numbers as their digits)."""

    name: str
    value: float | None
    raw: str

    @property
    def label(self) -> str:
        """The words after the number (``"Marginally above acceptance threshold"``), or the
        whole text when there is no number."""
        split = _split_number(self.raw, loose=True)
        return self.raw.strip() if split is None else split[1]

    def as_json(self) -> dict[str, Any]:
        """``{"value": 6.0, "raw": "6: …"}``, as the store keeps a version's scores."""
        return {"value": self.value, "raw": self.raw}


def parse_score(name: str, value: Any) -> Score | None:
    """The score a field holds: a number, a string that opens with one (``"6: Marginally
    above acceptance threshold"``), or, for a field that is always a score (``rating``,
    ``confidence`` …), a string without one (``"N/A"``: no number, raw text kept). None
    when the field is not a score (prose, a decision such as ``"Accept (Poster)"``)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        raw = repr(value) if isinstance(value, float) else _digits(value)
        return Score(name, finite(value), raw)
    if not isinstance(value, str):
        return None
    known = name in SCORE_FIELDS or name in RATING_FIELDS
    split = _split_number(value, loose=name in SCORE_FIELDS, strict=not known)
    number = finite(split[0]) if split else None
    if number is not None:
        return Score(name, number, value)
    if name in SCORE_FIELDS:
        return Score(name, None, value)
    return None


def finite(value: Any) -> float | None:
    """A number (or the digits of one) as a finite float; None for what is none (an
    integer too large for a float, infinity, NaN, text that is no number)."""
    if isinstance(value, bool):
        return None
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):
        return None
    return number if math.isfinite(number) else None


def _digits(value: int) -> str:
    """An integer's digits; a few of them for one too long to print whole."""
    try:
        return str(value)
    except ValueError:  # more digits than Python will convert
        return "<a number too long to show>"


#: Fields that are scores whatever they hold (a rating "N/A" is a rating with no number).
SCORE_FIELDS = frozenset(
    {
        "rating",
        "confidence",
        "soundness",
        "presentation",
        "contribution",
        "correctness",
        "technical_novelty_and_significance",
        "empirical_novelty_and_significance",
        "novelty",
        "clarity",
        "significance",
        "originality",
        "quality",
        "reproducibility",
        "overall_assessment",
        "overall_rating",
        "final_rating",
    }
)
#: Fields a reviewer's overall rating has been given in, most usual first: ``rating``, and
#: ``recommendation`` in its place (ICLR 2022–23) when it holds a number.
RATING_FIELDS = ("rating", "recommendation", "overall_rating", "final_rating",
                 "overall_assessment", "overall_recommendation")


_NUMBER = Pattern(r"[-+]?\d+(?:\.\d+)?")
# A list as Python or JSON writes it in a table's cell (pandas: "[8, 8, 7]"), or a tuple:
# its brackets would hide the first number, and its items may be quoted ("['8', '7']").
_BRACKETED = Pattern(r"\A\s*[\[(](.*)[\])]\s*\Z", re.S)


def number_list(value: Any) -> list[float] | None:
    """Numbers from a list (``[6, 8]``), a ``;``- or ``,``-joined string (``"6;6;8"``,
    paperlists), a list written in brackets (``"[8, 8, 7]"``), or a single number; None
    when the value holds none. Parts that are not numbers (``"N/A"``) are left out."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int | float):
        number = finite(value)
        return [number] if number is not None else None
    if isinstance(value, list):
        found = []
        for item in value:
            if isinstance(item, int | float | str) and not isinstance(item, bool):
                found += number_list(item) or []
        return found or None
    if isinstance(value, str):
        value = _BRACKETED.sub(r"\1", value)
        parts = re.split(r"[;,|]", value) if re.search(r"[;,|]", value) else value.split()
        numbers = []
        for part in parts:
            match = _NUMBER.match(part.strip().strip("'\""))
            number = finite(match.group(0)) if match else None
            if number is not None:
                numbers.append(number)
        return numbers or None
    return None
