"""Tags: how a tag is written, and reading a list of them from what the user typed."""

from __future__ import annotations

import re
from collections.abc import Iterable

from reader.text.pattern import Pattern

# Tags are single words so that `tag:x` and the search index see them whole. Symbols stay
# (a user's "⭐ must-read" is not their "must-read"); other punctuation goes.
_ALLOWED = Pattern(r"[^\w\-:./+\u2190-\u2bff\U0001f000-\U0001faff]+", re.UNICODE)
# The space between two words, with the colon or dash that only separates them beside it:
# "Chapter 2: Background" and arXiv's "Computer Science - Computation and Language" are
# words joined by one "-", not "2:-background" or "science---computation".
_BETWEEN_WORDS = Pattern(r"[-:\u2013\u2014]*\s[\s\-:\u2013\u2014]*")
MAX_TAG_LENGTH = 64


def normalize_tag(text: str) -> str:
    """A tag as stored: lower case, no leading ``#``, the words joined by one ``-`` (the
    colon or dash between them too), no punctuation beyond ``-:./+`` but symbols kept
    (``⭐``); empty when nothing usable is left."""
    tag = text.strip().lstrip("#").strip().lower()
    tag = _BETWEEN_WORDS.sub("-", tag)
    tag = _ALLOWED.sub("", tag).strip("-")
    return tag[:MAX_TAG_LENGTH]


def tags_as_written(words: Iterable[str]) -> tuple[list[str], list[tuple[str, str]]]:
    """The tags a file's words make, normalised, in order, without repeats; and the words
    written otherwise than as their tag beyond its case (``("health, digital",
    "health-digital")``), for the import to say: a tag renamed without a word is one the
    user looks for under its own name and does not find."""
    tags: dict[str, None] = {}
    rewritten: list[tuple[str, str]] = []
    for word in words:
        tag = normalize_tag(word)
        if not tag:
            continue
        tags.setdefault(tag, None)
        if tag != word.strip().lower() and (word.strip(), tag) not in rewritten:
            rewritten.append((word.strip(), tag))
    return list(tags), rewritten


def parse_tags(text: str) -> list[str]:
    """The tags in a comma- or space-separated list, normalised, in order, without repeats."""
    seen: dict[str, None] = {}
    for part in re.split(r"[,\s]+", text):
        tag = normalize_tag(part)
        if tag:
            seen.setdefault(tag, None)
    return list(seen)
