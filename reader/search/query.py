"""The filter words of the query language (``is:starred``, ``tag:x``, ``like:KEY``,
``rating:>=6``, ``decision:oral`` …) and the words of the reviews (``review:"data
leakage"``), split from the free text that goes to the full-text index; a ``word:`` that
names no field but nearly names one (``titel:``) is reported with the field it most likely
meant, and left out."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field

from reader.text.tags import normalize_tag

# The filters that compare a number of a paper's conference signals (paper_signals):
# ``rating:>=6``, ``rating:4..6``, ``confidence:>=4``, ``reviews:>=4``.
NUMBER_FILTERS = ("rating", "confidence", "reviews")
_KINDS = "is|has|tag|like|decision|review|" + "|".join(NUMBER_FILTERS)
# Filters are whole words; a leading '-' or NOT (in capitals, as the other operators)
# negates one ("-is:starred", "NOT is:starred").
# A group's parentheses may touch one: "(is:starred OR tag:llm)". A value may be quoted
# (``review:"data leakage"``).
_FILTER = re.compile(
    rf"(?<![^\s(])(-|(?-i:NOT)\s+)?({_KINDS}):(\"[^\"]*\"|[^\s()]+)(?![^\s)])",
    re.IGNORECASE,
)
#: A filter as a comparison with no colon (``rating>=6``, ``decision=oral``, ``ratng>=6``):
#: read with its colon, taken or said wrong as that is (as words, it found nothing, silently).
_COMPARED = re.compile(r"(?<![^\s(])(-|(?-i:NOT)\s+)?([A-Za-z]+)(==?|>=|<=|≥|≤|>|<)")
#: The filters a comparison may name, and how each operator is written after the colon.
_COMPARABLE = (*NUMBER_FILTERS, "decision")
_OPERATORS = {"=": "", "==": "", "≥": ">=", "≤": "<="}
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
    rf"(?<![^\s(])(?:(?-i:NOT)\s+|-)\(\s*((?:{_KINDS}):[^\s()]+)\s*\)(?![^\s)])",
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
    ("is", "rating-changed"): ("rating-changed", False),
    ("has", "reviews"): ("reviews", False),
    ("has", "review"): ("reviews", False),
    ("has", "rating"): ("rating", False),
    ("has", "ratings"): ("rating", False),
}
#: Flags answered from the conference signals (paper_signals) rather than the papers.
SIGNAL_FLAGS = frozenset({"rating-changed", "reviews", "rating"})
#: ``decision:`` words and the normalised decisions (reader.signals.DECISIONS) each
#: stands for: ``accepted`` is any acceptance to the main conference (oral, spotlight,
#: poster, accept; a workshop paper is ``workshop``),
#: ``rejected`` a rejection or a desk rejection.
DECISION_WORDS: dict[str, tuple[str, ...]] = {
    "oral": ("oral",),
    "spotlight": ("spotlight",),
    "poster": ("poster",),
    "accept": ("accept",),
    "accepted": ("oral", "spotlight", "poster", "accept"),
    "workshop": ("workshop",),
    "reject": ("reject",),
    "rejected": ("reject", "desk-rejected"),
    "desk-rejected": ("desk-rejected",),
    "desk-reject": ("desk-rejected",),
    "withdrawn": ("withdrawn",),
    "pending": ("pending",),
}
#: The fields a query may name (reader.search.parsing's, which a test holds equal), and
#: the filter words: a ``word:`` that is neither but near one is reported, not searched.
FIELD_NAMES = frozenset({
    "title", "abstract", "keywords", "keyword", "authors", "author", "notes", "note",
    "tags", "highlight", "year", "venue", "key", "citekey", "arxiv", "arXiv", "doi", "DOI",
    "openreview",
})
_FILTER_NAMES = frozenset(_KINDS.split("|"))
# A field name in the text left once filters are taken out: a word of letters (a digit
# or hyphen may follow the first) before a colon and its term, not inside a word, a URL
# (`https://`) or a time (`10:30`). A colon and a space after a name that is no field is
# a pasted title ("GDPval: Evaluating …"): words, as Whoosh reads them.
_FIELD_NAME = re.compile(r"(?<![\w:.\-/])(-?)([A-Za-z][\w\-]*):(?!//|\s|\Z)")
# A field name's term, to leave out with it: a quoted phrase, a group or one word.
_FIELD_TERM = r'(?:"[^"]*"|\([^()]*\)|[^\s()]*)'
# Quoted phrases, whose colons are words.
_QUOTED = re.compile(r'"[^"]*"')
#: A comparison of ``rating:`` & co: ``>=6``, ``>5``, ``<4``, ``<=4``, ``=6``, ``6``,
#: ``4..6`` (both ends included), ``4..`` or ``..6``.
_COMPARISON = re.compile(r"(>=|<=|>|<|=)?(-?\d+(?:\.\d+)?)\Z")
_RANGE = re.compile(r"(-?\d+(?:\.\d+)?)?\.\.(-?\d+(?:\.\d+)?)?\Z")
#: Filters the full-text index can apply itself; the others are answered by the database.
INDEX_FLAGS = frozenset({"starred", "notes"})


# Not a ReaderError (reader/errors.py): control flow, never shown; the newer query answers.
class SearchCancelled(Exception):
    """A search given up because a newer query replaced it before it was done."""


@dataclass(frozen=True, slots=True)
class Filter:
    """A condition on a paper: ``flag`` is a flag of KNOWN_FILTERS, ``tag`` (with the tag
    in ``value``), ``decision`` (its ``decisions`` in ``value``, joined by ``|``), or one
    of NUMBER_FILTERS with the bounds of ``bounds``."""

    flag: str
    negated: bool = False
    value: str = ""
    bounds: Bounds | None = None

    @property
    def decisions(self) -> list[str]:
        """The normalised decisions a ``decision`` filter asks for."""
        return self.value.split("|")


@dataclass(frozen=True, slots=True)
class Bounds:
    """A range of numbers: ``low`` and ``high`` (None: no bound), each included unless
    its ``open`` flag says otherwise (``>5`` is low 5, low_open)."""

    low: float | None = None
    high: float | None = None
    low_open: bool = False
    high_open: bool = False

    @classmethod
    def parse(cls, text: str) -> Bounds | None:
        """``>=6``, ``>5``, ``<4``, ``<=4``, ``=6``, ``6``, ``4..6``, ``4..`` or ``..6`` as
        bounds; None for anything else."""
        text = text.strip()
        compared = _COMPARISON.match(text)
        if compared:
            op, number = compared.group(1) or "=", float(compared.group(2))
            return {
                ">=": cls(low=number),
                ">": cls(low=number, low_open=True),
                "<=": cls(high=number),
                "<": cls(high=number, high_open=True),
                "=": cls(low=number, high=number),
            }[op]
        ranged = _RANGE.match(text)
        if ranged and (ranged.group(1) or ranged.group(2)):
            low = float(ranged.group(1)) if ranged.group(1) else None
            high = float(ranged.group(2)) if ranged.group(2) else None
            if low is not None and high is not None and low > high:
                low, high = high, low
            return cls(low=low, high=high)
        return None


@dataclass(frozen=True, slots=True)
class BadValue:
    """A filter of a known kind with a value it cannot take: ``written`` as in the query,
    ``what`` it should be (``a decision``, ``a number or range``), the values it takes
    (or an example of them), and the nearest of them ("" when none is near)."""

    written: str
    what: str
    takes: str
    nearest: str = ""

    def said(self, *, full: bool = False) -> str:
        """``decision:orla: not a decision — did you mean oral?``; with ``full``, the
        values it takes too (too long for the reader's status line)."""
        nearest = f"did you mean {self.nearest}?" if self.nearest else ""
        if self.what == "a number or range":  # short: the examples always fit
            return f"{self.written}: not {self.what} ({self.takes})" + (
                f"; {nearest}" if nearest else "")
        if full:
            return f"{self.written}: not {self.what} — one of {self.takes}" + (
                f"; {nearest}" if nearest else "")
        return f"{self.written}: not {self.what}" + (f" — {nearest}" if nearest else "")


def _bad_number(written: str, kind: str) -> BadValue:
    return BadValue(written, "a number or range", f"{kind}:>=6, {kind}:4..6")


def _bad_decision(written: str, value: str) -> BadValue:
    words = [w for w in DECISION_WORDS if w != "desk-reject"]
    # The decisions first, then the words that stand for several.
    words.sort(key=lambda w: len(DECISION_WORDS[w]) > 1)
    close = difflib.get_close_matches(value.lower(), words, n=1, cutoff=0.6)
    return BadValue(written, "a decision", ", ".join(words), close[0] if close else "")


@dataclass(frozen=True, slots=True)
class ParsedQuery:
    """A query split into its full-text part, its filters, and the paper (a citation key or
    id, or ``starred`` for the starred papers together) whose likes it ranks by."""

    text: str
    filters: tuple[Filter, ...] = ()
    unknown: tuple[str, ...] = field(default=())
    like: str = ""
    #: The words of ``review:`` terms (each term a query of its own, all of which a paper's
    #: reviews must match), and those of ``-review:`` terms (none may match).
    reviews: tuple[str, ...] = ()
    not_reviews: tuple[str, ...] = ()
    #: ``word:`` names that are no field but near one (``titel:``), each with the field it
    #: most likely meant; their terms are left out of the search. A name near no field is
    #: searched as words, as Whoosh reads it (``N:M``).
    unknown_fields: tuple[tuple[str, str], ...] = ()
    #: Filters of a known kind whose value is wrong (``decision:orla``, ``rating:abc``),
    #: each with what is wrong with it; they are among ``unknown`` too, and left out.
    bad_values: tuple[BadValue, ...] = ()
    #: Whether an OR beside a filter was left out (filters only narrow the rest).
    or_ignored: bool = False
    #: Whether a filter stood in a group whose meaning an OR or a NOT changes; it was
    #: applied to the whole search all the same.
    filter_in_group: bool = False

    @property
    def as_written(self) -> bool:
        """Whether the search runs as the query is written: no filter misspelt, no OR
        beside a filter left out, no filter taken out of an OR or NOT group."""
        return not (
            self.unknown or self.unknown_fields or self.or_ignored or self.filter_in_group
        )

    def notice(self, *, full: bool = False) -> str | None:
        """What to tell about how the query was read: an unknown field or filter, or a
        filter's wrong value, left out, an OR beside a filter, a filter in a group; None
        when it runs as written. Short enough for a status line, unless ``full`` (for a
        command's error output), which lists the values a filter takes."""
        if self.unknown_fields:
            return "; ".join(
                f"unknown field {name}: (left out) — did you mean {meant}:?"
                for name, meant in self.unknown_fields
            )
        bad = {b.written for b in self.bad_values}
        said = [b.said(full=full) + " (left out)" for b in self.bad_values]
        unknown = [u for u in self.unknown if u.strip() not in bad]
        if unknown:
            said.insert(0, f"Ignored unknown filter {', '.join(unknown)} "
                           f"(known: {filter_help()})")
        if said:
            return "; ".join(said)
        if self.or_ignored:
            return "Filters only narrow a search: OR beside a filter was ignored"
        if self.filter_in_group:
            return "A filter in a group with OR or NOT narrowed the whole search"
        return None


def parse_query(query: str) -> ParsedQuery:
    """Split ``query`` into free text and known filters; unknown filters are reported."""
    filters: list[Filter] = []
    unknown: list[str] = []
    reviews: list[str] = []
    not_reviews: list[str] = []
    bad_values: list[BadValue] = []
    like = ""

    def take(match: re.Match[str]) -> str:
        nonlocal like
        negated, kind, value = bool(match.group(1)), match.group(2).lower(), match.group(3)
        if kind == "review":
            words = value.strip()
            if words.strip('"').strip():
                (not_reviews if negated else reviews).append(words)
            else:
                unknown.append(match.group(0))
            return _MARK
        if kind in NUMBER_FILTERS:
            bounds = Bounds.parse(value)
            if bounds is None:
                unknown.append(match.group(0))
                bad_values.append(_bad_number(match.group(0).strip(), kind))
            else:
                filters.append(Filter(kind, negated, value, bounds))
            return _MARK
        if kind == "decision":
            decisions = DECISION_WORDS.get(value.lower())
            if decisions is None:
                unknown.append(match.group(0))
                bad_values.append(_bad_decision(match.group(0).strip(), value))
            else:
                filters.append(Filter("decision", negated, "|".join(decisions)))
            return _MARK
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

    query = _COMPARED.sub(_with_colon, query.replace(_MARK, " "))
    query = _NEGATED_GROUP.sub(r"-\1", query)
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
    if text.strip() == "*":
        text = ""  # every paper, as an empty query (a lone wildcard is no word to match)
    text, unknown_fields = _unknown_fields(text)
    return ParsedQuery(
        " ".join(text.split()), tuple(filters), tuple(unknown), like, or_ignored=or_ignored,
        filter_in_group=in_group, reviews=tuple(reviews), not_reviews=tuple(not_reviews),
        unknown_fields=unknown_fields, bad_values=tuple(bad_values),
    )


def _with_colon(match: re.Match[str]) -> str:
    """``rating>=6`` as ``rating:>=6``, ``reviews=3`` as ``reviews:3``, ``decision=oral`` as
    ``decision:oral``; a word near none of those filters as it is (``x<y``)."""
    negation, name, op = match.group(1) or "", match.group(2), match.group(3)
    meant = difflib.get_close_matches(name.lower(), _COMPARABLE, n=1, cutoff=0.75)
    if not meant or (meant[0] == "decision" and op not in ("=", "==")):
        return match.group(0)
    return f"{negation}{name}:{_OPERATORS.get(op, op)}"


def _unknown_fields(text: str) -> tuple[str, tuple[tuple[str, str], ...]]:
    """The text without the terms of ``word:`` names that are no field (outside quoted
    phrases), and those names with the field each most likely meant."""
    found: list[tuple[str, str]] = []
    quoted = [(m.start(), m.end()) for m in _QUOTED.finditer(text)]

    def drop(match: re.Match[str]) -> str:
        name = match.group(2)
        if any(start <= match.start() < end for start, end in quoted):
            return match.group(0)
        if name.lower() in FIELD_NAMES or name.lower() in _FILTER_NAMES:
            return match.group(0)
        meant = _meant(name)
        if not meant:
            # Near no field: words, as Whoosh reads them (`N:M sparsity`).
            return match.group(0)
        if (name, meant) not in found:
            found.append((name, meant))
        return " "

    if ":" not in text:
        return text, ()
    kept = re.sub(_FIELD_NAME.pattern + _FIELD_TERM, drop, text)
    return kept, tuple(found)


def _meant(name: str) -> str:
    """The field or filter name nearest to a misspelt one, or ""."""
    names = sorted(FIELD_NAMES | _FILTER_NAMES)
    close = difflib.get_close_matches(name.lower(), names, n=1, cutoff=0.6)
    return close[0] if close else ""


def filter_help() -> str:
    """The filters the query language knows, for messages."""
    return (
        "is:starred, has:notes, is:seen, is:unseen, is:read, is:unread, tag:NAME, is:new, "
        "is:changed, is:withdrawn, like:KEY, like:starred, rating:>=6, rating:4..6, "
        "confidence:>=4, reviews:>=4, decision:oral (or accepted, rejected …), "
        "is:rating-changed, has:reviews, has:rating"
    )
