"""The versions of a note: every save kept, newest first; one can be put back."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from reader.library import NoteVersion
from reader.text.sanitize import visible
from reader.ui import bindings
from reader.ui.screens import SCREENS_CSS
from reader.ui.widgets.choices import Choices
from reader.ui.widgets.footer import FittedFooter


class VersionsScreen(ModalScreen[str | None]):
    """Lists a note's versions with a preview; enter restores the highlighted one into the
    editor, esc goes back."""

    CSS_PATH = SCREENS_CSS
    BINDINGS = bindings.VERSIONS

    def __init__(self, versions: list[NoteVersion], writer: str) -> None:
        super().__init__()
        self._versions = list(reversed(versions))
        self._writer = writer

    def compose(self) -> ComposeResult:
        with Vertical(id="versions-dialog"):
            yield Static(
                f"{len(self._versions)} version{'s' * (len(self._versions) != 1)} of this "
                "note · enter puts the highlighted one back · esc goes back",
                id="versions-title", markup=False,
            )
            yield Choices(
                *[Option(Text(visible(v.summary(self._writer))), id=str(v.id))
                  for v in self._versions],
                id="versions-list",
            )
            with VerticalScroll(id="versions-preview-box"):
                yield Static(id="versions-preview", markup=False)
        # The dialog's own keys, over the footer of the screen below it.
        yield FittedFooter()

    def on_mount(self) -> None:
        """Preview the newest version."""
        if self._versions:
            self.query_one(OptionList).highlighted = 0
            self._preview(0)

    @on(OptionList.OptionHighlighted)
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self._preview(event.option_index)

    def _preview(self, index: int) -> None:
        self.query_one("#versions-preview", Static).update(
            Text(visible(self._versions[index].text) or "(empty)")
        )

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self._versions[event.option_index].text)

    def action_cancel(self) -> None:
        """Back to the editor, unchanged."""
        self.dismiss(None)
