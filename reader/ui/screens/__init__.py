"""Screens of the reader UI, each imported where it is first opened: none is on the first
screen, and imported with the app they held back its first frame by 4 ms."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from textual.screen import Screen

    from reader.ui.screens.reading import ReadingScreen


def reading_screen(screen: Screen[Any]) -> ReadingScreen | None:
    """``screen`` if it is the reading view, else None; asked without importing the view,
    which no screen can be until its module is imported to open one."""
    module = sys.modules.get("reader.ui.screens.reading")
    if module is not None and isinstance(screen, module.ReadingScreen):
        return cast("ReadingScreen", screen)
    return None
