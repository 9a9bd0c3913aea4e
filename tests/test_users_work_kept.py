"""Undoing an import keeps every paper carrying anything of the user's, and a library path
that cannot be a library is said in one line."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from reader.cli import cli
from reader.library import Library

LIST = (
    "NeurIPS 2025\n\n"
    "An abstract about quokka behaviour in the wild, observed for a year.\n\n"
    "An abstract about wombat burrows and the soil they turn over.\n\n"
    "An abstract about echidna spines and how they grow back.\n\n"
    "An abstract about platypus bills sensing the electric field of prey.\n\n"
    "An abstract about numbat diets of termites in dry woodland.\n\n"
    "An abstract about bilby ears and desert heat.\n\n"
    "An abstract about dingo packs and the ranges they hold.\n"
)


def _id(library: Library, word: str) -> int:
    (found,) = library.search(word).ids
    return found


MARKS: dict[str, Callable[[Library, int], object]] = {
    "wombat": lambda lib, pid: lib.set_starred(pid, True),
    "echidna": lambda lib, pid: lib.save_note(pid, "spines!"),
    "platypus": lambda lib, pid: lib.marks.set_read(pid, True),
    "numbat": lambda lib, pid: lib.set_tags(pid, ["termites"]),
    "bilby": lambda lib, pid: lib.add_highlight(pid, 0, 11),
}


def test_undo_keeps_every_paper_carrying_the_users_work(
    empty_library: Library, tmp_path: Path
) -> None:
    path = tmp_path / "animals.txt"
    path.write_text(LIST, encoding="utf-8")
    empty_library.import_files([path])
    ids = {word: _id(empty_library, word) for word in [*MARKS, "quokka", "dingo"]}
    for word, mark in MARKS.items():
        mark(empty_library, ids[word])
    empty_library.marks.mark_seen([ids["quokka"]])  # only shown: nothing of the user's
    result = empty_library.imports.undo_last_import()
    assert result is not None and result.removed == 2
    assert sorted(pid for pid, _ in result.kept) == sorted(ids[word] for word in MARKS)
    assert empty_library.store.count() == len(MARKS)
    assert empty_library.search("quokka").ids == empty_library.search("dingo").ids == []


def test_the_cli_names_what_undo_kept(tmp_path: Path) -> None:
    home = tmp_path / "lib"
    path = tmp_path / "animals.txt"
    path.write_text(LIST, encoding="utf-8")
    runner = CliRunner()
    assert runner.invoke(cli, ["--library", str(home), "import", str(path)], obj={}).exit_code == 0
    library = Library(home)
    library.marks.set_read(_id(library, "platypus"), True)
    library.close()
    result = runner.invoke(cli, ["--library", str(home), "import", "--undo"], obj={})
    assert result.exit_code == 0, result.output
    kept = result.output.splitlines()[1]
    assert kept.startswith("Kept 1 that carry your work (stars, notes, read marks, tags or "
                           "highlights): ")


@pytest.mark.parametrize("inside", [False, True])
def test_reader_home_on_a_file_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, inside: bool
) -> None:
    afile = tmp_path / "library"
    afile.write_text("not a library")
    home = afile / "sub" if inside else afile
    monkeypatch.setenv("READER_HOME", str(home))
    # The same line whichever way the library is named (--library on a file was click's
    # usage error, status 2).
    for args in ([], ["stats"], ["--library", str(home), "stats"],
                 ["stats", "--library", str(home)], ["--library", str(home)]):
        result = CliRunner().invoke(cli, args, obj={})
        assert result.exit_code == 1
        message = result.output.strip()
        assert "\n" not in message and "Errno" not in message, message
        if inside:
            assert message == f"Error: cannot make the library directory {home}: Not a directory"
        else:
            assert message == (
                f"Error: {afile} is a file, not a library directory: point READER_HOME (or "
                "--library) at a directory, or move the file away"
            )
    assert afile.read_text() == "not a library"
