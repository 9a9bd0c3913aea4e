"""The nearest word the index holds to a word that found nothing: the "did you mean" of a
search, among the words of every field, as a word is written rather than as its stem."""

from __future__ import annotations

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
    typed: the stem `unlearn` is written `unlearning` for `unlearnign`."""
    forms = [stem + ending for ending in ENDINGS if stem_word(stem + ending) == stem]
    if stem.endswith("i"):
        # A word's final y is an i in its stem (`strategy`, `strategies`: `strategi`),
        # which was offered as it is: no word.
        forms = [form for form in forms if form != stem] + [
            stem[:-1] + ending for ending in _Y_ENDINGS if stem_word(stem[:-1] + ending) == stem
        ]
    return min(forms or [stem], key=lambda form: (edit_distance(typed, form), len(form)))


#: The endings of a word whose stem ends in the i of its y.
_Y_ENDINGS = ("y", "ies", "ied")
