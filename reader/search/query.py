"""The filter words of the query language (``is:starred``, ``tag:x``, ``like:KEY`` …), split
from the free text that goes to the full-text index."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from reader.text.tags import normalize_tag

# Filters are whole words; a leading '-' or NOT (in capitals, as the other operators)
# negates one ("-is:starred", "NOT is:starred").
# A group's parentheses may touch one: "(is:starred OR tag:llm)".
_FILTER = re.compile(
    r"(?<![^\s(])(-|(?-i:NOT)\s+)?(is|has|tag|like):([^\s()]+)(?![^\s)])", re.IGNORECASE
)
#: Where a filter stood in the text, while OR beside one is looked for.
_MARK = "\x00"
#: OR before or after a filter (filters are combined with the rest by AND only).
_OR_BESIDE = re.compile(rf"(?<!\S)OR\s*(?={_MARK})|(?<={_MARK})\s*OR(?!\S)")
#: AND before or after a filter: what a filter does anyway.
_AND_BESIDE = re.compile(rf"(?<![^\s(])AND\s*(?={_MARK})|(?<={_MARK})\s*AND(?![^\s)])")
#: A group that held filters only.
_FILTERS_GROUP = re.compile(rf"\(\s*(?:{_MARK}\s*)+\)")
#: One filter alone in a group that NOT or '-' negates: "NOT (is:starred)".
_NEGATED_GROUP = re.compile(
    r"(?<![^\s(])(?:(?-i:NOT)\s+|-)\(\s*((?:is|has|tag|like):[^\s()]+)\s*\)(?![^\s)])",
    re.IGNORECASE,
)
#: What makes a filter's place in a group matter: an OR, or a negated group.
_BOOLEAN = re.compile(r"(?<!\S)OR(?!\S)|(?:(?<!\S)(?-i:NOT)\s+|(?<![^\s(])-)\(")

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
    #: Whether an OR beside a filter was left out (filters only narrow the rest).
    or_ignored: bool = False
    #: Whether a filter stood in a group whose meaning an OR or a NOT changes; it was
    #: applied to the whole search all the same.
    filter_in_group: bool = False

    @property
    def as_written(self) -> bool:
        """Whether the search runs as the query is written: no filter misspelt, no OR
        beside a filter left out, no filter taken out of an OR or NOT group."""
        return not (self.unknown or self.or_ignored or self.filter_in_group)


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
            return _MARK
        if kind == "like":
            if negated or like:
                unknown.append(match.group(0))
            else:
                like = value
            return _MARK
        known = KNOWN_FILTERS.get((kind, value.lower()))
        if known is None:
            unknown.append(match.group(0))
        else:
            flag, inverse = known
            filters.append(Filter(flag, negated=negated != inverse))
        return _MARK

    query = _NEGATED_GROUP.sub(r"-\1", query.replace(_MARK, " "))
    in_group = False
    if _BOOLEAN.search(query):
        for match in _FILTER.finditer(query):
            before = query[: match.start()]
            in_group = in_group or before.count("(") > before.count(")")
    text = _FILTER.sub(take, query)
    or_ignored = False
    while True:
        # A group of filters alone stands as one filter, and an OR beside one goes; until
        # neither is left ("(is:starred OR tag:x) OR graph").
        grouped = _AND_BESIDE.sub(_MARK, _FILTERS_GROUP.sub(_MARK, text))
        stepped = _OR_BESIDE.sub(" ", grouped)
        or_ignored = or_ignored or stepped != grouped
        if stepped == text:
            break
        text = stepped
    text = text.replace(_MARK, " ")
    return ParsedQuery(
        " ".join(text.split()), tuple(filters), tuple(unknown), like, or_ignored=or_ignored,
        filter_in_group=in_group,
    )


def filter_help() -> str:
    """The filters the query language knows, for messages."""
    return (
        "is:starred, has:notes, is:seen, is:unseen, is:read, is:unread, tag:NAME, is:new, "
        "is:changed, is:withdrawn, like:KEY, like:starred"
    )
