"""What the reader leaves for after its first frame: the modules of the commands it was not
given are not imported, and every command is still found by its name."""

from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys

import reader.cli
from reader.cli import cli
from reader.cli.base import COMMAND_MODULES
from reader.library import Library


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
