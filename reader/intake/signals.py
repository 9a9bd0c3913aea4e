"""An import's conference signals: the replies its records carry written beside their
papers, each paper's signals worked out again from everything the library holds of it, and
what changed counted for the summary ("300 papers whose reviewers changed a rating, 41 new
decisions").

Runs inside the import's transaction (:mod:`reader.intake.merge` calls it for each record
once its paper is known); the rows are written by :mod:`reader.store.replies` and
:mod:`reader.store.paper_signals`.

What a paper's signals become: its replies stored (from this file and every earlier one)
give the ratings and counts; the record's own word (a list's aggregates, its status, an
OpenReview venue such as "ICLR 2026 Poster") and what was stored before fill in the rest
(:func:`reader.signals.merge_signals`: ratings read from reviews outrank a list's mean, a
decision outranks ``pending``).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from reader.import_summary import ImportSummary, Remark
from reader.models import PaperRecord
from reader.signals import (
    Reply,
    Signals,
    carried_decision,
    latest_replies,
    merge_signals,
    one_decimal,
    signals_from_replies,
)
from reader.sources.tablesignals import contradicted_mean, overruled_venue
from reader.store import paper_signals as stored_signals
from reader.store import replies as stored_replies
from reader.store.reply_forms import ReplyForm

__all__ = ["Owed", "SignalsIntake"]


def as_stored(replies: list[Reply]) -> list[Reply]:
    """Replies as :func:`reader.store.replies.replies_of` reads them back once written
    together for a new paper: each as its latest version, by creation date (none first),
    then in the order they were first written (oldest version first)."""
    order: dict[str, int] = {}
    for reply in sorted(replies, key=lambda r: (r.modified or 0)):
        order.setdefault(reply.id, len(order))
    return sorted(
        latest_replies(replies),
        key=lambda r: (r.cdate is not None, r.cdate or 0, order[r.id]),
    )


@dataclass(frozen=True, slots=True)
class Owed:
    """A record whose replies an import writes after its papers (on reading the file
    again): the paper, whether the import added it, how many replies that waited for it
    it adopted, and whether its signals were written already from the replies read."""

    paper_id: int
    new: bool
    adopted: int
    signed: bool


class SignalsIntake:
    """One import's replies and signals, written in its transaction as its papers are."""

    def __init__(self, conn: sqlite3.Connection, import_id: int, stamp: str,
                 summary: ImportSummary) -> None:
        self.conn = conn
        self.import_id = import_id
        self.stamp = stamp
        self.summary = summary
        # Whether any reply waits for its paper: only then is each paper asked for them.
        self._waiting = stored_replies.any_waiting(conn)
        self._changed: set[int] = set()
        self._decided: set[int] = set()
        #: Lines for the import's problems that are no skipped records (a rating kept as
        #: written), in the order met.
        self.remarks: list[str] = []

    def paper(
        self, paper_id: int, record: PaperRecord, *, new: bool = False,
        forms: Sequence[ReplyForm] | None = None,
    ) -> bool:
        """Write the record's replies under its paper (``new``: added by this import), and
        the paper's signals; whether a reply of it was new or edited. A paper one of whose
        reviews' ratings moved (between versions stored before or read now), or whose known
        ratings changed (a review added or gone), counts as changed; a paper there before
        given a decision it had not, as newly decided."""
        adopted = self._adopt(paper_id, record)
        return self._write(paper_id, record, new, adopted, forms)

    def paper_first(self, paper_id: int, record: PaperRecord, *, new: bool = False) -> Owed:
        """A record whose replies are written later (:meth:`replies`): the replies that
        waited for its paper adopted now, and, for a paper this import adds, its signals
        worked out of the replies in hand (which need only their scores: see
        :func:`reader.sources.stream_file`), so that it shows with its ratings and
        decision at once. A paper there before keeps its signals until its replies are
        written, which is when what changed is known."""
        adopted = self._adopt(paper_id, record)
        if not new:
            return Owed(paper_id, new, adopted, signed=False)
        signals = merge_signals(None, record.signals)
        if adopted:
            # Those adopted are stored whole; the record's own come later.
            replies = [*stored_replies.replies_of(self.conn, paper_id), *record.replies]
            signals = self._from_replies(record, signals, replies)
        elif record.replies:
            signals = self._from_replies(record, signals, as_stored(record.replies))
        # (Else its replies were read for their versions only: its signals were worked out
        # of them as they were read, to the same figures.)
        stored_signals.write_signals(
            self.conn, paper_id, signals, updated_at=self.stamp, import_id=self.import_id,
            before=None,
        )
        return Owed(paper_id, new, adopted, signed=not adopted)

    def replies(
        self, owed: Owed, record: PaperRecord, forms: Sequence[ReplyForm] | None = None
    ) -> bool:
        """Write the replies :meth:`paper_first` left for later, read again with their
        text, and the paper's signals as :meth:`paper` would; whether a reply of it was
        new or edited."""
        return self._write(owed.paper_id, record, owed.new, owed.adopted, forms, owed.signed)

    def _adopt(self, paper_id: int, record: PaperRecord) -> int:
        """Give the paper the replies that waited for it; how many there were."""
        if self._waiting and record.openreview_id:
            return stored_replies.adopt_replies(self.conn, paper_id, record.openreview_id)
        return 0

    def _from_replies(
        self, record: PaperRecord, signals: Signals | None, replies: list[Reply]
    ) -> Signals | None:
        """``signals`` with what the paper's replies add up to."""
        hint = record.signals.decision_raw if record.signals else None
        from_replies = signals_from_replies(
            replies, decision=hint, venue=record.venue, year=record.year,
        )
        return merge_signals(signals, from_replies)

    def _write(
        self, paper_id: int, record: PaperRecord, new: bool, adopted: int,
        forms: Sequence[ReplyForm] | None, signed: bool = False,
    ) -> bool:
        """:meth:`paper` once the waiting replies are adopted; ``signed``: the signals of
        this paper, which the import adds, were written from these very replies already."""
        written = stored_replies.RepliesWritten()
        if not (record.replies or adopted or record.signals):
            return False
        self._contradicted(record)
        self._overruled(record)
        # A paper this import adds has no signals yet: no read for it.
        before = None if new else stored_signals.signals_of(self.conn, paper_id)
        moved = edited = False
        if record.replies:
            written = stored_replies.write_replies(
                self.conn, paper_id, record.replies, seen_at=self.stamp,
                import_id=self.import_id, forms=forms or None,
            )
            self.summary.replies_new += written.new
            self.summary.reply_versions += written.versions - written.new
            self.summary.ratings_reread += written.reread
            moved = bool(written.rating_changes)
            edited = written.versions > 0
            self._unreadable(record)
        outcome = stored_signals.SignalsWritten()
        decided: str | None = None  # the decision written
        # Every reply of a paper this import adds was stored just now, from these.
        fresh = new and not adopted and written.new == len({r.id for r in record.replies})
        if not (signed and fresh):
            signals = merge_signals(before, record.signals)
            # A list's ratings, decision or counts for a paper whose replies the library
            # holds: the reviews' own ratings, a Decision note and the replies' count
            # outrank them (the list's "4;6;6;6" over reviews rated 4, 6, 6, 4; its "Oral"
            # over a Decision: Reject; an older snapshot's "0 reviews", OpenReview v1's
            # empty details.replies, over the two reviews held and listed).
            reviewed = bool(
                before and record.signals
                and stored_replies.replied(self.conn, [paper_id])
            )
            if record.replies or adopted or reviewed:
                # Reading the replies back (unpacked and parsed again) was a third of the
                # work of a new paper's: those read are what was stored.
                replies = (as_stored(record.replies) if fresh
                           else stored_replies.replies_of(self.conn, paper_id))
                signals = self._from_replies(record, signals, replies)
            outcome = stored_signals.write_signals(
                self.conn, paper_id, signals, updated_at=self.stamp,
                import_id=self.import_id, before=before, keep=not new,
            )
            decided = signals.decision if signals is not None else None
        # A rating that moved between versions this import read counts, even on a paper it
        # adds (a file holding a review before and after the rebuttal): the detail pane
        # shows that history, and is:rating-changed finds what it shows.
        if moved or (before is not None and before.rating_count and outcome.rerated):
            self._changed.add(paper_id)
            # Marked here too when only one review's history moved (its mean may not).
            self.conn.execute(
                "UPDATE paper_signals SET ratings_changed_import = ? WHERE paper_id = ?",
                (self.import_id, paper_id),
            )
        if outcome.new_decision and carried_decision(decided):
            self._accepted_withdrawn(paper_id, record, str(decided), new)
        if outcome.new_decision and not new:
            self._decided.add(paper_id)
            was = before.decision if before is not None else None
            if was not in (None, "pending", decided):
                self._changed_decision(paper_id, str(was), str(decided), record)
        self.summary.ratings_changed = len(self._changed)
        self.summary.new_decisions = len(self._decided)
        return (edited or moved or bool(written.reread) or outcome.ratings_changed
                or outcome.new_decision or outcome.stored)

    def _changed_decision(self, paper_id: int, was: str, now: str, record: PaperRecord) -> None:
        """Name a paper whose decision the import changed from another (not a first one)."""
        row = self.conn.execute("SELECT citekey FROM papers WHERE id = ?", (paper_id,))
        key = (row.fetchone() or [record.openreview_id or str(paper_id)])[0]
        self.summary.decisions_changed.append((key, was, now))

    def _accepted_withdrawn(
        self, paper_id: int, record: PaperRecord, decision: str, new: bool
    ) -> None:
        """Name a withdrawn paper the file accepts ("Accept (Poster)" for a submission its
        authors withdrew): both are kept, as the sources say them, and the user is told.
        (A paper the import adds is as its record says; one there before is looked up.)"""
        if new:
            withdrawn = record.withdrawn
        else:
            row = self.conn.execute("SELECT withdrawn FROM papers WHERE id = ?", (paper_id,))
            withdrawn = bool((row.fetchone() or [0])[0])
        if not withdrawn:
            return
        self.summary.accepted_withdrawn += 1
        self.remarks.append(Remark(
            f"{record.source or record.title}: decision {decision!r} for a paper withdrawn: "
            f"both kept (is:withdrawn and decision:{decision} find it)"
        ))

    def _unreadable(self, record: PaperRecord) -> None:
        """Name the reviews whose rating holds no number: left out of the paper's ratings
        (its rating_count counts the numbers), kept as written."""
        paper = record.openreview_id or record.title
        named: set[str] = set()
        for reply in record.replies:
            rating = reply.rating
            if not reply.is_review or rating is None or rating.value is not None:
                continue
            if reply.id in named:
                continue
            named.add(reply.id)
            self.summary.ratings_unreadable += 1
            self.remarks.append(Remark(
                f"review {reply.id} of paper {paper}: {rating.name} {rating.raw!r} is not a "
                "number; kept as written"
            ))

    def _overruled(self, record: PaperRecord) -> None:
        """Name the paper whose venue names a decision its table's decision column says
        otherwise of ("ICLR 2026 Oral" beside "Reject"): the column's is the paper's."""
        overruled = overruled_venue(record)
        if overruled is None or record.signals is None:
            return
        column, text = overruled
        self.summary.venues_overruled += 1
        self.remarks.append(Remark(
            f"{record.source or record.title}: {column} {text!r} beside the decision "
            f"{record.signals.decision_raw or record.signals.decision!r}: the decision column "
            "taken, the venue's decision not kept (the venue kept as written)"
        ))

    def _contradicted(self, record: PaperRecord) -> None:
        """Name the paper whose table gives a mean its own ratings contradict (the file's
        "rating_avg 6.1" beside "[8, 8, 7]"): the ratings' mean is the paper's."""
        contradicted = contradicted_mean(record)
        if contradicted is None:
            return
        column, written, mean = contradicted
        self.summary.means_contradicted += 1
        ratings = ", ".join(f"{r:g}" for r in record.signals.ratings) if record.signals else ""
        self.remarks.append(Remark(
            f"{record.source or record.title}: {column} {written} but the ratings it gives "
            f"({ratings}) make {one_decimal(mean)}; their mean taken, the file's kept as written"
        ))

    def orphans(self, replies: Iterable[Reply]) -> None:
        """Keep replies whose paper is not in the library, for when it is imported."""
        replies = list(replies)
        if not replies:
            return
        written = stored_replies.write_replies(self.conn, None, replies, seen_at=self.stamp,
                                       import_id=self.import_id)
        self._waiting = True
        self.summary.replies_new += written.new
        self.summary.replies_waiting += len(replies)
