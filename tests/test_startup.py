"""What the reader leaves for after its first frame: the modules of the commands it was not
given are not imported, and every command is still found by its name."""

from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import reader.cli
from reader.cli import cli
from reader.cli.base import COMMAND_MODULES
from reader.config import Config
from reader.entry import bare_library
from reader.library import Library
from reader.ui.app import ReaderApp
from reader.ui.widgets.paper_detail import PaperDetail
from reader.ui.widgets.paper_list import PaperList


def test_every_command_is_found_in_the_module_named_for_it() -> None:
    for module in pkgutil.iter_modules(reader.cli.__path__):
        importlib.import_module(f"reader.cli.{module.name}")
    assert set(cli.commands) == set(COMMAND_MODULES)
    for name, command in cli.commands.items():
        callback = command.callback
        while hasattr(callback, "__wrapped__"):
            callback = callback.__wrapped__
        assert callback.__module__ == f"reader.cli.{COMMAND_MODULES[name]}", name


def test_the_command_modules_are_imported_only_when_a_command_is_run() -> None:
    code = (
        "import sys\n"
        "import reader.cli\n"
        "print(sorted(m for m in sys.modules if m.startswith('reader.cli.')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "['reader.cli.base']"


#: What a window imports only once it is asked for: the screens over the main view (each
#: where it is opened), the salvage of a damaged log and the three-way merge of a note.
LATER = (
    "reader.ui.screens.cite_picker", "reader.ui.screens.help", "reader.ui.screens.metadata",
    "reader.ui.screens.note", "reader.ui.screens.note_versions", "reader.ui.screens.overview",
    "reader.ui.screens.prompts", "reader.ui.screens.reading", "reader.ui.screens.tags",
    "reader.ui.screens.whole_text", "reader.store.salvage", "reader.text.notemerge", "merge3",
    # The library's parts the first view does not read: an import's rows and history,
    # revisions, searching, upkeep and fetching are made on first use.
    "reader.store.import_history", "reader.store.import_rows", "reader.store.revisions",
    "reader.library.searching", "reader.library.fetching", "reader.library.recovery",
    # The clipboard (a copy), the note editor's widget; the reading view's widgets (the
    # detail pane draws the same parts as lines).
    "reader.cite.clipboard", "textual.widgets._text_area", "reader.ui.widgets.paper_view",
    "reader.ui.widgets.replies",
)

_FIRST_FRAME = """\
import asyncio, sys
from pathlib import Path
from reader.library import Library
from reader.ui.app import ReaderApp

async def main():
    app = ReaderApp(Library(Path(sys.argv[1])))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert app.query_one("#detail").paper is not None
        print(" ".join(sorted(sys.modules)))

asyncio.run(main())
"""


def test_a_window_is_drawn_without_the_modules_it_needs_only_later(library: Library) -> None:
    root = library.paths.root
    library.close()
    out = subprocess.run([sys.executable, "-c", _FIRST_FRAME, str(root)], capture_output=True,
                         text=True, check=True).stdout
    loaded = set(out.split())
    assert "reader.ui.app" in loaded
    assert loaded.isdisjoint(LATER), sorted(loaded & set(LATER))


@pytest.mark.parametrize(("theme", "size"), [(None, (120, 40)), ("reader-paper", (80, 24))])
async def test_the_first_frame_is_styled_as_a_full_restyle_would(
    library: Library, theme: str | None, size: tuple[int, int]
) -> None:
    """The main screen is not styled again as it is first shown (its widgets were styled as
    they were mounted): what the first frame draws with is what styling it all again gives,
    in the configured theme and the narrow layout too."""
    app = ReaderApp(library, config=Config(theme=theme))

    def styles() -> list[object]:
        papers, detail = app.query_one(PaperList), app.query_one(PaperDetail)
        return [
            *(papers.get_component_rich_style(name) for name in sorted(papers.COMPONENT_CLASSES)),
            *(detail.get_component_rich_style(name) for name in sorted(detail.COMPONENT_CLASSES)),
            *(widget.rich_style for widget in app.screen.walk_children()),
        ]

    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        first = styles()
        app.screen.update_node_styles(animate=False)
        await pilot.pause()
        assert styles() == first


_BARE = """\
import io, sys
from textual.app import App

class Terminal(io.StringIO):
    def isatty(self):
        return True

out = sys.stdout
sys.stdin = sys.stdout = Terminal()

def run(self, *args, **kwargs):
    out.write(" ".join(sorted(sys.modules)))

App.run = run
sys.argv = ["reader", "--library", sys.argv[1]]
from reader.entry import main
main()
"""


def test_the_window_opened_bare_loads_no_command_line_machinery(library: Library) -> None:
    root = library.paths.root
    library.close()
    done = subprocess.run([sys.executable, "-c", _BARE, str(root)], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    loaded = set(done.stdout.split())
    assert "reader.ui.app" in loaded
    assert "click" not in loaded
    assert not {m for m in loaded if m.startswith("reader.cli")}


def test_the_window_without_a_terminal_says_so_and_ends(library: Library) -> None:
    # Textual drew into the file and waited for keys that never came, for ever.
    root = library.paths.root
    library.close()
    done = subprocess.run([sys.executable, "-m", "reader", "--library", str(root)],
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith("Error: the window needs a terminal")
    assert "reader search" in done.stderr and len(done.stderr.splitlines()) == 1


@pytest.mark.parametrize(("args", "opens"), [
    ([], "default"),
    (["--library", "lib"], "lib"),
    (["--library=lib"], "lib"),
    (["--library=~/lib"], "home"),
    (["--library"], None),
    (["--library", ""], None),
    (["--library", "--help"], None),
    (["--help"], None),
    (["--version"], None),
    (["stats"], None),
    (["--library", "lib", "stats"], None),
])
def test_only_a_bare_command_line_skips_the_parser(
    args: list[str], opens: str | None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("READER_HOME", str(tmp_path / "default"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    expected = {None: None, "default": tmp_path / "default", "lib": Path("lib"),
                "home": tmp_path / "home" / "lib"}[opens]
    assert bare_library(args) == expected


def test_a_file_given_as_the_library_goes_to_the_window(tmp_path: Path) -> None:
    # Which refuses it in the line READER_HOME naming a file gets (the parser's would be a
    # usage error of its own words, status 2).
    (tmp_path / "notes.txt").write_text("x")
    assert bare_library(["--library", str(tmp_path / "notes.txt")]) == tmp_path / "notes.txt"
