"""Storage of the replies to papers (reviews, meta-reviews, decisions, comments) and of
every version of each seen.

Pure storage over the ``replies`` and ``reply_versions`` tables of
``db/migrations/0007_conference_signals.sql``: the writes take the caller's connection
inside the caller's transaction (an import writes its papers, their replies and their
signals in one) and decide nothing beyond what the rows say.

- :func:`write_replies` stores replies (any number of versions of each, in any order):
  one row per reply, holding its newest version; one version row per version seen, with
  its scores and a digest of its text. A version's text is not copied unless a newer
  version changed it, so review text is held once. What was new or changed is returned.
- :func:`adopt_replies` gives a paper the replies that waited for it (stored before it
  was in the library, by its OpenReview id).
- :func:`replies_of`, :func:`waiting_replies`, :func:`rating_history` and
  :func:`version_text` read them back.

The writes and the reads are kept in one module because they share one layout of the
rows (a version's text is that of the next newer version holding a copy, else the
reply's own), which a reader split from its writer could silently stop agreeing with;
how one reply is encoded in them (content packed, lists compact) is
:mod:`reader.store.reply_forms`. A paper's signals, derived from its replies, are stored
by :mod:`reader.store.paper_signals`.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence
from typing import Any

from msgspec import Struct, field

from reader.signals import Reply, Score
from reader.store.chunks import in_chunks
from reader.store.reply_forms import ReplyForm, unpack_content

__all__ = [
    "RatingChange",
    "ReplyVersion",
    "RepliesWritten",
    "adopt_replies",
    "rating_history",
    "replies_of",
    "version_text",
    "waiting_replies",
    "write_replies",
]


class RatingChange(Struct, frozen=True):
    """A reply whose rating moved: its note id, the paper, the rating before and after."""

    note_id: str
    paper_id: int | None
    before: float | None
    after: float | None


class RepliesWritten(Struct):
    """What :func:`write_replies` did: replies new to the library, versions new to it
    (new replies' first versions included), versions already stored (the same reply read
    again, from this file or another), and the ratings that moved."""

    new: int = 0
    versions: int = 0
    known: int = 0
    #: Versions stored already whose scores' words read as other numbers now (a label an
    #: older reader took for no number): read again in place, no edit.
    reread: int = 0
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
        self.reread += other.reread
        self.rating_changes += other.rating_changes


def _number(score: Score | None) -> float | None:
    return score.value if score is not None else None


def _words(scores_json: str) -> dict[str, Any]:
    """A version's scores as their words alone (``{"rating": "7: Accept: …"}``)."""
    return {name: score.get("raw") for name, score in json.loads(scores_json).items()}


def write_replies(
    conn: sqlite3.Connection,
    paper_id: int | None,
    replies: Iterable[Reply],
    *,
    seen_at: str,
    import_id: int | None = None,
    forms: Sequence[ReplyForm] | None = None,
) -> RepliesWritten:
    """Store replies of the paper ``paper_id`` (None: a paper not in the library yet;
    they wait for it by their forum), inside the caller's transaction; ``forms``, one per
    reply, when the caller has them made already.

    Each version (a reply id and its mdate) is stored once however often it is read. A
    version newer than the one stored replaces it, keeping the older text in the older
    version's row only when the text changed; an older version read late joins the history
    without replacing anything. A reply already stored under another paper stays there.
    """
    done = RepliesWritten()
    replies = list(replies)
    paired = zip(replies, forms if forms is not None else map(ReplyForm, replies), strict=True)
    # Oldest first, so a file holding a review before and after an edit ends at the edit.
    for reply, form in sorted(paired, key=lambda pair: (pair[0].modified or 0)):
        _write_one(conn, paper_id, reply, form, seen_at, import_id, done)
    return done


def _write_one(
    conn: sqlite3.Connection,
    paper_id: int | None,
    reply: Reply,
    form: ReplyForm,
    seen_at: str,
    import_id: int | None,
    done: RepliesWritten,
) -> None:
    mdate = reply.modified or 0
    text_hash = form.text_hash
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
            (*_columns(reply, form, paper_id, rating), text_hash),
        )
        _add_version(conn, int(cursor.lastrowid or 0), mdate, rating, form, None,
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
        if mdate != stored_mdate or tuple(latest[1:]) == (text_hash, rating, form.scores):
            done.known += 1
            return
        if latest[1] == text_hash and _words(latest[3]) == _words(form.scores):
            # The same words read as other numbers: the version read again, not edited.
            conn.execute("UPDATE reply_versions SET rating = ?, scores = ? WHERE reply_id = ? "
                         "AND mdate = ?", (rating, form.scores, reply_row, latest[0]))
            conn.execute("UPDATE replies SET rating = ?, confidence = ? WHERE id = ?",
                         (rating, _number(reply.confidence), reply_row))
            done.reread += 1
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
            (*_columns(reply, form, stored_paper, rating)[1:], text_hash, reply_row),
        )
        _add_version(conn, reply_row, mdate, rating, form, None, import_id, seen_at)
        if stored_hash != text_hash:
            # Imported here: a write of an import's, never of the first view.
            from reader.store.highlights import reanchor_reply

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
        _add_version(conn, reply_row, mdate, rating, form,
                     None if same else form.packed(), import_id, seen_at)
    done.versions += 1


def _columns(
    reply: Reply, form: ReplyForm, paper_id: int | None, rating: float | None
) -> tuple[Any, ...]:
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
        form.invitations,
        form.signatures,
        form.packed(),
    )


def _add_version(
    conn: sqlite3.Connection,
    reply_row: int,
    mdate: int,
    rating: float | None,
    form: ReplyForm,
    content: bytes | None,
    import_id: int | None,
    seen_at: str,
) -> None:
    conn.execute(
        "INSERT INTO reply_versions (reply_id, mdate, rating, scores, text_hash, content, "
        "import_id, seen_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (reply_row, mdate, rating, form.scores, form.text_hash, content, import_id, seen_at),
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
        content=unpack_content(content),
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


def replied(conn: sqlite3.Connection, paper_ids: list[int]) -> set[int]:
    """The papers among ``paper_ids`` with any reply stored (a review, a decision, a
    withdrawal, a comment)."""
    found: set[int] = set()
    for chunk, marks in in_chunks(paper_ids):
        found.update(row[0] for row in conn.execute(
            f"SELECT DISTINCT paper_id FROM replies WHERE paper_id IN ({marks})", chunk))
    return found


def any_waiting(conn: sqlite3.Connection) -> bool:
    """Whether any reply waits for its paper (kept from a file without it)."""
    found = conn.execute("SELECT 1 FROM replies WHERE paper_id IS NULL LIMIT 1").fetchone()
    return found is not None


def waiting_replies(conn: sqlite3.Connection, forum: str) -> list[Reply]:
    """The replies stored for a paper not in the library, by its OpenReview id."""
    rows = conn.execute(
        f"SELECT {_REPLY_COLUMNS} FROM replies WHERE paper_id IS NULL AND forum = ? "
        "ORDER BY cdate, id",
        (forum,),
    )
    return [_reply(row) for row in rows]


class ReplyVersion(Struct, frozen=True):
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
    return unpack_content(kept[0])
