"""The ``reader`` command's entry point, apart from ``reader.cli`` so that it runs before
the command's modules are imported.

It turns the cyclic garbage collector off first. Importing Textual and the reader makes
objects by the hundred thousand, all of them kept for the life of the process, and the
collections that walk them again and again made a quarter of the time to the first
frame. The reader turns the collector back on after its first frame (see
``reader.ui.app``); every other command turns it on before it runs. It also keeps
numpy's linear algebra to one thread (see main).

``reader`` with no command (or only ``--library DIR``) opens the window without loading
the command line's machinery (``reader.ui.start``); anything else goes to ``reader.cli``.
"""

from __future__ import annotations

import gc
import os
import sys
from pathlib import Path


def main() -> None:
    """Run the ``reader`` command."""
    gc.disable()
    # The search ranks with numpy arrays, element by element, never with its linear
    # algebra: OpenBLAS's threads, started when numpy is imported, only spun (70 ms of CPU
    # for each `reader search`, on the core the reader's other work needs). A value the
    # user set is kept; processes the reader starts inherit it.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    root = bare_library(sys.argv[1:])
    if root is not None:
        sys.exit(_window(root))
    from reader.cli import main as run

    run()


def bare_library(args: list[str]) -> Path | None:
    """The library to open the window on when ``args`` ask for nothing else (none, or only
    ``--library DIR``), else None: the command line's own parser reads them, with its help
    and its messages for what is wrong."""
    if not args:
        from reader.locations import default_library_dir

        return default_library_dir()
    if len(args) == 2 and args[0] == "--library":
        chosen = args[1]
    elif len(args) == 1 and args[0].startswith("--library="):
        chosen = args[0].removeprefix("--library=")
    else:
        return None
    # What the parser refuses, with its own message: no name, an option. A file is the
    # window's to refuse, in the line READER_HOME naming a file gets.
    if not chosen or chosen.startswith("-"):
        return None
    return Path(chosen).expanduser()  # as the parser reads it (`--library=~/papers`)


def _window(root: Path) -> int:
    """Run the window on ``root``; its exit status, or 1 with the line that says why it
    could not open."""
    # Begun before the interface is imported, which it then runs beside (see its module).
    from reader.locations import LibraryPaths
    from reader.store.walk import EarlyCheck

    check = EarlyCheck(LibraryPaths(root).database)
    from reader.ui.start import NotOpened, run_window

    try:
        return run_window(root, lambda line: print(line, file=sys.stderr), checked=check.sound)
    except NotOpened as exc:
        print(f"Error: {exc}", file=sys.stderr)
        return 1
