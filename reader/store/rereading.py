"""Ratings stored as an older reader read them, read again from their own words.

A reply's scores are stored with the text the source wrote (``{"rating": {"value": null,
"raw": "7: Accept: Technically solid paper, …"}}``), so when the reading of a label
improves (NeurIPS's 7 to 10, written as sentences longer than a label was allowed to be,
were "not a number"), the numbers a library holds can be read again without the file:

- :func:`reread_scores` is one version's scores read again: the new scores JSON and its
  rating and confidence, or None when the words read as they did;
- :func:`reread_library` reads every stored version again and brings the replies and the
  papers' ratings in line (migration 0013 runs it, see :mod:`reader.store.base`).

No review's words changed, so no version is added and no rating counts as changed
(``is:rating-changed`` is for reviewers who changed their minds).
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass

from reader.signals import Reply, signals_from_replies
from reader.store.replies import replies_of

__all__ = ["Reread", "reread_library", "reread_scores"]

_encode_compact = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


@dataclass(frozen=True, slots=True)
class Reread:
    """A version's scores as the current reader reads their words."""

    scores: str
    rating: float | None
    confidence: float | None


def reread_scores(scores_json: str) -> Reread | None:
    """The scores of ``scores_json`` (as :meth:`Reply.scores_json` stored them) read again
    from their raw words; None when they read as stored, or when a field no longer reads
    as a score (its words would then be text, which only the file can say)."""
    stored = json.loads(scores_json or "{}")
    if not stored:
        return None
    words = {name: score.get("raw") for name, score in stored.items()}
    # A reply made of its scores alone reads them as a reply read from a file does.
    reply = Reply(id="", forum=None, replyto=None, kind="", content=words)
    if set(reply.scores) != set(stored):
        return None
    if all(reply.scores[name].value == score.get("value") for name, score in stored.items()):
        return None
    rating, confidence = reply.rating, reply.confidence
    return Reread(
        reply.scores_json(),
        rating.value if rating is not None else None,
        confidence.value if confidence is not None else None,
    )


def reread_library(conn: sqlite3.Connection) -> set[int]:
    """Read every stored version's scores again, inside the caller's transaction: the
    versions, the replies (their newest version's rating and confidence) and the ratings
    of the papers they belong to. Returns the papers whose ratings were read again."""
    changed_replies: set[int] = set()
    rows = conn.execute("SELECT id, reply_id, scores FROM reply_versions").fetchall()
    for version_id, reply_id, scores in rows:
        again = reread_scores(scores)
        if again is None:
            continue
        conn.execute(
            "UPDATE reply_versions SET scores = ?, rating = ? WHERE id = ?",
            (again.scores, again.rating, version_id),
        )
        changed_replies.add(reply_id)
    papers: set[int] = set()
    for reply_id in changed_replies:
        newest = conn.execute(
            "SELECT v.scores, r.paper_id FROM reply_versions v JOIN replies r "
            "ON r.id = v.reply_id WHERE v.reply_id = ? ORDER BY v.mdate DESC LIMIT 1",
            (reply_id,),
        ).fetchone()
        scores = Reply(id="", forum=None, replyto=None, kind="", content={
            name: score.get("raw") for name, score in json.loads(newest[0]).items()})
        rating, confidence = scores.rating, scores.confidence
        conn.execute(
            "UPDATE replies SET rating = ?, confidence = ? WHERE id = ?",
            (rating.value if rating else None, confidence.value if confidence else None,
             reply_id),
        )
        if newest[1] is not None:
            papers.add(newest[1])
    for paper_id in papers:
        _rerate_paper(conn, paper_id)
    return papers


def _rerate_paper(conn: sqlite3.Connection, paper_id: int) -> None:
    """A paper's ratings as its stored reviews give them now; its decision and counts
    stay as they are (nothing but the reading of a number changed)."""
    found = signals_from_replies(replies_of(conn, paper_id))
    if not found.ratings:
        return
    conn.execute(
        "UPDATE paper_signals SET ratings = ?, confidences = ?, rating_mean = ?, "
        "rating_std = ?, rating_count = ?, confidence_mean = ? WHERE paper_id = ?",
        (_encode_compact(list(found.ratings)), _encode_compact(list(found.confidences)),
         found.rating_mean, found.rating_std, found.rating_count, found.confidence_mean,
         paper_id),
    )
