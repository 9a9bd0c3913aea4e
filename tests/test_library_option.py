"""How a library is named on the command line: ``--library DIR`` as ``READER_HOME`` is read
(``~`` is the home directory), and an empty name refused rather than taken as the current
directory."""

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
    assert result.exit_code == 0, result.output
    assert (home / "papers" / "library.sqlite").is_file()
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
