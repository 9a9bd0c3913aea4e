"""Put text on the clipboard by the best route available, and say truthfully which.

Routes, in order: the system clipboard through pyperclip (xclip, xsel, wl-copy, pbcopy …)
when there is a local display; then OSC 52, an escape sequence asking the terminal to set
its clipboard (works over SSH, but the terminal never confirms it).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class CopyOutcome:
    """Where the text went, and the sentence to show the user."""

    ok: bool
    route: str
    message: str


def has_local_display() -> bool:
    """Whether a system clipboard tool can reach this user's desktop."""
    if sys.platform in ("darwin", "win32"):
        return not os.environ.get("SSH_CONNECTION")
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


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
    return f"{n} bytes" if n < 10_000 else f"{n / 1024:.0f} KiB"


def copy_text(
    text: str,
    what: str = "text",
    osc52: Callable[[str], None] | None = None,
    use_system: bool | None = None,
) -> CopyOutcome:
    """Copy ``text``; ``osc52`` sends the escape sequence (the UI passes the app's)."""
    system_error = ""
    if use_system if use_system is not None else has_local_display():
        try:
            tool = _pyperclip_copy(text)
        except Exception as exc:  # noqa: BLE001 - pyperclip raises several unrelated types
            system_error = f" ({type(exc).__name__})"
        else:
            return CopyOutcome(True, tool, f"Copied {what} via {tool} ({size_label(text)})")
    if osc52 is not None:
        try:
            osc52(text)
        except Exception as exc:  # noqa: BLE001 - report, never claim a copy that raised
            return CopyOutcome(False, "none", f"Could not copy {what}: {exc}")
        # OSC 52 can't be confirmed: say where it was sent, not that it arrived.
        message = f"Sent {what} to the terminal clipboard (OSC 52, {size_label(text)})"
        if os.environ.get("TMUX"):
            message += "; inside tmux it arrives only with `set -g set-clipboard on`"
        return CopyOutcome(True, "osc52", message)
    return CopyOutcome(
        False, "none", f"Could not copy {what}: no clipboard tool reachable{system_error}"
    )
