"""Why a library did not open or could not be read: one line for the user, with what to
do about it; and the line saying an opening upgraded it.

Both front ends say it the same way: every command through ``reader.cli.base``, and the
window opened bare (``reader.ui.start``), which does not load the command line's machinery.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import TYPE_CHECKING

from reader.errors import Damaged, ReaderError
from reader.locations import LibraryPaths, reader_command
from reader.store.backup import lost_database
from reader.store.base import DatabaseLost, Upgrade, read_only_reason

if TYPE_CHECKING:
    from reader.library.core import Library

# What opening a library and writing nothing into it leaves in its directory: the database
# with its log, shared memory and the lock of its upgrade, and the indexes (of the papers,
# of the text of their reviews).
_LEFT_BY_OPENING = ("", "-wal", "-shm", ".migrate-lock")


def unopened_line(exc: ReaderError, root: Path) -> str:
    """Why the library at ``root`` did not open (``exc``), and what to do."""
    from reader.library.upkeep import damaged_advice, lost_advice

    if isinstance(exc, DatabaseLost):
        return f"{exc}; {lost_advice(root)}"
    if isinstance(exc, Damaged):
        return f"{exc}; {damaged_advice(root)}"
    return str(exc)


def unreadable_line(exc: ReaderError, root: Path) -> str:
    """Why what the first view shows could not be read from the library at ``root``."""
    from reader.library.upkeep import damaged_advice

    if isinstance(exc, Damaged):
        return f"the library database is damaged ({exc}); {damaged_advice(root)}"
    return f"the library database cannot be read: {exc}"


def no_library_line(root: Path) -> str | None:
    """Why a command that only reads has nothing to read at ``root`` (a mistyped
    ``--library``): the directory is missing, or holds neither a database nor anything a
    library leaves; None when there is a library to open (or what is there is for the
    opening to judge: a file, a database lost beside its index). Said instead of making
    an empty library there, which would answer "0 papers" as if the library were empty."""
    database = LibraryPaths(root).database
    if root.exists() and not root.is_dir():
        return None  # the opening says it is a file
    try:
        if database.is_file() and database.stat().st_size:
            return None
    except OSError:
        return None  # there but unreadable: the opening says why
    if lost_database(database) is not None:
        return None
    if root.is_dir() and (why := read_only_reason(database)) is not None:
        # Advice to import into it would only meet the same refusal.
        return f"{root} holds no library, and one cannot be made there: {why}"
    return (f"{root} holds no library: make one there by importing a file "
            f"({reader_command(root)} import FILE) or by opening the window "
            f"({reader_command(root)})")


def upgraded_line(upgrade: Upgrade, root: Path) -> str:
    """What the library's upgrade (as it opened) did, where the database as it was is kept,
    and what an older reader's window on it should do: it goes on writing the tables it
    knows, which a later upgrade may have changed."""
    kept = f"; the database as it was is kept in {upgrade.backup}" if upgrade.backup else ""
    return (f"the library in {root} was upgraded for this reader (schema {upgrade.before} → "
            f"{upgrade.after}){kept}. Close any window an older reader has open on it")


def take_back_unfilled(library: Library, made: Path | None) -> bool:
    """Take away a library that a command made and ended without a paper in (a file it
    refused, a fetch that failed, a dry run): its database and index, and the directories
    the command made (``made``: the outermost, None when the library's was there). A
    command that made a library it then did not fill would leave one that answers "0
    papers", where a mistyped ``--library`` should say there is none. Left as it is: a
    library with a paper, one that cannot be counted, and in a directory the command made,
    one with anything else beside it (a fetch's cache that the next try reads); in a
    directory that was there, only the library's own files go. True when it was taken
    away."""
    try:
        if library.store.count():
            return False
    except Exception:  # a library that cannot be counted is no library to take away
        return False
    library.close()
    return take_back_unopened(library.paths.root, made)


def take_back_unopened(root: Path, made: Path | None) -> bool:
    """Take away what a command wrote of a library it began to make at ``root`` and could
    not open (no room for its database, say), as :func:`take_back_unfilled` does."""
    from reader.library.reviews import REVIEWS_DIR

    paths = LibraryPaths(root)
    indexes = [paths.index, paths.root / REVIEWS_DIR]
    ours = {paths.database.name + suffix for suffix in _LEFT_BY_OPENING}
    ours |= {index.name for index in indexes}
    try:
        if made is not None and any(entry.name not in ours for entry in root.iterdir()):
            return False
        for suffix in _LEFT_BY_OPENING:
            paths.database.with_name(paths.database.name + suffix).unlink(missing_ok=True)
        for index in indexes:
            shutil.rmtree(index, ignore_errors=True)
        # The library's directory, and those the command made above it to reach it.
        folder = root
        while made is not None and folder != made.parent:
            folder.rmdir()
            folder = folder.parent
    except OSError:
        return False  # what could not be taken away stays, an empty library that opens
    return True


def outermost_missing(root: Path) -> Path | None:
    """The outermost directory of ``root`` and those above it that is not there (made
    with it), or None when ``root`` is there."""
    missing = None
    for folder in (root, *root.parents):
        if folder.exists():
            break
        missing = folder
    return missing
