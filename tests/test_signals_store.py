"""Replies, their versions and papers' signals in a real library database: stored once
however often they are read, every rating's history kept, text held once, and sorting a
conference by mean rating fast."""

from __future__ import annotations

import gzip
import json
import random
import time
from dataclasses import replace
from pathlib import Path

import pytest
from msgspec import structs

from reader.models import PaperRecord
from reader.signals import Reply, latest_replies, signals_from_replies
from reader.sources import stream_file
from reader.store import paper_signals as stored_signals
from reader.store import replies as stored_replies
from reader.store.database import Store

DATA = Path(__file__).parent / "data"
SAMPLE = Path(__file__).resolve().parents[2] / "shared" / "data" / "openreview" / (
    "iclr2026-with-reviews-400.jsonl.gz")
WHEN = "2026-01-01T00:00:00+00:00"


def _add_paper(store: Store, openreview_id: str | None, key: str) -> int:
    with store.transaction() as conn:
        cursor = conn.execute(
            "INSERT INTO papers (title, abstract, citekey, added_at, updated_at, openreview_id)"
            " VALUES ('', '', ?, ?, ?, ?)",
            (key, WHEN, WHEN, openreview_id),
        )
        return int(cursor.lastrowid or 0)


def _store_records(store: Store, records: list[PaperRecord], import_id: int
                   ) -> tuple[dict[str, int], stored_replies.RepliesWritten, int, int]:
    """Papers, their replies and signals written as an import would, in one transaction;
    the paper ids, what the replies did, and papers with changed ratings / new decisions."""
    ids = {}
    for n, record in enumerate(records):
        assert record.openreview_id
        row = store.conn.execute(
            "SELECT id FROM papers WHERE openreview_id = ?", (record.openreview_id,)
        ).fetchone()
        ids[record.openreview_id] = row[0] if row else _add_paper(
            store, record.openreview_id, f"k{import_id}-{n}")
    done = stored_replies.RepliesWritten()
    changed = decided = 0
    with store.transaction() as conn:
        for record in records:
            paper_id = ids[record.openreview_id or ""]
            written = stored_replies.write_replies(conn, paper_id, record.replies, seen_at=WHEN,
                                           import_id=import_id)
            done.add(written)
            signals = signals_from_replies(
                stored_replies.replies_of(conn, paper_id),
                decision=record.signals.decision_raw if record.signals else None,
                venue=record.venue, year=record.year,
            )
            outcome = stored_signals.write_signals(conn, paper_id, signals, updated_at=WHEN,
                                           import_id=import_id)
            changed += outcome.ratings_changed
            decided += outcome.new_decision
    return ids, done, changed, decided


def _small_sample() -> list[PaperRecord]:
    return list(stream_file(DATA / "openreview-replies-3.jsonl").records)


def test_replies_are_stored_once_with_every_version(tmp_path: Path) -> None:
    store = Store(tmp_path / "library.db")
    records = _small_sample()
    ids, done, _, _ = _store_records(store, records, import_id=1)
    assert (done.new, done.versions, done.known) == (15, 16, 0)
    for record in records:
        paper_id = ids[record.openreview_id or ""]
        back = stored_replies.replies_of(store.conn, paper_id)
        latest = sorted(latest_replies(record.replies), key=lambda r: (r.cdate or 0, r.id))
        assert back == latest
        assert [r.texts for r in back] == [r.texts for r in latest]
        expected = signals_from_replies(record.replies, decision=record.signals.decision_raw
                                        if record.signals else None, venue="ICLR", year=2026)
        assert stored_signals.signals_of(store.conn, paper_id) == expected
    history = stored_replies.rating_history(store.conn, ids["sLkis6UGKk"])["RJzgSNYrxX"]
    assert [(v.mdate, v.rating) for v in history] == [(1762915493035, 6.0), (1763705421797, 4.0)]
    assert history[0].scores["rating"] == {"value": 6.0, "raw": 6}
    # The same file read again (or the same replies in another file): nothing new.
    _, again, changed, decided = _store_records(store, records, import_id=2)
    assert (again.new, again.versions, again.known, changed, decided) == (0, 0, 16, 0, 0)
    assert store.conn.execute("SELECT count(*) FROM replies").fetchone()[0] == 15
    assert stored_signals.papers_with_changed_ratings(store.conn, 2) == []


def _edited(reply: Reply, rating: int, later: int, text: str | None = None) -> Reply:
    content = dict(reply.content, rating=rating)
    if text is not None:
        content["weaknesses"] = text
    return replace(reply, content=content, mdate=(reply.mdate or 0) + later)


def test_a_reimport_with_edited_ratings_records_the_history(tmp_path: Path) -> None:
    store = Store(tmp_path / "library.db")
    records = _small_sample()
    ids, _, _, _ = _store_records(store, records, import_id=1)
    paper = next(r for r in records if r.openreview_id == "DkHt2K1g2Y")
    review = latest_replies(paper.replies)[0]
    assert review.rating is not None and review.rating.value == 4.0
    raised = _edited(review, 6, 1000)
    rewritten = _edited(raised, 8, 2000, text="After the rebuttal: the concerns are addressed.")
    decision = Reply("DecDkHt2K", "DkHt2K1g2Y", "DkHt2K1g2Y", "Decision",
                     {"title": "Paper Decision", "decision": "Accept (Poster)"},
                     cdate=1770000000000, mdate=1770000000000)
    edited = structs.replace(paper, replies=[raised, rewritten, decision])
    _, done, changed, decided = _store_records(store, [edited], import_id=2)
    assert [(c.note_id, c.before, c.after) for c in done.rating_changes] == [
        (review.id, 4.0, 6.0), (review.id, 6.0, 8.0)]
    assert done.papers_with_changed_ratings == {ids["DkHt2K1g2Y"]}
    assert (changed, decided) == (1, 1)
    assert f"{changed} papers with changed ratings, {decided} new decisions" == (
        "1 papers with changed ratings, 1 new decisions")
    assert stored_signals.papers_with_changed_ratings(store.conn, 2) == [ids["DkHt2K1g2Y"]]
    assert stored_signals.papers_with_changed_ratings(store.conn, 1) == []
    history = stored_replies.rating_history(store.conn, ids["DkHt2K1g2Y"])[review.id]
    assert [v.rating for v in history] == [4.0, 6.0, 8.0]
    assert [v.import_id for v in history] == [1, 2, 2]
    signals = stored_signals.signals_of(store.conn, ids["DkHt2K1g2Y"])
    assert signals is not None and signals.decision == "poster" and 8.0 in signals.ratings
    # Text is held once: only the version whose text a later one changed keeps a copy.
    copies = store.conn.execute(
        "SELECT v.mdate FROM reply_versions v JOIN replies r ON r.id = v.reply_id "
        "WHERE r.note_id = ? AND v.content IS NOT NULL", (review.id,)).fetchall()
    assert copies == [(raised.mdate,)]
    old = stored_replies.version_text(store.conn, review.id, review.mdate or 0)
    assert old == review.content  # the first version's text: that of the second
    version_text = stored_replies.version_text
    assert version_text(store.conn, review.id, raised.mdate or 0) == raised.content
    assert version_text(store.conn, review.id, rewritten.mdate or 0) == rewritten.content
    # An older version read late joins the history and changes nothing else.
    _, late, _, _ = _store_records(store, [structs.replace(paper, replies=[review])], import_id=3)
    assert (late.new, late.versions, late.known) == (0, 0, 1)
    replies = stored_replies.replies_of(store.conn, ids["DkHt2K1g2Y"])
    (current,) = [r for r in replies if r.id == review.id]
    assert current.rating is not None and current.rating.value == 8.0


def test_replies_wait_for_their_paper(tmp_path: Path) -> None:
    store = Store(tmp_path / "library.db")
    path = tmp_path / "flat.jsonl"
    review = {"id": "Wait0001", "forum": "Later001", "replyto": "Later001",
              "invitations": ["ICLR.cc/2026/Conference/Submission5/-/Official_Review"],
              "cdate": 1, "mdate": 2, "content": {"rating": {"value": 6}}}
    path.write_text(json.dumps(review) + "\n")
    streamed = stream_file(path)
    assert list(streamed.records) == [] and [r.id for r in streamed.orphans] == ["Wait0001"]
    with store.transaction() as conn:
        written = stored_replies.write_replies(conn, None, streamed.orphans, seen_at=WHEN)
    assert written.new == 1
    assert [r.id for r in stored_replies.waiting_replies(store.conn, "Later001")] == ["Wait0001"]
    paper_id = _add_paper(store, "Later001", "later")
    with store.transaction() as conn:
        assert stored_replies.adopt_replies(conn, paper_id, "Later001") == 1
    assert [r.id for r in stored_replies.replies_of(store.conn, paper_id)] == ["Wait0001"]
    assert stored_replies.waiting_replies(store.conn, "Later001") == []
    # A paper removed takes its replies and signals with it.
    with store.transaction() as conn:
        stored_signals.write_signals(conn, paper_id, signals_from_replies(
            stored_replies.replies_of(conn, paper_id)), updated_at=WHEN)
        conn.execute("DELETE FROM papers WHERE id = ?", (paper_id,))
    assert store.conn.execute("SELECT count(*) FROM replies").fetchone()[0] == 0
    assert stored_signals.signals_of(store.conn, paper_id) is None


def test_the_shared_sample_stored_is_no_bigger_than_half_again_its_text(tmp_path: Path) -> None:
    if not SAMPLE.exists():
        pytest.skip("the shared OpenReview sample is not in this checkout")
    empty = Store(tmp_path / "empty.db")
    for n in range(400):
        _add_paper(empty, f"Empty{n:05d}", f"e{n}")
    empty.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    baseline = (tmp_path / "empty.db").stat().st_size
    store = Store(tmp_path / "library.db")
    records = list(stream_file(SAMPLE).records)
    _store_records(store, records, import_id=1)
    store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    size = (tmp_path / "library.db").stat().st_size - baseline
    text = sum(len(t.encode("utf-8")) for r in records for reply in latest_replies(r.replies)
               for _, t in reply.texts)
    with gzip.open(SAMPLE, "rt", encoding="utf-8") as handle:
        assert sum(len(json.loads(line)["replies"]) for line in handle) == 1666
    assert store.conn.execute("SELECT count(*) FROM reply_versions").fetchone()[0] == 1666
    assert size <= 1.5 * text, (size, text)


def test_sorting_a_conference_by_mean_rating_is_fast(tmp_path: Path) -> None:
    store = Store(tmp_path / "library.db")
    rng = random.Random(26)
    with store.transaction() as conn:
        conn.executemany(
            "INSERT INTO papers (id, title, abstract, citekey, added_at, updated_at) "
            "VALUES (?, '', '', ?, ?, ?)",
            [(n, f"k{n}", WHEN, WHEN) for n in range(1, 19_631)],
        )
        for n in range(1, 19_631):
            ratings = [rng.choice((0, 2, 4, 6, 8, 10)) for _ in range(rng.randint(3, 5))]
            stored_signals.write_signals(conn, n, signals_from_replies(
                [Reply(f"r{n}-{i}", "f", "f", "Official_Review", {"rating": value})
                 for i, value in enumerate(ratings)], venue="ICLR", year=2026),
                updated_at=WHEN)
    store.conn.execute("ANALYZE")
    timings = []
    for _ in range(5):
        start = time.perf_counter()
        rows = store.conn.execute(
            "SELECT p.id FROM papers p LEFT JOIN paper_signals s ON s.paper_id = p.id "
            "ORDER BY s.rating_mean DESC NULLS LAST, p.id").fetchall()
        timings.append(time.perf_counter() - start)
    assert len(rows) == 19_630
    assert min(timings) < 0.1, timings
    means = stored_signals.signals_rows(store.conn, [row[0] for row in rows[:600]])
    values = [means[row[0]].rating_mean for row in rows[:600]]
    assert values == sorted(values, reverse=True)
