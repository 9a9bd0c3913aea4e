"""Note versions: who saved what, when, and how a save met another writer's.

Each save of a note is kept as a version. A writer says which version its text started
from; when the stored note has moved on since, the two are merged (reader.text.notemerge) and
both the writer's own text and the merge are kept, so nothing typed is lost by a save.
"""

from __future__ import annotations

import itertools
import os
from datetime import datetime

from msgspec import Struct

#: The base of a save that replaces whatever is stored (no merge): the CLI's ``--text``
#: when the user asked for exactly that text, and restores.
HEAD = -1
#: The writer name of the ``reader note`` command.
CLI = "cli"
#: Notes written before versions were kept.
EARLIER = "earlier"


_windows = itertools.count(1)


def window_writer() -> str:
    """A writer name for one running reader (one terminal window)."""
    return f"window {os.getpid()}.{next(_windows)}"


def describe_writer(writer: str, me: str | None = None) -> str:
    """How the history names a writer: this window, another window, the CLI."""
    if writer == CLI:
        return "the CLI"
    if writer == EARLIER:
        return "before versions"
    if writer.startswith("window"):
        if me is None:
            return "a window"  # said from the command line: no window is "this" one
        return "this window" if writer == me else "another window"
    return writer


def local_time(stamp: str) -> str:
    """A stored UTC timestamp as local date and time, for people."""
    try:
        return datetime.fromisoformat(stamp).astimezone().strftime("%Y-%m-%d %H:%M:%S")
    except ValueError:
        return stamp


class NoteState(Struct, frozen=True):
    """A note as stored: its text and the version that holds it (None: never saved)."""

    text: str
    version: int | None
    #: Who saved that version ("" when none was).
    writer: str = ""


class NoteSaved(Struct, frozen=True):
    """What a save stored: the note now (merged, when another writer got there first)."""

    version: int | None
    text: str
    #: Who wrote the stored text this save was merged with (None: no merge was needed).
    merged_with: str | None = None
    conflicts: int = 0


class NoteVersion(Struct, frozen=True):
    """One kept version of a note; ``number`` counts from 1 per note."""

    id: int
    number: int
    text: str
    saved_at: str
    writer: str
    kind: str
    conflicts: int

    def summary(self, me: str | None = None) -> str:
        """One line for a history list."""
        first = next((line.strip() for line in self.text.splitlines() if line.strip()), "")
        what = {"merge": "merged", "restore": "restored"}.get(self.kind, "saved")
        conflicts = f", {self.conflicts} conflict{'s' * (self.conflicts != 1)}" \
            if self.conflicts else ""
        return (
            f"{self.number:>3}  {local_time(self.saved_at)}  "
            f"{what} by {describe_writer(self.writer, me)}{conflicts}  "
            f"({len(self.text):,} characters)  {first[:30]}"
        )
