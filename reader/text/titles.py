"""Derived titles for abstracts that come without one.

Abstract-only lists (such as the ICLR 2026 seed files) carry no titles, so the reader shows a
title derived from the abstract itself:

* When the abstract introduces a *named contribution* ("We introduce GDPval, a benchmark …"),
  the title is the name, a colon and the description that follows it
  ("GDPval: a benchmark …"). A name that comes with an abbreviation is shown abbreviation
  first, then its expansion: "TRL: Transitive Reinforcement Learning, a new value learning …".
* Otherwise the title is the opening clause of the abstract.

A name only counts as the paper's contribution when the abstract says the authors
introduce/present/propose/develop/release/construct … it. Models and datasets the paper merely
uses or studies ("Large Language Models (LLMs) …", "GPT-5 achieves …") are context.

Titles never exceed ``max_len`` characters. A cut prefers a clause boundary; failing that it
falls on a word boundary and ends with "…". The function never raises and only looks at the
first few thousand characters, so it is safe to call on arbitrary imported text.
"""

from __future__ import annotations

import re

from reader.text.contribution import Contribution, find_contribution
from reader.text.render import plain_line

__all__ = ["derive_title", "title_words", "without_full_stop"]

UNTITLED = "Untitled"
ELLIPSIS = "…"

# Abstracts run to a couple of thousand characters; anything past this cannot change the title,
# and bounding the input keeps every regex below linear in a small constant.
_SCAN_LIMIT = 5000
# A cut at a clause boundary must keep at least this share of the room available; a shorter
# clause loses too much, and a word cut with "…" reads better.
_MIN_CLAUSE_SHARE = 0.6
# With less room than this left for a description, the expansion of an abbreviation is dropped
# so the description still says something ("TRL: a new value …" rather than "TRL: Trans…").
_MIN_DESC_ROOM = 24

# --- normalisation -------------------------------------------------------------------------

# Text-styling LaTeX commands survive in some imports (``\textsc{Gnn}s``); keep their argument.
_LATEX_STYLE = re.compile(
    r"\\(?:textsc|textbf|textit|textrm|textsf|texttt|emph|underline|mathrm|mathbf|text)"
    r"\{([^{}]{0,200})\}"
)
_LATEX_ESCAPE = re.compile(r"\\([%&#_$])")
# Markdown emphasis. The span length is bounded so an unmatched marker cannot make the scan
# quadratic. ``**con**tinual`` is unwrapped even inside a word; single markers need a non-word
# character outside them so "O*NET" and snake_case identifiers survive.
_STRONG = re.compile(r"(\*\*|__)(?=\S)([^*\n]{1,200}?)(?<=\S)\1")
_EMPHASIS = re.compile(r"(?<![\w*])([*_])(?=[^\s*_])([^*_\n]{1,200}?)(?<=[^\s*_])\1(?![\w*])")
_EM_DASH = re.compile(r"(?<!-)---(?!-)")
_EN_DASH = re.compile(r"(?<!-)--(?!-)")
_SPACES = re.compile(r"\s+")
_LABEL = re.compile(r"^(?:abstract|summary)\s*[:.—–-]\s*", re.IGNORECASE)
_LEADING_JUNK = "-–—•*#>·|~ "
_TRAILING_PUNCT = " \t,;:.!?。！？、，；：—–-"

# --- sentences -----------------------------------------------------------------------------

# A Latin sentence ends at . ! ? (plus closing quotes/brackets) before whitespace; CJK
# terminators need no following space.
_SENTENCE_END = re.compile(r"[.!?]+[\"'”’)\]]*(?=\s|$)|[。！？]+")
# Abbreviations whose period does not end a sentence ("e.g. GPT-5", "Fig. 3").
_ABBREVIATIONS = frozenset(
    "e.g i.e etc al vs cf fig figs eq eqs sec resp approx no nos dr mr ms prof st ref refs".split()
)
_INITIALS = re.compile(r"(?:[A-Za-z]\.)+[A-Za-z]")  # U.S, i.i.d

# --- cutting -------------------------------------------------------------------------------

# Strong boundaries end a clause outright; weak ones (comma, relative pronoun) may split a list
# or a noun phrase, so they are only used when no strong boundary fits.
_STRONG_BOUNDARY = re.compile(
    r"\s*[;:]\s|\s*[—–]|\s+-\s+|\s+(?:but|yet|while|whereas|although|though|because)\b",
    re.IGNORECASE,
)
_WEAK_BOUNDARY = re.compile(r"\s*,\s|\s+(?:which|that|where|since|so)\b", re.IGNORECASE)
# Dangling words that make a cut title read as broken ("… grounded in an…").
_DANGLING = frozenset(
    "a an the of to in on for and or with by from at as into via that which whose while its "
    "their our is are was were be between both not but than this these such based designed "
    "tailored grounded dedicated built aimed focused".split()
)
# A comma after an adjective separates modifiers, not clauses: "in sensitive, user-centric
# applications", "with exploratory, open-ended questions". Suffixes and lowercase hyphenated
# compounds catch most of them without a part-of-speech tagger.
_ADJECTIVE = re.compile(
    r"(?:\w+(?:ive|ous|ory|ful|less|able|ible|ic)|[a-z]+(?:-[a-z]+)+)", re.IGNORECASE
)


def derive_title(abstract: str, max_len: int = 90) -> str:
    """Derive a readable title from an abstract (plain text, LaTeX already converted)."""
    if max_len <= 0:
        return ""
    try:
        title = _derive(abstract, max_len)
    except Exception:  # a bad title must never take down an import or a list view
        title = ""
    return _fit(title or UNTITLED, max_len)


def _derive(abstract: str, max_len: int) -> str:
    """Title for ``abstract``, or "" when there is nothing to derive it from."""
    if not isinstance(abstract, str):
        return ""
    text = _normalise(abstract[:_SCAN_LIMIT])
    if not text:
        return ""
    sentences = _sentences(text)
    contribution = find_contribution(sentences)
    if contribution is not None:
        return _compose(contribution, max_len)
    return _fit(sentences[0] if sentences else text, max_len)


def _normalise(text: str) -> str:
    """Plain single-spaced text with emphasis markers and styling commands removed."""
    text = _SPACES.sub(" ", text).strip()
    text = _LATEX_STYLE.sub(r"\1", text)
    text = _LATEX_ESCAPE.sub(r"\1", text)
    text = _STRONG.sub(r"\2", text)
    text = _EMPHASIS.sub(r"\2", text)
    text = _EM_DASH.sub("—", text)
    text = _EN_DASH.sub("–", text)
    text = _LABEL.sub("", text)
    return text.lstrip(_LEADING_JUNK).strip()


def _sentences(text: str) -> list[str]:
    """Split text into sentences, without their final punctuation."""
    sentences: list[str] = []
    start = 0
    for match in _SENTENCE_END.finditer(text):
        if match.group(0)[0] == "." and not _ends_sentence(text, match.start()):
            continue
        sentence = text[start : match.start()].strip()
        if sentence:
            sentences.append(sentence)
        start = match.end()
    tail = text[start:].strip(_TRAILING_PUNCT)
    if tail:
        sentences.append(tail)
    return sentences


# Words whose stop ends a title as an abbreviation's ("(3rd ed.)", "Smith et al."): kept.
_TITLE_ABBREVIATIONS = _ABBREVIATIONS | frozenset("ed eds vol vols inc ltd co jr sr".split())


def without_full_stop(text: str) -> str:
    """``text`` without the full stop a database ends every title with ("The aging brain."
    → "The aging brain"); an abbreviation's stop ("et al.", "U.S.", "ed.") and an ellipsis
    stay, and so do a question or exclamation mark. A stop after a bracket or a quote
    always goes: Ovid writes "A primer (3rd ed.).", whose abbreviation is inside."""
    if not text.endswith(".") or text.endswith(".."):
        return text
    body = text[:-1]
    if body.endswith((")", "]", "\"", "'", "”", "’")):
        return body
    token = body[body.rfind(" ") + 1:].lstrip("([\"'“‘").lower()
    return body if token not in _TITLE_ABBREVIATIONS and not _INITIALS.fullmatch(token) else text


def _ends_sentence(text: str, dot: int) -> bool:
    """Whether the period at ``dot`` ends a sentence rather than an abbreviation."""
    # A lowercase next word is no evidence either way: sentences in abstracts often start with
    # a lowercase name ("lmKANs reduce …", "perturbed-DTW recovers …"), so only the word before
    # the period decides ("e.g.", "et al.", "U.S.", "i.i.d.").
    token = text[text.rfind(" ", 0, dot) + 1 : dot].lstrip("([\"'“‘").lower()
    return token not in _ABBREVIATIONS and not _INITIALS.fullmatch(token)


# --- composing and cutting -----------------------------------------------------------------


def _compose(found: Contribution, max_len: int) -> str:
    """Title text for a contribution, fitted to ``max_len``."""
    name = found.name
    if found.description is None:
        if found.expansion:
            return _fit(f"{name}: {found.expansion}", max_len)
        return _fit(name, max_len)
    description = found.description
    if found.expansion:
        head, joiner = f"{name}: {found.expansion}", ", "
        if max_len - len(head) - len(joiner) < _MIN_DESC_ROOM:
            head, joiner = name, found.joiner
    else:
        head, joiner = name, found.joiner
    room = max_len - len(head) - len(joiner)
    if room < _MIN_DESC_ROOM // 2:
        return _fit(head, max_len)
    return head + joiner + _fit(description, room)


def _fit(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters, at a clause boundary if one fits."""
    text = text.strip().rstrip(_TRAILING_PUNCT).strip()
    if len(text) <= limit:
        return text
    if limit <= 1:
        return ELLIPSIS[:limit]
    clause = _clause_cut(text, limit)
    if clause:
        return clause
    return _word_cut(text, limit)


def _clause_cut(text: str, limit: int) -> str | None:
    """The longest prefix ending at a clause boundary, if it keeps enough of the text."""
    window = text[: limit + 1]
    minimum = max(1, int(limit * _MIN_CLAUSE_SHARE))
    for pattern in (_STRONG_BOUNDARY, _WEAK_BOUNDARY):
        best = None
        for match in pattern.finditer(window):
            cut = match.start()
            if (
                minimum <= cut <= limit
                and _balanced(window[:cut])
                and not _joins_modifiers(window, match)
            ):
                best = cut
        if best is not None:
            clause = _tidy(text[:best])
            if len(clause) >= minimum:
                return clause
    return None


def _word_cut(text: str, limit: int) -> str:
    """Cut at the last word boundary so that the text plus "…" fits in ``limit``."""
    room = limit - len(ELLIPSIS)
    space = text.rfind(" ", 0, room + 1)
    if space <= 0:
        # One very long word, or a script written without spaces: cut by characters.
        return text[:room].rstrip() + ELLIPSIS
    cut = _tidy(text[:space])
    # Do not leave a parenthesis open when the text before it is long enough on its own.
    if not _balanced(cut):
        opening = cut.rfind("(")
        if opening >= room // 2:
            cut = _tidy(cut[:opening])
    return (cut or text[:room].rstrip()) + ELLIPSIS


def _tidy(text: str) -> str:
    """Strip trailing punctuation and dangling function words from a cut."""
    text = text.rstrip(_TRAILING_PUNCT)
    words = text.split(" ")
    # A few dangling words at most ("… based on a"); more means the text is not prose.
    for _ in range(3):
        if len(words) <= 1 or words[-1].lower() not in _DANGLING:
            break
        words.pop()
        words[-1] = words[-1].rstrip(_TRAILING_PUNCT)
    return " ".join(words).rstrip(_TRAILING_PUNCT)


def _joins_modifiers(text: str, boundary: re.Match[str]) -> bool:
    """Whether a comma boundary separates two adjectives rather than two clauses."""
    if "," not in boundary.group(0):
        return False
    word = text[text.rfind(" ", 0, boundary.start()) + 1 : boundary.start()]
    return _ADJECTIVE.fullmatch(word) is not None


def _balanced(text: str) -> bool:
    """Whether every parenthesis opened in ``text`` is closed."""
    return text.count("(") <= text.count(")")


#: Follows a derived title wherever it is cited or exported, so no one takes it for the
#: paper's own; read back, it makes the title derived again.
DERIVED_MARK = "[title derived from the abstract]"


def strip_derived_mark(title: str) -> tuple[str, bool]:
    """A title without ``DERIVED_MARK``, and whether it carried it."""
    if title.endswith(DERIVED_MARK):
        return title[: -len(DERIVED_MARK)].rstrip(), True
    return title, False


def title_words(source: str) -> str:
    """A title as its words, for comparing and indexing: TeX rendered when it has commands
    or groups (``R{\\'e}nyi`` → ``Rényi``, as BibTeX titles are stored), other text as is."""
    if "\\" in source or "{" in source:
        return plain_line(source)
    return source
