"""Waiting for what the app or another process does by itself (a timer, a worker, a poll):
poll a condition, with a deadline generous enough for a busy machine."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

#: Seconds before a wait gives up. Far beyond what anything takes: a wait that fails
#: means the thing never happened, not that the machine was slow.
TIMEOUT = 60.0


async def until(
    pilot: Any, condition: Callable[[], object], what: str = "", timeout: float = TIMEOUT
) -> None:
    """Let the app run until ``condition()`` holds; fail, saying ``what``, after ``timeout``."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"never happened in {timeout:.0f} s: {what or condition}")
        await pilot.pause(0.02)


def wait_for(condition: Callable[[], object], what: str = "", timeout: float = TIMEOUT) -> None:
    """Poll ``condition()`` outside an app until it holds; fail after ``timeout``."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"never happened in {timeout:.0f} s: {what or condition}")
        time.sleep(0.02)
