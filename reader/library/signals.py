"""What the front ends read of conference signals: a paper's replies (reviews,
meta-reviews, decisions, comments), threaded as the discussion went, with the ratings that
changed; the signals of a list of papers (mean rating, ratings, decision, counts); and what
a whole view adds up to (where a paper stands in it, its histogram and decisions). Each
read is on a borrowed connection."""

from __future__ import annotations

import bisect
import json
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from reader.library.base import LibraryBase
from reader.signals import DECISION_KINDS, META_REVIEW_KINDS, RatingScale, Reply, Signals
from reader.store import paper_signals as stored_signals
from reader.store import replies as stored_replies

__all__ = ["Discussion", "Posting", "SignalReads", "ViewSignals", "thread"]


@dataclass(frozen=True, slots=True)
class Posting:
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


@dataclass(frozen=True, slots=True)
class Discussion:
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


@dataclass(frozen=True, slots=True)
class ViewSignals:
    """What the papers of a view add up to: how many there are, the mean ratings of those
    rated (sorted), their decisions, every review's rating (when asked for) and the rating
    scale most of them use."""

    papers: int = 0
    means: tuple[float, ...] = ()
    decisions: dict[str, int] = field(default_factory=dict)
    ratings: dict[float, int] = field(default_factory=dict)
    scale: RatingScale | None = None

    @property
    def rated(self) -> int:
        """How many papers of the view have a mean rating."""
        return len(self.means)

    def standing(self, mean: float) -> float:
        """The percentile of ``mean`` in the view: the share of rated papers below it,
        counting those level with it as half (so the middle paper stands at 50)."""
        if not self.means:
            return 0.0
        below = bisect.bisect_left(self.means, mean)
        level = bisect.bisect_right(self.means, mean) - below
        return 100.0 * (below + level / 2) / len(self.means)


class SignalReads(LibraryBase):
    """Reads of replies and signals (mixed into :class:`reader.library.core.Library`)."""

    def replies(self, paper_id: int) -> list[Reply]:
        """A paper's replies, each as its newest version, oldest first."""
        with self.session() as store:
            return stored_replies.replies_of(store.conn, paper_id)

    def signals(self, ids: Iterable[int]) -> dict[int, Signals]:
        """The signals of the papers among ``ids`` that have some, by paper id."""
        with self.session() as store:
            return stored_signals.signals_rows(store.conn, list(ids))

    def rating_changes(self, paper_id: int) -> dict[str, tuple[float | None, ...]]:
        """The ratings of a paper's replies that changed between the versions the library
        saw, by note id: the ratings in the order they were given, a repeat kept once
        (``{"eIvfGTSO8v": (4.0, 6.0)}``)."""
        with self.session() as store:
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

    def view_signals(self, ids: Sequence[int], *, ratings: bool = False) -> ViewSignals:
        """What the papers ``ids`` add up to; with ``ratings``, every review's rating too
        (read from each paper's list of them: for the overview, not for every key)."""
        wanted = set(ids)
        columns = "paper_id, rating_mean, decision, scale" + (", ratings" if ratings else "")
        means: list[float] = []
        decisions: Counter[str] = Counter()
        counted: Counter[float] = Counter()
        scales: Counter[str] = Counter()
        with self.session() as store:
            # One walk of the table and a set lookup per row: the view may be the whole
            # library, and ids in chunks would be many statements for the same rows.
            rows = store.conn.execute(f"SELECT {columns} FROM paper_signals").fetchall()
        for row in rows:
            if row[0] not in wanted:
                continue
            if row[1] is not None:
                means.append(row[1])
            if row[2]:
                decisions[row[2]] += 1
            if row[3]:
                scales[row[3]] += 1
            if ratings and row[4]:
                counted.update(v for v in json.loads(row[4]) if isinstance(v, int | float))
        means.sort()
        scale = RatingScale.parse(scales.most_common(1)[0][0]) if scales else None
        return ViewSignals(len(wanted), tuple(means), dict(decisions), dict(counted), scale)
