"""Marks the user asked for and not yet stored.

A key states a result (``s`` on a row shown unstarred stars it), and the window shows that
result at once, before the write lands: the next press reads it, so quick presses each
count, whatever another reader or a refresh from the database shows in between.
"""

from __future__ import annotations

from typing import TypeVar

from msgspec import structs

from reader.models import Paper, PaperRow

#: The marks a key sets: ``starred`` and ``read``.
MARKS = ("starred", "read")

Shown = TypeVar("Shown", Paper, PaperRow)


class Intents:
    """The newest asked-for value of each mark of each paper, until its write is done."""

    def __init__(self) -> None:
        self._pending: dict[tuple[int, str], tuple[int, bool]] = {}
        self._tickets = 0

    def ask(self, paper_id: int, mark: str, value: bool) -> int:
        """Show ``mark`` of a paper as ``value`` until the write of the returned ticket
        (or of a newer one) is done."""
        self._tickets += 1
        self._pending[(paper_id, mark)] = (self._tickets, value)
        return self._tickets

    def done(self, paper_id: int, mark: str, ticket: int) -> None:
        """The write of ``ticket`` is stored (or failed): the database speaks again, unless
        a newer press is still on its way."""
        if self._pending.get((paper_id, mark), (None,))[0] == ticket:
            del self._pending[(paper_id, mark)]

    def apply(self, shown: Shown) -> Shown:
        """``shown`` (a row or a paper) as the user asked for it."""
        if not self._pending:
            return shown
        changes = {
            mark: pending[1]
            for mark in MARKS
            if (pending := self._pending.get((shown.id, mark))) is not None
        }
        if not changes:
            return shown
        if changes.get("read"):
            changes["seen"] = True
        return structs.replace(shown, **changes)  # type: ignore[arg-type]
