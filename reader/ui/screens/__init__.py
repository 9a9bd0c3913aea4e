"""Screens of the reader UI, each imported where it is first opened: none but the window's
own (``main``) is on the first screen, and imported with the app they held back its first
frame by 4 ms.

Their styles are apart from the window's (``styles/screens.tcss``, each screen's
``CSS_PATH``): half the stylesheet, whose parsing the first frame waited for (3 ms of the
9 it took). Textual reads a screen's styles as it opens; the window reads them just after
its first frame (:func:`read_screen_styles`), so that the first screen opened does not wait
for them either.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, cast

from reader.resources import styles_dir

if TYPE_CHECKING:
    from textual.app import App
    from textual.screen import Screen

    from reader.ui.screens.reading import ReadingScreen

#: The styles of every screen opened over the window (their ``CSS_PATH``).
SCREENS_CSS = str(styles_dir() / "screens.tcss")


def read_screen_styles(app: App[Any]) -> None:
    """Add the screens' styles to ``app``'s stylesheet, unless a screen's opening has; as
    Textual adds them when a screen with them opens."""
    if not app.stylesheet.has_source(SCREENS_CSS, ""):
        app.stylesheet.read(SCREENS_CSS)
        app.stylesheet.reparse()
        app.stylesheet.update(app)


def reading_screen(screen: Screen[Any]) -> ReadingScreen | None:
    """``screen`` if it is the reading view, else None; asked without importing the view,
    which no screen can be until its module is imported to open one."""
    module = sys.modules.get("reader.ui.screens.reading")
    if module is not None and isinstance(screen, module.ReadingScreen):
        return cast("ReadingScreen", screen)
    return None
