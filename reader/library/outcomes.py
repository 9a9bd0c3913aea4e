"""What a search and a resolved reference give back across the door: plain, frozen
values (reader/library/searching.py makes them)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from reader.models import IndexProgress, Paper
from reader.search.query import ParsedQuery

if TYPE_CHECKING:
    from reader.search.hits import Hits

__all__ = ["Resolution", "SearchOutcome"]


@dataclass(frozen=True, slots=True)
class SearchOutcome:
    """What a query found: ids best first, words to highlight, and anything to tell."""

    query: str
    ids: list[int]
    scores: list[float] = field(default_factory=list)
    terms: frozenset[str] = frozenset()
    notice: str | None = None
    #: For a ``like:`` ranking: its key terms with weights, and what it is like.
    key_terms: tuple[tuple[str, float], ...] = ()
    like: str = ""
    #: When nothing matched: the query with its misspelt words corrected, which does match.
    suggestion: str = ""
    #: False when ``ids`` are only the best matches, asked for with ``first``: the rest,
    #: and so the count, are not known yet.
    complete: bool = True
    #: The query as parsed (once, for the search), for whoever asks what it selects on.
    parsed: ParsedQuery | None = None
    #: How much of the library the index held when it answered, while it is behind (a
    #: build or an import under way); None when it held every paper.
    partial: IndexProgress | None = None
    #: How many papers match in all, when ``ids`` holds only the best of them (a
    #: ``limit`` was asked); None when ``ids`` are all.
    total: int | None = None
    #: When not ``complete``: every match as the search ranked it, for the rest to follow
    #: without searching again (:meth:`reader.library.searching.Searching.complete`).
    rest: Hits | None = field(default=None, compare=False, repr=False)

    @property
    def count(self) -> int:
        """How many papers match (``ids`` may be only the best of them)."""
        return len(self.ids) if self.total is None else max(self.total, len(self.ids))


@dataclass(frozen=True, slots=True)
class Resolution:
    """The paper a reference (id, citation key or query) names, or the candidates."""

    paper: Paper | None
    candidates: list[Paper] = field(default_factory=list)
    total: int = 0
