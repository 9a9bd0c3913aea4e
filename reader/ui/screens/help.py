"""The help screen: every key, generated from the bindings table."""

from __future__ import annotations

from collections.abc import Mapping

from rich.cells import cell_len
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from reader.ui import bindings
from reader.ui.keymap import key_label
from reader.ui.screens import SCREENS_CSS
from reader.ui.widgets.footer import FittedFooter

#: The bindings that open saved searches by number, shown as one row.
SAVED_SEARCH_PREFIX = "app.saved_"


def help_rows(
    section: list[BindingType], keymap: Mapping[str, str] | None = None
) -> list[list[str]]:
    """The (keys, description) rows of one section, with the keys the keymap gives."""
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
    return rows


def help_table(
    sections: list[tuple[str, list[BindingType]]],
    keymap: Mapping[str, str] | None = None,
    key_width: int = 0,
) -> Table:
    """A table of the given sections and their bindings, with the keys the keymap gives;
    the keys' column at least ``key_width`` wide."""
    table = Table.grid(padding=(0, 2))
    table.add_column(justify="right", style="bold", min_width=key_width)
    table.add_column()
    for title, section in sections:
        table.add_row(Text(title, style="bold underline"), "")
        for keys, description in help_rows(section, keymap):
            table.add_row(keys, description)
        table.add_row("", "")
    return table


class HelpScreen(ModalScreen[None]):
    """Lists every key binding."""

    CSS_PATH = SCREENS_CSS
    BINDINGS = bindings.HELP
    # Side by side the two tables need about 100 columns; narrower, their rows would wrap
    # into each other, so the second goes below the first (styles: `.-one-column`).
    HORIZONTAL_BREAKPOINTS = [(0, "-one-column"), (100, "-two-columns")]

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
            # Two columns where there is room, so every key fits on one 40-line screen.
            half = 2
            # One width for both keys' columns, so that one above the other they line up.
            key_width = max(
                cell_len(text)
                for title, section in bindings.SECTIONS
                for text in [title, *(keys for keys, _ in help_rows(section, self.keymap))]
            )
            with Horizontal(id="help-columns"):
                for sections in (bindings.SECTIONS[:half], bindings.SECTIONS[half:]):
                    yield Static(help_table(sections, self.keymap, key_width),
                                 classes="help-table")
            star, note, copy = (self._key(i) for i in ("paper.star", "paper.note", "paper.copy"))
            yield Static(
                f"{star}, {note} and {copy} work in the reading view too; "
                "ctrl+p opens the command palette.\n"
                "Search syntax: words, \"phrases\", prefix*, typo~, title:word, "
                "abstract:\"a phrase\", highlight:word, AND / OR / NOT, is:starred, "
                "has:notes, is:unseen, is:seen, is:read, is:unread, tag:NAME, is:new, "
                "is:changed, is:withdrawn, -is:starred, like:KEY, like:starred\n"
                "Conference signals: rating:>=6, rating:4..6, confidence:>=4, reviews:>=4, "
                "decision:oral (accepted, rejected, poster …), review:\"data leakage\", "
                "is:rating-changed, has:rating, has:reviews",
                id="help-syntax",
                markup=False,
            )
        # Its own, over the main screen's, whose keys do other things here (q closes help).
        yield FittedFooter()

    def action_scroll_down(self) -> None:
        """Scroll the help down a line."""
        self.query_one("#help-body", VerticalScroll).scroll_down()

    def action_scroll_up(self) -> None:
        """Scroll the help up a line."""
        self.query_one("#help-body", VerticalScroll).scroll_up()

    def action_close(self) -> None:
        """Close the help screen."""
        self.dismiss(None)
