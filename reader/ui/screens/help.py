"""The help screen: every key, generated from the bindings table."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from reader.ui import bindings


def key_label(binding: BindingType) -> str:
    """The keys of a binding as a person reads them (``j / ↓``)."""
    assert isinstance(binding, Binding)
    names = {"slash": "/", "question_mark": "?", "escape": "esc", "down": "↓", "up": "↑",
             "pagedown": "PgDn", "pageup": "PgUp", "enter": "enter", "space": "space"}
    return " / ".join(names.get(k.strip(), k.strip()) for k in binding.key.split(","))


def help_table(sections: list[tuple[str, list[BindingType]]]) -> Table:
    """A table of the given sections and their bindings."""
    table = Table.grid(padding=(0, 2))
    table.add_column(justify="right", style="bold")
    table.add_column()
    for title, section in sections:
        table.add_row(Text(title, style="bold underline"), "")
        for binding in section:
            assert isinstance(binding, Binding)
            table.add_row(key_label(binding), binding.description)
        table.add_row("", "")
    return table


class HelpScreen(ModalScreen[None]):
    """Lists every key binding."""

    BINDINGS = bindings.HELP

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-body"):
            yield Static("Keys", id="help-title")
            # Two columns, so every key fits on one 40-line screen.
            half = 2
            with Horizontal(id="help-columns"):
                yield Static(help_table(bindings.SECTIONS[:half]), classes="help-table")
                yield Static(help_table(bindings.SECTIONS[half:]), classes="help-table")
            yield Static(
                "s, n and y work in the reading view too; ctrl+p opens the command palette.\n"
                "Search syntax: words, \"phrases\", prefix*, typo~, title:word, "
                "abstract:\"a phrase\", AND / OR / NOT, is:starred, has:notes, is:new, "
                "is:changed, is:withdrawn, -is:starred",
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
