"""Every kind of damage to the search index is found and mended: each file type emptied
and garbled, met by `reader doctor`, by `reader search` and by a search in the reader."""

from __future__ import annotations

import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from reader.cli import cli
from reader.library import Library
from reader.resources import sample_files
from reader.ui.app import ReaderApp
from tests.test_app import settle

ROOT = Path(__file__).resolve().parent.parent
#: The files of a segment (postings, terms, stored fields, field lengths) and the table of
#: contents of the index.
KINDS = ["*.pst", "*.trm", "*_stored.col", "*_len.col", "_MAIN_*.toc"]


@pytest.fixture(scope="module")
def indexed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A library of the bundled sample with its index, built once and copied per test."""
    root = tmp_path_factory.mktemp("damage") / "lib"
    library = Library(root)
    library.import_files(sample_files())
    library.close()
    return root


def damaged_copy(indexed: Path, tmp_path: Path, pattern: str, how: str) -> Path:
    root = tmp_path / "lib"
    shutil.copytree(indexed, root)
    files = sorted((root / "index").glob(pattern))
    assert files, pattern
    rng = random.Random(7)
    for path in files:
        if how == "empty":
            path.write_bytes(b"")
        else:
            data = bytearray(path.read_bytes())
            for i in range(len(data) // 3, len(data)):
                data[i] = rng.randrange(256)
            path.write_bytes(bytes(data))
    return root


def reader(root: Path, *args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(cli, ["--library", str(root), *args], obj={})


@pytest.mark.parametrize(
    ("pattern", "how"),
    # Garbled field lengths are still lengths: see the test after this one.
    [(p, h) for p in KINDS for h in ("empty", "garbled") if (p, h) != ("*_len.col", "garbled")],
)
def test_doctor_finds_and_mends_each_kind_of_damage(
    indexed: Path, tmp_path: Path, pattern: str, how: str
) -> None:
    root = damaged_copy(indexed, tmp_path, pattern, how)
    done = reader(root, "doctor")
    assert done.exit_code == 0, done.output
    line = next(x for x in done.output.splitlines() if x.startswith("search index:"))
    assert "rebuilt from the database (38 documents)" in line, line
    assert reader(root, "doctor").output.count("search index: ok") == 1


def test_garbled_field_lengths_are_read_as_lengths(indexed: Path, tmp_path: Path) -> None:
    """A field length is one byte, so a garbled one is another length: nothing to find or
    mend, and a search still finds the papers it found (only their ranking may move)."""
    words = ("model", "graph", "learning")
    library = Library(shutil.copytree(indexed, tmp_path / "sound"))
    try:
        found = {word: sorted(library.search(word).ids) for word in words}
    finally:
        library.close()
    root = damaged_copy(indexed, tmp_path, "*_len.col", "garbled")
    done = reader(root, "doctor")
    assert done.exit_code == 0, done.output
    assert done.output.splitlines()[-1].startswith("search index: ok (38 documents"), done.output
    library = Library(root)
    try:
        for word in words:
            outcome = library.search(word)
            assert outcome.ids and sorted(outcome.ids) == found[word], word
            assert outcome.notice is None
    finally:
        library.close()


@pytest.mark.parametrize("how", ["empty", "garbled"])
@pytest.mark.parametrize("pattern", KINDS)
def test_search_mends_each_kind_of_damage_and_says_so_in_one_line(
    indexed: Path, tmp_path: Path, pattern: str, how: str
) -> None:
    root = damaged_copy(indexed, tmp_path, pattern, how)
    done = reader(root, "search", "model")
    assert done.exit_code == 0, done.output
    assert "Traceback" not in done.output
    assert "sc2026" in done.output  # the results, from the mended index
    notices = [x for x in done.output.splitlines() if "damaged" in x]
    # A damaged postings or stored-fields file is met by the search and said in one line;
    # damage to the others keeps the index from opening at all, and it is rebuilt as a
    # missing index is (its progress is the line said).
    said = 1 if pattern in ("*.pst", "*_stored.col") else 0
    assert len(notices) == said, done.output


def test_a_damaged_postings_file_is_said_by_a_real_search_process(
    indexed: Path, tmp_path: Path
) -> None:
    """The defect as filed: `reader search WORD` printed a 100-line traceback."""
    root = damaged_copy(indexed, tmp_path, "*.pst", "garbled")
    done = subprocess.run(
        [sys.executable, "-m", "reader", "--library", str(root), "search", "model"],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stderr.startswith("The search index is damaged (")
    assert "sc2026" in done.stdout


async def test_the_reader_answers_from_the_database_and_rebuilds_a_damaged_index(
    indexed: Path, tmp_path: Path
) -> None:
    root = tmp_path / "lib"
    shutil.copytree(indexed, root)
    library = Library(root)
    app = ReaderApp(library, load_sample=False)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(app, pilot)
            postings = list((root / "index").glob("*.pst"))
            assert postings  # else there would be no damage to find
            for path in postings:
                path.write_bytes(b"\x00" * path.stat().st_size)
            library.index.forget()  # as a reader opened after the damage would
            shown: list[tuple[str | None, int]] = []
            show = app.searching.show_results

            def record(seq, outcome, *args):  # type: ignore[no-untyped-def]
                shown.append((outcome.notice, len(outcome.ids)))
                show(seq, outcome, *args)

            app.searching.show_results = record  # type: ignore[method-assign]
            await pilot.press("slash", *"model", "enter")
            await settle(app, pilot)
            await settle(app, pilot)
            # First from the database, in one line that says why; then, rebuilt, from the
            # index again.
            damaged = [n for n, _ in shown if n and "search index is damaged" in n]
            assert damaged and "\n" not in damaged[0], shown
            assert shown[-1] == (None, 30), shown
            assert library.index.check() is None
    finally:
        library.close()


def test_an_index_of_no_papers_is_whole(tmp_path: Path) -> None:
    """A library emptied (every paper undone) and reindexed has an index with no segment: the doctor
    finds it whole, not damaged by the absence of a segment to read."""
    root = tmp_path / "lib"
    library = Library(root)
    library.import_files(sample_files()[:1])
    library.close()
    assert CliRunner().invoke(cli, ["--library", str(root), "import", "--undo"],
                              obj={}).exit_code == 0
    assert CliRunner().invoke(cli, ["--library", str(root), "reindex"], obj={}).exit_code == 0
    result = CliRunner().invoke(cli, ["--library", str(root), "doctor"], obj={})
    assert "damaged" not in result.output, result.output
    assert "search index: ok (0 documents" in result.output
    assert result.exit_code == 0


def test_the_doctor_catches_an_index_behind_by_a_star_up_without_a_rebuild(
    indexed: Path, tmp_path: Path,
) -> None:
    """An index behind the database by one star (its update put off): the doctor rebuilt
    all of it, minutes at conference scale, where catching up takes one paper."""
    root = tmp_path / "lib"
    shutil.copytree(indexed, root)
    library = Library(root)
    try:
        paper_id = library.all_ids()[0]
        library.store.marks.set_starred(paper_id, True)  # the database alone
        report = library.upkeep.doctor()
        assert report.ok, report
        [line] = [line for line in report if line.startswith("search index:")]
        assert line.startswith("search index: was behind the database; caught up (1 paper "
                               "re-indexed; "), line
        assert "rebuilt" not in " ".join(report)
        assert library.index_state() == "ok"
        assert paper_id in library.search("is:starred").ids
    finally:
        library.close()


def test_a_build_from_scratch_stopped_early_is_said_so_by_the_doctor(
    indexed: Path, tmp_path: Path,
) -> None:
    """A small library's build (in one process) stopped before its end: the doctor said
    "missing or unreadable", where the build on every core left "a build from scratch was
    stopped before its end (not damaged)"."""
    from reader.errors import IndexStopped

    root = tmp_path / "lib"
    shutil.copytree(indexed, root)
    table = tmp_path / "more.csv"  # past the 200 papers between two looks at stopped()
    table.write_text("title,abstract\n" + "".join(
        f"Paper number {n},An abstract of paper {n} about the words that papers hold.\n"
        for n in range(250)), encoding="utf-8")
    library = Library(root)
    library.import_files([table])
    library.close()
    shutil.rmtree(root / "index")
    library = Library(root)
    try:
        with pytest.raises(IndexStopped):
            library.rebuild_index(lambda done, total: None, lambda: True)
        [line] = [line for line in library.upkeep.doctor() if line.startswith("search index")]
        assert line.startswith("search index: a build from scratch was stopped before its "
                               "end (not damaged); rebuilt from the database"), line
    finally:
        library.close()
