"""Storage of each paper's conference signals: its decision, its ratings and their
summary, its scale, and the counts of its reviews and comments (one ``paper_signals`` row,
derived from its replies by :mod:`reader.intake.signals`).

- :func:`write_signals` stores a paper's signals inside the caller's transaction, saying
  whether its ratings or its decision changed (what ``is:rating-changed`` and the import
  summary read).
- :func:`signals_of`, :func:`signals_rows` and :func:`papers_with_changed_ratings` read
  them back, for one paper, a list of them, or what one import changed.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from typing import Any, Literal

from msgspec import Struct, structs

from reader.signals import RatingScale, Signals
from reader.store.chunks import in_chunks

__all__ = [
    "SIGNALS_CHANGES",
    "SignalsWritten",
    "decision_counts",
    "papers_with_changed_ratings",
    "revert_signals",
    "signals_of",
    "signals_rows",
    "write_signals",
]


def _compact(values: Sequence[Any]) -> str:
    """A list column as stored: compact JSON. Most papers of a list have no ratings yet:
    their empty lists skip the encoder."""
    return _encode_compact(list(values)) if values else "[]"


_encode_compact = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


class SignalsWritten(Struct, frozen=True):
    """What :func:`write_signals` changed: the paper's ratings (a rating it had moved,
    or one was added or removed) and its decision (a new one, or another than before)."""

    ratings_changed: bool = False
    new_decision: bool = False
    #: Whether a rating the paper had moved (a reviewer's change of mind), as opposed to
    #: one added or gone: what ``is:rating-changed`` and the summary's count mean.
    rerated: bool = False
    #: Whether anything stored of them changed (a decision's words too), so that an
    #: import says the paper was merged, never unchanged (known only with ``keep``).
    stored: bool = False


_SIGNAL_COLUMNS = (
    "decision, decision_raw, rating_mean, rating_std, rating_count, ratings, confidences, "
    "confidence_mean, scale, reviews, comments"
)
#: The ``field`` of a paper_revisions row holding a paper's signals before and after an
#: import changed them (``{"before": [columns] or null, "after": [columns]}``, the columns
#: of _SIGNAL_COLUMNS), so that undoing the import can put them back.
SIGNALS_CHANGES = "signals"


def _stored_row(conn: sqlite3.Connection, paper_id: int) -> list[Any] | None:
    """A paper's signal columns as stored, or None."""
    row = conn.execute(
        f"SELECT {_SIGNAL_COLUMNS} FROM paper_signals WHERE paper_id = ?", (paper_id,)
    ).fetchone()
    return list(row) if row else None


def _signals(row: Sequence[Any]) -> Signals:
    (decision, decision_raw, mean, std, count, ratings, confidences, confidence_mean, scale,
     reviews, comments) = row
    return Signals(
        decision=decision,
        decision_raw=decision_raw,
        ratings=tuple(json.loads(ratings)),
        confidences=tuple(json.loads(confidences)),
        rating_mean=mean,
        rating_std=std,
        rating_count=count,
        confidence_mean=confidence_mean,
        scale=RatingScale.parse(scale),
        reviews=reviews,
        comments=comments,
    )


def write_signals(
    conn: sqlite3.Connection,
    paper_id: int,
    signals: Signals | None,
    *,
    updated_at: str,
    import_id: int | None = None,
    before: Signals | None | Literal[False] = False,
    keep: bool = False,
) -> SignalsWritten:
    """Store a paper's signals as given (None: it has none; any stored are removed),
    inside the caller's transaction; say whether its ratings or decision changed (a first
    rating is no change; a first decision other than pending is new). ``before``: the
    paper's signals as stored, when the caller has just read them (None: it has none).
    With ``keep``, signals that change are kept as they were for undoing the import
    (:data:`SIGNALS_CHANGES`); a paper the import adds needs none."""
    if before is False:
        before = signals_of(conn, paper_id)
    if keep and import_id is not None and signals != before:
        kept = _stored_row(conn, paper_id)
        written = _write(conn, paper_id, signals, before, updated_at, import_id)
        after = _stored_row(conn, paper_id)
        if after != kept:
            # Imported here: a write of an import's, never of the first view.
            from reader.store.revisions import keep_revision

            keep_revision(
                conn, paper_id, SIGNALS_CHANGES,
                json.dumps({"before": kept, "after": after}, ensure_ascii=False), None,
                stamp=updated_at, import_id=import_id,
            )
            return structs.replace(written, stored=True)
        return written
    return _write(conn, paper_id, signals, before, updated_at, import_id)


def _write(
    conn: sqlite3.Connection, paper_id: int, signals: Signals | None, before: Signals | None,
    updated_at: str, import_id: int | None,
) -> SignalsWritten:
    """Store the signals (see write_signals)."""
    if signals is None:
        conn.execute("DELETE FROM paper_signals WHERE paper_id = ?", (paper_id,))
        return SignalsWritten()
    ratings_changed = before is not None and (
        before.ratings != signals.ratings
        if before.ratings and signals.ratings
        else before.rating_mean is not None and before.rating_mean != signals.rating_mean
    )
    rerated = ratings_changed and _rerated(before, signals)
    new_decision = signals.decision not in (None, "pending") and (
        before is None or before.decision != signals.decision
    )
    conn.execute(
        f"INSERT INTO paper_signals (paper_id, {_SIGNAL_COLUMNS}, ratings_changed_import, "
        "decided_import, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
        "ON CONFLICT (paper_id) DO UPDATE SET decision = excluded.decision, "
        "decision_raw = excluded.decision_raw, rating_mean = excluded.rating_mean, "
        "rating_std = excluded.rating_std, rating_count = excluded.rating_count, "
        "ratings = excluded.ratings, confidences = excluded.confidences, "
        "confidence_mean = excluded.confidence_mean, scale = excluded.scale, "
        "reviews = excluded.reviews, comments = excluded.comments, "
        "ratings_changed_import = coalesce(excluded.ratings_changed_import, "
        "paper_signals.ratings_changed_import), "
        "decided_import = coalesce(excluded.decided_import, paper_signals.decided_import), "
        "updated_at = excluded.updated_at",
        (
            paper_id,
            signals.decision,
            signals.decision_raw,
            signals.rating_mean,
            signals.rating_std,
            signals.rating_count,
            _compact(signals.ratings),
            _compact(signals.confidences),
            signals.confidence_mean,
            str(signals.scale) if signals.scale else None,
            signals.reviews,
            signals.comments,
            import_id if rerated else None,
            import_id if new_decision else None,
            updated_at,
        ),
    )
    return SignalsWritten(ratings_changed, new_decision, rerated)


def _rerated(before: Signals | None, after: Signals) -> bool:
    """Whether ratings that changed were the same reviewers' ratings moving: as many
    before as after (a list's "6;6;8" become "6;7;8"). A paper that gained or lost a
    review has its ratings changed but none moved that a list can tell (a review's own
    versions tell it: see reader.intake.signals)."""
    if before is None:
        return False
    if before.ratings and after.ratings:
        return len(before.ratings) == len(after.ratings)
    return not (before.rating_count and after.rating_count) or (
        before.rating_count == after.rating_count)


def revert_signals(conn: sqlite3.Connection, paper_id: int, import_id: int) -> bool | None:
    """Put back the signals the import ``import_id`` changed in a paper, newest change
    first, where they still hold what it wrote (inside the caller's transaction): True if
    put back, False if changed since (left as they are), None if it changed none."""
    changes = conn.execute(
        "SELECT id, body FROM paper_revisions WHERE paper_id = ? AND import_id = ? "
        "AND field = ? ORDER BY id DESC", (paper_id, import_id, SIGNALS_CHANGES),
    ).fetchall()
    if not changes:
        return None
    put_back = True
    for revision_id, body in changes:
        change = json.loads(body)
        if _stored_row(conn, paper_id) != change["after"]:
            put_back = False
        elif change["before"] is None:
            conn.execute("DELETE FROM paper_signals WHERE paper_id = ?", (paper_id,))
        else:
            columns = [c.strip() for c in _SIGNAL_COLUMNS.split(",")]
            assignments = ", ".join(f"{column} = ?" for column in columns)
            conn.execute(
                f"UPDATE paper_signals SET {assignments}, "
                "ratings_changed_import = nullif(ratings_changed_import, ?), "
                "decided_import = nullif(decided_import, ?) WHERE paper_id = ?",
                (*change["before"], import_id, import_id, paper_id),
            )
        conn.execute("DELETE FROM paper_revisions WHERE id = ?", (revision_id,))
    return put_back


def signals_of(conn: sqlite3.Connection, paper_id: int) -> Signals | None:
    """A paper's stored signals, or None."""
    row = conn.execute(
        f"SELECT {_SIGNAL_COLUMNS} FROM paper_signals WHERE paper_id = ?", (paper_id,)
    ).fetchone()
    return _signals(row) if row else None


def signals_rows(conn: sqlite3.Connection, paper_ids: Sequence[int]) -> dict[int, Signals]:
    """The stored signals of the papers among ``paper_ids`` that have some, by paper id."""
    found: dict[int, Signals] = {}
    for chunk, marks in in_chunks(paper_ids):
        rows = conn.execute(
            f"SELECT paper_id, {_SIGNAL_COLUMNS} FROM paper_signals WHERE paper_id IN ({marks})",
            list(chunk),
        )
        for row in rows:
            found[row[0]] = _signals(row[1:])
    return found


def papers_with_changed_ratings(conn: sqlite3.Connection, import_id: int) -> list[int]:
    """The papers whose ratings the import ``import_id`` changed (``is:rating-changed``)."""
    rows = conn.execute(
        "SELECT paper_id FROM paper_signals WHERE ratings_changed_import = ? ORDER BY paper_id",
        (import_id,),
    )
    return [row[0] for row in rows]


def decision_counts(conn: sqlite3.Connection) -> dict[str, int]:
    """How many papers have each decision (those with none not counted), most first."""
    return dict(conn.execute(
        "SELECT decision, count(*) FROM paper_signals WHERE decision IS NOT NULL "
        "AND decision != '' GROUP BY decision ORDER BY count(*) DESC, decision"
    ).fetchall())


def any_rated(conn: sqlite3.Connection) -> bool:
    """Whether any paper has a rating (one seek in the index of means: no row read)."""
    return conn.execute(
        "SELECT 1 FROM paper_signals WHERE rating_mean IS NOT NULL LIMIT 1"
    ).fetchone() is not None
