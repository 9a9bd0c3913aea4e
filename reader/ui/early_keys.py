"""Keys typed into a dialog before it can take them.

A key that opens a dialog (``t``, ``n``, ``i``, ``e``, ``Y``) does so when it comes back
from the focused widget, and by then the keys typed right behind it (a fast typist's, a
terminal's over a slow link, a paste) are already on their way through that widget, on the
screen below. Textual looks their bindings up on the dialog, where they match nothing, and
they are lost; and until the dialog's field has the focus, a key given to the dialog is lost
the same way. Those keys were typed for the dialog: the app holds them while it is not ready
and hands them on, in the order typed and ahead of any later key, once it has the focus.
"""

from __future__ import annotations

import weakref

from textual import events
from textual.screen import Screen


class TakesTyping:
    """Marks a screen whose first focus is a place to type (or to choose from): keys typed
    before it is ready are held for it rather than lost."""


class EarlyKeys:
    """Which screen each key was sent to, and the keys held for a dialog not yet ready."""

    def __init__(self) -> None:
        self._held: list[events.Key] = []
        self._for: Screen[object] | None = None
        self._sent_to: weakref.WeakKeyDictionary[events.Key, Screen[object]] = (
            weakref.WeakKeyDictionary()
        )

    def sent(self, key: events.Key, screen: Screen[object]) -> None:
        """Note that ``key`` arrived while ``screen`` was on top."""
        self._sent_to[key] = screen

    def came_back_late(self, key: events.Key, screen: Screen[object]) -> bool:
        """Whether ``key``, back from the widget it went to, was typed for ``screen``: a
        dialog that opened while the key was on its way through the screen below."""
        sent_to = self._sent_to.get(key)
        return (
            sent_to is not None and sent_to is not screen and isinstance(screen, TakesTyping)
        )

    def hold(self, screen: Screen[object], key: events.Key) -> bool:
        """Hold ``key`` when ``screen`` is a dialog not ready to take it, or one for which
        keys typed earlier still wait; whether it was held."""
        if self._held and screen is not self._for:
            # The dialog closed before it took the focus: its keys go with it, never to
            # the view under it, where a letter is a command.
            self._held.clear()
        if isinstance(screen, TakesTyping) and (screen.focused is None or self._held):
            self._for = screen
            self._held.append(key)
            return True
        return False

    def ready(self, screen: Screen[object]) -> list[events.Key]:
        """The keys held for ``screen`` once it has taken the focus (to be handed on first),
        and none otherwise."""
        if not self._held or screen is not self._for or screen.focused is None:
            return []
        held, self._held = self._held, []
        self._for = None
        return held


def again(key: events.Key) -> events.Key:
    """A key as new, to be sent again from the start."""
    fresh = events.Key(key.key, key.character)
    fresh.set_sender(key._sender)  # type: ignore[arg-type]
    return fresh
