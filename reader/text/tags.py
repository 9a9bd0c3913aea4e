"""Tags: how a tag is written, and reading a list of them from what the user typed."""

from __future__ import annotations

import re
from collections.abc import Iterable

# Tags are single words so that `tag:x` and the search index see them whole.
_ALLOWED = re.compile(r"[^\w\-:./+]+", re.UNICODE)
MAX_TAG_LENGTH = 64


def normalize_tag(text: str) -> str:
    """A tag as stored: lower case, no leading ``#``, spaces as ``-``, no punctuation
    beyond ``-:./+``; empty when nothing usable is left."""
    tag = text.strip().lstrip("#").strip().lower()
    tag = re.sub(r"\s+", "-", tag)
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
