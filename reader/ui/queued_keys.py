"""Keys a widget has yet to take: a priority binding runs ahead of the keys typed before
it, which still wait in the focused widget's queue."""

from __future__ import annotations

import asyncio

from textual.widget import Widget


async def take_typed(widget: Widget) -> None:
    """Let ``widget`` take the keys typed before the one being handled that still wait in
    its queue (a fast typist's, or a terminal's that sent several at once)."""
    for _ in range(100):
        if widget._message_queue.empty():
            return
        await asyncio.sleep(0)
