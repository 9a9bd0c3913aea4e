"""A one-line text field whose editing keys act in the order typed.

Textual runs a widget's key binding as the key comes back up from the widget, after the
keys typed behind it have reached it: typed in one burst (a search running, a fast typist,
a slow link), "abc", backspace, "d" left "abc" in the field, and "abc", ctrl+u, "Omega" an
empty one. :class:`LineInput` runs Textual's own editing and moving keys (backspace,
delete, arrows, home, end, ctrl+u, ctrl+w, ctrl+k …) as they reach it.
"""

from __future__ import annotations

from collections.abc import Sequence

from textual import events
from textual.binding import Binding
from textual.widget import Widget
from textual.widgets import Input

from reader.ui.queued_keys import take_typed


def editing_keys(keys: Sequence[Binding | object], actions: tuple[str, ...]) -> dict[str, str]:
    """The action of each key of ``keys`` (a widget's bindings) whose action begins with
    one of ``actions``: the keys that edit or move, which act in the order typed."""
    return {
        key: binding.action
        for binding in keys
        if isinstance(binding, Binding) and binding.action.startswith(actions)
        for key in binding.key.split(",")
    }


#: Textual's keys that edit a line or move in it, by key.
_EDITING = editing_keys(Input.BINDINGS, ("delete_", "cursor_", "home", "end", "select_all"))


class LineInput(Input):
    """Textual's Input, its editing keys run as they reach it (see the module)."""

    async def _on_key(self, event: events.Key) -> None:
        action = _EDITING.get(event.key)
        if action is None:
            await super()._on_key(event)
            return
        event.stop()
        event.prevent_default()
        await self.run_action(action)


async def edit_in_order(widget: Widget | None, key: events.Event) -> bool:
    """Run ``key`` if it is an editing key of a one-line field that is not a LineInput
    (the command palette's, Textual's own), once the keys typed before it are in the
    field: as a binding it would act only after the keys typed behind it. Whether it ran."""
    if not isinstance(key, events.Key) or not isinstance(widget, Input) or isinstance(
        widget, LineInput
    ):
        return False
    action = _EDITING.get(key.key)
    if action is None:
        return False
    await take_typed(widget)
    await widget.run_action(action)
    return True
