"""Put text on the clipboard by the best route available, and say truthfully which.

Routes, in order (each can be left out): the system clipboard through pyperclip (xclip,
xsel, wl-copy, pbcopy …) when there is a local display; OSC 52, an escape sequence asking
the terminal to set its clipboard (works over SSH and, wrapped, through tmux, but the
terminal never confirms it); a file in the library directory, which always works.
"""

from __future__ import annotations

import base64
import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from reader.cite.format_names import ROUTES


@dataclass(frozen=True, slots=True)
class CopyOutcome:
    """Where the text went, whether that is confirmed, and the sentence to show the user."""

    ok: bool
    route: str
    message: str
    confirmed: bool = False


def has_local_display() -> bool:
    """Whether a system clipboard tool can reach this user's desktop (not over plain SSH)."""
    if sys.platform in ("darwin", "win32"):
        return not os.environ.get("SSH_CONNECTION")
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def in_tmux() -> bool:
    """Whether we run inside tmux, which holds back OSC 52 unless it is wrapped."""
    return bool(os.environ.get("TMUX"))


def tmux_passthrough() -> str | None:
    """tmux's ``allow-passthrough`` ("on", "off" or "all"), which decides whether the
    wrapped OSC 52 reaches the terminal; None where tmux cannot be asked."""
    try:
        asked = subprocess.run(["tmux", "show-options", "-gv", "allow-passthrough"],
                               capture_output=True, text=True, timeout=2, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return (asked.stdout.strip() or None) if asked.returncode == 0 else None


def osc52_sequence(text: str, tmux: bool = False) -> str:
    """The OSC 52 escape sequence that sets the clipboard; wrapped for tmux passthrough
    (every ESC doubled inside a DCS ``tmux;`` envelope) when ``tmux`` is true."""
    payload = base64.b64encode(text.encode("utf-8")).decode("ascii")
    sequence = f"\x1b]52;c;{payload}\a"
    if tmux:
        return "\x1bPtmux;" + sequence.replace("\x1b", "\x1b\x1b") + "\x1b\\"
    return sequence


def _pyperclip_copy(text: str) -> str:
    """Copy with pyperclip and return the name of the tool it used; raises on failure."""
    import pyperclip

    pyperclip.copy(text)
    # pyperclip picks an implementation lazily; its function name names the tool.
    name = getattr(pyperclip.copy, "__name__", "")
    tool = name.removeprefix("copy_").removeprefix("init_") or "the system clipboard"
    return {"wl": "wl-copy", "osx_pbcopy": "pbcopy", "osx_pyobjc": "pbcopy"}.get(tool, tool)


def size_label(text: str) -> str:
    """A short human size of the copied text."""
    n = len(text.encode("utf-8"))
    return f"{n:,} bytes" if n < 10_000 else f"{n / 1024:.0f} KiB"


def write_clip_file(text: str, path: Path) -> Path:
    """Write the text where the user can always find it; atomic, so never half a citation."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)
    return path


def configured_routes(default: Sequence[str] | None = None) -> tuple[str, ...]:
    """The routes to try, in order: ``READER_CLIPBOARD`` (e.g. ``osc52,file``), else
    ``default`` (the config file's choice), else all.

    The environment wins over the config file because it is the narrower choice: one
    shell, one SSH session, one tmux pane.
    """
    chosen = os.environ.get("READER_CLIPBOARD", "")
    routes = tuple(r.strip() for r in chosen.split(",") if r.strip() in ROUTES)
    return routes or tuple(default or ()) or ROUTES


def copy_text(
    text: str,
    what: str = "text",
    osc52: Callable[[str], None] | None = None,
    use_system: bool | None = None,
    *,
    file: Path | None = None,
    routes: Sequence[str] | None = None,
) -> CopyOutcome:
    """Copy ``text`` by the first route that works; ``osc52`` sends the escape sequence
    (the UI passes the app's), ``file`` is where the file route writes."""
    routes = configured_routes() if routes is None else routes
    size = size_label(text)
    failures: list[str] = []
    system = use_system if use_system is not None else has_local_display()
    if "system" in routes and system:
        try:
            tool = _pyperclip_copy(text)
        except Exception as exc:  # noqa: BLE001 - pyperclip raises several unrelated types
            failures.append(f"system clipboard: {type(exc).__name__}")
        else:
            return CopyOutcome(True, tool, f"Copied {what} via {tool} ({size})", confirmed=True)
    if "osc52" in routes and osc52 is not None:
        try:
            osc52(text)
        except Exception as exc:  # noqa: BLE001 - report, never claim a copy that raised
            failures.append(f"OSC 52: {exc}")
        else:
            # OSC 52 can't be confirmed: say where it was sent, not that it arrived, and keep
            # a copy in the file so the text can always be found.
            message = f"Sent {what} to the terminal clipboard (OSC 52, {size}; not confirmed)"
            if in_tmux():
                # Said as it is here: tmux's default (off) holds the sequence back.
                passing = tmux_passthrough()
                message += ("; tmux passes it on (allow-passthrough is on)"
                            if passing in ("on", "all") else
                            "; tmux passes it on only with `set -g allow-passthrough on`"
                            + (", off here" if passing == "off" else ""))
            if "file" in routes and file is not None:
                try:
                    message += f"; also saved to {write_clip_file(text, file)}"
                except OSError:
                    pass
            return CopyOutcome(True, "osc52", message)
    if "file" in routes and file is not None:
        try:
            write_clip_file(text, file)
        except OSError as exc:
            failures.append(f"file: {exc.strerror or exc}")
        else:
            return CopyOutcome(
                True, "file", f"No clipboard reachable: wrote {what} to {file} ({size})"
            )
    reason = "; ".join(failures) or "no clipboard route available"
    return CopyOutcome(False, "none", f"Could not copy {what}: {reason}")
