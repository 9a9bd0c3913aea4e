"""The reader application: a list and a detail pane over one library.

The class composes the features of ``reader.ui.features`` (search, triage, notes, tags and
highlights, details, views, citations, imports, fetching from OpenReview, the status line,
quitting), each of which
keeps its actions beside the screens it opens; the keys of all of them are in one table,
``reader.ui.bindings``.
"""

from __future__ import annotations

from typing import Any

from textual import events
from textual.app import App

from reader.resources import styles_dir
from reader.ui import bindings
from reader.ui.commands import ReaderCommands
from reader.ui.early_keys import EarlyKeys, again
from reader.ui.features.base import SEEN_FLUSH_SECONDS, AppBase
from reader.ui.features.citations import CitationsFeature
from reader.ui.features.details import DetailsFeature, paper_url
from reader.ui.features.fetching import FetchingFeature
from reader.ui.features.imports import ImportsFeature
from reader.ui.features.notes import NotesFeature
from reader.ui.features.quitting import QuittingFeature
from reader.ui.features.search import SearchFeature
from reader.ui.features.status import StatusFeature
from reader.ui.features.tags import TagsFeature
from reader.ui.features.triage import TriageFeature
from reader.ui.features.views import ViewsFeature
from reader.ui.widgets.search_box import KEYS_ON_PAPER, TYPING_HERE, SearchBox

__all__ = [
    "KEYS_ON_PAPER", "SEEN_FLUSH_SECONDS", "TYPING_HERE", "ReaderApp", "SearchBox", "paper_url",
]


class ReaderApp(
    SearchFeature,
    TriageFeature,
    NotesFeature,
    TagsFeature,
    DetailsFeature,
    ViewsFeature,
    CitationsFeature,
    ImportsFeature,
    FetchingFeature,
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

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: Keys typed for a dialog before it took the focus (see ``reader.ui.early_keys``).
        self.early_keys = EarlyKeys()

    async def on_event(self, event: events.Event) -> None:
        """Keys go to what they were typed for: those typed right behind a key that opens a
        dialog go to the dialog (held until it can take them), never to the view below."""
        if isinstance(event, events.Key):
            if not event.is_forwarded:
                await self._typed(event)
                return
            if self.early_keys.came_back_late(event, self.screen):
                event.stop()
                await self._typed(again(event))
                return
        elif isinstance(event, events.DescendantFocus):
            for held in self.early_keys.ready(self.screen):
                await self._deliver(held)
        await super().on_event(event)

    async def _typed(self, key: events.Key) -> None:
        """A key typed: after any held for the screen on top, unless it must wait too."""
        for held in self.early_keys.ready(self.screen):
            await self._deliver(held)
        if not self.early_keys.hold(self.screen, key):
            await self._deliver(key)

    async def _deliver(self, key: events.Key) -> None:
        """Send a key on as Textual does, noting the screen it went to."""
        self.early_keys.sent(key, self.screen)
        await super().on_event(key)
