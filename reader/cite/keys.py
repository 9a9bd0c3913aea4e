"""Citation keys: readable (``smith2024gdpval``, ``gdpval2026``), ASCII only, unique within
the library, built from the first author, the year and a title word; a key the source
gave is kept when it is usable."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from typing import Any

from reader.models import Paper
from reader.record import display_name
from reader.text.identifiers import CITEKEY
from reader.text.names import group_words, is_group_name
from reader.text.render import plain_line
from reader.text.scripts import TRANSLITERATION

# Caps on the two key parts, so keys built from long words stay typeable.
_MAX_TITLE_WORD = 20
_MAX_FAMILY = 20
# make_citekey appends suffixes until `taken` says no; a `taken` that never does would
# otherwise loop forever. No real library comes near this many same-base keys.
_MAX_SUFFIX_ATTEMPTS = 1_000_000

# Words that say nothing about a paper and so make poor key words.
STOPWORDS = frozenset(
    """
    a an the on of in for to and or at by as be into onto over under via with without
    from towards toward through beyond about between versus vs is are was were being
    when how what why which who where whether do does did can could should would may
    might will must not no we our us you your it its this that these those
    using use let make makes making there here all any some more most than
    """.split()
)

# Latin letters that NFKD does not decompose into a base letter plus combining marks, and the
# letters of alphabets in other scripts (decomposed first: "ё" is "е" and a diaeresis).
ASCII_EXTRA = str.maketrans(
    {
        "ß": "ss",
        "ẞ": "SS",
        "æ": "ae",
        "Æ": "AE",
        "œ": "oe",
        "Œ": "OE",
        "ø": "o",
        "Ø": "O",
        "đ": "d",
        "Đ": "D",
        "ð": "d",
        "Ð": "D",
        "þ": "th",
        "Þ": "Th",
        "ł": "l",
        "Ł": "L",
        "ı": "i",
        "ħ": "h",
        "Ħ": "H",
        # Cyrillic, Greek and Arabic letter for letter: "Хофштадтер" keys as khofshtadter.
        **TRANSLITERATION,
    }
)

# Generational suffixes are not family names ("Martin Luther King Jr." → "king").
_NAME_SUFFIXES = frozenset({"jr", "sr", "ii", "iii", "iv"})

_NON_KEY_CHARS = re.compile(r"[^a-z0-9]+")
# Characters BibTeX, biber and bibtexparser all accept inside an entry key.
_UNSAFE_KEY_CHARS = re.compile(r"[^A-Za-z0-9_:.+/-]+")


def make_citekey(
    title: str, authors: list[str], year: int | None, taken: Callable[[str], bool]
) -> str:
    """A readable, stable citation key unique in the library."""
    base = citekey_base(title, authors, year)
    if not taken(base):
        return base
    for n in range(1, _MAX_SUFFIX_ATTEMPTS + 1):
        key = base + _letter_suffix(n)
        if not taken(key):
            return key
    raise RuntimeError(f"no free citation key for base {base!r}")


def citekey_base(title: str, authors: list[str], year: int | None) -> str:
    """The key before any disambiguating suffix: ``smith2024gdpval`` or ``gdpval2026``."""
    # From the text as rendered: "\texttt{EditCast3D}" must give "editcast3d", not "texttt…".
    word = _title_word(plain_line(title))
    family = _family_name([plain_line(authors[0])] if authors else [])
    year_part = _NON_KEY_CHARS.sub("", str(year)) if year is not None else ""
    base = f"{family}{year_part}{word}" if family else f"{word}{year_part}"
    # A key of digits alone would read as a paper's id ("[1] arXiv:…", undated, gave 1).
    return f"paper{base}" if base.isdigit() else base


# Who a work is by when it has no authors, in the order a key takes them from: an edited
# book is cited by its editors ("Mapping the Field", eds. Smith and Lee → smith1986mapping).
_KEY_ROLES = ("editor", "compiler", "organizer", "director", "contributor", "translator")


def key_names(authors: list[str], csl: dict[str, Any]) -> list[str]:
    """The names a key is built from: the authors, else the record's editors (or, failing
    them, its compilers, organizers, directors, contributors, translators). A work whose
    authors are all organisations is keyed by the first (:func:`organisation_word`)."""
    if authors:
        named = csl.get("author")
        if (isinstance(named, list) and named and all(isinstance(n, dict) for n in named)
                and all(n.get("literal") and not n.get("family") for n in named)
                and display_name(named[0]) == authors[0]):
            return [organisation_word(authors[0]), *authors[1:]]
        if is_group_name(authors[0]):
            # "ATLAS Collaboration" → atlas2012observation, not collaboration2012…
            return [organisation_word(group_words(authors[0])), *authors[1:]]
        return authors
    for role in _KEY_ROLES:
        names = csl.get(role)
        if isinstance(names, list):
            shown = [display_name(n) for n in names if isinstance(n, dict)]
            shown = [n for n in shown if n]
            if shown:
                return shown
    return []


# An organisation named in this many significant words or fewer is keyed by all of them
# ("TIME USA" → timeusa); a longer name by their initials ("Court of Arbitration for
# Sport" → cas), as its people write it.
_ORGANISATION_WORDS = 2


def organisation_word(name: str) -> str:
    """An organisation's name as one word of a key: its significant words run together, or
    their initials when there are many; the name itself when nothing significant is left."""
    words = [w for w in (ascii_fold(t) for t in name.split()) if w and w not in STOPWORDS]
    if not words:
        return ascii_fold(name)
    if len(words) <= _ORGANISATION_WORDS:
        return "".join(words)
    return "".join(w[0] for w in words)


class CitekeyAllocator:
    """Hands out unique keys for many papers at once (an import).

    Gives the same keys as make_citekey while keys are only added, without probing every
    suffix again for each of a thousand papers whose titles start alike.
    """

    def __init__(self, taken: set[str]) -> None:
        self.taken = taken
        self._next: dict[str, int] = {}

    def allocate_from(self, base: str) -> str:
        """A free key of this :func:`citekey_base`, now taken."""
        n = self._next.get(base, 0)
        key = base + _letter_suffix(n) if n else base
        while key in self.taken:
            n += 1
            key = base + _letter_suffix(n)
        self._next[base] = n + 1
        self.taken.add(key)
        return key

    def claim(self, wanted: str) -> str:
        """``wanted`` if it is free, else the first free ``wanted`` + a, b …; now taken."""
        key, n = wanted, 0
        while key in self.taken:
            n += 1
            key = wanted + _letter_suffix(n)
        self.taken.add(key)
        return key


def usable_key(key: str | None) -> str | None:
    """A source's citation key as the library can keep it: as written when it is safe for
    BibTeX, LaTeX and pandoc, else with the unsafe characters dropped (None if nothing is left)."""
    key = (key or "").strip()
    if not key or CITEKEY.fullmatch(key):
        return key or None
    cleaned = re.sub(r"[^A-Za-z0-9_\-:./+]", "", ascii_keep_case(key))[:100]
    cleaned = re.sub(r"^[^A-Za-z0-9_]+", "", cleaned)
    return cleaned if CITEKEY.fullmatch(cleaned) else None


def ascii_fold(text: str) -> str:
    """Text reduced to lower-case ASCII letters and digits ("Schrödinger" → "schrodinger")."""
    if text.isascii():
        return _NON_KEY_CHARS.sub("", text.lower())  # what the rest gives, without its cost
    decomposed = unicodedata.normalize("NFKD", text).translate(ASCII_EXTRA)
    stripped = "".join(c for c in decomposed if not unicodedata.combining(c))
    return _NON_KEY_CHARS.sub("", stripped.lower().encode("ascii", "ignore").decode("ascii"))


def _title_word(title: str) -> str:
    """The first significant title word, as a key fragment; "paper" if there is none."""
    first = ""
    # Lazily: only the words up to the first significant one are transliterated.
    for word in (ascii_fold(t) for t in title.split()):
        if not word:
            continue
        if word not in STOPWORDS:
            return word[:_MAX_TITLE_WORD]
        first = first or word
    # A title made only of stopwords ("What if?") still beats a generic placeholder.
    return (first or "paper")[:_MAX_TITLE_WORD]


def _family_name(authors: list[str]) -> str:
    """The first author's family name as a key fragment, or "" when there is none usable."""
    if not authors:
        return ""
    name = authors[0]
    if "," in name:
        # "Family, Given" (BibTeX order): everything before the comma, particles included.
        family = name.split(",", 1)[0]
    else:
        tokens = name.split()
        while len(tokens) > 1 and ascii_fold(tokens[-1]) in _NAME_SUFFIXES:
            tokens.pop()
        family = tokens[-1] if tokens else ""
    # A family name in a non-Latin script folds to "": the key then takes the author-less
    # form rather than starting with a bare year.
    return ascii_fold(family)[:_MAX_FAMILY]


def _letter_suffix(n: int) -> str:
    """The n-th disambiguation suffix, counting from 1: a … z, aa … az, ba …"""
    letters = ""
    while n > 0:
        n, rem = divmod(n - 1, 26)
        letters = chr(ord("a") + rem) + letters
    return letters


def entry_key(paper: Paper) -> str:
    """The paper's stored key, made safe for BibTeX, or a fresh one if nothing is left."""
    key = _UNSAFE_KEY_CHARS.sub("", ascii_keep_case(paper.citekey or ""))
    if key:
        return key
    names = key_names(paper.authors or [], paper.csl if isinstance(paper.csl, dict) else {})
    return make_citekey(paper.title or "", names, paper.year, lambda _k: False)


def ascii_keep_case(text: str) -> str:
    """Text transliterated to ASCII, keeping case and punctuation."""
    decomposed = unicodedata.normalize("NFKD", text).translate(ASCII_EXTRA)
    stripped = "".join(c for c in decomposed if not unicodedata.combining(c))
    return stripped.encode("ascii", "ignore").decode("ascii")
