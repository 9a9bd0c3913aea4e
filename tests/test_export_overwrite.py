"""An export never replaces a file that is there unless asked to: `reader export -o` refuses
without --force, and `x` asks again in its prompt before writing over one."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from reader.cli import cli
from reader.library import Library
from reader.ui.app import ReaderApp
from reader.ui.screens.prompts import PromptScreen
from tests.test_app import SIZE, screen_text, settle
from tests.test_focus import burst

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


def test_output_dash_prints(home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`-o -` prints, as `-` means to other commands: it wrote a file named "-"."""
    monkeypatch.chdir(tmp_path)
    printed = _run(home, "export", "-q", "sc2026", "--format", "ris", "-o", "-")
    assert printed.exit_code == 0 and printed.stdout.startswith("TY  - ")
    assert not (tmp_path / "-").exists()


async def test_x_asks_before_replacing_a_file_then_replaces_it_on_a_second_enter(
    library: Library, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # a short name: a path is typed key by key
    mine = tmp_path / "mine.bib"
    mine.write_text(HAND_WRITTEN, encoding="utf-8")
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("x", *"mine.bib", "enter")
        await settle(app, pilot)
        # Nothing written: the prompt stays, saying what enter would do now.
        assert isinstance(app.screen, PromptScreen)
        assert "mine.bib exists: press Enter again to replace it, or change the path" \
            in screen_text(app)
        assert mine.read_text(encoding="utf-8") == HAND_WRITTEN
        await pilot.press("enter")
        await settle(app, pilot)
        assert not isinstance(app.screen, PromptScreen)
    written = mine.read_text(encoding="utf-8")
    assert "Kept by hand" not in written and "@inproceedings{" in written


async def test_the_warning_stands_when_the_path_and_enter_are_typed_at_once(
    library: Library, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Typed in one burst with its enter, the path's letters changed the box after the enter
    had warned: each change cleared the warning, and two more enters were needed."""
    monkeypatch.chdir(tmp_path)
    mine = tmp_path / "mine.bib"
    mine.write_text(HAND_WRITTEN, encoding="utf-8")
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("x")
        await settle(app, pilot)
        burst(app, *"mine.bib", "enter")
        await settle(app, pilot)
        assert "mine.bib exists: press Enter again" in screen_text(app)
        await pilot.press("enter")
        await settle(app, pilot)
        assert not isinstance(app.screen, PromptScreen)
    assert "Kept by hand" not in mine.read_text(encoding="utf-8")


async def test_x_writes_elsewhere_when_the_path_is_changed_after_the_warning(
    library: Library, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    mine = tmp_path / "mine.bib"
    mine.write_text(HAND_WRITTEN, encoding="utf-8")
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("x", *"mine.bib", "enter")
        await settle(app, pilot)
        # The warning goes with the path it was about.
        await pilot.press("backspace", "backspace", "backspace", "backspace", *".ris")
        await pilot.pause()
        assert "exists" not in screen_text(app)
        await pilot.press("enter")
        await settle(app, pilot)
        # Said in full: a short name is relative to wherever the window was started.
        said = " ".join(n.message for n in app._notifications)
        assert f"to {tmp_path / 'mine.ris'}." in said
    assert mine.read_text(encoding="utf-8") == HAND_WRITTEN
    assert (tmp_path / "mine.ris").read_text(encoding="utf-8").startswith("TY  -")


async def test_escape_after_the_warning_writes_nothing(
    library: Library, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    mine = tmp_path / "mine.bib"
    mine.write_text(HAND_WRITTEN, encoding="utf-8")
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("x", *"mine.bib", "enter", "escape")
        await settle(app, pilot)
        assert not isinstance(app.screen, PromptScreen)
    assert mine.read_text(encoding="utf-8") == HAND_WRITTEN
    assert sorted(p.name for p in tmp_path.iterdir()) == ["lib", "mine.bib"]


async def test_a_file_made_after_the_prompt_is_not_replaced_unasked(
    library: Library, tmp_path: Path
) -> None:
    """The export runs in a worker: a file that appears between the answer and the write
    is still refused, as the prompt would have."""
    mine = tmp_path / "mine.bib"
    mine.write_text(HAND_WRITTEN, encoding="utf-8")
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        worker = app.citations.export_papers(library.search("sc2026").ids, mine)
        await worker.wait()
        await settle(app, pilot)
        assert mine.read_text(encoding="utf-8") == HAND_WRITTEN
        assert any("mine.bib exists; nothing exported" in str(n.message)
                   for n in app._notifications)
