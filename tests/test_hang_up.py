"""The window's terminal going away (its window closed, an SSH connection dropped): the
real ``reader`` on a pseudo-terminal, sent SIGHUP as the terminal sends it."""

from __future__ import annotations

import fcntl
import os
import pty
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

from reader.library import Library

ROOT = Path(__file__).resolve().parent.parent


def _read_until(master: int, wanted: bytes, seen: bytearray, timeout: float = 60.0) -> None:
    """Read what the program writes until ``wanted`` is among it."""
    deadline = time.monotonic() + timeout
    while wanted not in seen:
        if time.monotonic() > deadline:
            raise AssertionError(f"never shown: {wanted!r}")
        ready, _, _ = select.select([master], [], [], 0.05)
        if ready:
            try:
                seen += os.read(master, 65536)
            except OSError:
                raise AssertionError(f"the window ended before showing {wanted!r}") from None


def _drain(master: int, proc: subprocess.Popen[bytes], timeout: float = 60.0) -> None:
    """Read what the program writes until it ends."""
    deadline = time.monotonic() + timeout
    while proc.poll() is None and time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.05)
        if ready:
            try:
                os.read(master, 65536)
            except OSError:
                return


@pytest.mark.parametrize(("sent", "status"), [
    (signal.SIGHUP, 128 + signal.SIGHUP), (signal.SIGTERM, 0),
])
def test_a_note_typed_just_before_the_terminal_closes_is_stored(
    library: Library, sent: signal.Signals, status: int
) -> None:
    """Typed within the moment the editor waits before it saves, then the terminal closed
    (SIGHUP) or the process told to end (SIGTERM): the signal ended the process, and the
    text with it, with no draft left either. After SIGHUP the process ends at once, as
    closing the window over a terminal that is gone could wait for ever."""
    root = library.paths.root
    first = library.store.papers(library.store.all_ids()[:1])[0]
    library.close()
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    env = {**os.environ, "TERM": "xterm-256color", "TEXTUAL_ANIMATIONS": "none"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "reader", "--library", str(root)], stdin=slave, stdout=slave,
        stderr=slave, env=env, cwd=ROOT, start_new_session=True, close_fds=True,
    )
    os.close(slave)
    seen = bytearray()
    try:
        _read_until(master, first.title[:12].encode(), seen)
        os.write(master, b"n")
        _read_until(master, b"esc", seen)  # the editor is open
        os.write(master, b"Typed as the terminal closed")
        _read_until(master, b"as the terminal closed", seen)
        proc.send_signal(sent)
        if sent == signal.SIGHUP:
            os.close(master)  # the terminal gone, as after a hang-up
            master = -1
        else:
            _drain(master, proc)  # (what it says as it closes must not fill the terminal)
        assert proc.wait(timeout=60) == status
    finally:
        if master >= 0:
            os.close(master)
        if proc.poll() is None:
            proc.kill()
    again = Library(root)
    try:
        assert again.store.paper(first.id).note == "Typed as the terminal closed"
    finally:
        again.close()
