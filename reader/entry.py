"""The ``reader`` command's entry point, apart from ``reader.cli`` so that it runs before
the command's modules are imported.

It turns the cyclic garbage collector off first. Importing Textual and the reader makes
objects by the hundred thousand, all of them kept for the life of the process, and the
collections that walk them again and again made a quarter of the time to the first
frame. The reader turns the collector back on after its first frame (see
``reader.ui.app``); every other command turns it on before it runs. It also keeps
numpy's linear algebra to one thread (see main).
"""

from __future__ import annotations

import gc
import os


def main() -> None:
    """Run the ``reader`` command."""
    gc.disable()
    # The search ranks with numpy arrays, element by element, never with its linear
    # algebra: OpenBLAS's threads, started when numpy is imported, only spun (70 ms of CPU
    # for each `reader search`, on the core the reader's other work needs). A value the
    # user set is kept; processes the reader starts inherit it.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    from reader.cli import main as run

    run()
