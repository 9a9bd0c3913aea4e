"""Keys typed into a dialog before it can take them.

A key that opens a dialog (``t``, ``n``, ``i``, ``e``, ``Y``) does so when it comes back
from the focused widget, and by then the keys typed right behind it (a fast typist's, a
terminal's over a slow link, a paste) are already on their way through that widget, on the
screen below. Textual looks their bindings up on the dialog, where they match nothing, and
they are lost; and until the dialog's field has the focus, a key given to the dialog is lost
the same way, and so is a paste. Those keys were typed for the dialog: the app holds them
while it is not ready and hands them on, in the order typed and ahead of any later key, once
it has the focus.
"""

from __future__ import annotations

import sys
import weakref
from collections.abc import Iterable

from msgspec import Struct
from textual import events
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Input

#: What is typed: a key, or a paste (a terminal's bracketed paste, all its text at once).
Typed = events.Key | events.Paste


class TakesTyping:
    """Marks a screen whose first focus is a place to type (or to choose from): keys typed
    before it is ready are held for it rather than lost."""

    focused: Widget | None

    def ready_for_keys(self) -> bool:
        """Whether the place to type has the focus (not, say, the scrolling form around
        it, which a screen may focus first)."""
        return self.focused is not None and takes_text(self.focused)

    def closing(self) -> bool:
        """Whether the screen is closing at the user's word, waiting only to store what it
        holds: keys typed behind the key that closes it are held, then go to the screen
        under it."""
        return False


class HandOn(events.Event):
    """A screen the user closed has gone: the keys typed behind the key that closed it,
    held while it stored what it holds, go on to the screen now on top."""


class _Sent(Struct, frozen=True):
    """Where a key was sent: the screen on top, the widget with the focus, and whether it
    went behind keys typed before it that the widget had yet to take."""

    screen: Screen[object]
    widget: Widget | None
    behind: bool


class EarlyKeys:
    """Where each key was sent, and the keys held for a dialog not yet ready."""

    def __init__(self) -> None:
        self._held: list[Typed] = []
        self._for: Screen[object] | None = None
        self._sent: weakref.WeakKeyDictionary[Typed, _Sent] = weakref.WeakKeyDictionary()

    def sent(self, key: Typed, screen: Screen[object], widget: Widget | None = None,
             *, behind: bool = False) -> None:
        """Note that ``key`` went to ``widget`` on ``screen`` (``behind`` earlier keys)."""
        self._sent[key] = _Sent(screen, widget, behind)

    def came_back_late(
        self, key: Typed, screen: Screen[object], focused: Widget | None
    ) -> bool:
        """Whether ``key``, back from the widget it went to, was typed for what has the
        focus now: a dialog that opened while the key was on its way through the screen
        below, or, for a key that waited behind others, whatever they moved the focus to
        (the search box ``/`` went to)."""
        sent = self._sent.get(key)
        if sent is None:
            return False
        if sent.screen is not screen:
            return sent.behind or isinstance(screen, TakesTyping)
        return sent.behind and sent.widget is not focused

    def waited(self, key: Typed) -> bool:
        """Whether ``key`` went behind others: its priority binding, passed over on its way
        in so that it would not act before them, is looked up as it comes back."""
        sent = self._sent.get(key)
        return sent is not None and sent.behind

    def hold(self, screen: Screen[object], key: Typed) -> bool:
        """Hold ``key`` when ``screen`` is a dialog not ready to take it, or one for which
        keys typed earlier still wait; whether it was held."""
        if self._held and screen is not self._for:
            # The dialog closed before it took the focus: its keys go with it, never to
            # the view under it, where a letter is a command.
            self._held.clear()
        if isinstance(screen, TakesTyping) and (not screen.ready_for_keys() or self._held):
            self._for = screen
            self._held.append(key)
            return True
        return False

    def passed_on(self, screen: Screen[object]) -> list[Typed]:
        """The keys held for a screen the user closed, once it has gone and ``screen`` is
        on top: they were typed behind the key that closed it, to act where it leaves the
        focus (as if typed now, in order)."""
        if self._held and screen is not self._for and isinstance(self._for, TakesTyping) and (
            self._for.closing()
        ):
            held, self._held, self._for = self._held, [], None
            return held
        return []

    def ready(self, screen: Screen[object]) -> list[Typed]:
        """The keys held for ``screen`` once it has taken the focus (to be handed on first),
        and none otherwise."""
        if not self._held or screen is not self._for or not (
            isinstance(screen, TakesTyping) and screen.ready_for_keys()
        ):
            return []
        held, self._held = self._held, []
        self._for = None
        return held


def takes_text(widget: Widget) -> bool:
    """Whether ``widget`` is a place to type (a line or a text area): the letters sent to it
    are taken there and never come back."""
    if isinstance(widget, Input):
        return True
    # Looked up, not imported: the text area is loaded only once the note editor opens.
    text_area = sys.modules.get("textual.widgets._text_area")
    return text_area is not None and isinstance(widget, text_area.TextArea)


def keys_waiting(widget: Widget) -> bool:
    """Whether keys sent to ``widget`` wait in its queue, or on their way back up through
    its parents to the screen, not yet acted on."""
    for node in widget.ancestors_with_self:
        if node is widget.app:
            break  # the keys not yet sent anywhere: they come after this one
        waiting: Iterable[object] = node._message_queue.values
        if any(isinstance(message, (events.Key, events.Paste)) for message in waiting):
            return True
    return False


def again(key: Typed) -> Typed:
    """A key or a paste as new, to be sent again from the start."""
    fresh: Typed = (
        events.Key(key.key, key.character) if isinstance(key, events.Key)
        else events.Paste(key.text)
    )
    fresh.set_sender(key._sender)  # type: ignore[arg-type]
    return fresh
