"""The distraction-free reading view: one paper, full width."""

from __future__ import annotations

from collections.abc import Callable

from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Footer

from reader.models import Paper
from reader.ui import bindings
from reader.ui.widgets.paper_view import PaperView

#: Moves the main list by +1/-1 and returns the paper now under its cursor.
Step = Callable[[int], Paper | None]


class ReadingScreen(Screen[None]):
    """Shows the current paper full width; ``j``/``k`` step through the list behind it."""

    BINDINGS = bindings.READING

    def __init__(self, paper: Paper, terms: frozenset[str], step: Step) -> None:
        super().__init__()
        self._paper = paper
        self._terms = terms
        self._step = step

    def compose(self) -> ComposeResult:
        yield PaperView(id="reading-view")
        yield Footer()

    def on_mount(self) -> None:
        """Show the paper the screen was opened on."""
        self.show(self._paper)

    def show(self, paper: Paper | None) -> None:
        """Show another paper (or refresh this one after a change)."""
        if paper is not None:
            self._paper = paper
            self.query_one(PaperView).show(paper, self._terms)

    def action_next_paper(self) -> None:
        """Read the next paper of the list."""
        self.show(self._step(1))

    def action_previous_paper(self) -> None:
        """Read the previous paper of the list."""
        self.show(self._step(-1))

    def action_scroll_page_down(self) -> None:
        """Scroll the paper down a page."""
        self.query_one(PaperView).scroll_page_down()

    def action_scroll_page_up(self) -> None:
        """Scroll the paper up a page."""
        self.query_one(PaperView).scroll_page_up()

    def action_close(self) -> None:
        """Back to the list."""
        self.dismiss(None)
