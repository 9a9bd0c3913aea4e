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
from reader.ui.early_keys import EarlyKeys, Typed, again, keys_waiting, takes_text
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
from reader.ui.queued_keys import take_typed
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
    #: Under 100 columns the list and the detail pane are stacked, up to 160 the list takes
    #: more than half (styles/app.tcss).
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (100, "-wide"), (160, "-widest")]
    BINDINGS = bindings.APP
    TITLE = "reader"
    COMMANDS = App.COMMANDS | {ReaderCommands}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: Keys typed for a dialog before it took the focus (see ``reader.ui.early_keys``).
        self.early_keys = EarlyKeys()

    async def on_event(self, event: events.Event) -> None:
        """Keys act in the order typed, on what they were typed for: those typed right
        behind a key that opens a dialog go to the dialog (held until it can take them),
        never to the view below, and a priority key (``/``) waits for the keys before it."""
        if isinstance(event, (events.Key, events.Paste)):
            if not event.is_forwarded:
                await self._typed(event)
                return
            if self.early_keys.came_back_late(event, self.screen, self.focused):
                event.stop()
                await self._typed(again(event))
                return
            if isinstance(event, events.Key) and self.early_keys.waited(event) and (
                await self._check_bindings(event.key, priority=True)
            ):
                event.stop()
                return
        elif isinstance(event, events.DescendantFocus):
            await self._release()
        await super().on_event(event)

    async def _release(self) -> None:
        """Hand on the keys held for the dialog now ready, in order: each letter to its
        field, and a key that acts (esc, enter) only once the letters before it are in, so
        that what it saves or closes is what was typed, and the keys after it go where it
        leaves the focus (the list, once the dialog is closed)."""
        for held in self.early_keys.ready(self.screen):
            if isinstance(held, events.Key) and not held.is_printable:
                if self.focused is not None:
                    await take_typed(self.focused)
                if await self._check_bindings(held.key, priority=True) or (
                    await self._check_bindings(held.key)
                ):
                    continue
            await self._deliver(held)

    async def _typed(self, key: Typed) -> None:
        """A key typed: after any held for the screen on top, unless it must wait too; and
        behind the keys the focused widget has yet to take, if there are any."""
        await self._release()
        if self.early_keys.hold(self.screen, key):
            return
        focused = self.focused
        # Not behind what a text field has yet to take: its letters never come back, and the
        # keys after a priority key there (esc, enter) belong where it moves the focus.
        if focused is not None and not takes_text(focused) and keys_waiting(focused):
            self.early_keys.sent(key, self.screen, focused, behind=True)
            focused._forward_event(key)
            return
        await self._deliver(key)

    async def _deliver(self, key: Typed) -> None:
        """Send a key on as Textual does, noting where it went."""
        self.early_keys.sent(key, self.screen, self.focused)
        await super().on_event(key)
