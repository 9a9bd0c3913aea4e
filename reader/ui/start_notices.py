"""What the reader says as it starts, before anything else is asked of it: that changes may
have been lost (the index holds some the database does not), that the library is read-only,
and that note drafts wait to be restored; and the notices that only inform,
taken down when the reading view opens."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from textual.app import App
from textual.notifications import SeverityLevel

from reader.library import Library, draft_dirs, reader_command, upgraded_line, waiting_drafts


def quiet_informing_notices(app: App[None]) -> None:
    """Take down the notices that only inform ("Sample loaded", "Imported …") as the
    reading view opens: they were drawn over the text the reader opened. Warnings and
    errors stay until they time out or are clicked away. (Textual 8.2 names no public way
    to take down one notice: textual is pinned to that minor version.)"""
    informing = [n for n in app._notifications if n.severity == "information"]
    for notice in informing:
        app._unnotify(notice, refresh=False)
    if informing:
        app._refresh_notifications()


class StartNotice(NamedTuple):
    """One notice the reader shows at start: possible loss is an error, kept up longer,
    never taken down with the notices that inform."""

    title: str
    message: str
    severity: SeverityLevel = "information"
    timeout: float = 20


def _note_text(library: Library) -> Callable[[int], str]:
    """The text a paper's note holds now (see waiting_drafts)."""
    return lambda paper_id: library.note(paper_id).text


def start_notices(library: Library) -> list[StartNotice]:
    """Each notice the reader shows at start."""
    notices = []
    if library.upgrade is not None:
        line = upgraded_line(library.upgrade, library.paths.root)
        notices.append(StartNotice("upgraded", line[0].upper() + line[1:], "warning", 30))
    drafts = waiting_drafts(draft_dirs(library.paths.drafts), held=_note_text(library))
    if drafts:
        # A save that failed left the text there: said at start, or it is forgotten.
        more = f" and {len(drafts) - 1} more" if len(drafts) > 1 else ""
        notices.append(StartNotice(
            "drafts",
            f"Note drafts wait to be restored (saves that failed): {drafts[-1]}{more}; "
            f"`{reader_command(library.paths.root)} doctor` gives the command that makes "
            "each its note (or paste what you want to keep into the note), then delete it",
        ))
    # Checked before the index is looked at (which would rebuild an index found ahead).
    evidence = library.loss.check()
    if evidence is not None:
        notices.append(StartNotice("possible loss", f"Possible loss: {evidence}", "error", 60))
    if library.read_only is not None:
        notices.append(StartNotice(
            "read-only",
            f"Read-only library ({library.read_only}): search, read, cite and export; "
            "stars, notes, tags and imports cannot be saved",
        ))
    return notices
