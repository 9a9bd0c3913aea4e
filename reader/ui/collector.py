"""The garbage collector and a window's long-lived objects.

Once the first screen is up, its objects are moved out of the collector's reach: a full
collection otherwise walks all of Textual's objects, and every dozen cursor steps one of
them took 40 ms. They are long-lived and freed by reference counting. The command line
turns the collector off while the reader starts; it runs again once they are frozen.
"""

from __future__ import annotations

import gc


def settle() -> None:
    """Freeze what exists after the first frame out of the collector's reach, and let it
    run again."""
    gc.freeze()
    gc.enable()


def release() -> None:
    """Give the objects frozen after the first frame back to the collector: in a process
    that runs app after app (the tests), each one's would otherwise never be freed."""
    gc.unfreeze()
