"""The reader application: a list and a detail pane over one library.

The class composes the features of ``reader.ui.features`` (search, triage, notes, tags and
highlights, details, views, citations, imports, fetching from OpenReview, the status line,
quitting), each of which
keeps its actions beside the screens it opens; the keys of all of them are in one table,
``reader.ui.bindings``.
"""

from __future__ import annotations

from textual.app import App

from reader.resources import styles_dir
from reader.ui import bindings
from reader.ui.commands import ReaderCommands
from reader.ui.features.base import AppBase
from reader.ui.features.details import paper_url
from reader.ui.features.imports import ImportsFeature
from reader.ui.features.notes import NotesFeature
from reader.ui.features.quitting import QuittingFeature
from reader.ui.features.search import SearchFeature
from reader.ui.features.seen import SEEN_FLUSH_SECONDS
from reader.ui.features.status import StatusFeature
from reader.ui.features.tags import TagsFeature
from reader.ui.widgets.search_box import KEYS_ON_PAPER, TYPING_HERE, SearchBox

__all__ = [
    "KEYS_ON_PAPER", "SEEN_FLUSH_SECONDS", "TYPING_HERE", "ReaderApp", "SearchBox", "paper_url",
]


class ReaderApp(
    SearchFeature,
    NotesFeature,
    TagsFeature,
    ImportsFeature,
    StatusFeature,
    QuittingFeature,
    AppBase,
):
    """Browse, search, star, annotate and cite the papers of a library."""

    CSS_PATH = [str(styles_dir() / "app.tcss")]
    #: Under 100 columns the list and the detail pane are stacked (styles/app.tcss).
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (100, "-wide")]
    BINDINGS = bindings.APP
    TITLE = "reader"
    COMMANDS = App.COMMANDS | {ReaderCommands}
