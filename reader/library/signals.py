"""What the front ends read of conference signals: a paper's replies (reviews,
meta-reviews, decisions, comments), threaded as the discussion went, with the ratings that
changed; the signals of a list of papers (mean rating, ratings, decision, counts); and what
a whole view adds up to (where a paper stands in it, its histogram and decisions). Each
read is on a borrowed connection."""

from __future__ import annotations

import bisect
import json
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from msgspec import Struct, field

from reader.library.door import translating
from reader.signals import DECISION_KINDS, META_REVIEW_KINDS, RatingScale, Reply, Signals
from reader.store import paper_signals as stored_signals
from reader.store import replies as stored_replies

if TYPE_CHECKING:
    from reader.library.core import Library
    from reader.search.query import ParsedQuery

__all__ = ["Discussion", "Posting", "ScaleGroup", "SignalReads", "ViewSignals", "thread"]


class Posting(Struct, frozen=True):
    """One reply in its place in the discussion: how deep it is in its thread (0 for what
    answers the paper itself, 1 for an answer to that, …) and, for a rating that changed
    between the versions the library saw, the ratings it went through (``(4.0, 6.0)``)."""

    reply: Reply
    depth: int
    ratings: tuple[float | None, ...] = ()

    @property
    def rating_changed(self) -> bool:
        """Whether its rating moved between the versions seen."""
        return len(self.ratings) > 1


class Discussion(Struct, frozen=True):
    """A paper's replies in reading order: the decision and meta-reviews first, then the
    reviews and other replies to the paper as they came, each followed by its thread."""

    postings: tuple[Posting, ...] = ()

    @property
    def heads(self) -> list[int]:
        """The positions of the replies that answer the paper itself (what ``]`` and
        ``[`` step between in the reading view)."""
        return [n for n, posting in enumerate(self.postings) if posting.depth == 0]

    @property
    def changed(self) -> list[Posting]:
        """The replies whose rating changed, in reading order."""
        return [posting for posting in self.postings if posting.rating_changed]

    def __len__(self) -> int:
        return len(self.postings)


def _head_rank(reply: Reply) -> int:
    """Decisions first, then meta-reviews, then the rest in the order they came."""
    if reply.kind in DECISION_KINDS:
        return 0
    if reply.kind in META_REVIEW_KINDS:
        return 1
    return 2


def thread(
    replies: Sequence[Reply], changes: dict[str, tuple[float | None, ...]] | None = None
) -> Discussion:
    """``replies`` threaded by what each answers (``replyto``): a reply to a note that is
    not among them (the paper, or a note the source left out) heads a thread of its own."""
    changes = changes or {}
    by_id = {reply.id: reply for reply in replies}
    children: dict[str, list[Reply]] = {}
    heads: list[Reply] = []
    for reply in replies:
        parent = reply.replyto
        if parent and parent in by_id and parent != reply.id:
            children.setdefault(parent, []).append(reply)
        else:
            heads.append(reply)

    def when(reply: Reply) -> int:
        return reply.cdate if reply.cdate is not None else 0

    heads.sort(key=lambda reply: (_head_rank(reply), when(reply)))
    postings: list[Posting] = []
    placed: set[str] = set()
    # Depth first, without recursion: a thread can be as long as a file makes it.
    stack: list[tuple[Reply, int]] = [(head, 0) for head in reversed(heads)]
    while stack:
        reply, depth = stack.pop()
        if reply.id in placed:
            continue
        placed.add(reply.id)
        postings.append(Posting(reply, depth, changes.get(reply.id, ())))
        answers = sorted(children.get(reply.id, ()), key=when)
        stack.extend((answer, depth + 1) for answer in reversed(answers))
    # Replies in a loop of answers (a file can say A answers B and B answers A) are
    # reached from no head: shown at the end rather than lost.
    postings.extend(
        Posting(reply, 0, changes.get(reply.id, ())) for reply in replies
        if reply.id not in placed
    )
    return Discussion(tuple(postings))


class ScaleGroup(Struct, frozen=True):
    """The rated papers of a view whose ratings share one scale (ICLR 2017 and COLM 2025
    both rate 1–10; ICLR 2026 rates 0–10 in steps of two): their mean ratings (sorted),
    every review's rating (when asked for), and the venues and years they are of, most
    papers first. Means on different scales are never pooled: a 6 of 0–10 is not a 6 of
    1–10."""

    scale: RatingScale | None
    means: tuple[float, ...] = ()
    ratings: dict[float, int] = field(default_factory=dict)
    venues: tuple[str, ...] = ()

    @property
    def rated(self) -> int:
        """How many papers of the group have a mean rating."""
        return len(self.means)

    def standing(self, mean: float) -> float:
        """The percentile of ``mean`` in the group: the share of its papers below it,
        counting those level with it as half (so the middle paper stands at 50)."""
        if not self.means:
            return 0.0
        below = bisect.bisect_left(self.means, mean)
        level = bisect.bisect_right(self.means, mean) - below
        return 100.0 * (below + level / 2) / len(self.means)


class ViewSignals(Struct, frozen=True):
    """What the papers of a view add up to: how many there are, their decisions, and their
    ratings in one group per rating scale (most rated first)."""

    papers: int = 0
    decisions: dict[str, int] = field(default_factory=dict)
    groups: tuple[ScaleGroup, ...] = ()

    @property
    def rated(self) -> int:
        """How many papers of the view have a mean rating, on any scale."""
        return sum(group.rated for group in self.groups)

    @property
    def ratings(self) -> dict[float, int]:
        """How many reviews gave each rating, on any scale: for counting reviews; a
        picture of them is drawn per group."""
        counted: Counter[float] = Counter()
        for group in self.groups:
            counted.update(group.ratings)
        return dict(counted)

    def group(self, scale: RatingScale | None) -> ScaleGroup | None:
        """The group of the papers rated on ``scale`` (None: on no scale known)."""
        return next((g for g in self.groups if g.scale == scale), None)


#: A view's venue and year columns, and the join that reads them, with its venues or without.
_VENUE_COLUMNS = {True: "p.venue, p.year", False: "NULL, NULL"}
_VENUE_JOIN = {True: " JOIN papers p ON p.id = s.paper_id", False: ""}


def _venue_label(venue: str | None, year: int | None) -> str:
    """``ICLR 2026``: what a scale is the scale of, as the overview names it."""
    return " ".join(part for part in (venue or "", str(year) if year else "") if part) or "?"


@translating
class SignalReads:
    """Reads of replies and signals (``library.conference``)."""

    def __init__(self, library: Library) -> None:
        """A part of ``library``, reached through its connections and its other parts."""
        self._library = library

    def replies(self, paper_id: int) -> list[Reply]:
        """A paper's replies, each as its newest version, oldest first."""
        with self._library.session() as store:
            return stored_replies.replies_of(store.conn, paper_id)

    def signals(self, ids: Iterable[int]) -> dict[int, Signals]:
        """The signals of the papers among ``ids`` that have some, by paper id."""
        with self._library.session() as store:
            return stored_signals.signals_rows(store.conn, list(ids))

    def undecided(self, parsed: ParsedQuery) -> str | None:
        """Why a query asking for decisions found nothing, when no paper of the library has
        any of them: "decision:accepted" answers nothing before a conference decides, and
        read alone, "0 matches" says nothing was accepted. None when the query asks for no
        decision, or some paper has one it asks for."""
        wanted = {word for f in parsed.filters if f.flag == "decision" and not f.negated
                  for word in f.decisions}
        if not wanted:
            return None
        with self._library.session() as store:
            held = stored_signals.decision_counts(store.conn)
        if wanted & held.keys():
            return None
        if not held:
            return "no paper in the library has a decision"
        have = ", ".join(f"{count:,} {decision}" for decision, count in held.items())
        return f"no paper in the library has that decision (it holds {have})"

    def any_rated(self) -> bool:
        """Whether any paper of the library has a rating."""
        with self._library.session() as store:
            return stored_signals.any_rated(store.conn)

    def replied(self, ids: Iterable[int]) -> set[int]:
        """The papers among ``ids`` with any reply stored."""
        with self._library.session() as store:
            return stored_replies.replied(store.conn, list(ids))

    def rating_changes(self, paper_id: int) -> dict[str, tuple[float | None, ...]]:
        """The ratings of a paper's replies that changed between the versions the library
        saw, by note id: the ratings in the order they were given, a repeat kept once
        (``{"eIvfGTSO8v": (4.0, 6.0)}``)."""
        with self._library.session() as store:
            history = stored_replies.rating_history(store.conn, paper_id)
        changes: dict[str, tuple[float | None, ...]] = {}
        for note_id, versions in history.items():
            ratings: list[float | None] = []
            for version in versions:
                if not ratings or ratings[-1] != version.rating:
                    ratings.append(version.rating)
            if len(ratings) > 1:
                changes[note_id] = tuple(ratings)
        return changes

    def discussion(self, paper_id: int) -> Discussion:
        """A paper's replies threaded for reading, each review with its rating's history."""
        replies = self.replies(paper_id)
        if not replies:
            return Discussion()
        return thread(replies, self.rating_changes(paper_id))

    def replies_awaited(self) -> tuple[int, int] | None:
        """Whether an import (this window's, or one started elsewhere) is writing the
        replies of the papers it has written: how many have theirs in, of how many."""
        with self._library.session() as store:
            return store.imports.writing_replies()

    def discussion_ahead(
        self, paper_id: int, stopped: Callable[[], bool] | None = None
    ) -> Discussion:
        """A paper's replies read from the file it is being imported from, before the
        import writes them (it writes every paper first, then the replies' text, which may
        be a minute behind): threaded as :meth:`discussion`, and stored nowhere. Empty when
        the file gives none, is gone, or is not a list of OpenReview papers, or once
        ``stopped()`` (asked as the file is read)."""
        # The sources are imported here, as by an import: no part of a start.
        from reader.sources import ImportFormatError
        from reader.sources.openreview import replies_in_file
        from reader.store.import_rows import import_source

        with self._library.session() as store:
            source = import_source(store.conn, paper_id)
            row = store.conn.execute(
                "SELECT openreview_id FROM papers WHERE id = ?", (paper_id,)
            ).fetchone()
        if source is None or source[1] != "openreview" or not row or not row[0]:
            return Discussion()
        try:
            replies = replies_in_file(Path(source[0]), row[0], stopped)
        except ImportFormatError:
            return Discussion()  # the file moved or changed meanwhile: they come when written
        return thread(replies) if replies else Discussion()

    def view_signals(
        self, ids: Sequence[int], *, ratings: bool = False, venues: bool = True
    ) -> ViewSignals:
        """What the papers ``ids`` add up to, their ratings grouped by scale; with
        ``ratings``, every review's rating too (read from each paper's list of them: for
        the overview, not for every key); without ``venues``, no group names the venues it
        is of (read from every paper's row, they took a third of the time at 20,000 papers;
        the overview names them, the detail pane does not)."""
        wanted = set(ids)
        columns = f"s.paper_id, s.rating_mean, s.decision, s.scale, {_VENUE_COLUMNS[venues]}" + (
            ", s.ratings" if ratings else ""
        )
        decisions: Counter[str] = Counter()
        means: dict[str | None, list[float]] = {}
        counted: dict[str | None, Counter[float]] = {}
        named: dict[str | None, Counter[str]] = {}
        with self._library.session() as store:
            # One walk of the table and a set lookup per row: the view may be the whole
            # library, and ids in chunks would be many statements for the same rows. In
            # the papers' order, which the decisions keep (an index holding every column
            # asked for would otherwise be walked instead, in its own order).
            rows = store.conn.execute(
                f"SELECT {columns} FROM paper_signals s{_VENUE_JOIN[venues]}"
                " ORDER BY s.paper_id"
            ).fetchall()
        for row in rows:
            if row[0] not in wanted:
                continue
            if row[2]:
                decisions[row[2]] += 1
            scale = row[3] or None
            if row[1] is not None:
                means.setdefault(scale, []).append(row[1])
                if venues:
                    named.setdefault(scale, Counter())[_venue_label(row[4], row[5])] += 1
            if ratings and row[6]:
                counted.setdefault(scale, Counter()).update(
                    v for v in json.loads(row[6]) if isinstance(v, int | float)
                )
        groups = [
            ScaleGroup(
                RatingScale.parse(scale),
                tuple(sorted(values)),
                dict(counted.get(scale, {})),
                tuple(name for name, _ in named.get(scale, Counter()).most_common()),
            )
            for scale, values in means.items()
        ]
        groups.sort(key=lambda group: -group.rated)
        return ViewSignals(len(wanted), dict(decisions), tuple(groups))

    def library_signals(self, ids: Sequence[int], *, venues: bool = True) -> ViewSignals:
        """What the whole library adds up to, ``ids`` being every paper in it: the same as
        ``view_signals(ids, venues=venues)``, summed up by SQLite rather than row by row
        here (the reader reads it for its first view on another thread while the interface
        is imported, and at 20,000 papers the walk held the interpreter for 25 ms of
        that). Every row of the signals is a paper's: the store deletes them with it."""
        decisions: Counter[str] = Counter()
        means: dict[str | None, list[float]] = {}
        named: dict[str | None, Counter[str]] = {}
        with self._library.session() as store:
            # Rows alike in all the view reads of them, each with its first paper: taken
            # in that order, every count and list is made in the order a walk makes it.
            # Without the venues, grouped by the columns of the index of sums alone
            # (migration 0014), which SQLite then reads in order: a group by the two
            # constants too sorted every paper's row (at 200,000 papers 114 ms, not 24).
            rows = store.conn.execute(
                f"SELECT s.decision, s.scale, s.rating_mean, {_VENUE_COLUMNS[venues]},"
                f" count(*), min(s.paper_id) AS first FROM paper_signals s"
                f"{_VENUE_JOIN[venues]} GROUP BY 1, 2, 3{', 4, 5' if venues else ''}"
                f" ORDER BY first"
            ).fetchall()
        for decision, scale, mean, venue, year, count, _ in rows:
            if decision:
                decisions[decision] += count
            if mean is not None:
                means.setdefault(scale or None, []).extend([mean] * count)
                if venues:
                    label = _venue_label(venue, year)
                    named.setdefault(scale or None, Counter())[label] += count
        groups = [
            ScaleGroup(RatingScale.parse(scale), tuple(sorted(values)), {},
                       tuple(name for name, _ in named.get(scale, Counter()).most_common()))
            for scale, values in means.items()
        ]
        groups.sort(key=lambda group: -group.rated)
        return ViewSignals(len(set(ids)), dict(decisions), tuple(groups))
