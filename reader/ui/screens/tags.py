"""The tag editor: the paper's tags in one line, with completion from the tags in use."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.suggester import Suggester
from textual.widgets import Input, Static

from reader.text.tags import parse_tags
from reader.ui import bindings
from reader.ui.early_keys import TakesTyping
from reader.ui.queued_keys import take_typed
from reader.ui.screens import SCREENS_CSS
from reader.ui.text import heading
from reader.ui.widgets.footer import FittedFooter
from reader.ui.widgets.line_input import LineInput


class TagSuggester(Suggester):
    """Completes the word being typed from the tags already in use (→ accepts)."""

    def __init__(self, known: list[str]) -> None:
        super().__init__(use_cache=False, case_sensitive=False)
        self._known = known

    async def get_suggestion(self, value: str) -> str | None:
        """The value with its last word completed to the most used tag it begins."""
        head, _, word = value.rpartition(" ")
        word = word.lstrip("#").lower()
        if not word:
            return None
        typed = set(parse_tags(head))
        for tag in self._known:
            if tag.startswith(word) and tag != word and tag not in typed:
                return f"{head} {tag}" if head else tag
        return None


class TagEditor(TakesTyping, ModalScreen[list[str] | None]):
    """Edit one paper's tags; enter saves, esc cancels."""

    CSS_PATH = SCREENS_CSS
    BINDINGS = bindings.TAGS

    def __init__(self, title: str, tags: list[str], known: list[tuple[str, int]]) -> None:
        super().__init__()
        self._title = title
        self._tags = tags
        self._known = known

    def compose(self) -> ComposeResult:
        with Vertical(id="tags-dialog"):
            yield Static(Text("Tags of " + heading(self._title)), id="tags-title")
            yield LineInput(
                value=" ".join(self._tags) + (" " if self._tags else ""),
                placeholder="tags separated by spaces or commas (→ completes)",
                suggester=TagSuggester([tag for tag, _ in self._known]),
                id="tags-input",
            )
            yield Static(self._known_text(), id="tags-known", markup=False)
        # The dialog's own keys, over the footer of the screen below it.
        yield FittedFooter()

    def _known_text(self) -> Text:
        if not self._known:
            return Text("No tags yet. Separate tags with spaces or commas; join the words of "
                        "one tag with - (to-read).", style="dim")
        shown = self._known[:40]
        out = Text("In use: ", style="dim")
        out.append(", ".join(f"{tag} ({count:,})" for tag, count in shown))
        if len(self._known) > len(shown):
            out.append(f" … and {len(self._known) - len(shown):,} more", style="dim")
        return out

    async def action_save(self) -> None:
        """Save the tags as typed (an empty line removes them all), at once: keys typed
        right behind enter act on the paper, not on its tags."""
        box = self.query_one(Input)
        await take_typed(box)
        self.dismiss(parse_tags(box.value))

    def action_cancel(self) -> None:
        """Close without changing anything."""
        self.dismiss(None)
