"""Where a library lives on disk."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs
from msgspec import Struct

from reader.errors import BadInput

APP_NAME = "reader"


def default_library_dir() -> Path:
    """``READER_HOME`` when set, else the platform's user data directory."""
    env = os.environ.get("READER_HOME")
    if env:
        return Path(env).expanduser()
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def reader_command(root: Path) -> str:
    """How to run ``reader`` on the library at ``root``, for a command the user is told to
    run: with ``--library`` unless it is the library ``reader`` opens without one (advice
    that left it out would act on that one instead)."""
    if _same_place(root, default_library_dir()):
        return "reader"
    import shlex  # here: only advice needs it, and every start imports this module

    return f"reader --library {shlex.quote(str(root))}"


def _same_place(one: Path, other: Path) -> bool:
    try:
        return one.resolve() == other.resolve()
    except (OSError, RuntimeError):
        return one == other


class LibraryPaths(Struct, frozen=True):
    """The files of one library directory."""

    root: Path

    @property
    def database(self) -> Path:
        """The SQLite database: the source of truth."""
        return self.root / "library.sqlite"

    @property
    def index(self) -> Path:
        """The Whoosh index directory: derived, rebuildable."""
        return self.root / "index"

    @property
    def clipboard_file(self) -> Path:
        """Where a copy goes when no clipboard can be reached (and a backup of OSC 52 ones)."""
        return self.root / "clipboard.txt"

    @property
    def cache(self) -> Path:
        """What can be fetched again: pages from the web, kept so a stopped fetch goes on."""
        return self.root / "cache"

    @property
    def drafts(self) -> Path:
        """Where unsaved notes go when the database refuses a write."""
        return self.root / "drafts"

    def ensure(self) -> LibraryPaths:
        """Create the library directory if needed and return self; a path that is no
        directory (a file where the library should be) is :class:`NotALibraryDirectory`."""
        if self.root.exists() and not self.root.is_dir():
            raise NotALibraryDirectory(
                f"{self.root} is a file, not a library directory: point READER_HOME (or "
                "--library) at a directory, or move the file away"
            )
        try:
            self.root.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise NotALibraryDirectory(
                f"cannot make the library directory {self.root}: {exc.strerror or exc}"
            ) from exc
        return self


class NotALibraryDirectory(BadInput):
    """The library's path cannot be a library directory; the message says why, in one
    line."""
