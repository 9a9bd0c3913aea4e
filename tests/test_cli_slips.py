"""Slips a user makes at the command line and in the reader, and what they are told: a
paper named twice by two of its keys, an export into a folder that does not exist, a
misspelt field."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from textual.widgets import Static

from reader.cli import cli
from reader.library import Library
from reader.ui.app import ReaderApp
from tests.test_app import SIZE, settle


@pytest.fixture
def home(sample_library_template: Path, tmp_path: Path) -> Path:
    """A copy of the sample library, for the command to open."""
    root = tmp_path / "lib"
    shutil.copytree(sample_library_template, root)
    return root


def _run(home: Path, *args: str) -> Result:
    return CliRunner().invoke(cli, ["--library", str(home), *args], obj={})


def test_two_keys_of_one_paper_cite_it_once(home: Path) -> None:
    assert _run(home, "rekey", "gdpval2026", "patwardhan2025").exit_code == 0
    result = _run(home, "cite", "gdpval2026", "patwardhan2025", "sc2026")
    assert result.exit_code == 0, result.output
    assert result.stdout.count("@inproceedings{patwardhan2025,") == 1
    assert result.stdout.count("@inproceedings{") == 2
    assert "gdpval2026 and patwardhan2025 name one paper (patwardhan2025): cited once" \
        in result.stderr
    # The same key twice is cited once too, without a word: nothing to explain.
    result = _run(home, "cite", "sc2026", "sc2026")
    assert result.stdout.count("@inproceedings{") == 1 and result.stderr == ""


@pytest.mark.parametrize("missing", ["nope/out.bib", "nope/deeper/out.csv"])
def test_export_into_a_missing_folder_is_refused(
    home: Path, tmp_path: Path, missing: str
) -> None:
    target = tmp_path / "exports" / missing
    (tmp_path / "exports").mkdir()
    result = _run(home, "export", "-o", str(target))
    assert result.exit_code == 1
    assert f"the folder {target.parent} does not exist; nothing exported" in result.output
    assert list((tmp_path / "exports").iterdir()) == []  # no folder made on the way
    # A file where the folder should be is said as such.
    (tmp_path / "exports" / "nope").write_text("x", encoding="utf-8")
    result = _run(home, "export", "-o", str(tmp_path / "exports" / "nope" / "out.bib"))
    assert result.exit_code == 1 and "is not a folder" in result.output
    # An existing folder is written into, as before.
    result = _run(home, "export", "-q", "sc2026", "-o", str(tmp_path / "exports" / "a.bib"))
    assert result.exit_code == 0 and (tmp_path / "exports" / "a.bib").exists()


async def test_the_reader_refuses_an_export_into_a_missing_folder(
    library: Library, tmp_path: Path
) -> None:
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        target = tmp_path / "nope" / "out.bib"
        worker = app.citations.export_papers(library.search("sc2026").ids, target)
        await worker.wait()
        await settle(app, pilot)
        assert not target.parent.exists()
        assert any("does not exist" in str(n.message) for n in app._notifications)


async def test_a_misspelt_field_is_said_with_the_field_meant_in_the_status_line(
    library: Library,
) -> None:
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("slash", *"titel:benchmark")
        await settle(app, pilot)
        status = str(app.query_one("#status", Static).render())
        assert "unknown field titel: (left out) — did you mean title:?" in status
