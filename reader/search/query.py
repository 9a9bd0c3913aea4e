"""The filter words of the query language (``is:starred``, ``tag:x``, ``like:KEY`` …), split
from the free text that goes to the full-text index."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from reader.text.tags import normalize_tag

# Filters are whole words; a leading '-' negates one ("-is:starred").
_FILTER = re.compile(r"(?<!\S)(-?)(is|has|tag|like):(\S+)(?!\S)", re.IGNORECASE)

#: ``is:``/``has:`` words and the flag each stands for, with whether it is the flag's
#: negation (``is:unseen`` is "not seen", so the database hands over the smaller set).
KNOWN_FILTERS: dict[tuple[str, str], tuple[str, bool]] = {
    ("is", "starred"): ("starred", False),
    ("has", "notes"): ("notes", False),
    ("has", "note"): ("notes", False),
    ("is", "new"): ("new", False),
    ("is", "changed"): ("changed", False),
    ("is", "withdrawn"): ("withdrawn", False),
    ("is", "seen"): ("seen", False),
    ("is", "unseen"): ("seen", True),
    ("is", "read"): ("read", False),
    ("is", "unread"): ("read", True),
}
#: Filters the full-text index can apply itself; the others are answered by the database.
INDEX_FLAGS = frozenset({"starred", "notes"})


class SearchCancelled(Exception):
    """A search given up because a newer query replaced it before it was done."""


@dataclass(frozen=True, slots=True)
class Filter:
    """A condition on a paper: ``flag`` is a flag of KNOWN_FILTERS or ``tag`` (with the tag
    in ``value``)."""

    flag: str
    negated: bool = False
    value: str = ""


@dataclass(frozen=True, slots=True)
class ParsedQuery:
    """A query split into its full-text part, its filters, and the paper (a citation key or
    id, or ``starred`` for the starred papers together) whose likes it ranks by."""

    text: str
    filters: tuple[Filter, ...] = ()
    unknown: tuple[str, ...] = field(default=())
    like: str = ""

    @property
    def is_empty(self) -> bool:
        """True when the query neither searches nor filters."""
        return not self.text and not self.filters and not self.like


def parse_query(query: str) -> ParsedQuery:
    """Split ``query`` into free text and known filters; unknown filters are reported."""
    filters: list[Filter] = []
    unknown: list[str] = []
    like = ""

    def take(match: re.Match[str]) -> str:
        nonlocal like
        negated, kind, value = bool(match.group(1)), match.group(2).lower(), match.group(3)
        if kind == "tag":
            tag = normalize_tag(value)
            if tag:
                filters.append(Filter("tag", negated, tag))
            else:
                unknown.append(match.group(0))
            return " "
        if kind == "like":
            if negated or like:
                unknown.append(match.group(0))
            else:
                like = value
            return " "
        known = KNOWN_FILTERS.get((kind, value.lower()))
        if known is None:
            unknown.append(match.group(0))
        else:
            flag, inverse = known
            filters.append(Filter(flag, negated=negated != inverse))
        return " "

    text = _FILTER.sub(take, query)
    return ParsedQuery(" ".join(text.split()), tuple(filters), tuple(unknown), like)


def filter_help() -> str:
    """The filters the query language knows, for messages."""
    return (
        "is:starred, has:notes, is:seen, is:unseen, is:read, is:unread, tag:NAME, is:new, "
        "is:changed, is:withdrawn, like:KEY, like:starred"
    )
