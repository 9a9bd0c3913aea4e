"""Why a library did not open or could not be read: one line for the user, with what to
do about it.

Both front ends say it the same way: every command through ``reader.cli.base``, and the
window opened bare (``reader.ui.start``), which does not load the command line's machinery.
"""

from __future__ import annotations

from pathlib import Path

from reader.errors import Damaged, ReaderError
from reader.store.base import DatabaseLost


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
