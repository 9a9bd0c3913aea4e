"""Storage of conference signals: replies, their versions, and each paper's signals.

Pure storage over the tables of ``db/migrations/0007_conference_signals.sql``: the write
functions take the caller's connection inside the caller's transaction (an import writes
its papers, their replies and their signals in one) and decide nothing beyond what the
rows say; the read functions serve one paper or a list of them.

- :func:`write_replies` stores replies (any number of versions of each, in any order):
  one row per reply, holding its newest version; one version row per version seen, with
  its scores and a digest of its text. A version's text is not copied unless a newer
  version changed it, so review text is held once. What was new or changed is returned.
- :func:`adopt_replies` gives a paper the replies that waited for it (stored before it
  was in the library, by its OpenReview id).
- :func:`write_signals` stores a paper's signals, saying whether its ratings or its
  decision changed.
- :func:`replies_of`, :func:`waiting_replies`, :func:`signals_of`, :func:`signals_rows`,
  :func:`rating_history`, :func:`version_text` and :func:`papers_with_changed_ratings`
  read them back.

Kept whole: the writes and the reads share one encoding of the rows (content compressed;
a version's text is that of the next newer version holding a copy, else the reply's
own), which a reader split from its writer could silently stop agreeing with.
"""

from __future__ import annotations

import json
import sqlite3
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from reader.signals import RatingScale, Reply, Score, Signals
from reader.store.highlights import reanchor_reply

__all__ = [
    "RatingChange",
    "ReplyVersion",
    "RepliesWritten",
    "SignalsWritten",
    "adopt_replies",
    "papers_with_changed_ratings",
    "rating_history",
    "replies_of",
    "signals_of",
    "signals_rows",
    "version_text",
    "waiting_replies",
    "write_replies",
    "write_signals",
]

# Ids per statement of an IN (…) list: under SQLite's oldest limit on variables.
_CHUNK = 500


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


# Review text is stored compressed: as plain JSON, rows of one to a few pages each left
# most of a page unused, and a library held 1.65 times the text it stores (the target is
# at most 1.5); compressed, about 0.7 times. Decompressing a review takes microseconds.
_LEVEL = 6


def _pack(content_json: str) -> bytes:
    """A reply's content JSON as stored: UTF-8, zlib-compressed."""
    return zlib.compress(content_json.encode("utf-8"), _LEVEL)


def _unpack(stored: bytes | str) -> dict[str, Any]:
    """A reply's content from its stored form (compressed, or plain JSON text)."""
    text = zlib.decompress(stored).decode("utf-8") if isinstance(stored, bytes) else stored
    value: dict[str, Any] = json.loads(text)
    return value


# --- replies ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RatingChange:
    """A reply whose rating moved: its note id, the paper, the rating before and after."""

    note_id: str
    paper_id: int | None
    before: float | None
    after: float | None


@dataclass(slots=True)
class RepliesWritten:
    """What :func:`write_replies` did: replies new to the library, versions new to it
    (new replies' first versions included), versions already stored (the same reply read
    again, from this file or another), and the ratings that moved."""

    new: int = 0
    versions: int = 0
    known: int = 0
    rating_changes: list[RatingChange] = field(default_factory=list)

    @property
    def papers_with_changed_ratings(self) -> set[int]:
        """The papers one of whose ratings moved."""
        return {c.paper_id for c in self.rating_changes if c.paper_id is not None}

    def add(self, other: RepliesWritten) -> None:
        """Count another write in."""
        self.new += other.new
        self.versions += other.versions
        self.known += other.known
        self.rating_changes += other.rating_changes


def _number(score: Score | None) -> float | None:
    return score.value if score is not None else None


def write_replies(
    conn: sqlite3.Connection,
    paper_id: int | None,
    replies: Iterable[Reply],
    *,
    seen_at: str,
    import_id: int | None = None,
) -> RepliesWritten:
    """Store replies of the paper ``paper_id`` (None: a paper not in the library yet;
    they wait for it by their forum), inside the caller's transaction.

    Each version (a reply id and its mdate) is stored once however often it is read. A
    version newer than the one stored replaces it, keeping the older text in the older
    version's row only when the text changed; an older version read late joins the history
    without replacing anything. A reply already stored under another paper stays there.
    """
    done = RepliesWritten()
    # Oldest first, so a file holding a review before and after an edit ends at the edit.
    for reply in sorted(replies, key=lambda r: (r.modified or 0)):
        _write_one(conn, paper_id, reply, seen_at, import_id, done)
    return done


def _write_one(
    conn: sqlite3.Connection,
    paper_id: int | None,
    reply: Reply,
    seen_at: str,
    import_id: int | None,
    done: RepliesWritten,
) -> None:
    mdate = reply.modified or 0
    text_hash = reply.text_hash()
    rating = _number(reply.rating)
    row = conn.execute(
        "SELECT id, paper_id, mdate, rating, text_hash, content FROM replies WHERE note_id = ?",
        (reply.id,),
    ).fetchone()
    if row is None:
        cursor = conn.execute(
            "INSERT INTO replies (note_id, paper_id, forum, replyto, kind, signer, number, "
            "cdate, mdate, rating, confidence, invitations, signatures, content, text_hash) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (*_columns(reply, paper_id, rating), text_hash),
        )
        _add_version(conn, int(cursor.lastrowid or 0), mdate, rating, reply, text_hash, None,
                     import_id, seen_at)
        done.new += 1
        done.versions += 1
        return
    reply_row, stored_paper, stored_mdate, stored_rating, stored_hash, stored_content = row
    if stored_paper is None and paper_id is not None:
        conn.execute("UPDATE replies SET paper_id = ? WHERE id = ?", (paper_id, reply_row))
        stored_paper = paper_id
    stored_mdate = stored_mdate or 0
    if conn.execute(
        "SELECT 1 FROM reply_versions WHERE reply_id = ? AND mdate = ?", (reply_row, mdate)
    ).fetchone():
        latest = conn.execute(
            "SELECT mdate, text_hash, rating, scores FROM reply_versions WHERE reply_id = ? "
            "ORDER BY mdate DESC LIMIT 1",
            (reply_row,),
        ).fetchone()
        if mdate != stored_mdate or tuple(latest[1:]) == (
            text_hash, rating, reply.scores_json()
        ):
            done.known += 1
            return
        # The newest version again, with other words or scores under the same date (a file
        # edited by hand, a source that does not move mdate): an edit all the same, kept as
        # a version a millisecond after the newest so that the history shows it.
        stored_mdate = latest[0]
        mdate = stored_mdate + 1
    if mdate > stored_mdate:
        if stored_hash != text_hash:
            # The text changed: the version it was keeps its own copy from now on.
            conn.execute(
                "UPDATE reply_versions SET content = ? WHERE reply_id = ? AND mdate = ?",
                (stored_content, reply_row, stored_mdate),
            )
        conn.execute(
            "UPDATE replies SET paper_id = ?, forum = ?, replyto = ?, kind = ?, signer = ?, "
            "number = ?, cdate = ?, mdate = ?, rating = ?, confidence = ?, invitations = ?, "
            "signatures = ?, content = ?, text_hash = ? WHERE id = ?",
            (*_columns(reply, stored_paper, rating)[1:], text_hash, reply_row),
        )
        _add_version(conn, reply_row, mdate, rating, reply, text_hash, None, import_id, seen_at)
        if stored_hash != text_hash:
            reanchor_reply(conn, reply.id, reply)  # the passages highlighted in it follow
        if rating != stored_rating:
            done.rating_changes.append(RatingChange(reply.id, stored_paper, stored_rating, rating))
    else:
        # An older version, read after a newer one: history only. Its text is kept unless
        # the next newer version has the same.
        newer = conn.execute(
            "SELECT text_hash FROM reply_versions WHERE reply_id = ? AND mdate > ? "
            "ORDER BY mdate LIMIT 1",
            (reply_row, mdate),
        ).fetchone()
        same = newer is not None and newer[0] == text_hash
        _add_version(conn, reply_row, mdate, rating, reply, text_hash,
                     None if same else _pack(reply.content_json()), import_id, seen_at)
    done.versions += 1


def _columns(reply: Reply, paper_id: int | None, rating: float | None) -> tuple[Any, ...]:
    """A reply's columns, from note_id to content, as INSERT lists them."""
    return (
        reply.id,
        paper_id,
        reply.forum,
        reply.replyto,
        reply.kind,
        reply.signer,
        reply.number,
        reply.cdate,
        reply.mdate,
        rating,
        _number(reply.confidence),
        _compact(list(reply.invitations)),
        _compact(list(reply.signatures)),
        _pack(reply.content_json()),
    )


def _add_version(
    conn: sqlite3.Connection,
    reply_row: int,
    mdate: int,
    rating: float | None,
    reply: Reply,
    text_hash: str,
    content: bytes | None,
    import_id: int | None,
    seen_at: str,
) -> None:
    conn.execute(
        "INSERT INTO reply_versions (reply_id, mdate, rating, scores, text_hash, content, "
        "import_id, seen_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (reply_row, mdate, rating, reply.scores_json(), text_hash, content, import_id, seen_at),
    )


def adopt_replies(conn: sqlite3.Connection, paper_id: int, forum: str) -> int:
    """Give the paper ``paper_id`` the replies stored while it was not in the library
    (whose forum is its OpenReview id ``forum``); how many there were."""
    cursor = conn.execute(
        "UPDATE replies SET paper_id = ? WHERE paper_id IS NULL AND forum = ?",
        (paper_id, forum),
    )
    return cursor.rowcount


_REPLY_COLUMNS = (
    "note_id, forum, replyto, kind, number, cdate, mdate, invitations, signatures, content"
)


def _reply(row: Sequence[Any]) -> Reply:
    note_id, forum, replyto, kind, number, cdate, mdate, invitations, signatures, content = row
    return Reply(
        id=note_id,
        forum=forum,
        replyto=replyto,
        kind=kind,
        content=_unpack(content),
        invitations=tuple(json.loads(invitations)),
        signatures=tuple(json.loads(signatures)),
        number=number,
        cdate=cdate,
        mdate=mdate,
    )


def reply_of(conn: sqlite3.Connection, paper_id: int, note_id: str) -> Reply | None:
    """One reply of a paper, by its note id, as its newest version; None if the paper has
    no such reply."""
    row = conn.execute(
        f"SELECT {_REPLY_COLUMNS} FROM replies WHERE note_id = ? AND paper_id = ?",
        (note_id, paper_id),
    ).fetchone()
    return None if row is None else _reply(row)


def replies_of(conn: sqlite3.Connection, paper_id: int) -> list[Reply]:
    """A paper's replies, each as its newest version, oldest first."""
    rows = conn.execute(
        f"SELECT {_REPLY_COLUMNS} FROM replies WHERE paper_id = ? ORDER BY cdate, id",
        (paper_id,),
    )
    return [_reply(row) for row in rows]


def waiting_replies(conn: sqlite3.Connection, forum: str) -> list[Reply]:
    """The replies stored for a paper not in the library, by its OpenReview id."""
    rows = conn.execute(
        f"SELECT {_REPLY_COLUMNS} FROM replies WHERE paper_id IS NULL AND forum = ? "
        "ORDER BY cdate, id",
        (forum,),
    )
    return [_reply(row) for row in rows]


@dataclass(frozen=True, slots=True)
class ReplyVersion:
    """One version of a reply as stored: when it was written, its rating and scores, the
    digest of its text, and the import that first saw it."""

    mdate: int
    rating: float | None
    scores: dict[str, Any]
    text_hash: str
    import_id: int | None
    seen_at: str


def rating_history(conn: sqlite3.Connection, paper_id: int) -> dict[str, list[ReplyVersion]]:
    """Every version seen of each of a paper's replies, oldest first, by note id (a rating
    that went ``4 → 6`` is two versions)."""
    rows = conn.execute(
        "SELECT r.note_id, v.mdate, v.rating, v.scores, v.text_hash, v.import_id, v.seen_at "
        "FROM reply_versions v JOIN replies r ON r.id = v.reply_id "
        "WHERE r.paper_id = ? ORDER BY r.id, v.mdate",
        (paper_id,),
    )
    history: dict[str, list[ReplyVersion]] = {}
    for note_id, mdate, rating, scores, text_hash, import_id, seen_at in rows:
        history.setdefault(note_id, []).append(
            ReplyVersion(mdate, rating, json.loads(scores), text_hash, import_id, seen_at)
        )
    return history


def version_text(conn: sqlite3.Connection, note_id: str, mdate: int) -> dict[str, Any] | None:
    """The content of one version of a reply (None when that version was never seen): the
    text of its own copy, else of the next newer version holding one, else of the reply's
    newest; the scores its own."""
    row = conn.execute(
        "SELECT v.reply_id, v.scores FROM reply_versions v JOIN replies r ON r.id = v.reply_id "
        "WHERE r.note_id = ? AND v.mdate = ?",
        (note_id, mdate),
    ).fetchone()
    if row is None:
        return None
    content = _text_of(conn, row[0], mdate)
    for name, score in json.loads(row[1]).items():
        content[name] = score["raw"]
    return content


def _text_of(conn: sqlite3.Connection, reply_row: int, mdate: int) -> dict[str, Any]:
    """The content stored for the text of a version at ``mdate`` (see version_text)."""
    kept = conn.execute(
        "SELECT content FROM reply_versions WHERE reply_id = ? AND mdate >= ? "
        "AND content IS NOT NULL ORDER BY mdate LIMIT 1",
        (reply_row, mdate),
    ).fetchone()
    if kept is None:
        kept = conn.execute("SELECT content FROM replies WHERE id = ?", (reply_row,)).fetchone()
    return _unpack(kept[0])


# --- paper signals ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SignalsWritten:
    """What :func:`write_signals` changed: the paper's ratings (a rating it had moved,
    or one was added or removed) and its decision (a new one, or another than before)."""

    ratings_changed: bool = False
    new_decision: bool = False


_SIGNAL_COLUMNS = (
    "decision, decision_raw, rating_mean, rating_std, rating_count, ratings, confidences, "
    "confidence_mean, scale, reviews, comments"
)


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
) -> SignalsWritten:
    """Store a paper's signals as given (None: it has none; any stored are removed),
    inside the caller's transaction; say whether its ratings or decision changed (a first
    rating is no change; a first decision other than pending is new). ``before``: the
    paper's signals as stored, when the caller has just read them (None: it has none)."""
    if before is False:
        before = signals_of(conn, paper_id)
    if signals is None:
        conn.execute("DELETE FROM paper_signals WHERE paper_id = ?", (paper_id,))
        return SignalsWritten()
    ratings_changed = before is not None and (
        before.ratings != signals.ratings
        if before.ratings and signals.ratings
        else before.rating_mean is not None and before.rating_mean != signals.rating_mean
    )
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
            _compact(list(signals.ratings)),
            _compact(list(signals.confidences)),
            signals.confidence_mean,
            str(signals.scale) if signals.scale else None,
            signals.reviews,
            signals.comments,
            import_id if ratings_changed else None,
            import_id if new_decision else None,
            updated_at,
        ),
    )
    return SignalsWritten(ratings_changed=ratings_changed, new_decision=new_decision)


def signals_of(conn: sqlite3.Connection, paper_id: int) -> Signals | None:
    """A paper's stored signals, or None."""
    row = conn.execute(
        f"SELECT {_SIGNAL_COLUMNS} FROM paper_signals WHERE paper_id = ?", (paper_id,)
    ).fetchone()
    return _signals(row) if row else None


def signals_rows(conn: sqlite3.Connection, paper_ids: Sequence[int]) -> dict[int, Signals]:
    """The stored signals of the papers among ``paper_ids`` that have some, by paper id."""
    found: dict[int, Signals] = {}
    for start in range(0, len(paper_ids), _CHUNK):
        chunk = list(paper_ids[start : start + _CHUNK])
        marks = ",".join("?" * len(chunk))
        rows = conn.execute(
            f"SELECT paper_id, {_SIGNAL_COLUMNS} FROM paper_signals WHERE paper_id IN ({marks})",
            chunk,
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
