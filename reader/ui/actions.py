"""The actions of the app's keys, run by the collaborators that own them.

Textual runs a key bound on the app (reader/ui/bindings.py) as the app's method
``action_<name>``, after asking the app's ``check_action`` whether it may. The app is
composed of collaborators, each keeping the actions of its feature beside its state
(``Triage.action_toggle_star``): :func:`route_actions` makes each of them the app's
``action_<name>``, so the keys, the footer and ``check_action`` find them where Textual
looks, and the app class stays small. Which of them may run where (and which the footer offers) is
:func:`enabled`, derived from the table of keys.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import App

from reader.ui import bindings
from reader.ui.early_keys import takes_text
from reader.ui.screens import reading_screen

if TYPE_CHECKING:
    from reader.library import SearchOutcome


def route_actions(app: App[None], *owners: object) -> None:
    """Make every ``action_*`` method of ``owners`` the action of that name of ``app``.

    An action two owners have, or one the app has already (Textual's own ``action_quit``),
    is a mistake, said at once rather than one of them silently winning."""
    for owner in owners:
        for name in dir(type(owner)):
            if not name.startswith("action_"):
                continue
            if hasattr(app, name):
                raise TypeError(f"{type(owner).__name__}.{name}: the app has that action")
            setattr(app, name, getattr(owner, name))


def enabled(app: App[None], action: str, shown: SearchOutcome | None) -> bool:
    """Whether ``action``, bound on the app, may run now (with ``shown`` the outcome of the
    search shown). The paper keys act on the main screen and in the reading view only, so
    the editor's and the help's footers don't offer keys that would do nothing there; the
    "did you mean" key only while a search suggests a query."""
    on_paper = len(app.screen_stack) == 1 or reading_screen(app.screen) is not None
    if action == "accept_suggestion":
        return shown is not None and bool(shown.suggestion) and on_paper
    if action in bindings.PAPER_ACTIONS and not on_paper:
        return False
    if app.focused is not None and takes_text(app.focused) and action in bindings.TYPED_IN_BOX:
        # Typed into the box (the search box, a dialog's field, the palette's), not run:
        # the footer offers the field's own keys instead.
        return False
    return True
