"""The config file as the app uses it: checked against the real bindings and themes,
then applied (keymap, theme) with every problem shown to the user."""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path
from typing import Any

from msgspec import structs
from textual.app import App, InvalidThemeError
from textual.theme import BUILTIN_THEMES

from reader.config import Config, load_config
from reader.ui.keymap import binding_ids, clashes
from reader.ui.themes import THEMES


def register_themes(app: App[Any]) -> None:
    """Make reader's own themes available beside Textual's."""
    for theme in THEMES:
        app.register_theme(theme)


def theme_names() -> frozenset[str]:
    """Every theme the app offers: Textual's and reader's."""
    return frozenset(BUILTIN_THEMES) | {theme.name for theme in THEMES}


def load_ui_config(app: App[Any], path: Path | None = None) -> Config:
    """Read the config file (``READER_CONFIG`` or the default place), checked against the
    bindings and the themes ``app`` really has."""
    return check_config(path, app.available_themes)


def check_config(path: Path | None, themes: Collection[str]) -> Config:
    """Read the config file and check the keymap against the bindings table and the theme
    against ``themes``; keymap clashes become problems too."""
    config = load_config(path, binding_ids=binding_ids(), themes=themes)
    found = clashes(config.keymap)
    if found:
        prefix = f"{config.path}: " if config.path else ""
        config = structs.replace(
            config, problems=config.problems + tuple(prefix + c for c in found)
        )
    return config


def apply_config(app: App[Any], config: Config) -> None:
    """Apply the keymap and the theme, and say what was wrong with the file, if anything:
    the app always starts, on the defaults for whatever was wrong."""
    problems = list(config.problems)
    if config.keymap:
        app.set_keymap(config.keymap)
    if config.theme:
        try:
            app.theme = config.theme
        except InvalidThemeError:
            # A Config built elsewhere may name a theme this app lacks.
            problems.append(f"theme: unknown theme {config.theme!r}; using the default")
    if problems:
        app.notify(
            "\n".join(problems),
            title="Problems in the config file",
            severity="warning",
            timeout=20,
            markup=False,
        )
