"""How text becomes indexed words, defined once: indexing, query parsing, highlighting and
anything else that makes postings or compares words with them uses these analyzers.

A word is a run of letters and digits, joined by single dots or underscores inside it
(`example.org`, `max_len`). Markdown's markers (`**bold**`, `*italic*`, `_italic_`,
`` `code` ``, `[text](url)`) are not part of a word, so a note is indexed as the words its
writer wrote. Words are lower-cased and their accents folded (`Mächler` is `machler`, `ﬁ`
is `fi`), the same on both sides, so a search ignores accents. Titles, abstracts, keywords,
notes and highlights are then stemmed; names and tags are not.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterator
from typing import Any

from whoosh.analysis import Filter, LowercaseFilter, RegexTokenizer, StemFilter
from whoosh.lang.porter import stem

# The combining accents (Latin, Greek, Cyrillic …): folded away. Other scripts' marks (kana
# voicing, Indic vowel signs) are letters of their words and stay.
_ACCENTS = "\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f"
# A letter or digit with the accents written after it (text not in NFC has them apart).
_CHAR = rf"[^\W_][{_ACCENTS}]*"
#: One word of text, as indexed.
WORD = re.compile(rf"(?:{_CHAR})+(?:[._](?:{_CHAR})+)*")
_STRIP_ACCENTS = re.compile(rf"[{_ACCENTS}]+")
# Letters that are not a base letter plus an accent in Unicode, folded as readers expect.
_LETTERS = str.maketrans(
    {"ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "ł": "l", "đ": "d", "ð": "d", "þ": "th",
     "ı": "i", "ŀ": "l", "ħ": "h"}
)
# No English word is longer; a longer "word" is a pasted blob, not worth stemming.
_LONGEST_STEMMED = 64


def fold(word: str) -> str:
    """A lower-case word with its accents and compatibility forms folded (`mächler` →
    `machler`, `ﬁ` → `fi`); ASCII is returned as it is."""
    if word.isascii():
        return word
    return _fold(word)


@functools.lru_cache(maxsize=1 << 16)
def _fold(word: str) -> str:
    decomposed = unicodedata.normalize("NFKD", word.translate(_LETTERS))
    return unicodedata.normalize("NFC", _STRIP_ACCENTS.sub("", decomposed)).lower()


@functools.lru_cache(maxsize=1 << 16)
def stem_word(word: str) -> str:
    """The Porter stem of a lower-case word. Indexing, query parsing and highlighting stem
    the same words over and over; functools' cache is shared by them all and, unlike the
    StemFilter's own one, safe when the UI and an indexing thread stem at once. A "word"
    longer than any English one (a pasted blob) is left as it is: Porter takes a second
    over a megabyte."""
    return stem(word) if len(word) <= _LONGEST_STEMMED else word


class FoldFilter(Filter):  # type: ignore[misc]  # untyped base
    """Folds each token's accents (see :func:`fold`)."""

    def __call__(self, tokens: Iterator[Any]) -> Iterator[Any]:
        for token in tokens:
            token.text = fold(token.text)
            yield token


def words(text: str) -> list[str]:
    """The words of ``text`` as written (not lower-cased, folded or stemmed)."""
    return WORD.findall(text)


#: Authors and tags: matched as written, but for case and accents.
ANALYZER = RegexTokenizer(WORD) | LowercaseFilter() | FoldFilter()
#: Titles, abstracts, keywords, notes and highlights: by their words' stems, so a word
#: finds its other forms (`benchmark` finds `benchmarks` and `benchmarking`). No stop list:
#: `"out of distribution"` is a phrase.
STEMMED = ANALYZER | StemFilter(stemfn=stem_word, cachesize=None)
