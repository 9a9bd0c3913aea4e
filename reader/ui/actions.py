"""The actions of the app's keys, run by the collaborators that own them.

Textual runs a key bound on the app (reader/ui/bindings.py) as the app's method
``action_<name>``, after asking the app's ``check_action`` whether it may. The app is
composed of collaborators, each keeping the actions of its feature beside its state
(``Triage.action_toggle_star``): :func:`route_actions` makes each of them the app's
``action_<name>``, so the keys, the footer and ``check_action`` find them where Textual
looks, and the app class stays small.
"""

from __future__ import annotations

from textual.app import App


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
