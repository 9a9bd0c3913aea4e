"""A library is new only when its directory holds nothing of one: a database emptied or gone
beside an index, backups or drafts is damage, told with the way back, never made a new
library (with the sample loaded) over what is left."""

from __future__ import annotations

import shlex
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from reader.cli import cli
from reader.library import DatabaseLost, Library
from tests.conftest import SEEDS


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A library of the sample papers with its index, one paper starred."""
    root = tmp_path_factory.mktemp("pristine") / "lib"
    library = Library(root)
    library.import_files(SEEDS[:1])
    library.set_starred(library.store.all_ids()[0], True)
    library.close()
    return root


@pytest.fixture
def emptied(pristine: Path, tmp_path: Path) -> Path:
    """A copy of the library whose database is 0 bytes, its index still there."""
    root = tmp_path / "lib"
    shutil.copytree(pristine, root)
    for extra in ("-wal", "-shm"):
        (root / f"library.sqlite{extra}").unlink(missing_ok=True)
    (root / "library.sqlite").write_bytes(b"")
    return root


def run(root: Path, *args: str) -> Result:
    return CliRunner().invoke(cli, ["--library", str(root), *args], obj={})


@pytest.mark.parametrize("command", [[], ["stats"], ["search", "graph"], ["star", "1"]])
def test_an_emptied_database_beside_its_index_is_damage(
    emptied: Path, command: list[str]
) -> None:
    result = run(emptied, *command)
    assert result.exit_code == 1, result.output
    message = result.output.strip()
    assert "\n" not in message and "Traceback" not in message
    assert f"{emptied / 'library.sqlite'} is empty (0 bytes)" in message
    assert "index/" in message
    assert "no backup found; nothing was written" in message
    # Nothing was made of it: no schema, no sample.
    assert (emptied / "library.sqlite").stat().st_size == 0


def test_the_doctor_reports_it_and_the_way_back(emptied: Path) -> None:
    assert run(emptied, "backup").exit_code == 1  # a lost database cannot be backed up
    backup_dir = emptied / "backups"
    backup_dir.mkdir()
    source = Library(emptied.parent / "other")
    source.import_files(SEEDS[:1])
    source.upkeep.backup(backup_dir / "library-1.sqlite")
    source.close()
    result = run(emptied, "doctor")
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert lines[0].startswith(f"database: DAMAGED: {emptied / 'library.sqlite'} is empty")
    backup = backup_dir / "library-1.sqlite"
    assert lines[1] == (
        f"restore the newest backup with: reader --library {emptied} restore {backup}"
    )
    assert (emptied / "library.sqlite").stat().st_size == 0
    restored = run(emptied, "restore", str(backup_dir / "library-1.sqlite"), "--yes")
    assert restored.exit_code == 0, restored.output
    assert run(emptied, "stats").output.strip() == "19 papers, 0 starred, 0 with notes"


def test_a_missing_database_beside_its_index_is_damage_too(emptied: Path) -> None:
    (emptied / "library.sqlite").unlink()
    with pytest.raises(DatabaseLost, match="library.sqlite is missing, though its directory"):
        Library(emptied)
    assert not (emptied / "library.sqlite").exists()


def test_a_new_directory_or_a_lone_empty_file_is_a_new_library(tmp_path: Path) -> None:
    Library(tmp_path / "new").close()
    lone = tmp_path / "lone"
    lone.mkdir()
    (lone / "library.sqlite").write_bytes(b"")
    (lone / "index").mkdir()  # an empty index directory holds nothing of a library
    library = Library(lone)
    assert library.store.count() == 0
    library.close()


def test_a_database_behind_its_index_is_named_as_possible_loss(
    pristine: Path, tmp_path: Path
) -> None:
    """Stars the index saw and the database no longer holds (its log lost, an older copy
    put back): the doctor names the possible loss and keeps the index and the log aside
    before it rebuilds, never explaining it away."""
    root = tmp_path / "lib"
    shutil.copytree(pristine, root)
    older = tmp_path / "older.sqlite"
    library = Library(root)
    library.upkeep.backup(older)
    for paper_id in library.store.all_ids()[1:3]:
        library.set_starred(paper_id, True)
    library.close()
    for extra in ("-wal", "-shm"):
        (root / f"library.sqlite{extra}").unlink(missing_ok=True)
    shutil.copy(older, root / "library.sqlite")
    (root / "library.sqlite-wal").write_bytes(b"\x00" * 64)  # what is left of the log
    result = run(root, "doctor")
    assert result.exit_code == 1, result.output
    lines = result.output.strip().splitlines()
    # Whole as a file, but never "ok" above the contradiction below it.
    assert lines[0].startswith("database: intact as a file (")
    assert "search index: AHEAD of the database" in lines[1]
    assert "the database may have lost changes the index saw" in lines[1]
    assert "built from another copy" not in result.output
    (kept,) = (root / "kept").iterdir()
    assert f"kept in {kept}" in lines[1]
    assert (kept / "index").is_dir() and (kept / "library.sqlite-wal").is_file()
    assert lines[2].startswith(f"restore the newest backup with: reader --library {root} restore")


def test_another_tools_sqlite_file_beside_the_library_is_not_offered(emptied: Path) -> None:
    """An SQLite file that is not a reader library (a browser's history, another tool's
    cache) lies in the library's folder's parent: it is not named as a backup to restore."""
    other = emptied.parent / "places.sqlite"
    connection = sqlite3.connect(other)
    connection.execute("CREATE TABLE moz_places (url TEXT)")
    connection.commit()
    connection.close()
    result = run(emptied, "doctor")
    assert result.exit_code == 1
    assert "places.sqlite" not in result.output
    assert "no backup found" in result.output


def test_one_loss_is_kept_aside_once(pristine: Path, tmp_path: Path) -> None:
    """An older copy put in place with no log left: each run that meets the index ahead of
    the database finds the folder kept the first time, rather than keeping another that
    hides it from `reader recover`."""
    root = tmp_path / "lib"
    shutil.copytree(pristine, root)
    older = tmp_path / "older.sqlite"
    library = Library(root)
    library.upkeep.backup(older)
    for paper_id in library.store.all_ids()[1:3]:
        library.set_starred(paper_id, True)
    library.close()
    for extra in ("-wal", "-shm"):
        (root / f"library.sqlite{extra}").unlink(missing_ok=True)
    shutil.copy(older, root / "library.sqlite")
    assert run(root, "doctor").exit_code == 1
    run(root, "stats")
    assert run(root, "doctor").exit_code == 1
    assert len(list((root / "kept").iterdir())) == 1


def test_papers_lost_whole_wait_until_imported_again(pristine: Path, tmp_path: Path) -> None:
    """An older copy put in place loses a whole import: after the doctor's first report and
    rebuild, the next run still names the papers waiting in the kept folder, never "ok"."""
    root = tmp_path / "lib"
    shutil.copytree(pristine, root)
    older = tmp_path / "older.sqlite"
    library = Library(root)
    library.upkeep.backup(older)
    library.import_files(SEEDS[1:2])
    library.close()
    for extra in ("-wal", "-shm"):
        (root / f"library.sqlite{extra}").unlink(missing_ok=True)
    shutil.copy(older, root / "library.sqlite")
    assert run(root, "doctor").exit_code == 1
    again = run(root, "doctor")
    assert again.exit_code == 1, again.output
    assert "papers no longer in the database" in again.output
    assert f"reader --library {root} recover --dismiss" in again.output
    assert run(root, "recover", "--dismiss").exit_code == 0
    assert run(root, "doctor").exit_code == 0


def test_the_window_opened_bare_says_it_as_the_command_does(emptied: Path) -> None:
    # `reader --library DIR` opens the window without the command line's parser
    # (reader.entry): the same one line, the same exit status, nothing written.
    done = subprocess.run([sys.executable, "-m", "reader", "--library", str(emptied)],
                          capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=60)
    assert done.returncode == 1, done.stderr
    assert done.stderr.strip() == run(emptied).output.strip()
    assert done.stdout == ""
    assert (emptied / "library.sqlite").stat().st_size == 0


def test_the_advice_names_the_library_only_when_it_is_not_the_default(
    emptied: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    backups = emptied / "backups"
    backups.mkdir()
    source = Library(emptied.parent / "other")
    source.import_files(SEEDS[:1])
    source.upkeep.backup(backups / "library 1.sqlite")
    source.close()
    quoted = shlex.quote(str(backups / "library 1.sqlite"))
    assert f"reader --library {emptied} restore {quoted}" in run(emptied, "stats").output
    monkeypatch.setenv("READER_HOME", str(emptied))
    done = CliRunner().invoke(cli, ["stats"], obj={})
    assert f"restore the newest backup with: reader restore {quoted}" in done.output
