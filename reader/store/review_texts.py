"""The words of each paper's replies, as the index of review text reads them: one text per
paper (every text field of its reviews, meta-reviews, decisions and comments, newest
versions), with a digest of what it is made of that costs no decompression to compute.

The reads run on connections of their own (:func:`read_review_texts` is handed to the
indexing processes, as :func:`reader.store.reading.read_papers` is).
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import zlib
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import NamedTuple

from reader.signals import RATING_FIELDS, SCORE_FIELDS
from reader.store.base import BUSY_TIMEOUT_MS
from reader.store.chunks import in_chunks

__all__ = [
    "ReviewText",
    "ReviewsMark",
    "papers_with_replies",
    "read_review_texts",
    "review_digests",
    "reviews_changed_since",
    "reviews_mark",
]

# Fields that are no words of a review: its numbers and its title ("Paper Decision").
_NOT_TEXT = SCORE_FIELDS | frozenset(RATING_FIELDS) | {"title"}


class ReviewText(NamedTuple):
    """The words of one paper's replies, and the digest of the replies they come from."""

    id: int
    text: str
    digest: str


class ReviewsMark(NamedTuple):
    """How far the replies have come: the library generation and the last reply version
    stored. An index of review text that holds this mark holds every reply's words."""

    generation: int
    versions: int


def _digest(parts: Iterable[str]) -> str:
    return hashlib.blake2b("\n".join(parts).encode("utf-8"), digest_size=12).hexdigest()


def _words(content: bytes | str) -> list[str]:
    """The text fields of a reply's stored content, in content order."""
    text = zlib.decompress(content).decode("utf-8") if isinstance(content, bytes) else content
    fields = json.loads(text)
    if not isinstance(fields, dict):
        return []
    words = []
    for name, value in fields.items():
        if name in _NOT_TEXT:
            continue
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            value = "; ".join(value)  # a form's checkboxes (a reviewer's ethics flag)
        if isinstance(value, str) and value.strip():
            words.append(value)
    return words


def reviews_mark(conn: sqlite3.Connection) -> ReviewsMark:
    """The mark of the replies stored now (two reads of an index's end: no scan)."""
    generation = conn.execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()
    versions = conn.execute("SELECT max(id) FROM reply_versions").fetchone()[0]
    return ReviewsMark(int(generation[0]) if generation else 0, int(versions or 0))


def papers_with_replies(conn: sqlite3.Connection) -> int:
    """How many papers of the library have replies."""
    return int(conn.execute(
        "SELECT count(DISTINCT paper_id) FROM replies WHERE paper_id IS NOT NULL"
    ).fetchone()[0])


def reviews_changed_since(conn: sqlite3.Connection, mark: ReviewsMark) -> list[int]:
    """The papers whose replies may have changed after ``mark``: a version stored since
    (a new reply, an edit), or the paper itself written since (replies that waited for it
    adopted, a paper merged). Their digests tell which did change."""
    rows = conn.execute(
        "SELECT r.paper_id FROM reply_versions v JOIN replies r ON r.id = v.reply_id "
        "WHERE v.id > ? AND r.paper_id IS NOT NULL "
        "UNION SELECT p.id FROM papers p WHERE p.generation > ? "
        "AND EXISTS (SELECT 1 FROM replies r WHERE r.paper_id = p.id)",
        (mark.versions, mark.generation),
    )
    return sorted(row[0] for row in rows)


def review_digests(conn: sqlite3.Connection, paper_ids: Sequence[int]) -> dict[int, str]:
    """The digest of each paper's replies (the papers among ``paper_ids`` with replies)."""
    parts: dict[int, list[str]] = {}
    for chunk, marks in in_chunks(paper_ids):
        rows = conn.execute(
            f"SELECT paper_id, note_id, text_hash FROM replies WHERE paper_id IN ({marks}) "
            "ORDER BY paper_id, id",
            chunk,
        )
        for paper_id, note_id, text_hash in rows:
            parts.setdefault(paper_id, []).append(f"{note_id}:{text_hash}")
    return {paper_id: _digest(found) for paper_id, found in parts.items()}


def read_review_texts(
    database: Path, first: int, last: int, only: Sequence[int] | None = None
) -> Iterator[ReviewText]:
    """The review text of the papers with ids from ``first`` to ``last`` that have
    replies (of those among ``only``, when given), in id order, read on a connection of
    their own (for an indexing process: picklable through functools.partial)."""
    conn = sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=BUSY_TIMEOUT_MS / 1000)
    try:
        current: int | None = None
        texts: list[str] = []
        parts: list[str] = []
        for paper_id, note_id, text_hash, content in _reply_rows(conn, first, last, only):
            if paper_id != current:
                if current is not None:
                    yield ReviewText(current, "\n\n".join(texts), _digest(parts))
                current, texts, parts = paper_id, [], []
            texts += _words(content)
            parts.append(f"{note_id}:{text_hash}")
        if current is not None:
            yield ReviewText(current, "\n\n".join(texts), _digest(parts))
    finally:
        conn.close()


def _reply_rows(
    conn: sqlite3.Connection, first: int, last: int, only: Sequence[int] | None
) -> Iterator[tuple[int, str, str, bytes | str]]:
    """The replies of the papers from ``first`` to ``last`` (among ``only``), by paper."""
    if only is None:
        yield from conn.execute(
            "SELECT paper_id, note_id, text_hash, content FROM replies "
            "WHERE paper_id BETWEEN ? AND ? ORDER BY paper_id, id",
            (first, last),
        )
        return
    chosen = sorted(i for i in set(only) if first <= i <= last)
    for chunk, marks in in_chunks(chosen):
        yield from conn.execute(
            "SELECT paper_id, note_id, text_hash, content FROM replies "
            f"WHERE paper_id IN ({marks}) ORDER BY paper_id, id",
            chunk,
        )
