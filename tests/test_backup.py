"""Backups, restores, automatic backups before migrations, and the doctor."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from reader.cli import cli
from reader.library import Library
from reader.store.backup import BackupError
from reader.store.database import Store
from tests.conftest import paper_id_with


def test_backup_and_restore_bring_back_notes(library: Library, tmp_path: Path) -> None:
    gdpval = paper_id_with(library, "We introduce GDPval")
    library.save_note(gdpval, "before the accident")
    saved = library.upkeep.backup(tmp_path / "b.sqlite")
    library.save_note(gdpval, "")
    library.set_starred(gdpval, True)
    before = library.upkeep.restore(saved)
    assert before is not None and before.exists()  # the replaced library is kept
    paper = library.store.paper(gdpval)
    assert paper is not None and paper.note == "before the accident" and not paper.starred
    assert library.search("accident").ids == [gdpval]  # the index follows the restore


def test_restore_refuses_what_is_not_a_library(library: Library, tmp_path: Path) -> None:
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"not a database at all" * 50)
    with pytest.raises(BackupError):
        library.upkeep.restore(junk)
    other = tmp_path / "other.sqlite"
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.close()
    with pytest.raises(BackupError, match="not a reader library"):
        library.upkeep.restore(other)
    assert library.store.count() == 38


def test_a_migration_is_preceded_by_a_backup(tmp_path: Path) -> None:
    path = tmp_path / "lib" / "library.sqlite"
    path.parent.mkdir()
    # A library written before migration 0002: built from 0001 alone.
    conn = sqlite3.connect(path)
    sql = (Path(__file__).parents[1] / "db/migrations/0001_initial.sql").read_text()
    conn.executescript(sql + "\nPRAGMA user_version = 1;")
    conn.close()
    store = Store(path)
    assert store.schema_version >= 2
    store.close()
    backups = list((path.parent / "backups").glob("pre-migration-*.sqlite"))
    assert len(backups) == 1
    assert sqlite3.connect(backups[0]).execute("PRAGMA user_version").fetchone()[0] == 1


def test_doctor_rebuilds_a_broken_index(library: Library) -> None:
    assert library.upkeep.doctor()[-1].startswith("search index: ok (38 documents")
    library.index.close()
    shutil.rmtree(library.paths.index)
    library.paths.index.mkdir()
    (library.paths.index / "_MAIN_1.toc").write_bytes(b"garbage")
    report = library.upkeep.doctor()
    assert report[0].startswith("database: ok")
    assert "rebuilt from the database (38 documents)" in report[-1]
    assert library.search("gdpval").ids


def test_cli_backup_restore_doctor(tmp_path: Path) -> None:
    from tests.conftest import SEEDS

    runner = CliRunner()
    lib = str(tmp_path / "lib")

    def run(*args: str, input: str | None = None):
        return runner.invoke(cli, ["--library", lib, *args], obj={}, input=input)

    run("import", *map(str, SEEDS))
    out = tmp_path / "copy.sqlite"
    assert "Backed up to" in run("backup", str(out)).output
    refused = run("restore", str(out), input="n\n")
    assert refused.exit_code != 0 and "nothing restored" in refused.output
    assert "Restored" in run("restore", str(out), "--yes").output
    assert "database: ok" in run("doctor").output


def _made_by_an_older_reader(root: Path) -> None:
    """A library as the reader before migration 0014 left it (schema 13)."""
    Library(root).close()
    conn = sqlite3.connect(root / "library.sqlite")
    conn.execute("DROP INDEX paper_signals_summary")
    conn.execute("CREATE INDEX paper_signals_decision ON paper_signals (decision)")
    conn.execute("PRAGMA user_version = 13")
    conn.close()


def test_an_upgrade_says_so_and_where_the_copy_of_the_library_is(tmp_path: Path) -> None:
    """A newer reader's first run on a library upgrades it, after a copy: said once, with
    the copy's place and a word for a window of the older reader still open on it."""
    root = tmp_path / "lib"
    _made_by_an_older_reader(root)
    result = CliRunner().invoke(cli, ["--library", str(root), "stats"], obj={})
    assert result.exit_code == 0, result.output
    (backup,) = (root / "backups").glob("pre-migration-*.sqlite")
    assert (f"Note: the library in {root} was upgraded for this reader (schema 13 → 14); "
            f"the database as it was is kept in {backup}. Close any window an older reader "
            "has open on it") in result.output
    again = CliRunner().invoke(cli, ["--library", str(root), "stats"], obj={})
    assert "upgraded" not in again.output


async def test_the_window_says_it_upgraded_the_library(tmp_path: Path) -> None:
    from reader.ui.app import ReaderApp

    root = tmp_path / "lib"
    _made_by_an_older_reader(root)
    library = Library(root)
    app = ReaderApp(library, load_sample=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()  # said over the first frame, once it is drawn
        messages = [n.message for n in app._notifications]
    library.close()
    assert any(m.startswith(f"The library in {root} was upgraded for this reader (schema 13 → "
                            "14)") for m in messages), messages
