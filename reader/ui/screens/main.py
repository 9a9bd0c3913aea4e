"""The window's own screen, the list and the detail pane under the search box."""

from __future__ import annotations

from textual import events
from textual.screen import Screen
from textual.widgets import Footer

#: Under this many columns the footer is compact and leaves out the palette's hint: at 80,
#: the keys after Copy (Help, Quit) were cut off.
NARROW_FOOTER = 100


class MainScreen(Screen[None]):
    """The screen the window is composed into, its list focused from the start.

    Textual would give the focus first to the first widget that takes it, the search box,
    and the window would then move it to the list: each move styles again the widgets it
    leaves and enters, and the list's seventeen component styles with them (2.5 ms of CPU
    of the first frame's 45, measured).
    """

    AUTO_FOCUS = "#papers"

    def on_resize(self, event: events.Resize) -> None:
        """A compact footer without the palette's hint in a narrow window."""
        narrow = event.size.width < NARROW_FOOTER
        for footer in self.query(Footer):
            if footer.compact != narrow:
                footer.compact = narrow
                footer.show_command_palette = not narrow
                footer.refresh(recompose=True)
