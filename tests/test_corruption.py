"""Damaged libraries: each kind of damage is found at start and said in one line.

The index is derived, so a damaged one is rebuilt without asking. The database is the user's
work: a damaged one is reported with the way back (a backup) and never written to, let alone
"repaired" by dropping what SQLite cannot read.
"""

from __future__ import annotations

import hashlib
import os
import random
import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from reader.cli import cli
from reader.entry import _window
from reader.library import Library
from reader.store import walk
from reader.store.walk import EarlyCheck
from tests.conftest import SEEDS


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A library of the 38 sample papers, one starred and one annotated, to copy and damage."""
    root = tmp_path_factory.mktemp("pristine") / "lib"
    library = Library(root)
    library.import_files(SEEDS)
    first, second = library.store.all_ids()[:2]
    library.set_starred(first, True)
    library.save_note(second, "remember the ablation")
    library.close()
    return root


@pytest.fixture
def lib(pristine: Path, tmp_path: Path) -> Path:
    """A fresh copy of the pristine library."""
    root = tmp_path / "lib"
    shutil.copytree(pristine, root)
    return root


def run(root: Path, *args: str) -> Result:
    """The real command, in this process."""
    return CliRunner().invoke(cli, ["--library", str(root), *args], obj={})


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def one_line_error(result: Result) -> str:
    """The command failed with status 1 and one line, not a traceback."""
    assert result.exit_code == 1, (result.exit_code, result.output, result.exception)
    assert result.exception is None or isinstance(result.exception, SystemExit)
    message = result.output.strip()
    assert message.startswith("Error: ") and "\n" not in message, message
    assert "Traceback" not in message
    return message


# -- the index ----------------------------------------------------------------------------


def _segments(root: Path) -> list[Path]:
    return sorted((root / "index").glob("*.seg"))


def _delete_segment(root: Path) -> None:
    _segments(root)[0].unlink()


def _truncate_segment(root: Path) -> None:
    seg = _segments(root)[0]
    seg.write_bytes(seg.read_bytes()[: seg.stat().st_size // 2])


def _garbage_files(root: Path) -> None:
    rng = random.Random(7)
    index = root / "index"
    (index / "_MAIN_999.toc").write_bytes(rng.randbytes(300))
    (index / "MAIN_garbage.seg").write_bytes(rng.randbytes(5000))
    (index / "notes.txt").write_text("left here by someone")


def _garbage_toc(root: Path) -> None:
    tocs = list((root / "index").glob("*.toc"))
    assert tocs  # else there would be no damage to find
    for toc in tocs:
        toc.write_bytes(random.Random(3).randbytes(200))


def _garbage_generation(root: Path) -> None:
    (root / "index" / "reader-generation.json").write_text("{not json")


def _index_from_another_copy(root: Path) -> None:
    # An index built from a newer copy of the database: it is ahead, and holds a paper
    # this database doesn't have.
    (root / "index" / "reader-generation.json").write_text('{"version": 2, "generation": 999}')


INDEX_DAMAGE: dict[str, Callable[[Path], None]] = {
    "segment deleted": _delete_segment,
    "segment truncated": _truncate_segment,
    "garbage files": _garbage_files,
    "garbage table of contents": _garbage_toc,
    "garbage generation file": _garbage_generation,
    "index from another copy": _index_from_another_copy,
    "index directory removed": lambda root: shutil.rmtree(root / "index"),
    "index directory is a file": lambda root: (
        shutil.rmtree(root / "index"),
        (root / "index").write_bytes(b"\x00" * 10),
    ),
}


@pytest.mark.parametrize("damage", sorted(INDEX_DAMAGE))
def test_damaged_index_is_rebuilt_at_start(lib: Path, damage: str) -> None:
    before = digest(lib / "library.sqlite")
    rows = _rows(lib)
    INDEX_DAMAGE[damage](lib)
    if damage == "index directory is a file":
        # Not something reader can rebuild in place: one clear line, nothing touched.
        message = one_line_error(run(lib, "search", "graph"))
        assert "index" in message
        assert digest(lib / "library.sqlite") == before
        return
    library = Library(lib)
    try:
        assert library.index_state() in ("missing", "ok")
        library.sync_index()
        assert library.index_state() == "ok"
        assert library.index.ids() == set(library.store.all_ids())
        assert library.search("graph").ids
        starred, annotated = library.store.all_ids()[:2]
        # The star and the note are indexed again too (the fixture's two marks).
        assert library.search("ablation").ids == [annotated]
        assert library.search("is:starred").ids == [starred]
    finally:
        library.close()
    # The database holds what it held, row for row (a checkpoint may rewrite its bytes).
    assert _rows(lib) == rows


def _rows(root: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every table of the library's database, read without writing."""
    conn = sqlite3.connect(f"file:{root / 'library.sqlite'}?mode=ro", uri=True)
    try:
        tables = [name for (name,) in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
        )]
        return {
            table: sorted(conn.execute(f'SELECT * FROM "{table}"'), key=repr)
            for table in tables
        }
    finally:
        conn.close()


@pytest.mark.parametrize("damage", ["segment deleted", "segment truncated", "garbage files"])
def test_doctor_says_what_it_did_about_the_index(lib: Path, damage: str) -> None:
    INDEX_DAMAGE[damage](lib)
    result = run(lib, "doctor")
    assert result.exit_code == 0, result.output
    lines = result.output.strip().splitlines()
    assert lines[0].startswith("database: ok (schema")
    assert "38 papers, 1 starred, 1 with notes" in lines[0]
    # Garbage files may be ignored, or taken for the newest table of contents and rebuilt.
    assert lines[-1].startswith("search index: ok (38 documents") or (
        "rebuilt from the database (38 documents)" in lines[-1]
    )
    if damage != "garbage files":
        assert "rebuilt" in lines[-1]
    assert run(lib, "doctor").output.strip().splitlines()[-1].startswith("search index: ok")


def test_doctor_finds_an_index_that_disagrees_with_the_database(lib: Path) -> None:
    # A paper deleted behind the index's back (by another tool): same generation, but the
    # index still holds it.
    conn = sqlite3.connect(lib / "library.sqlite")
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute("DELETE FROM papers WHERE id = (SELECT max(id) FROM papers)")
    conn.commit()
    conn.close()
    lines = run(lib, "doctor").output.strip().splitlines()
    [said] = [line for line in lines if line.startswith("search index:")]
    assert "1 documents of papers no longer in the database, 0 papers missing" in said
    assert "rebuilt from the database (37 documents)" in said
    # What the index held of it is kept, and named, until imported again or let go.
    assert lines[-1].startswith("  papers no longer in the database: 1 (")


def test_doctor_reports_orphans_and_deletes_nothing(lib: Path) -> None:
    conn = sqlite3.connect(lib / "library.sqlite")  # foreign keys off, as another tool might
    conn.execute("INSERT INTO notes (paper_id, body, updated_at) VALUES (99999, 'lost', 'now')")
    conn.commit()
    conn.close()
    result = run(lib, "doctor")
    assert result.exit_code == 1
    assert "foreign keys: 1 rows of notes point at missing rows" in result.output
    conn = sqlite3.connect(lib / "library.sqlite")
    assert conn.execute("SELECT body FROM notes WHERE paper_id = 99999").fetchone() == ("lost",)
    conn.close()


# -- the database -------------------------------------------------------------------------


def _truncate_db(root: Path) -> None:
    db = root / "library.sqlite"
    db.write_bytes(db.read_bytes()[: db.stat().st_size // 3])


def _garbage_db(root: Path) -> None:
    db = root / "library.sqlite"
    db.write_bytes(random.Random(1).randbytes(db.stat().st_size))


def _corrupt_pages(root: Path) -> None:
    # The schema stays intact, so the file opens; the pages holding abstracts are garbage.
    db = root / "library.sqlite"
    data = bytearray(db.read_bytes())
    rng = random.Random(2)
    for page in {data.find(word) // 4096 for word in (b"faithfulness", b"transport")}:
        data[page * 4096 + 8 : page * 4096 + 4000] = rng.randbytes(3992)
    db.write_bytes(bytes(data))


def _newer_schema(root: Path) -> None:
    conn = sqlite3.connect(root / "library.sqlite")
    conn.execute("PRAGMA user_version = 99")
    conn.commit()
    conn.close()


def _version_set_back(version: int) -> Callable[[Path], None]:
    def hurt(root: Path) -> None:
        conn = sqlite3.connect(root / "library.sqlite")
        conn.execute(f"PRAGMA user_version = {version}")
        conn.commit()
        conn.close()
    return hurt


DB_DAMAGE: dict[str, tuple[Callable[[Path], None], str]] = {
    "truncated": (_truncate_db, "malformed"),
    "garbage": (_garbage_db, "not a database"),
    "corrupt pages": (_corrupt_pages, "damaged"),
    "newer version": (_newer_schema, "written by a newer reader (schema 99"),
    # Set back outside reader: it tried to make the tables again ("table papers already
    # exists"), and at -1 backed the library up again on every start.
    "version 0": (_version_set_back(0), "records schema version 0"),
    "version -1": (_version_set_back(-1), "records schema version -1"),
}


@pytest.mark.parametrize("damage", sorted(DB_DAMAGE))
@pytest.mark.parametrize("command", [[], ["stats"], ["search", "graph"], ["star", "1"],
                                     ["doctor"]])
def test_damaged_database_is_one_line_and_left_alone(
    lib: Path, damage: str, command: list[str]
) -> None:
    hurt, expected = DB_DAMAGE[damage]
    hurt(lib)
    before = digest(lib / "library.sqlite")
    result = run(lib, *command)
    if damage == "corrupt pages" and command[:1] in (["search"], ["star"]):
        # Damage is found where it is read: a command that reads only sound pages may work.
        # If it fails, it fails without a traceback.
        assert result.exit_code in (0, 1) and "Traceback" not in result.output
        assert result.exception is None or isinstance(result.exception, SystemExit)
    elif command == ["doctor"] and damage == "corrupt pages":
        # The doctor opens it, checks it and says what it found, a line a finding.
        assert result.exit_code == 1
        assert result.output.startswith("database: DAMAGED: ")
        assert "no backup found" in result.output
    else:
        # No subcommand is the reader itself: it must stop before the app starts.
        message = one_line_error(result)
        assert expected in message
        if damage != "newer version":
            assert "backup" in message
    assert digest(lib / "library.sqlite") == before
    assert not list(lib.glob("library.sqlite.*recover*"))


def test_damaged_database_names_the_newest_backup_and_restore_sets_it_aside(
    lib: Path, tmp_path: Path
) -> None:
    assert run(lib, "backup").exit_code == 0
    backup = next((lib / "backups").glob("library-*.sqlite"))
    _truncate_db(lib)
    damaged = digest(lib / "library.sqlite")
    message = one_line_error(run(lib, "stats"))
    # The command as printed acts on this library, not on the default one.
    assert f"reader --library {lib} restore {backup}" in message
    refused = CliRunner().invoke(cli, ["--library", str(lib), "restore", str(backup)], obj={},
                                 input="n\n")
    assert refused.exit_code == 1 and "damaged library" in refused.output
    restored = run(lib, "restore", str(backup), "--yes")
    assert restored.exit_code == 0, restored.output
    assert "damaged database is kept, untouched" in restored.output
    aside = next((lib / "backups").glob("damaged-*.sqlite"))
    assert digest(aside) == damaged  # kept byte for byte
    assert run(lib, "stats").output.strip() == "38 papers, 1 starred, 1 with notes"
    assert run(lib, "search", "ablation").exit_code == 0


def test_damaged_database_names_a_backup_made_beside_the_library(lib: Path) -> None:
    beside = lib.parent / "my-library-backup.sqlite"
    assert run(lib, "backup", str(beside)).exit_code == 0
    _truncate_db(lib)
    message = one_line_error(run(lib, "stats"))
    assert f"reader --library {lib} restore {beside}" in message


def test_damaged_database_is_never_offered_another_librarys_backup_beside_it(
    lib: Path, pristine: Path
) -> None:
    other = lib.parent / "other"
    shutil.copytree(pristine, other)
    assert run(lib, "backup", str(lib.parent / "lib-before.sqlite")).exit_code == 0
    assert run(other, "backup", str(lib.parent / "other-before.sqlite")).exit_code == 0
    _truncate_db(lib)  # the other library's backup is the newer one
    message = one_line_error(run(lib, "stats"))
    assert "lib-before.sqlite" in message and "other-before" not in message


def test_a_damaged_copy_is_neither_made_nor_offered(lib: Path) -> None:
    assert run(lib, "backup").exit_code == 0
    sound = next((lib / "backups").glob("library-*.sqlite"))
    beside = lib.parent / "lib-later.sqlite"
    assert run(lib, "backup", str(beside)).exit_code == 0
    _corrupt_pages(lib)
    # Backing up a damaged library is refused: its copy would be offered later.
    refused = run(lib, "backup")
    assert refused.exit_code == 1 and "not backed up" in refused.output
    assert list((lib / "backups").glob("library-*.sqlite")) == [sound]
    # A damaged copy (the newest) is passed over for the sound one.
    shutil.copy(lib / "library.sqlite", beside)
    message = one_line_error(run(lib, "stats"))
    assert str(sound) in message and "lib-later" not in message


def test_another_librarys_own_database_above_is_not_offered(
    pristine: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    outer = tmp_path / "outer"
    shutil.copytree(pristine, outer)
    inner = outer / "inner"
    shutil.copytree(pristine, inner)
    _truncate_db(inner)
    assert "no backup found" in one_line_error(run(inner, "stats"))
    # Named as `.`, the library still looks beside itself (a plain copy names no origin).
    shutil.copy(pristine / "library.sqlite", outer / "inner-before.sqlite")
    monkeypatch.chdir(inner)
    assert "inner-before.sqlite" in one_line_error(run(Path("."), "stats"))


def test_newer_database_is_not_migrated_or_backed_up(lib: Path) -> None:
    _newer_schema(lib)
    one_line_error(run(lib))
    assert not (lib / "backups").exists()
    conn = sqlite3.connect(lib / "library.sqlite")
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 99
    conn.close()


def test_a_database_that_is_a_directory_or_unreadable(lib: Path) -> None:
    db = lib / "library.sqlite"
    for extra in ("-wal", "-shm"):
        Path(str(db) + extra).unlink(missing_ok=True)
    db.unlink()
    db.mkdir()
    message = one_line_error(run(lib, "stats"))
    assert "library.sqlite" in message
    db.rmdir()
    if os.geteuid() == 0:
        return  # root reads any file: no unreadable case to show
    db.write_bytes(b"")
    db.chmod(0)
    try:
        one_line_error(run(lib, "stats"))
    finally:
        db.chmod(0o644)


@pytest.mark.parametrize("damage", sorted(DB_DAMAGE))
def test_the_window_begun_from_the_entry_point_says_damage_in_one_line(
    lib: Path, damage: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # `reader` begins its check of every page before the interface is imported; damage
    # it meets is said as the library's own check says it, and nothing is written.
    hurt, expected = DB_DAMAGE[damage]
    hurt(lib)
    before = digest(lib / "library.sqlite")
    assert _window(lib) == 1
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and expected in lines[0]
    assert digest(lib / "library.sqlite") == before


def test_the_walk_counts_as_the_library_does_and_the_early_check_finds_it_sound(
    lib: Path, tmp_path: Path
) -> None:
    library = Library(lib)
    try:
        conn = sqlite3.connect(lib / "library.sqlite")
        assert walk.walk(conn) == library.queries.stats() == {
            "papers": 38, "starred": 1, "with_notes": 1}
        conn.close()
    finally:
        library.close()
    assert EarlyCheck(lib / "library.sqlite").sound()
    # No database yet: nothing checked, and nothing made.
    missing = tmp_path / "new" / "library.sqlite"
    assert not EarlyCheck(missing).sound()
    assert not missing.parent.exists()


def _no_check(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any check from here on finds damage: a start that is still sound was spared it."""
    monkeypatch.setattr(walk, "check", lambda conn: "refused")


def test_a_file_as_a_check_found_it_is_not_checked_again(
    lib: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    database = lib / "library.sqlite"
    assert EarlyCheck(database).sound()
    _no_check(monkeypatch)
    assert EarlyCheck(database).sound()  # spared: the file is as the check found it
    library = Library(lib)
    try:
        library.upkeep.check_pages()
        library.set_starred(library.store.all_ids()[5], True)  # a write: checked again
        assert not EarlyCheck(database).sound()
        with pytest.raises(Exception, match="refused"):
            library.upkeep.check_pages()
    finally:
        library.close()


def test_the_window_closing_carries_the_verdict_to_the_file_it_left(
    lib: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    database = lib / "library.sqlite"
    library = Library(lib)
    library.upkeep.check_pages()
    library.set_starred(library.store.all_ids()[5], True)  # the window's own writes
    library.close()
    library.upkeep.window_closed()
    _no_check(monkeypatch)
    assert EarlyCheck(database).sound()


def test_damage_written_while_the_window_was_open_is_found_as_it_closes(
    lib: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    database = lib / "library.sqlite"
    library = Library(lib)
    library.upkeep.check_pages()
    _corrupt_pages(lib)  # another program writing the file in place, times set back or not
    library.close()
    library.upkeep.window_closed()
    assert walk.checked_as(database) is None
    assert _window(lib) == 1
    assert "damaged" in capsys.readouterr().err


def test_damage_outside_the_papers_is_found_at_start(
    lib: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A page of an index garbled: no paper's row is touched, and a walk through the
    # papers read none of it; the check reads every page of every table and index.
    conn = sqlite3.connect(lib / "library.sqlite")
    page = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'papers_generation'"
                        ).fetchone()[0]
    conn.close()
    data = bytearray((lib / "library.sqlite").read_bytes())
    data[(page - 1) * 4096 + 8:(page - 1) * 4096 + 4000] = random.Random(3).randbytes(3992)
    (lib / "library.sqlite").write_bytes(bytes(data))
    assert _window(lib) == 1
    assert "damaged" in capsys.readouterr().err


@pytest.mark.parametrize("damage", ["corrupt pages", "truncated", "garbage"])
def test_damage_after_a_sound_check_is_still_found_at_start(
    lib: Path, damage: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert EarlyCheck(lib / "library.sqlite").sound()
    hurt, expected = DB_DAMAGE[damage]
    hurt(lib)
    assert _window(lib) == 1
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and expected in lines[0]


def test_a_restore_drops_the_verdict(lib: Path) -> None:
    database = lib / "library.sqlite"
    assert run(lib, "backup").exit_code == 0
    backup = next((lib / "backups").glob("library-*.sqlite"))
    assert EarlyCheck(database).sound() and walk.checked_as(database)
    assert run(lib, "restore", str(backup), "--yes").exit_code == 0
    assert walk.checked_as(database) is None


def test_the_doctor_finding_damage_drops_the_verdict(lib: Path) -> None:
    database = lib / "library.sqlite"
    assert EarlyCheck(database).sound() and walk.checked_as(database)
    _corrupt_pages(lib)
    assert run(lib, "doctor").exit_code == 1
    assert walk.checked_as(database) is None
