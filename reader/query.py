"""The filter words of the query language (``is:starred``, ``has:notes``), split from the
free text that goes to the full-text index."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

# Filters are whole words; a leading '-' negates one ("-is:starred").
_FILTER = re.compile(r"(?<!\S)(-?)(is|has):([\w-]+)(?!\S)", re.IGNORECASE)

KNOWN_FILTERS = {
    ("is", "starred"): "starred",
    ("has", "notes"): "notes",
    ("has", "note"): "notes",
    ("is", "new"): "new",
    ("is", "changed"): "changed",
    ("is", "withdrawn"): "withdrawn",
}
#: Filters the full-text index can apply itself; the others are answered by the database.
INDEX_FLAGS = frozenset({"starred", "notes"})


@dataclass(frozen=True, slots=True)
class Filter:
    """A condition on a paper: ``flag`` is one of the values of KNOWN_FILTERS."""

    flag: str
    negated: bool = False


@dataclass(frozen=True, slots=True)
class ParsedQuery:
    """A query split into its full-text part and its filters."""

    text: str
    filters: tuple[Filter, ...] = ()
    unknown: tuple[str, ...] = field(default=())

    @property
    def is_empty(self) -> bool:
        """True when the query neither searches nor filters."""
        return not self.text and not self.filters


def parse_query(query: str) -> ParsedQuery:
    """Split ``query`` into free text and known filters; unknown filters are reported."""
    filters: list[Filter] = []
    unknown: list[str] = []

    def take(match: re.Match[str]) -> str:
        negated, kind, value = match.group(1), match.group(2).lower(), match.group(3).lower()
        flag = KNOWN_FILTERS.get((kind, value))
        if flag is None:
            unknown.append(match.group(0))
        else:
            filters.append(Filter(flag, negated=bool(negated)))
        return " "

    text = _FILTER.sub(take, query)
    return ParsedQuery(" ".join(text.split()), tuple(filters), tuple(unknown))


def filter_help() -> str:
    """The filters the query language knows, for messages."""
    return "is:starred, has:notes, is:new, is:changed, is:withdrawn"
