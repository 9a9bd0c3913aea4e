"""One-line prompts: a file to import (with path completion), ids to add, a file to export to
(asking again before it replaces one)."""

from __future__ import annotations

import os
from pathlib import Path

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.suggester import Suggester
from textual.widgets import Input, Static

from reader.ui import bindings
from reader.ui.early_keys import TakesTyping
from reader.ui.queued_keys import take_typed
from reader.ui.screens import SCREENS_CSS
from reader.ui.widgets.footer import FittedFooter
from reader.ui.widgets.line_input import LineInput


class PathSuggester(Suggester):
    """Completes the last part of a path from what is on disk (tab or → accepts)."""

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


class PromptScreen(TakesTyping, ModalScreen[str | None]):
    """A titled one-line input; enter returns the text, esc cancels."""

    CSS_PATH = SCREENS_CSS
    BINDINGS = bindings.PROMPT

    def __init__(
        self,
        title: str,
        placeholder: str,
        help_text: str,
        suggester: Suggester | None = None,
        *,
        value: str = "",
        allow_empty: bool = False,
    ) -> None:
        super().__init__()
        self._title = title
        self._placeholder = placeholder
        self._help = help_text
        self._suggester = suggester
        self._value = value
        self._allow_empty = allow_empty

    def compose(self) -> ComposeResult:
        with Vertical(id="prompt-dialog"):
            yield Static(self._title, id="prompt-title", markup=False)
            yield LineInput(value=self._value, placeholder=self._placeholder,
                            suggester=self._suggester, id="prompt-input")
            yield Static(self._help, id="prompt-help", markup=False)
        # The dialog's own keys, over the footer of the screen below it.
        yield FittedFooter()

    async def action_answer(self) -> None:
        """Return what was typed (an empty answer only where one means something), at once:
        keys typed right behind enter go to the view below, not into this line."""
        box = self.query_one(Input)
        await take_typed(box)
        value = box.value.strip()
        if (value or self._allow_empty) and self.answers(value):
            self.dismiss(value)

    def answers(self, value: str) -> bool:
        """Whether ``value`` is the answer; a prompt that must ask again first says so and
        returns False."""
        return True

    def _say(self, text: str, *, warning: bool) -> None:
        """Put ``text`` where the help is (in the warning's colours, when ``warning``)."""
        line = self.query_one("#prompt-help", Static)
        line.update(text)
        line.set_class(warning, "-warning")

    def action_complete(self) -> None:
        """Take the completion shown after what was typed (a path's), as → does."""
        box = self.query_one(Input)
        box.cursor_position = len(box.value)
        box.action_cursor_right()

    def action_cancel(self) -> None:
        """Close without doing anything."""
        self.dismiss(None)


class ImportPrompt(PromptScreen):
    """Which file to import: a directory is no answer, and the prompt stays to say so."""

    def answers(self, value: str) -> bool:
        """A directory (tab completes one, with its files still to choose) is said here,
        where tab then completes a file in it, not by an import that fails."""
        if not Path(value).expanduser().is_dir():
            return True
        self._say(f"{value} is a directory: tab completes a file in it", warning=True)
        return False

    def on_input_changed(self, event: Input.Changed) -> None:
        """Another path typed: the help again, in place of what was said of the last."""
        said = self.query_one("#prompt-help", Static).has_class("-warning")
        if said and not Path(event.input.value.strip()).expanduser().is_dir():
            self._say(self._help, warning=False)


def import_prompt() -> PromptScreen:
    """Ask for a file to import."""
    return ImportPrompt(
        "Import a file",
        "path to a list of papers (tab or → completes)",
        "Plain-text abstract lists, OpenReview (with reviews) or paperlists JSON, arXiv "
        "JSON lines or Atom, BibTeX, RIS, CSL-JSON, Zotero JSON, MEDLINE, Web of Science, "
        "CSV and JSON tables; .gz too. The format is detected.",
        PathSuggester(),
    )


def add_prompt() -> PromptScreen:
    """Ask for ids to fetch."""
    return PromptScreen(
        "Add papers by id",
        "arXiv ids, DOIs, OpenReview ids or links, separated by spaces",
        "Fetched from arXiv, Crossref and OpenReview; a paper already here is merged.",
    )


EXPORT_HELP = (
    "The format follows the file name: .bib BibTeX, .ris RIS, .csl.json CSL-JSON, "
    ".json every field, .md Markdown with notes, .csv a table."
)


class ExportPrompt(PromptScreen):
    """Where to export: a file that is there is replaced only on a second enter."""

    def __init__(self, what: str) -> None:
        super().__init__(
            f"Export {what}",
            "file to write (tab completes): .bib, .ris, .csl.json, .json, .md, .csv",
            EXPORT_HELP,
            PathSuggester(),
        )
        #: The path the prompt said exists, which a second enter replaces.
        self._warned: str | None = None
        #: The path answered with a second enter: the file there may be replaced.
        self.replacing: str | None = None

    def answers(self, value: str) -> bool:
        """A path to a file that is there is the answer only once the user was told so."""
        from reader.library import replaces_file

        if value == self._warned:
            self.replacing = value
            return True
        if not replaces_file(Path(value).expanduser()):
            return True
        # The completion lands on files that are there: one enter must not lose one.
        self._warned = value
        self._say(f"{value} exists: press Enter again to replace it, or change the path",
                  warning=True)
        return False

    def on_input_changed(self, event: Input.Changed) -> None:
        """Another path is asked about afresh: the warning was about the one typed then.
        The box's value, not the event's: the events of letters typed in one burst with the
        enter come after it, each with the path as it was then, and cleared the warning."""
        if self._warned is not None and event.input.value.strip() != self._warned:
            self._warned = None
            self._say(EXPORT_HELP, warning=False)



def export_prompt(what: str) -> ExportPrompt:
    """Ask where to export papers."""
    return ExportPrompt(what)
