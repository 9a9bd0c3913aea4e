"""The bindings table seen through the user's keymap: ids, default keys, clashes, labels."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator, Mapping

from textual.binding import Binding
from textual.keys import format_key

from reader.config import SHORT_KEY_NAMES
from reader.ui import bindings

#: How the help screen writes some keys; the rest as Textual's footer does.
_LABELS = {"slash": "/", "question_mark": "?", "escape": "esc", "down": "↓", "up": "↑",
           "pagedown": "PgDn", "pageup": "PgUp", "enter": "enter", "space": "space"}


def binding_groups() -> Iterator[list[Binding]]:
    """Every list of bindings in the table, found at run time so new ones count too."""
    for value in vars(bindings).values():
        if isinstance(value, list) and value and all(isinstance(b, Binding) for b in value):
            yield value


def default_keys() -> dict[str, str]:
    """Each binding id with its default keys (Textual's comma-separated form)."""
    keys: dict[str, str] = {}
    for group in binding_groups():
        for binding in group:
            if binding.id is not None:
                keys.setdefault(binding.id, binding.key)
    return keys


def binding_ids() -> frozenset[str]:
    """The ids a keymap may name."""
    return frozenset(default_keys())


def keys_of(binding: Binding, keymap: Mapping[str, str]) -> str:
    """The keys of ``binding`` once the keymap is applied."""
    return keymap.get(binding.id, binding.key) if binding.id is not None else binding.key


def key_label(binding: Binding, keymap: Mapping[str, str] | None = None) -> str:
    """The keys of a binding as a person reads them (``j / ↓``), after the keymap."""
    keys = keys_of(binding, keymap or {})
    return " / ".join(_LABELS.get(k.strip(), format_key(k.strip())) for k in keys.split(","))


def label_of(binding_id: str, keymap: Mapping[str, str] | None = None) -> str:
    """The keys of the binding ``binding_id`` as a person reads them, after the keymap (the
    id itself if no binding has it)."""
    for group in binding_groups():
        for binding in group:
            if binding.id == binding_id:
                return key_label(binding, keymap)
    return binding_id


def normalize_key(key: str) -> str:
    """A key in Textual's long form (``?`` as ``question_mark``), to compare keys."""
    *modifiers, name = key.strip().split("+")
    if len(name) == 1 and not name.isalnum():
        try:
            name = unicodedata.name(name).lower().replace("-", "_").replace(" ", "_")
        except ValueError:
            pass
        name = SHORT_KEY_NAMES.get(name, name)
    return "+".join([*modifiers, name])


def clashes(keymap: Mapping[str, str]) -> list[str]:
    """Where the keymap gives a binding a key another binding of the same place keeps
    (Textual then drops that key from the other binding), one sentence each."""
    if not keymap:
        return []  # only a key remapped clashes (and the check was 1 ms of the first frame)
    found: list[str] = []
    for group in binding_groups():
        owners: dict[str, list[Binding]] = {}
        for binding in group:
            for key in keys_of(binding, keymap).split(","):
                owners.setdefault(normalize_key(key), []).append(binding)
        for key, holders in owners.items():
            remapped = [b for b in holders if b.id in keymap]
            if len(holders) < 2 or not remapped:
                continue
            for binding in remapped:
                others = ", ".join(str(b.id or b.action) for b in holders if b is not binding)
                found.append(f"keymap.{binding.id}: {format_key(key)!r} is also the key of "
                             f"{others}, which no longer answers to it")
    found += _shadowed(keymap)
    return found


def _shadowed(keymap: Mapping[str, str]) -> list[str]:
    """Main-screen keys the paper list takes first: a focused widget's bindings come before
    the app's, so a remapped key shared by the two reaches only the list."""
    list_keys: dict[str, Binding] = {}
    for binding in bindings.PAPER_LIST:
        assert isinstance(binding, Binding)
        for key in keys_of(binding, keymap).split(","):
            list_keys.setdefault(normalize_key(key), binding)
    found = []
    for binding in bindings.APP:
        assert isinstance(binding, Binding)
        for key in keys_of(binding, keymap).split(","):
            owner = list_keys.get(normalize_key(key))
            if owner is not None and (binding.id in keymap or owner.id in keymap):
                found.append(f"keymap: {format_key(key)!r} is the key of both {binding.id} and "
                             f"{owner.id}; on the paper list only {owner.id} answers")
    return found
