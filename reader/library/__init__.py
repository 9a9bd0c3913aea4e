"""The one door into the core: everything the UI and the CLI use of the library.

:class:`Library` is a library on disk: the database, the search index kept in step with it,
and the operations both front ends share (import, search, star, note, cite, back up). The
names beside it are the core's vocabulary the front ends need too: its errors, the note
writers, tag and highlight rules, the format names, the watch on other writers.

``reader.ui`` and ``reader.cli`` import the core from here and from ``reader.models`` only
(an import-linter contract in ``pyproject.toml`` checks it), so that a new feature has one
way to the database and the core can be rearranged behind this module.

What is costly to import (the citation engine, the exporters, the network code, Whoosh)
is bound on first use, through :func:`__getattr__`: the reader's first frame does not wait
for them.
"""

from __future__ import annotations

import functools
import importlib
from typing import TYPE_CHECKING, Any

from reader.cite.format_names import CITATION_FORMATS, EXPORT_FORMATS
from reader.errors import IndexStopped
from reader.library.changes import Change
from reader.library.core import Library
from reader.library.door import translated
from reader.library.signals import Discussion, Posting, ScaleGroup, ViewSignals
from reader.locations import reader_command
from reader.store.backup import BackupError, is_damaged, lost_database
from reader.store.base import DatabaseLost, StoreDamaged
from reader.store.database import RELEVANCE, SORT_KEYS, StoreError
from reader.store.drafts import (
    Draft,
    draft_dirs,
    draft_paper,
    restore_command,
    waiting_drafts,
    write_draft,
)
from reader.store.notes import (
    CLI,
    NoteSaved,
    NoteState,
    NoteVersion,
    describe_writer,
    window_writer,
)
from reader.store.watch import ChangeWatch, LibraryState, library_state
from reader.text.tags import normalize_tag, parse_tags

if TYPE_CHECKING:
    from reader.cite.clipboard import configured_routes, copy_text, in_tmux, osc52_sequence
    from reader.cite.export import check_folder, export, format_for_path, replaces_file
    from reader.cite.formats import CitationError
    from reader.cite.formats import render as render_citation
    from reader.cite.left_out import left_out
    from reader.cite.notes_files import export_notes
    from reader.library.fetching import PapersPlan, digest, fetched_line
    from reader.library.opening import (
        no_library_line,
        outermost_missing,
        take_back_unfilled,
        take_back_unopened,
        unopened_line,
        unreadable_line,
        upgraded_line,
    )
    from reader.library.outcomes import Resolution, SearchOutcome
    from reader.library.recovery import KINDS as RECOVERABLE_KINDS
    from reader.library.recovery import Recoverable
    from reader.library.upkeep import DoctorReport, damaged_advice, lost_advice, restore_damaged
    from reader.search.highlight import highlight_spans
    from reader.search.query import SearchCancelled, parse_query
    from reader.sources import FORMATS, ImportFormatError
    from reader.sources.remote import FetchError, classify
    from reader.sources.remote.openreview_login import find_credentials
    from reader.sources.remote.openreview_notes import (
        NotesFetcher,
        Outcome,
        Plan,
        forums_plan,
        venue_plan,
    )
    from reader.store.highlights import (
        ShownReply,
        display_text,
        placed,
        sentences,
        shown_reply,
        words,
    )
    from reader.store.import_rows import UndoResult
    from reader.store.metadata import FIELDS, check
    from reader.store.revisions import TextRevision

#: Names bound on first use: name → (module, attribute).
_LAZY = {
    # Searching, the parts of a library but the first view's, and what the reading view
    # and the dialogs use: the window's first frame does not wait for their code.
    "SearchOutcome": ("reader.library.outcomes", "SearchOutcome"),
    "Resolution": ("reader.library.outcomes", "Resolution"),
    "SearchCancelled": ("reader.search.query", "SearchCancelled"),
    "parse_query": ("reader.search.query", "parse_query"),
    "RECOVERABLE_KINDS": ("reader.library.recovery", "KINDS"),
    "Recoverable": ("reader.library.recovery", "Recoverable"),
    "DoctorReport": ("reader.library.upkeep", "DoctorReport"),
    "damaged_advice": ("reader.library.upkeep", "damaged_advice"),
    "lost_advice": ("reader.library.upkeep", "lost_advice"),
    "unopened_line": ("reader.library.opening", "unopened_line"),
    "no_library_line": ("reader.library.opening", "no_library_line"),
    "take_back_unfilled": ("reader.library.opening", "take_back_unfilled"),
    "take_back_unopened": ("reader.library.opening", "take_back_unopened"),
    "outermost_missing": ("reader.library.opening", "outermost_missing"),
    "unreadable_line": ("reader.library.opening", "unreadable_line"),
    "upgraded_line": ("reader.library.opening", "upgraded_line"),
    "restore_damaged": ("reader.library.upkeep", "restore_damaged"),
    "PapersPlan": ("reader.library.fetching", "PapersPlan"),
    "digest": ("reader.library.fetching", "digest"),
    "fetched_line": ("reader.library.fetching", "fetched_line"),
    "ShownReply": ("reader.store.highlights", "ShownReply"),
    "display_text": ("reader.store.highlights", "display_text"),
    "placed": ("reader.store.highlights", "placed"),
    "sentences": ("reader.store.highlights", "sentences"),
    "shown_reply": ("reader.store.highlights", "shown_reply"),
    "words": ("reader.store.highlights", "words"),
    "UndoResult": ("reader.store.import_rows", "UndoResult"),
    "FIELDS": ("reader.store.metadata", "FIELDS"),
    "check": ("reader.store.metadata", "check"),
    "TextRevision": ("reader.store.revisions", "TextRevision"),
    "render_citation": ("reader.cite.formats", "render"),
    "CitationError": ("reader.cite.formats", "CitationError"),
    "export": ("reader.cite.export", "export"),
    "export_notes": ("reader.cite.notes_files", "export_notes"),
    "format_for_path": ("reader.cite.export", "format_for_path"),
    "left_out": ("reader.cite.left_out", "left_out"),
    "check_folder": ("reader.cite.export", "check_folder"),
    "replaces_file": ("reader.cite.export", "replaces_file"),
    "FetchError": ("reader.sources.remote", "FetchError"),
    "classify": ("reader.sources.remote", "classify"),
    # `reader fetch openreview`: a venue or forums with their replies, into a file.
    "NotesFetcher": ("reader.sources.remote.openreview_notes", "NotesFetcher"),
    "forums_plan": ("reader.sources.remote.openreview_notes", "forums_plan"),
    "venue_plan": ("reader.sources.remote.openreview_notes", "venue_plan"),
    "find_credentials": ("reader.sources.remote.openreview_login", "find_credentials"),
    "Outcome": ("reader.sources.remote.openreview_notes", "Outcome"),
    "Plan": ("reader.sources.remote.openreview_notes", "Plan"),
    "highlight_spans": ("reader.search.highlight", "highlight_spans"),
    # The clipboard: a copy's business, not the start's.
    "configured_routes": ("reader.cite.clipboard", "configured_routes"),
    "copy_text": ("reader.cite.clipboard", "copy_text"),
    "in_tmux": ("reader.cite.clipboard", "in_tmux"),
    "osc52_sequence": ("reader.cite.clipboard", "osc52_sequence"),
    # The file formats: the import's business, not the start's.
    "FORMATS": ("reader.sources", "FORMATS"),
    "ImportFormatError": ("reader.sources", "ImportFormatError"),
}


#: Those that write files: through the door, so that what the disk answers (full, not
#: writable) leaves as the ReaderError it stands for, as from the library's own methods.
_WRITING = frozenset({"export", "export_notes", "check_folder"})


def __getattr__(name: str) -> Any:
    """Bind a costly name the first time it is asked for (PEP 562)."""
    try:
        module, attribute = _LAZY[name]
    except KeyError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
    value = getattr(importlib.import_module(module), attribute)
    if name in _WRITING:
        value = _through_the_door(value)
    globals()[name] = value
    return value


def _through_the_door(function: Any) -> Any:
    """``function``, its OS and SQLite errors raised as the ReaderError they stand for."""

    @functools.wraps(function)
    def call(*args: Any, **kwargs: Any) -> Any:
        with translated():
            return function(*args, **kwargs)

    return call


__all__ = [
    "CITATION_FORMATS", "CLI", "EXPORT_FORMATS", "FIELDS", "FORMATS", "RELEVANCE", "SORT_KEYS",
    "BackupError", "ChangeWatch", "CitationError", "Discussion", "DoctorReport", "FetchError",
    "ImportFormatError", "IndexStopped", "Library", "LibraryState", "NoteSaved", "NoteState",
    "NoteVersion", "Posting", "RECOVERABLE_KINDS", "Recoverable", "Resolution",
    "SearchCancelled", "SearchOutcome", "StoreError", "TextRevision", "ScaleGroup",
    "UndoResult", "ViewSignals", "DatabaseLost", "StoreDamaged", "check", "check_folder",
    "configured_routes",
    "copy_text", "damaged_advice",
    "describe_writer", "display_text", "draft_dirs", "export", "export_notes",
    "format_for_path", "highlight_spans", "in_tmux", "is_damaged", "left_out", "library_state",
    "lost_advice", "lost_database", "no_library_line", "normalize_tag",
    "osc52_sequence", "parse_query", "parse_tags", "placed", "render_citation", "replaces_file",
    "restore_damaged", "sentences", "ShownReply", "shown_reply", "take_back_unfilled",
    "take_back_unopened", "outermost_missing", "translated",
    "unopened_line", "unreadable_line", "upgraded_line", "reader_command",
    "waiting_drafts", "window_writer", "words", "write_draft", "draft_paper",
]
# Fetching from OpenReview (both front ends).
__all__ += ["PapersPlan", "digest", "fetched_line"]
# What a write changed (the window adjusts its counts by it).
__all__ += ["Change"]
# A note's draft, written where a save failed, and the command that restores it.
__all__ += ["Draft", "restore_command"]
# What `reader fetch openreview` uses (bound on first use, above).
__all__ += ["NotesFetcher", "Outcome", "Plan", "classify", "find_credentials", "forums_plan",
            "venue_plan"]
