"""The database: migrations, transactions, generations."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from reader.intake.merge import import_records
from reader.models import PaperRecord
from reader.store.database import PaperNotFound, Store, StoreDamaged, StoreError, migrations


def test_new_database_is_at_the_latest_schema(tmp_path: Path) -> None:
    store = Store(tmp_path / "lib.sqlite")
    assert store.schema_version == migrations()[-1][0]
    assert store.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store.conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    tables = set(store.db.table_names())
    assert {"papers", "notes", "imports", "meta"} <= tables


def test_migrations_run_once(tmp_path: Path) -> None:
    Store(tmp_path / "lib.sqlite").close()
    again = Store(tmp_path / "lib.sqlite")
    assert again.migrate() == []


def test_database_from_a_newer_reader_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "lib.sqlite"
    Store(path).close()
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 999")
    conn.close()
    with pytest.raises(StoreError, match="newer reader"):
        Store(path)


def test_a_file_that_is_not_a_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "lib.sqlite"
    path.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(StoreDamaged):
        Store(path)


def test_an_import_is_one_transaction(tmp_path: Path) -> None:
    store = Store(tmp_path / "lib.sqlite")

    def records():
        yield PaperRecord(abstract="First abstract.", title="First")
        yield PaperRecord(abstract="Second abstract.", title="Second")
        raise RuntimeError("the disk fell off")

    with pytest.raises(RuntimeError):
        import_records(store, records(), "x.txt", "seed")
    assert store.count() == 0
    assert store.db["imports"].count == 0


def test_writes_advance_the_generation(tmp_path: Path) -> None:
    store = Store(tmp_path / "lib.sqlite")
    start = store.generation()
    import_records(store, [PaperRecord(abstract="An abstract.", title="T")], "x", "seed")
    (paper,) = store.iter_papers()
    store.marks.set_starred(paper.id, True)
    store.edits.save_note(paper.id, "my note")
    assert store.generation() == start + 3
    changed, deleted, generation = store.changes_since(start + 1)
    assert [p.id for p in changed] == [paper.id] and deleted == []
    assert generation == start + 3
    assert store.paper(paper.id).note == "my note"  # type: ignore[union-attr]


def test_every_id_in_order_with_and_without_gaps(tmp_path: Path) -> None:
    store = Store(tmp_path / "lib.sqlite")
    assert store.all_ids() == []
    import_records(store, [PaperRecord(abstract=f"Abstract {n}.", title=f"T{n}")
                           for n in range(6)], "x", "seed")
    every = [row[0] for row in store.conn.execute("SELECT id FROM papers ORDER BY id")]
    assert store.all_ids() == every and len(every) == 6
    # Papers an undone import took away leave gaps (and the first may be one of them).
    store.conn.execute("DELETE FROM papers WHERE id IN (?, ?)", (every[0], every[3]))
    assert store.all_ids() == [every[1], every[2], every[4], every[5]]


def test_star_of_a_missing_paper_is_an_error(tmp_path: Path) -> None:
    store = Store(tmp_path / "lib.sqlite")
    with pytest.raises(PaperNotFound):
        store.marks.set_starred(12345, True)


def test_the_first_view_sums_signals_from_an_index_alone(tmp_path: Path) -> None:
    # Decisions, scales and mean ratings grouped as the first view sums them
    # (reader/library/signals.py): read in order from one index, never a row of the table
    # (at 200,000 papers 110 ms against 24, the window's first frame waiting).
    store = Store(tmp_path / "lib.sqlite")
    plan = " ".join(str(step) for step in store.conn.execute(
        "EXPLAIN QUERY PLAN SELECT decision, scale, rating_mean, NULL, NULL, count(*),"
        " min(paper_id) AS first FROM paper_signals GROUP BY 1, 2, 3 ORDER BY first"
    ).fetchall())
    assert "COVERING INDEX paper_signals_summary" in plan
    assert "TEMP B-TREE FOR GROUP BY" not in plan


def test_a_library_made_before_the_index_of_sums_is_given_it(tmp_path: Path) -> None:
    path = tmp_path / "lib.sqlite"
    Store(path).close()
    conn = sqlite3.connect(path)
    conn.execute("DROP INDEX paper_signals_summary")
    conn.execute("CREATE INDEX paper_signals_decision ON paper_signals (decision)")
    conn.execute("PRAGMA user_version = 13")
    conn.close()
    store = Store(path)
    indexes = {row[0] for row in store.conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'paper_signals'")}
    assert "paper_signals_summary" in indexes
    assert "paper_signals_decision" not in indexes
