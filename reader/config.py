"""The user's config file: keymap overrides, theme, default citation, clipboard routes.

Part of the headless core: it reads and checks the TOML file but knows nothing of Textual.
What only the UI knows (the binding ids, the theme names) is passed in, so a CLI that
never starts the app can check the same file the app reads.

A file that cannot be read or parsed gives the defaults; a setting that is wrong gives the
default for that setting (or, in the keymap, for that one binding) and the rest is kept.
Every problem becomes one sentence naming the file and the key, in ``Config.problems``.
"""

from __future__ import annotations

import os
import unicodedata
from collections.abc import Collection, Mapping
from pathlib import Path
from typing import Any

import platformdirs
from msgspec import Struct, field

from reader.cite.format_names import CITATION_FORMATS, ROUTES
from reader.locations import APP_NAME

CONFIG_FILE = "config.toml"

#: What ``y`` copies unless the config says otherwise: a BibTeX entry.
DEFAULT_CITATION: tuple[str, str] = ("bibtex", "")

#: The theme the app starts in when none is configured (Textual's own default).
DEFAULT_THEME = "textual-dark"

SETTINGS = ("keymap", "theme", "citation", "clipboard")

MODIFIERS = ("ctrl", "alt", "shift", "meta", "super", "hyper")

#: Textual's short names for a few characters, by their Unicode names the Textual way.
SHORT_KEY_NAMES = {
    "solidus": "slash", "reverse_solidus": "backslash", "commercial_at": "at",
    "hyphen_minus": "minus", "plus_sign": "plus", "low_line": "underscore",
}

#: Key names that are not characters (characters go by their Unicode name or themselves).
NAMED_KEYS = frozenset(
    {
        "escape", "enter", "tab", "space", "backspace", "delete", "insert", "home", "end",
        "pageup", "pagedown", "up", "down", "left", "right",
        *SHORT_KEY_NAMES.values(),
    }
    | {f"f{n}" for n in range(1, 25)}
)


class Config(Struct, frozen=True):
    """The effective settings, and what was wrong with the file they came from."""

    #: Binding id to keys (comma-separated, Textual's form), only those the user changed.
    keymap: dict[str, str] = field(default_factory=dict)
    #: A theme name, or None for the default theme.
    theme: str | None = None
    #: The ``(format, style)`` pair :func:`reader.cite.formats.render` takes, used by ``y``.
    citation: tuple[str, str] = DEFAULT_CITATION
    #: Clipboard routes in order, or None for every route (or ``READER_CLIPBOARD``).
    clipboard: tuple[str, ...] | None = None
    #: The file the settings were read from (whether or not it exists).
    path: Path | None = None
    #: One sentence per problem found; empty when the file is fine or absent.
    problems: tuple[str, ...] = ()


def config_path() -> Path:
    """``READER_CONFIG`` when set, else ``config.toml`` in the user config directory."""
    env = os.environ.get("READER_CONFIG")
    if env:
        return Path(env).expanduser()
    return Path(platformdirs.user_config_dir(APP_NAME, appauthor=False)) / CONFIG_FILE


def load_config(
    path: Path | None = None,
    *,
    binding_ids: Collection[str] | None = None,
    themes: Collection[str] | None = None,
) -> Config:
    """Read and check the config file; a missing file gives the defaults, silently.

    ``binding_ids`` and ``themes`` are what the keymap and the theme are checked against;
    leave them out to skip those checks (a caller without a UI).
    """
    path = config_path() if path is None else path
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return Config(path=path)
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        return Config(path=path, problems=(f"{path}: cannot be read ({reason}); "
                                           "using all the defaults",))
    return parse_config(text, path, binding_ids=binding_ids, themes=themes)


def parse_config(
    text: str,
    path: Path,
    *,
    binding_ids: Collection[str] | None = None,
    themes: Collection[str] | None = None,
) -> Config:
    """Check the TOML ``text`` of the file at ``path``; see :func:`load_config`."""
    import tomllib  # only when there is a file: most starts have none

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        # tomllib's message ends with "(at line L, column C)".
        return Config(path=path, problems=(f"{path}: not valid TOML: {exc}; "
                                           "using all the defaults",))
    problems: list[str] = []

    def problem(key: str, message: str, fallback: str = "using the default") -> None:
        problems.append(f"{path}: {key}: {message}; {fallback}")

    for key in data:
        if key not in SETTINGS:
            problem(key, f"unknown setting (known: {', '.join(SETTINGS)})", "ignored")

    keymap: dict[str, str] = {}
    raw_keymap = data.get("keymap", {})
    if not isinstance(raw_keymap, dict):
        problem("keymap", f"must be a table of binding ids and keys, not {_kind(raw_keymap)}",
                "using the default keys")
    else:
        for binding_id, value in _flatten(raw_keymap).items():
            where = f"keymap.{binding_id}"
            if binding_ids is not None and binding_id not in binding_ids:
                problem(where, "unknown binding id (`reader config show` lists them)",
                        "ignored")
                continue
            keys, error = _keys(value)
            if error:
                problem(where, error, "keeping the default keys")
            else:
                keymap[binding_id] = keys

    theme: str | None = None
    raw_theme = data.get("theme")
    if raw_theme is not None:
        if not isinstance(raw_theme, str) or not raw_theme.strip():
            kind = "an empty string" if isinstance(raw_theme, str) else _kind(raw_theme)
            problem("theme", f"must be a theme name, not {kind}")
        elif themes is not None and raw_theme.strip() not in themes:
            problem("theme", f"unknown theme {raw_theme.strip()!r} (known: "
                    f"{', '.join(sorted(themes))})")
        else:
            theme = raw_theme.strip()

    citation = DEFAULT_CITATION
    if "citation" in data:
        parsed, error = parse_citation(data["citation"], base=path.parent)
        if error:
            problem("citation", error)
        else:
            citation = parsed

    clipboard: tuple[str, ...] | None = None
    if "clipboard" in data:
        routes, error = _routes(data["clipboard"])
        if error:
            problem("clipboard", error)
        else:
            clipboard = routes

    return Config(keymap, theme, citation, clipboard, path, tuple(problems))


def parse_citation(value: object, base: Path | None = None) -> tuple[tuple[str, str], str]:
    """The ``(format, style)`` pair a citation setting names, and an error ("" if none).

    A format name (``bibtex``, ``pandoc`` …) stands for itself; anything else is a CSL
    style (``apa``, ``ieee``, a ``.csl`` file) rendered as a plain-text bibliography. A
    relative ``.csl`` path is taken from ``base`` (the config file's directory), not from
    wherever the reader happens to be started.
    """
    if not isinstance(value, str) or not value.strip():
        kind = "an empty string" if isinstance(value, str) else _kind(value)
        return DEFAULT_CITATION, f"must be a format or a style name, not {kind}"
    name = value.strip()
    if name.lower() in CITATION_FORMATS:
        fmt = name.lower()
        return ((fmt, "apa") if fmt == "text" else (fmt, "")), ""
    # Imported here: the citation engine is needed only to check a style, and the reader
    # starts sooner without it.
    from reader.cite.csl_styles import CitationError, style_path

    file = Path(name).expanduser()
    if base is not None and name.lower().endswith(".csl") and not file.is_absolute():
        name = str(base / file)
    try:
        style_path(name)
    except CitationError as exc:
        formats = ", ".join(f for f in CITATION_FORMATS if f != "text")
        return DEFAULT_CITATION, f"{exc}; the formats are {formats}"
    return ("text", name), ""


def citation_name(citation: tuple[str, str]) -> str:
    """The setting that stands for a ``(format, style)`` pair (the inverse of parsing)."""
    fmt, style = citation
    return style if fmt == "text" and style else fmt


def _flatten(table: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """``{"paper": {"star": "x"}}`` as ``{"paper.star": "x"}``: an unquoted dotted key in
    TOML makes nested tables, and both spellings should work."""
    flat: dict[str, Any] = {}
    for key, value in table.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            flat.update(_flatten(value, f"{name}."))
        else:
            flat[name] = value
    return flat


def _keys(value: object) -> tuple[str, str]:
    """The keys of a keymap entry in Textual's comma-separated form, and an error."""
    if isinstance(value, str):
        keys = [k.strip() for k in value.split(",")]
    elif isinstance(value, list) and all(isinstance(k, str) for k in value):
        keys = [k.strip() for k in value]
    else:
        return "", f"must be a key or a list of keys, not {_kind(value)}"
    if not keys or not all(keys):
        return "", "an empty key (a comma is written `comma`)"
    for key in keys:
        error = key_error(key)
        if error:
            return "", error
    return ",".join(keys), ""


def key_error(key: str) -> str:
    """Why ``key`` is not a key Textual can bind (``ctrl+s``, ``S``, ``f5``), or ""."""
    *modifiers, name = key.split("+")
    for modifier in modifiers:
        if not modifier or not name:
            return f"{key!r}: a plus sign is written `plus`"
        if modifier not in MODIFIERS:
            return f"{key!r}: unknown modifier {modifier!r} (known: {', '.join(MODIFIERS)})"
    if len(name) == 1:
        if name.isprintable() and not name.isspace():
            return ""
        return f"{key!r}: not a printable character (space is written `space`)"
    if name in NAMED_KEYS or _character_name(name):
        return ""
    return (f"{key!r}: unknown key name {name!r} (a character like `S` or `?`, a name like "
            "`enter`, `escape`, `space`, `pagedown`, `f5`, `question_mark`)")


def _character_name(name: str) -> bool:
    """Whether ``name`` is a character's Unicode name the Textual way (``question_mark``)."""
    try:
        return len(unicodedata.lookup(name.replace("_", " ").upper())) == 1
    except KeyError:
        return False


def _routes(value: object) -> tuple[tuple[str, ...], str]:
    """Clipboard routes from a route or a list of them, and an error ("" if none)."""
    names = [value] if isinstance(value, str) else value
    known = ", ".join(ROUTES)
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        return (), f"must be a route or a list of routes ({known}), not {_kind(value)}"
    routes: list[str] = []
    for name in (n.strip() for n in names):
        if name not in ROUTES:
            return (), f"unknown route {name!r} (known: {known})"
        if name not in routes:
            routes.append(name)
    if not routes:
        return (), f"an empty list of routes (known: {known})"
    return tuple(routes), ""


def _kind(value: object) -> str:
    """How a TOML value reads in a message: ``an integer``, ``a table`` …"""
    kinds = {bool: "true/false", int: "an integer", float: "a number", str: "a string",
             list: "a list", dict: "a table"}
    return next((k for t, k in kinds.items() if isinstance(value, t)), "a date")


# --- writing --------------------------------------------------------------------------------


def toml_string(text: str) -> str:
    """``text`` as a TOML basic string."""
    escaped = []
    for char in text:
        if char in ('"', "\\"):
            escaped.append("\\" + char)
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            escaped.append(f"\\u{ord(char):04x}")
        else:
            escaped.append(char)
    return '"' + "".join(escaped) + '"'


def to_toml(config: Config, default_keys: Mapping[str, str], routes: tuple[str, ...]) -> str:
    """The effective settings as a TOML file: every setting and every binding, the
    configured ones marked. ``default_keys`` maps each binding id to its default keys;
    ``routes`` are the clipboard routes in effect."""
    mark = "  # configured"
    lines = [
        f"theme = {toml_string(config.theme or DEFAULT_THEME)}"
        + (mark if config.theme else "  # the default"),
        f"citation = {toml_string(citation_name(config.citation))}"
        + (mark if config.citation != DEFAULT_CITATION else "  # the default"),
        "clipboard = [" + ", ".join(toml_string(r) for r in routes) + "]"
        + ("  # from READER_CLIPBOARD" if tuple(routes) != (config.clipboard or ROUTES)
           else mark if config.clipboard is not None else "  # the default"),
        "",
        "[keymap]",
    ]
    for binding_id in sorted(set(default_keys) | set(config.keymap)):
        keys = config.keymap.get(binding_id, default_keys.get(binding_id, ""))
        lines.append(f"{toml_string(binding_id)} = {toml_string(keys)}"
                     + (mark if binding_id in config.keymap else ""))
    return "\n".join(lines) + "\n"


#: A commented starting point for the config file (``reader config init``).
TEMPLATE = """\
# reader configuration. Every setting is optional; remove the "#" to use one.
# `reader config show` prints the settings in effect and every binding id.

# A theme: one of Textual's (textual-dark, textual-light, nord, gruvbox, dracula,
# tokyo-night, monokai, catppuccin-mocha, solarized-light …) or reader's own
# (reader-ink, reader-paper).
# theme = "reader-ink"

# What `y` copies: a format (bibtex, biblatex, csljson, key, latex, pandoc, markdown)
# or a citation style (apa, mla, chicago-author-date, ieee, nature, harvard, acm,
# a path to a .csl file).
# citation = "apa"

# Clipboard routes, tried in order: system, osc52, file.
# The READER_CLIPBOARD environment variable, when set, wins over this.
# clipboard = ["osc52", "file"]

# Keys by binding id: one key, several separated by commas, or a list.
[keymap]
# "paper.star" = "asterisk"
# "paper.copy" = ["y", "ctrl+y"]
# "list.down" = "j,down,ctrl+n"
"""
