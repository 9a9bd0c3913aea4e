"""Ask for a file to import, with path completion."""

from __future__ import annotations

import os
from pathlib import Path

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.suggester import Suggester
from textual.widgets import Input, Static

from reader.ui import bindings


class PathSuggester(Suggester):
    """Completes the last part of a path from what is on disk (→ accepts)."""

    def __init__(self) -> None:
        super().__init__(use_cache=False, case_sensitive=True)

    async def get_suggestion(self, value: str) -> str | None:
        """The first entry of the directory that starts with what was typed."""
        if not value:
            return None
        expanded = os.path.expanduser(value)
        folder, prefix = os.path.split(expanded)
        try:
            names = sorted(os.listdir(folder or "."))
        except OSError:
            return None
        for name in names:
            if name.startswith(prefix) and name != prefix and not name.startswith("."):
                completed = os.path.join(folder, name)
                if os.path.isdir(completed):
                    completed += os.sep
                # Keep the user's "~" if they typed one.
                if value.startswith("~"):
                    completed = "~" + completed[len(os.path.expanduser("~")) :]
                return completed
        return None


class ImportScreen(ModalScreen[Path | None]):
    """A path input; enter imports, esc cancels."""

    BINDINGS = bindings.IMPORT

    def compose(self) -> ComposeResult:
        with Vertical(id="import-dialog"):
            yield Static("Import a file", id="import-title")
            yield Input(
                placeholder="path to a list of papers (→ completes)",
                suggester=PathSuggester(),
                id="import-path",
            )
            yield Static(
                "Plain-text abstract lists, OpenReview or paperlists JSON, arXiv JSON lines or "
                "Atom, BibTeX, RIS, CSL-JSON, CSV; .gz too. The format is detected.",
                id="import-help",
                markup=False,
            )

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Import the named file."""
        value = event.value.strip()
        if value:
            self.dismiss(Path(value).expanduser())

    def action_cancel(self) -> None:
        """Close without importing."""
        self.dismiss(None)
