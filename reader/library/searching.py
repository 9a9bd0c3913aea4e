"""Searching a library: the index for words, the database for filters, "more like
this", a "did you mean", and a reference (id, key or query) resolved to one paper."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from reader.errors import IndexDamaged
from reader.library.door import translating
from reader.library.outcomes import Resolution, SearchOutcome
from reader.models import IndexProgress, Paper
from reader.search.hits import completed
from reader.search.query import (
    INDEX_FLAGS,
    NUMBER_FILTERS,
    SIGNAL_FLAGS,
    Filter,
    ParsedQuery,
    parse_query,
)
from reader.search.query_words import read_notice
from reader.store import signal_queries
from reader.store.database import Store
from reader.store.reading import RELEVANCE
from reader.text.identifiers import normalize_arxiv_id, normalize_doi, openreview_id
from reader.text.render import plain_line, to_plain

if TYPE_CHECKING:
    from reader.library.core import Library

#: How many starred papers (the most recent) make the profile ``like:starred`` ranks by.
PROFILE_SIZE = 200


#: The words of a query as a plain match reads them (field names and operators apart).
_WORD = re.compile(r"(?<![\w:])\w+(?!:)")


def _filtered(
    store: Store, ids: list[int], scores: list[float], filters: Sequence[Filter]
) -> tuple[list[int], list[float]]:
    """Keep the ids (and their scores, when given) that pass every filter."""
    for f in filters:
        flagged = _selected(store, f)
        keep = [(i in flagged) != f.negated for i in ids]
        ids = [i for i, k in zip(ids, keep, strict=True) if k]
        if scores:
            scores = [x for x, k in zip(scores, keep, strict=True) if k]
    return ids, scores


def _kept(
    ids: list[int], scores: list[float], keep: Callable[[int], bool]
) -> tuple[list[int], list[float]]:
    """The ids that ``keep`` keeps, with their scores (when given)."""
    chosen = [keep(i) for i in ids]
    kept_scores = [x for x, k in zip(scores, chosen, strict=True) if k] if scores else scores
    return [i for i, k in zip(ids, chosen, strict=True) if k], kept_scores


def _selected(store: Store, f: Filter) -> set[int]:
    """The papers a filter selects, before its negation: marks from the papers, conference
    signals (``rating:>=6``, ``decision:oral``, ``has:reviews`` …) from paper_signals."""
    if f.flag == "tag":
        return store.marks.tagged_ids(f.value)
    if f.flag in NUMBER_FILTERS and f.bounds is not None:
        b = f.bounds
        return signal_queries.number_ids(
            store.conn, f.flag, b.low, b.high, low_open=b.low_open, high_open=b.high_open
        )
    if f.flag == "decision":
        return signal_queries.decision_ids(store.conn, f.decisions)
    if f.flag in SIGNAL_FLAGS:
        return signal_queries.flag_ids(store.conn, f.flag)
    return store.marks.flagged_ids(f.flag)


def _by_identifier(store: Store, ref: str) -> int | None:
    """The paper whose DOI, arXiv id or OpenReview id ``ref`` is (in any of the spellings
    the importers read), or None. A reference with a space is a query, not an identifier."""
    if not ref or any(c.isspace() for c in ref):
        return None
    candidates = (
        ("doi", normalize_doi(ref)),
        ("arxiv_id", normalize_arxiv_id(ref)),
        ("openreview_id", openreview_id(ref)),
    )
    for column, value in candidates:
        if value:
            row = store.conn.execute(
                f"SELECT id FROM papers WHERE {column} = ?", (value,)
            ).fetchone()
            if row is not None:
                return int(row[0])
    return None


@translating
class Searching:
    """Searching a library (``library.searching``)."""

    def __init__(self, library: Library) -> None:
        """A part of ``library``, reached through its connections and its other parts."""
        self._library = library

    def search(
        self,
        query: str,
        limit: int | None = None,
        order: str = RELEVANCE,
        suggest: bool = True,
        *,
        first: int | None = None,
        cancelled: Callable[[], bool] | None = None,
        mend: bool = True,
        parsed: ParsedQuery | None = None,
    ) -> SearchOutcome:
        """Papers matching ``query`` (the full query language), best first (or in
        ``order``, one of store.SORT_KEYS). When words of the query found nothing and
        ``suggest`` holds, the outcome suggests the query with them corrected.

        With ``first``, a query the index ranks alone may answer with its ``first`` best
        matches only (``complete`` says whether those are all): that costs a fraction of
        ranking every match. A search raises SearchCancelled once ``cancelled()`` is
        true.

        A damaged index is rebuilt from the database and the query run again, and the
        outcome says so; with ``mend`` off, IndexDamaged is raised for the caller to mend
        it (the reader answers from the database meanwhile: see search_database).

        ``parsed`` is ``query`` already parsed (by a caller that had to look at it first):
        a query is parsed once."""
        parsed = parsed if parsed is not None else parse_query(query)
        if parsed.text or parsed.like:
            self._library.indexing.before_search()  # the stars written since, filtered on
        try:
            outcome = self._search(query, parsed, limit, order, suggest, first, cancelled)
            if not outcome.ids and outcome.notice is None:
                outcome = replace(outcome, notice=self._library.conference.undecided(parsed))
            return replace(outcome, parsed=parsed)
        except IndexDamaged as exc:
            if not mend:
                raise
            rebuilt = self._library.indexing.mend_index()
            outcome = self._search(query, parsed, limit, order, suggest, first, cancelled)
            return replace(outcome, parsed=parsed, notice=(
                f"The search index was damaged ({exc}); rebuilt it from the database "
                f"({rebuilt:,} papers)"
            ))

    def complete(
        self, outcome: SearchOutcome, *, cancelled: Callable[[], bool] | None = None,
        mend: bool = True,
    ) -> SearchOutcome:
        """Every match of a search that gave its ``first`` best only (not ``complete``): as
        that search ranked them, looked up now without searching again, unless the index
        changed since (then searched again, ``cancelled`` and ``mend`` as for
        :meth:`search`). A complete outcome is given back as it is."""
        if outcome.complete:
            return outcome
        if outcome.rest is not None:
            try:
                hits = completed(outcome.rest)
            except Exception:  # noqa: BLE001 - a damaged index: its search says so
                hits = None
            if hits is not None:
                return replace(outcome, ids=hits.ids, scores=hits.scores, complete=True,
                               total=None, rest=None)
        return self.search(outcome.query, suggest=False, cancelled=cancelled, mend=mend,
                           parsed=outcome.parsed)

    def search_database(
        self, query: str, notice: str, parsed: ParsedQuery | None = None
    ) -> SearchOutcome:
        """The papers whose title, abstract or note contain every word of ``query`` (its
        filters applied), in browsing order: the answer while the index cannot give one."""
        parsed = parsed if parsed is not None else parse_query(query)
        words = [w.lower() for w in _WORD.findall(parsed.text)
                 if w not in ("AND", "OR", "NOT")]
        with self._library.session() as store:
            ids = store.plain_match(words)
            ids, _ = _filtered(store, ids, [], parsed.filters)
        return SearchOutcome(query, ids, notice=notice, parsed=parsed)

    def _search(
        self, query: str, parsed: ParsedQuery, limit: int | None, order: str, suggest: bool,
        first: int | None, cancelled: Callable[[], bool] | None,
    ) -> SearchOutcome:
        notice = parsed.notice()
        # How far the index is behind, when already asked after the search.
        building: tuple[int, int] | None = None
        asked = False
        reviewed: list[int] | None = None
        unwanted: set[int] = set()
        if parsed.reviews or parsed.not_reviews:
            found, unwanted, said = self._library.reviews.search_reviews(parsed)
            reviewed = found if parsed.reviews else None
            notice = notice or said
        if parsed.like:
            outcome = self._search_like(query, parsed, notice)
        elif not parsed.text and reviewed is not None:
            # Review words alone: ranked by how well the reviews match.
            with self._library.session() as store:
                existing = set(store.all_ids())
                ids, _ = _filtered(store, [i for i in reviewed if i in existing], [],
                                   parsed.filters)
            outcome = SearchOutcome(query, ids, notice=notice, parsed=parsed)
        elif not parsed.text:
            # Browsing, or filters alone: the database answers, in browsing order.
            with self._library.session() as store:
                ids, _ = _filtered(store, store.all_ids(), [], parsed.filters)
            outcome = SearchOutcome(query, ids, notice=notice)
        else:
            in_index = tuple(f for f in parsed.filters if f.flag in INDEX_FLAGS)
            in_db = [f for f in parsed.filters if f.flag not in INDEX_FLAGS]
            sorted_later = order != RELEVANCE or reviewed is not None or bool(unwanted)
            # The index ranks the query alone: it may stop at the first matches.
            quick = first is not None and not in_db and not sorted_later
            top: int | None = None if in_db or sorted_later else limit
            if first is not None and quick:
                top = first if limit is None else min(limit, first)
            # With one document for each paper (the index current, no build under way),
            # only the best are looked up and every match counted; otherwise a limit
            # (whose count is wanted, unlike the first matches') ranks every match. Asked
            # again after the search, in case a catch-up began meanwhile.
            distinct = top is not None and self._searchable_of_all() is None
            if not distinct and not quick:
                top = None
            hits = self._library.index.search(
                ParsedQuery(parsed.text, in_index), limit=top, cancelled=cancelled,
                distinct=distinct,
            )
            if distinct:
                building, asked = self._searchable_of_all(), True
                if building is not None:
                    top = top if quick else None
                    hits = self._library.index.search(
                        ParsedQuery(parsed.text, in_index), limit=top, cancelled=cancelled
                    )
            ids, scores = hits.ids, hits.scores
            if reviewed is not None:
                ids, scores = _kept(ids, scores, set(reviewed).__contains__)
            if in_db:
                with self._library.session() as store:
                    ids, scores = _filtered(store, ids, scores, in_db)
            notice = notice or read_notice(parsed.text, hits.fell_back)
            # The first matches only while the index ranked more than it looked up.
            complete = first is None or not quick or hits.rest is None
            # Only the best are in `ids` when a limit went to the index: it counted all.
            counted = hits.total if top is not None and not quick else None
            outcome = SearchOutcome(query, ids, scores, hits.terms, notice, complete=complete,
                                    total=counted, rest=None if complete else hits)
            if not ids and suggest and notice is None:
                outcome = replace(outcome, suggestion=self.suggestion(query, parsed))
        if unwanted:
            ids, scores = _kept(outcome.ids, outcome.scores, lambda i: i not in unwanted)
            outcome = replace(outcome, ids=ids, scores=scores)
        if parsed.text or parsed.like:
            if not asked:
                building = self._searchable_of_all()
            if building is not None:
                partial = IndexProgress(*building)
                outcome = replace(outcome, partial=partial, notice=outcome.notice or (
                    f"partial: {partial.indexed:,} of {partial.total:,} indexed"
                ))
        if order != RELEVANCE:
            with self._library.session() as store:
                ordered = store.sort_ids(outcome.ids, order)
            outcome = replace(outcome, ids=ordered, scores=[])
        if limit is not None and len(outcome.ids) > limit:
            outcome = replace(outcome, ids=outcome.ids[:limit], scores=outcome.scores[:limit],
                              total=outcome.count)
        return outcome

    def _searchable_of_all(self) -> tuple[int, int] | None:
        """(searchable, papers in the library) while the index is behind: a build under way
        adds what it has published to the papers indexed before it began (its records say
        the generation it started from), so the count only grows, out of the library's
        papers throughout, and papers written since the build began count as not yet
        searchable; None when the index holds them all."""
        behind = self._behind()
        building = self._library.index.partial()
        if behind is None or building is None:
            return behind or building
        indexed, papers = behind
        return min(papers, indexed + building[0]), papers

    def _behind(self) -> tuple[int, int] | None:
        """(indexed, total) when papers were written that the index does not hold yet (an
        import still writing, before its index build starts); None when it holds them all."""
        generation = self._library.index.generation
        if generation < 0:
            return None
        with self._library.session() as store:
            changed = store.count_changed(generation)
            if not changed:
                return None
            total = store.count()
        return max(0, total - changed), total

    def suggestion(self, query: str, parsed: ParsedQuery | None = None) -> str:
        """A "did you mean" for a query that found nothing: ``query`` (parsed: ``parsed``)
        with the words the index lacks corrected, if that query finds papers; else
        nothing."""
        parsed = parsed if parsed is not None else parse_query(query)
        if not parsed.text or parsed.like or parsed.unknown:
            return ""
        corrections = self._library.index.corrections(parsed.text)
        if not corrections:
            return ""
        suggested = query
        for word, nearest in corrections:
            at = re.search(rf"(?<!\S){re.escape(word)}(?!\S)", suggested)
            if at is not None:
                suggested = suggested[: at.start()] + nearest + suggested[at.end() :]
        return suggested if self.search(suggested, limit=1, suggest=False).ids else ""

    def _search_like(self, query: str, parsed: ParsedQuery, notice: str | None) -> SearchOutcome:
        """Rank papers by how much they share with one paper, or with the starred ones."""
        with self._library.session() as store:
            if parsed.like.lower() == "starred":
                # The most recently starred first, so a long-starred past doesn't drown
                # what the user is after now.
                targets = [
                    r[0]
                    for r in store.conn.execute(
                        "SELECT id FROM papers WHERE starred = 1 ORDER BY updated_at DESC "
                        "LIMIT ?",
                        (PROFILE_SIZE,),
                    )
                ]
                label = f"your {len(targets):,} starred paper{'s' * (len(targets) > 1)}"
                if not targets:
                    return SearchOutcome(
                        query, [], notice="Star a few papers first: like:starred ranks papers "
                        "by what they share with your starred ones",
                    )
            else:
                ref = parsed.like
                found = int(ref) if ref.isdigit() else store.id_for_key(ref)
                if found is None or store.paper(found) is None:
                    return SearchOutcome(query, [], notice=f"like: no paper with key {ref!r}")
                targets = [found]
                label = ""
            papers = store.papers(targets)
        if not label:
            label = f"“{plain_line(papers[0].title) or papers[0].citekey}”"
        text = "\n".join(f"{p.title}\n{to_plain(p.abstract)}" for p in papers)
        hits, key_terms = self._library.index.similar(text, exclude=targets, limit=None)
        ids, scores = hits.ids, hits.scores
        terms: frozenset[str] = frozenset()
        if parsed.text:
            matched = self._library.index.search(ParsedQuery(parsed.text))
            within = set(matched.ids)
            keep = [i in within for i in ids]
            ids = [i for i, k in zip(ids, keep, strict=True) if k]
            scores = [x for x, k in zip(scores, keep, strict=True) if k]
            terms = matched.terms
        if parsed.filters:
            with self._library.session() as store:
                ids, scores = _filtered(store, ids, scores, list(parsed.filters))
        return SearchOutcome(
            query, ids, scores, terms, notice, key_terms=tuple(key_terms), like=label
        )

    def why(self, paper: Paper, outcome: SearchOutcome) -> list[str]:
        """The key terms a "like" ranking shares with ``paper``: why it ranks."""
        if not outcome.key_terms:
            return []
        from reader.search.highlight import shared_terms

        return shared_terms(f"{paper.title}\n{to_plain(paper.abstract)}", list(outcome.key_terms))

    def resolve(self, ref: str) -> Resolution:
        """The paper named by an id, a citation key, an OpenReview id (``hcuEdq6eKD``, or
        its forum URL), an arXiv id (``2401.01234``, ``arXiv:2401.01234v2``, its URL), a
        DOI (``10.1145/…``, ``doi:…``, its URL), or an unambiguous query."""
        ref = ref.strip()
        if ref.isdigit():
            paper = self._library.store.paper(int(ref))
            if paper is not None:
                return Resolution(paper)
        key_id = self._library.store.id_for_key(ref)
        if key_id is not None:
            return Resolution(self._library.store.paper(key_id))
        named = _by_identifier(self._library.store, ref)
        if named is not None:
            return Resolution(self._library.store.paper(named))
        found = self.search(ref, limit=10)
        papers = self._library.store.papers(found.ids)
        # A paper's whole title, as given, names it among the others its words find.
        asked = " ".join(ref.split()).casefold()
        whole = [p for p in papers
                 if " ".join(p.title.split()).casefold() == asked and not p.title_derived]
        if found.count == 1 or len(whole) == 1:
            return Resolution(whole[0] if whole else papers[0], total=1)
        return Resolution(None, papers, total=found.count)
