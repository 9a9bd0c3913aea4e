"""What a garbled write-ahead log lost is offered back: the doctor keeps the log, the
database file and the index aside, names what they hold that the database lacks, and
`reader recover --apply` brings it back, never over what the library holds now."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from reader.cli import cli
from reader.library import Library
from tests.conftest import SEEDS

PAGE = 4096
FRAME = 24 + PAGE


def marked_copy(tmp_path: Path) -> tuple[Path, list[int]]:
    """The issue's case: marks made in an open window (their pages still in its log), the
    library copied meanwhile, and 64 bytes of the copy's log overwritten early in it, so
    that SQLite drops every change after them. The copy, and the papers marked."""
    root = tmp_path / "lib"
    library = Library(root)
    library.import_files(SEEDS)
    library.imports.checkpoint()
    ids = library.store.all_ids()
    for paper in ids[:3]:
        library.set_starred(paper, True)
        library.sync_index()
    library.marks.set_read(ids[5], True)
    library.set_tags(ids[6], ["to-read", "graph nets"])
    library.save_note(ids[7], "my precious note")
    library.sync_index()
    copy = tmp_path / "copy"
    shutil.copytree(root, copy)
    library.close()
    log = copy / "library.sqlite-wal"
    data = bytearray(log.read_bytes())
    at = 32 + FRAME * 3 + 100  # inside the fourth frame's page
    data[at:at + 64] = b"\xff" * 64
    log.write_bytes(bytes(data))
    return copy, ids


def run(root: Path, *args: str) -> tuple[int, str]:
    """Run a `reader` command on the library at ``root``: its exit status and output."""
    result = CliRunner().invoke(cli, ["--library", str(root), *args], obj={})
    return result.exit_code, result.output


def test_what_a_garbled_log_lost_is_named_and_brought_back(tmp_path: Path) -> None:
    root, ids = marked_copy(tmp_path)
    code, output = run(root, "doctor")
    assert code == 1, output
    assert "AHEAD of the database" in output
    # Whole as a file, yet behind its index: never called ok above the contradiction.
    assert "database: ok" not in output
    assert "database: intact as a file (" in output and "may have lost changes" in output
    # Lost: SQLite stopped at the garbled frame.
    library = Library(root)
    try:
        assert not any(p.starred for p in library.store.iter_papers())
    finally:
        library.close()
    # Named, kind by kind, with titles.
    assert "recoverable from before-rebuild-" in output
    assert "stars: 3" in output
    assert "read marks: 1" in output
    assert "tags: 2 on 1 papers" in output and "graph-nets, to-read" in output
    assert "notes: 1" in output
    (kept,) = (root / "kept").iterdir()
    assert (kept / "library.sqlite").is_file()

    code, listed = run(root, "recover")
    assert code == 0, listed
    assert "intact pages applied to the kept database" in listed
    assert "the result is whole" in listed
    assert "stars: 3" in listed and f"`reader --library {root} recover --apply`" in listed

    # Only what is chosen comes back.
    code, applied = run(root, "recover", "--apply", "--only", "stars")
    assert code == 0, applied
    assert "stars brought back: 3" in applied and "notes brought back" not in applied
    code, applied = run(root, "recover", "--apply")
    assert code == 0, applied
    assert "read marks brought back: 1" in applied
    assert "tags brought back: 2 on 1 papers" in applied
    assert "notes brought back: 1" in applied
    library = Library(root)
    try:
        papers = {p.id: p for p in library.store.iter_papers()}
        assert {p for p in papers if papers[p].starred} == set(ids[:3])
        assert library.note(ids[7]).text == "my precious note"
        assert sorted(papers[ids[6]].tags) == ["graph-nets", "to-read"]
        assert library.search("precious").ids == [ids[7]]
    finally:
        library.close()
    code, again = run(root, "recover")
    assert "nothing the database lacks was found" in again
    code, doctor = run(root, "doctor")
    assert code == 0 and "search index: ok" in doctor, doctor


def test_a_note_written_since_is_never_written_over(tmp_path: Path) -> None:
    """A paper given another note after the loss keeps it: the kept one is named only."""
    root, ids = marked_copy(tmp_path)
    run(root, "doctor")
    library = Library(root)
    try:
        library.save_note(ids[7], "written after the loss")
        found = library.recovery.recoverable()
        assert found is not None
        assert ids[7] in found.other_notes and ids[7] not in found.notes
        assert any("notes whose paper holds another now" in line for line in found.lines())
        library.recovery.recover(found)
        assert library.note(ids[7]).text == "written after the loss"
    finally:
        library.close()


def test_a_command_run_first_keeps_the_log_and_says_so(tmp_path: Path) -> None:
    """`reader stats` (or any command, or the reader) run before the doctor finds the index
    ahead as the library opens, says so before its own output, and keeps the log aside
    before its connection closing checkpoints it away: the note's text comes back."""
    root, ids = marked_copy(tmp_path)
    done = subprocess.run(
        [sys.executable, "-m", "reader", "--library", str(root), "stats"],
        capture_output=True, text=True, check=True, cwd=Path(__file__).parent.parent,
    )
    assert "0 starred" in done.stdout
    assert done.stderr.startswith("Warning: the search index holds changes the database "
                                  "does not (generation ")
    assert f"`reader --library {root} recover` lists what they hold" in done.stderr
    code, output = run(root, "search", "precious")
    assert "No papers match" in output
    assert len(list((root / "kept").iterdir())) == 1  # the same evidence, kept once
    # The doctor, run after the index was rebuilt over the evidence, never says "ok".
    code, doctor = run(root, "doctor")
    assert code == 1 and "database: ok" not in doctor, doctor
    assert doctor.startswith("database: intact as a file (")
    assert "but it may have lost changes" in doctor.splitlines()[0]
    code, applied = run(root, "recover", "--apply")
    assert "notes brought back: 1" in applied and "stars brought back: 3" in applied
    library = Library(root)
    try:
        assert library.note(ids[7]).text == "my precious note"
    finally:
        library.close()


def test_with_the_log_gone_the_index_gives_back_the_stars(tmp_path: Path) -> None:
    """Opened once by another program before the doctor ran, the library lost its log (the
    valid part copied in, the rest dropped): the kept index still records the stars, and
    which papers had a note, whose text it cannot give back; read marks it never knew."""
    root, ids = marked_copy(tmp_path)
    other = sqlite3.connect(root / "library.sqlite")
    assert other.execute("SELECT count(*) FROM papers WHERE starred = 1").fetchone() == (0,)
    other.close()
    assert not (root / "library.sqlite-wal").exists()
    code, output = run(root, "doctor")
    assert code == 1
    assert "stars: 3" in output
    assert "not recoverable: the text of the notes of 1 paper the index records" in output
    assert "read marks" not in output
    code, listed = run(root, "recover")
    assert "write-ahead log: none was kept with changes in it" in listed
    code, applied = run(root, "recover", "--apply")
    assert "stars brought back: 3" in applied
    library = Library(root)
    try:
        assert {p.id for p in library.store.iter_papers() if p.starred} == set(ids[:3])
    finally:
        library.close()


async def test_the_reader_opened_first_says_so_and_keeps_the_log(tmp_path: Path) -> None:
    from reader.ui.app import ReaderApp
    from tests.test_app import SIZE, settle

    root, ids = marked_copy(tmp_path)
    library = Library(root)
    app = ReaderApp(library, load_sample=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        (said,) = [n for n in app._notifications if n.title == "possible loss"]
        assert said.severity == "error"
        assert said.message.startswith("Possible loss: the search index holds changes")
    library.close()
    (kept,) = (root / "kept").iterdir()
    assert (kept / "library.sqlite-wal").stat().st_size > 0
    code, applied = run(root, "recover", "--apply")
    assert "notes brought back: 1" in applied


def test_the_doctor_run_again_still_names_what_waits(tmp_path: Path) -> None:
    """The rebuild is done, the loss is not: a second doctor does not say "ok" while the
    kept folder holds what the database lacks, until it is brought back or let go."""
    root, _ = marked_copy(tmp_path)
    code, first = run(root, "doctor")
    assert code == 1, first
    code, again = run(root, "doctor")
    assert code == 1, again
    assert "search index: ok" in again and "stars: 3" in again
    assert f"`reader --library {root} recover --dismiss`" in again
    code, let_go = run(root, "recover", "--dismiss")
    assert code == 0 and "let go: kept as" in let_go
    assert [p.name.split("-")[0] for p in (root / "kept").iterdir()] == ["dismissed"]
    code, after = run(root, "doctor")
    assert code == 0, after
