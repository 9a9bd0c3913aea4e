"""A live library: an open reader follows writes made by other processes (the CLI,
another reader) within a second: new papers, stars, notes, read marks, and the counts."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Static

from reader.library import Library
from reader.ui.app import ReaderApp
from tests.test_app import SIZE, settle

ROOT = Path(__file__).resolve().parent.parent


async def until(pilot: Pilot, condition: Callable[[], bool], what: str) -> None:
    """Wait (at most ten seconds) until ``condition`` holds."""
    for _ in range(200):
        if condition():
            return
        await pilot.pause(0.05)
    raise AssertionError(f"never happened: {what}")


def status(app: ReaderApp) -> str:
    """The status line as shown."""
    return str(app.query_one("#status", Static).content)


def cli(root: Path, *args: str) -> str:
    """Run the reader command in a process of its own."""
    done = subprocess.run(
        [sys.executable, "-m", "reader", "--library", str(root), *args],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


BIBTEX = """
@article{wombat2026,
  title = {Wombats Dig Square Burrows},
  author = {Doe, Jane},
  year = {2026},
  abstract = {Wombat burrows are studied with ground radar.},
}
@article{quokka2026,
  title = {Quokkas Smile at Nothing},
  author = {Roe, Rick},
  year = {2026},
  abstract = {Quokka faces are measured in the wild.},
}
"""


async def test_stars_and_notes_from_the_cli_show_in_an_open_reader(library: Library) -> None:
    ids = library.store.all_ids()
    key = library.store.paper(ids[3]).citekey  # type: ignore[union-attr]
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert "0 starred" in status(app)
        cli(library.paths.root, "star", key)
        cli(library.paths.root, "note", key, "--text", "read this one twice")
        await until(pilot, lambda: "1 starred" in status(app) and "1 with notes" in status(app),
                    "the status line counts the CLI's star and note")
        row = app.paper_list._row(3)
        assert row is not None and row.starred and row.has_note


async def test_papers_imported_elsewhere_join_the_list_and_the_search(
    library: Library, tmp_path: Path
) -> None:
    source = tmp_path / "more.bib"
    source.write_text(BIBTEX, encoding="utf-8")
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert len(app.paper_list.ids) == 38
        cli(library.paths.root, "import", str(source))
        await until(pilot, lambda: len(app.paper_list.ids) == 40, "the new papers are listed")
        assert "/ 40 seen" in status(app)
        await pilot.press("slash", *"wombat", "enter")
        await settle(app, pilot)
        assert [library.store.paper(i).title for i in app.paper_list.ids] == [  # type: ignore[union-attr]
            "Wombats Dig Square Burrows"
        ]


async def test_read_marks_and_stars_of_another_reader_follow(library: Library) -> None:
    other = Library(library.paths.root)
    ids = library.store.all_ids()
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        other.set_read(ids[5], True)
        other.set_starred(ids[6], True)
        await until(pilot, lambda: "1 read" in status(app) and "1 starred" in status(app),
                    "the other reader's marks are counted")
        await until(pilot, lambda: app.paper_list._row(5).read,  # type: ignore[union-attr]
                    "the row shows the read mark")
        # A view selecting on stars follows too.
        await pilot.press("slash", *"is:starred", "enter")
        await settle(app, pilot)
        assert app.paper_list.ids == [ids[6]]
        other.set_starred(ids[7], True)
        await until(pilot, lambda: app.paper_list.ids == [ids[6], ids[7]],
                    "the starred view gains the paper starred elsewhere")
    other.close()
