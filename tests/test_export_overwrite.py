"""An export never replaces a file that is there unless asked to: `reader export -o` refuses
without --force."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from reader.cli import cli

#: A hand-written bibliography of the user's own: what an export must not lose unasked.
HAND_WRITTEN = "@book{mine1,\n  title = {Kept by hand},\n  year = {1999},\n}\n" * 8


@pytest.fixture
def home(sample_library_template: Path, tmp_path: Path) -> Path:
    """A copy of the sample library, for the command to open."""
    root = tmp_path / "lib"
    shutil.copytree(sample_library_template, root)
    return root


def _run(home: Path, *args: str) -> Result:
    return CliRunner().invoke(cli, ["--library", str(home), *args], obj={})


def test_export_to_an_existing_file_is_refused_and_the_file_kept(
    home: Path, tmp_path: Path
) -> None:
    mine = tmp_path / "mybib.bib"
    mine.write_text(HAND_WRITTEN, encoding="utf-8")
    result = _run(home, "export", "-q", "sc2026", "-o", str(mine))
    assert result.exit_code == 1
    assert result.output == f"Error: {mine} exists; nothing exported (--force replaces it)\n"
    assert mine.read_text(encoding="utf-8") == HAND_WRITTEN


@pytest.mark.parametrize("flag", ["--force", "-f"])
def test_force_replaces_an_existing_file(home: Path, tmp_path: Path, flag: str) -> None:
    mine = tmp_path / "mybib.bib"
    mine.write_text(HAND_WRITTEN, encoding="utf-8")
    result = _run(home, "export", "-q", "sc2026", "-o", str(mine), flag)
    assert result.exit_code == 0, result.output
    assert f"Exported 1 paper as bibtex to {mine}" in result.stdout
    written = mine.read_text(encoding="utf-8")
    assert "Kept by hand" not in written and written.count("@inproceedings{") == 1


def test_export_through_a_link_to_an_existing_file_is_refused(
    home: Path, tmp_path: Path
) -> None:
    """A link names the file it points at: replacing that file is replacing a file."""
    mine = tmp_path / "synced.bib"
    mine.write_text(HAND_WRITTEN, encoding="utf-8")
    link = tmp_path / "refs.bib"
    link.symlink_to(mine)
    result = _run(home, "export", "-q", "sc2026", "-o", str(link))
    assert result.exit_code == 1 and "exists; nothing exported" in result.output
    assert mine.read_text(encoding="utf-8") == HAND_WRITTEN


def test_a_new_file_and_stdout_are_written_as_before(home: Path, tmp_path: Path) -> None:
    new = tmp_path / "new.bib"
    result = _run(home, "export", "-q", "sc2026", "-o", str(new))
    assert result.exit_code == 0 and new.read_text(encoding="utf-8").startswith("@")
    printed = _run(home, "export", "-q", "sc2026")
    assert printed.exit_code == 0 and printed.stdout.startswith("@inproceedings{")
