"""The ``reader`` command's entry point, apart from ``reader.cli`` so that it runs before
the command's modules are imported.

It turns the cyclic garbage collector off first. Importing Textual and the reader makes
objects by the hundred thousand, all of them kept for the life of the process, and the
collections that walk them again and again made a quarter of the time to the first
frame. The reader turns the collector back on after its first frame (see
``reader.ui.app``); every other command turns it on before it runs.
"""

from __future__ import annotations

import gc


def main() -> None:
    """Run the ``reader`` command."""
    gc.disable()
    from reader.cli import main as run

    run()
