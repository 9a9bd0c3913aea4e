"""The words of a query as read: its symbols left out, its plain words where its syntax
could not be read, and what to say when a query is read otherwise than written."""

from __future__ import annotations

from reader.search.analysis import WORD

#: The words Whoosh's parser takes for operators where they have operands.
OPERATORS = frozenset({"AND", "OR", "NOT", "ANDNOT", "ANDMAYBE"})
# The characters of the query syntax: a word holding one is no mere symbol.
_SYNTAX = frozenset('"()[]{}*?~^:+-')


def plain_words(text: str) -> str:
    """The words of a query as plain words. Lower case, so that the fallback parser does
    not take a stray ``AND`` or ``NOT`` for an operator (``NOT AND x`` crashed it)."""
    return " ".join(word.lower() for word in WORD.findall(text))


def fallback_notice(text: str) -> str:
    """What to say of a query the parser could not read (its plain words searched instead)."""
    return ("Could not read that query; searched its words instead" if plain_words(text) else
            f"“{text}” holds no word to search for (the index keeps words, not symbols)")


def read_notice(text: str, fell_back: bool) -> str | None:
    """What to say of how the words of a query were read: unreadable (see fallback_notice),
    or with its symbols left out (see without_symbols); None when read as written."""
    if fell_back:
        return fallback_notice(text)
    left_out = [word for word in text.split() if _symbol(word)]
    if left_out and plain_words(text):
        named = ", ".join(f"“{word}”" for word in left_out)
        return f"Left out {named}: the index keeps words, not symbols"
    return None


def without_symbols(text: str) -> str:
    """``text`` without its words of no letter or digit (`∞`, `≥`), each with the operator
    that joined it to the rest (`tau OR ∞` is `tau`), where other words remain: the index
    holds no symbol, and such a word made the whole query unreadable."""
    words = text.split()
    if not any(_symbol(word) for word in words) or not plain_words(text):
        return text
    kept: list[str] = []
    for word in words:
        if not _symbol(word):
            kept.append(word)
        elif kept and kept[-1] in ("AND", "OR", "NOT"):
            kept.pop()
    while kept and kept[0] in ("AND", "OR"):
        kept.pop(0)  # the operator that joined a symbol at the start to the rest
    return " ".join(kept)


def _symbol(word: str) -> bool:
    """Whether a word of a query has no letter or digit and is no part of its syntax."""
    return not WORD.search(word) and not _SYNTAX.intersection(word) and word not in OPERATORS
