"""The window's own screen, the list and the detail pane under the search box."""

from __future__ import annotations

from textual import events
from textual.screen import Screen


class MainScreen(Screen[None]):
    """The screen the window is composed into, its list focused from the start.

    Textual would give the focus first to the first widget that takes it, the search box,
    and the window would then move it to the list: each move styles again the widgets it
    leaves and enters, and the list's seventeen component styles with them (2.5 ms of CPU
    of the first frame's 45, measured).
    """

    AUTO_FOCUS = "#papers"

    #: Whether the screen has been shown: the first time, its widgets were styled as they
    #: were mounted, an instant before.
    _shown = False

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        """Shown for the first time: not styled again. Textual styles a screen again as it
        is shown (handled after this), which the first time styles every widget of this one
        a second time, and with them the list's and the detail pane's component classes,
        each a node the stylesheet is applied to (about 3 ms of the first frame). Later, as
        a dialog or the reading view closes, the screen is styled again, as it may need."""
        if not self._shown:
            self._shown = True
            event.refresh_styles = False


def mount_footer(screen: Screen[object]) -> None:
    """The footer, in the place the window holds for it (``#footer-place``): Textual's
    footer lays its keys out a frame after the first, once the screen's keys are known, so
    it is blank in the first frame anyway, and importing it, parsing its styles and
    composing it came before that frame (3 ms of the 260)."""
    from reader.ui.widgets.footer import FittedFooter

    place = screen.query_one("#footer-place")
    screen.mount(FittedFooter(late=True), before=place)
    place.remove()
