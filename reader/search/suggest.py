"""The nearest word the index holds to a word that found nothing: the "did you mean" of a
search, among the words of every field, as a word is written rather than as its stem."""

from __future__ import annotations

from collections import Counter
from typing import Any

from reader.search.analysis import ANALYZER, stem_word
from reader.search.parsing import (
    ENDINGS,
    FORMS_FROM,
    FUZZY_PREFIX,
    Fuzzy,
    edit_distance,
    term_text,
)
from reader.search.schema import SEARCH_FIELDS, STEMMED_FIELDS

# Shorter words get no "did you mean": too many words are a typo or two from them.
SUGGEST_FROM = 4


def nearest_word(reader: Any, word: str) -> str | None:
    """The word the index holds nearest to ``word`` (fewest edits, then most papers), as a
    word is written rather than as its stem; None when the index holds the word itself or
    nothing near it."""
    typed = [token.text for token in ANALYZER(word)]
    if len(typed) != 1 or len(typed[0]) < SUGGEST_FROM or typed[0].isdigit():
        return None
    typed_word = typed[0]
    stem = stem_word(typed_word)
    if any(
        (field, stem if field in STEMMED_FIELDS else typed_word) in reader
        for field in SEARCH_FIELDS
    ):
        return None
    edits = 2 if len(typed_word) >= FORMS_FROM else 1
    best: tuple[int, int, str] | None = None
    for fieldname in SEARCH_FIELDS:
        stemmed = fieldname in STEMMED_FIELDS
        query = Fuzzy(fieldname, stem if stemmed else typed_word, maxdist=edits,
                      prefixlength=FUZZY_PREFIX)
        query.typed = typed_word
        for term in query._btexts(reader):
            text = term_text(term)
            written = _nearest_form(text, typed_word) if stemmed else text
            key = (edit_distance(typed_word, written), -reader.doc_frequency(fieldname, text),
                   written)
            if best is None or key < best:
                best = key
    return best[2] if best is not None else None


def _nearest_form(stem: str, typed: str) -> str:
    """Of the words a stem stands for (the stem and an ending), the one nearest to what was
    typed: the stem `unlearn` is written `unlearning` for `unlearnign`. Of those as near,
    a word with an ending before the bare stem (which is often no word: `introduc`), then
    the one with most of the typed letters (a typo that swapped two keeps them all), then
    the longest (a letter left out is the commonest typo)."""
    bases: list[tuple[str, tuple[str, ...]]] = [(stem, ENDINGS + _MORE_ENDINGS)]
    if stem.endswith("i"):
        # A word's final y is an i in its stem (`strategy`, `strategies`: `strategi`).
        bases.append((stem[:-1], _Y_ENDINGS))
    if stem.endswith("bl"):
        bases.append((stem[:-2], _BLE_ENDINGS))  # `capability`, `reliably`: `capabl`
    forms = [base + ending for base, endings in bases for ending in endings
             if stem_word(base + ending) == stem]
    if stem.endswith("i"):
        # `strategi`, `strategis`: the i of a y never ends a word so.
        forms = [form for form in forms if form.removeprefix(stem) not in _ON_THE_I]
    letters = Counter(typed)

    def nearness(form: str) -> tuple[int, bool, int, int]:
        shared = sum((letters & Counter(form)).values())
        return edit_distance(typed, form), form == stem, -shared, -len(form)

    return min(forms or [stem], key=nearness)


#: Endings of words whose stem is the word less them, beyond those a query's forms take.
_MORE_ENDINGS = (
    "y", "ency", "encies", "ancy", "ically", "ication", "ications", "ently", "ively",
    "ional", "ionally", "ility", "ilities",
)
#: Endings that never follow the i of a y.
_ON_THE_I = frozenset({"", "s", "es", "ed", "e"})
#: The endings of a word whose stem ends in the i of its y.
_Y_ENDINGS = ("y", "ies", "ied", "ency", "encies")
#: The endings of a word whose stem ends in the bl of its -ble or -bility.
_BLE_ENDINGS = ("ble", "bly", "bility", "bilities")
