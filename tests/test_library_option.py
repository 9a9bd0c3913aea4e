"""How a library is named on the command line: ``--library DIR`` as ``READER_HOME`` is read
(``~`` is the home directory), an empty name refused rather than taken as the current
directory, and a directory holding no library (a mistyped name) made one only by a command
that writes papers in."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from reader.cli import cli


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    (tmp_path / "home").mkdir()
    return tmp_path / "home"


@pytest.mark.parametrize("args", [["--library=~/papers", "stats"],
                                  ["stats", "--library", "~/papers"]])
def test_a_tilde_in_the_library_s_name_is_the_home_directory(
    home: Path, args: list[str]
) -> None:
    result = CliRunner().invoke(cli, args, obj={})
    # No library there yet: the command that only reads names the expanded directory.
    assert result.exit_code == 1, result.output
    assert f"{home / 'papers'} holds no library" in result.output
    assert not (Path.cwd() / "~").exists()


@pytest.mark.parametrize("args", [["--library=", "stats"], ["--library", ""],
                                  ["stats", "--library", ""]])
def test_an_empty_library_name_is_refused_and_nothing_is_made(
    home: Path, args: list[str]
) -> None:
    result = CliRunner().invoke(cli, args, obj={})
    assert result.exit_code == 2
    assert "a directory is needed, and the name given is empty" in result.output
    assert list(Path.cwd().iterdir()) == [home]


@pytest.mark.parametrize("command", [["stats"], ["search", "x"], ["show", "1"],
                                     ["export", "--format", "bibtex"], ["doctor"]])
def test_a_command_that_reads_says_a_mistyped_directory_holds_no_library(
    home: Path, command: list[str]
) -> None:
    typo = Path.cwd() / "typo"
    result = CliRunner().invoke(cli, ["--library", str(typo), *command], obj={})
    assert result.exit_code == 1, result.output
    assert result.output.strip() == (
        f"Error: {typo} holds no library: make one there by importing a file (reader "
        f"--library {typo} import FILE) or by opening the window (reader --library {typo})"
    )
    assert not typo.exists()


def test_an_import_makes_the_library_a_command_that_reads_then_opens(home: Path) -> None:
    table = Path.cwd() / "papers.csv"
    table.write_text("title,abstract\nA Paper,What it says.\n", encoding="utf-8")
    base = ["--library", str(Path.cwd() / "new")]
    assert CliRunner().invoke(cli, [*base, "import", str(table)], obj={}).exit_code == 0
    result = CliRunner().invoke(cli, [*base, "stats"], obj={})
    assert result.exit_code == 0 and result.output.startswith("1 paper"), result.output


@pytest.mark.parametrize("made", [True, False])
@pytest.mark.parametrize("how", ["refused", "dry run", "no file"])
def test_an_import_that_brings_no_paper_in_leaves_no_library(
    home: Path, made: bool, how: str
) -> None:
    garbage = Path.cwd() / "notes.bib"
    garbage.write_text("garbage\n", encoding="utf-8")
    table = Path.cwd() / "papers.csv"
    table.write_text("title,abstract\nA Paper,What it says.\n", encoding="utf-8")
    new = Path.cwd() / "new" / "deep" if made else Path.cwd() / "new"
    if not made:
        new.mkdir()
        (new / "mine.txt").write_text("the user's own", encoding="utf-8")
    args = {"refused": [str(garbage)], "dry run": ["--dry-run", str(table)],
            "no file": [str(Path.cwd() / "missing.csv")]}[how]
    result = CliRunner().invoke(cli, ["--library", str(new), "import", *args], obj={})
    assert result.exit_code == (0 if how == "dry run" else 1), result.output
    if made:
        assert not new.parent.exists()  # nor the folders made to reach it
    else:
        # A directory that was there keeps what was in it, and only that.
        assert [p.name for p in new.iterdir()] == ["mine.txt"]
    assert "holds no library" in CliRunner().invoke(
        cli, ["--library", str(new), "stats"], obj={}).output


def test_an_import_into_a_library_that_was_there_keeps_it_though_it_is_refused(
    home: Path,
) -> None:
    table = Path.cwd() / "papers.csv"
    table.write_text("title,abstract\nA Paper,What it says.\n", encoding="utf-8")
    garbage = Path.cwd() / "notes.bib"
    garbage.write_text("garbage\n", encoding="utf-8")
    base = ["--library", str(Path.cwd() / "new")]
    assert CliRunner().invoke(cli, [*base, "import", str(table)], obj={}).exit_code == 0
    assert CliRunner().invoke(cli, [*base, "import", str(garbage)], obj={}).exit_code == 1
    assert CliRunner().invoke(cli, [*base, "stats"], obj={}).output.startswith("1 paper")
