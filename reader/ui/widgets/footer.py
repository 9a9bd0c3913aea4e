"""The footer of every screen: its keys fit the window, compact where it is narrow, and a
key that would not fit whole is left out (the help, `?`, lists them all)."""

from __future__ import annotations

from rich.cells import cell_len
from textual import events
from textual.app import ComposeResult
from textual.widget import Widget
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

#: Under this many columns the footer is compact and leaves out the palette's hint: at 80,
#: the keys after Copy (Help, Quit) were cut off.
NARROW_FOOTER = 100
#: The keys kept whatever the width: the help (`?`) lists every other key, and `esc` leaves.
_FIRST = frozenset({"help", "close", "command_palette"})


class FittedFooter(Footer):
    """Textual's footer, holding only the keys that fit whole: one cut at the window's edge
    read as a broken key ("esc B", "space" without its word)."""

    def __init__(self, *, late: bool = False) -> None:
        """``late``: mounted after its screen made its keys known (the window's footer, a
        frame after the first), when Textual's footer would wait for the keys to change."""
        super().__init__()
        self._late = late
        #: The width the keys were last laid out for, and the width they all take.
        self._laid_out_for = 0
        self._all_keys = 0

    def on_mount(self) -> None:
        """Lay out the keys the screen has, when it made them known before this mount."""
        if self._late:
            self.bindings_changed(self.screen)

    def on_resize(self, event: events.Resize) -> None:
        """Fit the keys to the new width: compact, without the palette's hint, under the
        screen's ``FOOTER_FITS_FROM`` columns (100 unless it says otherwise)."""
        width = event.size.width
        narrow = width < getattr(self.screen, "FOOTER_FITS_FROM", NARROW_FOOTER)
        if narrow != self.compact:
            self.compact = narrow
            self.show_command_palette = not narrow
        elif width == self._laid_out_for or min(width, self._laid_out_for) >= self._all_keys:
            return  # the same keys fit: nothing to lay out again (the first frame's case)
        self.refresh(recompose=True)

    def compose(self) -> ComposeResult:
        """The keys Textual's footer holds that fit, in its order; the help's key, esc's and the
        palette's hint first, as every other key is found through them."""
        widgets = list(super().compose())
        width = self.screen.size.width or self.app.size.width
        self._laid_out_for = width
        self._all_keys = sum(_width(w, self.compact) for w in widgets) - 1
        room = width + 1  # the last key needs no space after it
        first = [w for w in widgets if isinstance(w, FooterKey) and w.action in _FIRST]
        room -= sum(_width(w, self.compact) for w in first)
        for widget in widgets:
            if isinstance(widget, FooterKey) and widget not in first:
                need = _width(widget, self.compact)
                if need > room:
                    continue  # a shorter key after it may fit
                room -= need
            yield widget


def _width(widget: Widget, compact: bool) -> int:
    """The columns a key takes in the footer, with the space before the next: its key and
    its words with a space between, then two spaces laid out in full or one compact (as
    Textual's footer styles them)."""
    if not isinstance(widget, FooterKey):
        return 0
    return cell_len(widget.key_display) + 1 + cell_len(widget.description) + (1 if compact else 2)
