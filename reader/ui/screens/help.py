"""The help screen: every key, generated from the bindings table."""

from __future__ import annotations

from collections.abc import Mapping

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from reader.ui import bindings
from reader.ui.keymap import key_label

#: The bindings that open saved searches by number, shown as one row.
SAVED_SEARCH_PREFIX = "app.saved_"


def help_table(
    sections: list[tuple[str, list[BindingType]]], keymap: Mapping[str, str] | None = None
) -> Table:
    """A table of the given sections and their bindings, with the keys the keymap gives."""
    table = Table.grid(padding=(0, 2))
    table.add_column(justify="right", style="bold")
    table.add_column()
    for title, section in sections:
        table.add_row(Text(title, style="bold underline"), "")
        rows: list[list[str]] = []
        saved_row: list[str] | None = None
        for binding in section:
            assert isinstance(binding, Binding)
            keys = key_label(binding, keymap)
            if (binding.id or "").startswith(SAVED_SEARCH_PREFIX):
                # Nine keys that differ only by number read best as one row.
                if saved_row is None:
                    saved_row = [keys, "Open saved search 1, 2, …"]
                    rows.append(saved_row)
                else:
                    saved_row[0] += f" {keys}"
                continue
            rows.append([keys, binding.description])
        for keys, description in rows:
            table.add_row(keys, description)
        table.add_row("", "")
    return table


class HelpScreen(ModalScreen[None]):
    """Lists every key binding."""

    BINDINGS = bindings.HELP

    def __init__(self, keymap: Mapping[str, str] | None = None) -> None:
        super().__init__()
        #: The user's keymap, so the table shows the keys as configured.
        self.keymap = dict(keymap or {})

    def _key(self, binding_id: str) -> str:
        """The keys of one binding as the table shows them."""
        for _title, section in bindings.SECTIONS:
            for binding in section:
                if isinstance(binding, Binding) and binding.id == binding_id:
                    return key_label(binding, self.keymap)
        return binding_id

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-body"):
            yield Static("Keys", id="help-title")
            # Two columns, so every key fits on one 40-line screen.
            half = 2
            with Horizontal(id="help-columns"):
                yield Static(help_table(bindings.SECTIONS[:half], self.keymap),
                             classes="help-table")
                yield Static(help_table(bindings.SECTIONS[half:], self.keymap),
                             classes="help-table")
            star, note, copy = (self._key(i) for i in ("paper.star", "paper.note", "paper.copy"))
            yield Static(
                f"{star}, {note} and {copy} work in the reading view too; "
                "ctrl+p opens the command palette.\n"
                "Search syntax: words, \"phrases\", prefix*, typo~, title:word, "
                "abstract:\"a phrase\", highlight:word, AND / OR / NOT, is:starred, "
                "has:notes, is:unseen, is:seen, is:read, is:unread, tag:NAME, is:new, "
                "is:changed, is:withdrawn, -is:starred, like:KEY, like:starred",
                id="help-syntax",
                markup=False,
            )

    def action_scroll_down(self) -> None:
        """Scroll the help down a line."""
        self.query_one("#help-body", VerticalScroll).scroll_down()

    def action_scroll_up(self) -> None:
        """Scroll the help up a line."""
        self.query_one("#help-body", VerticalScroll).scroll_up()

    def action_close(self) -> None:
        """Close the help screen."""
        self.dismiss(None)
