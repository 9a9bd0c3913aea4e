"""Clipboard routes, each tried for real: a stand-in xclip on PATH, OSC 52, no route."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pyperclip
import pytest

from reader.cite.clipboard import copy_text


@pytest.fixture
def fake_xclip(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An ``xclip`` on PATH that records what it is given, and a display to find it by."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    record = tmp_path / "clipboard.txt"
    script = bin_dir / "xclip"
    script.write_text(f"#!/bin/sh\ncat > '{record}'\n", encoding="utf-8")
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("DISPLAY", ":99")
    # pyperclip picks its tool once per process; make it look again with this PATH.
    monkeypatch.setattr(pyperclip, "copy", pyperclip.lazy_load_stub_copy)
    monkeypatch.setattr(pyperclip, "paste", pyperclip.lazy_load_stub_paste)
    return record


def test_pyperclip_route_names_the_tool(fake_xclip: Path) -> None:
    sent: list[str] = []
    outcome = copy_text("@misc{x,\n}\n", "BibTeX", osc52=sent.append)
    assert outcome.ok and outcome.route == "xclip"
    assert outcome.message.startswith("Copied BibTeX via xclip")
    assert fake_xclip.read_text(encoding="utf-8") == "@misc{x,\n}\n"
    assert sent == []


def test_without_a_display_osc52_is_used_and_not_claimed_as_confirmed() -> None:
    sent: list[str] = []
    outcome = copy_text("text", "BibTeX", osc52=sent.append)
    assert sent == ["text"]
    assert outcome.route == "osc52"
    assert outcome.message.startswith("Sent BibTeX to the terminal clipboard (OSC 52")


def test_a_failing_route_is_never_reported_as_a_copy() -> None:
    def broken(_: str) -> None:
        raise OSError("terminal went away")

    outcome = copy_text("text", "BibTeX", osc52=broken)
    assert not outcome.ok
    assert "Could not copy" in outcome.message


def test_no_route_at_all() -> None:
    outcome = copy_text("text", "BibTeX")
    assert not outcome.ok and outcome.route == "none"


def test_file_route_when_nothing_else_is_reachable(tmp_path: Path) -> None:
    target = tmp_path / "clipboard.txt"
    outcome = copy_text("@misc{x}", "BibTeX", file=target)
    assert outcome.ok and outcome.route == "file"
    assert target.read_text(encoding="utf-8") == "@misc{x}"
    assert str(target) in outcome.message


def test_osc52_keeps_a_copy_in_the_file_and_says_it_is_unconfirmed(tmp_path: Path) -> None:
    target = tmp_path / "clipboard.txt"
    sent: list[str] = []
    outcome = copy_text("text", "BibTeX", osc52=sent.append, file=target)
    assert sent == ["text"] and not outcome.confirmed
    assert "not confirmed" in outcome.message and str(target) in outcome.message
    assert target.read_text(encoding="utf-8") == "text"


def test_routes_can_be_chosen(fake_xclip: Path, tmp_path: Path) -> None:
    outcome = copy_text("text", "BibTeX", routes=("file",), file=tmp_path / "c.txt")
    assert outcome.route == "file"
    assert not fake_xclip.exists()


def test_osc52_sequence_and_its_tmux_wrapping() -> None:
    import base64

    from reader.cite.clipboard import osc52_sequence

    plain = osc52_sequence("hé")
    assert plain == "\x1b]52;c;" + base64.b64encode("hé".encode()).decode() + "\a"
    wrapped = osc52_sequence("hé", tmux=True)
    assert wrapped.startswith("\x1bPtmux;\x1b\x1b]52;c;") and wrapped.endswith("\a\x1b\\")


def test_routes_from_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("READER_CLIPBOARD", "file")
    sent: list[str] = []
    outcome = copy_text("text", "BibTeX", osc52=sent.append, file=tmp_path / "c.txt")
    assert outcome.route == "file" and sent == []


@pytest.mark.parametrize(("setting", "said"), [
    ("off", "tmux passes it on only with `set -g allow-passthrough on`, off here"),
    ("on", "tmux passes it on (allow-passthrough is on)"),
])
def test_inside_tmux_the_copy_says_whether_tmux_passes_it_on(
    setting: str, said: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Inside tmux the sentence read as if tmux had passed the sequence on, where its
    default holds it back: it says what tmux is set to do here (a stand-in tmux on PATH)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    tmux = bin_dir / "tmux"
    tmux.write_text(f"#!/bin/sh\necho {setting}\n", encoding="utf-8")
    tmux.chmod(tmux.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("TMUX", "/tmp/tmux-0/default,1,0")
    outcome = copy_text("text", "BibTeX", osc52=lambda _: None)
    assert said in outcome.message
