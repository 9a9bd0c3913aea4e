"""Choose a citation style or format, with a live preview of what will be copied."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from reader.library import CitationError, render_citation
from reader.models import Paper
from reader.ui import bindings
from reader.ui.early_keys import TakesTyping
from reader.ui.screens import SCREENS_CSS
from reader.ui.widgets.choices import Choices
from reader.ui.widgets.footer import FittedFooter

#: (label, format, style) of each choice, in the order shown.
CHOICES: list[tuple[str, str, str]] = [
    ("APA", "text", "apa"),
    ("MLA", "text", "mla"),
    ("Chicago (author-date)", "text", "chicago-author-date"),
    ("IEEE", "text", "ieee"),
    ("Nature", "text", "nature"),
    ("Harvard", "text", "harvard"),
    ("ACM", "text", "acm"),
    ("BibTeX", "bibtex", ""),
    ("BibLaTeX", "biblatex", ""),
    ("CSL-JSON", "csljson", ""),
    ("Citation key", "key", ""),
    ("LaTeX \\cite{key}", "latex", ""),
    ("Pandoc [@key]", "pandoc", ""),
    ("Markdown link", "markdown", ""),
]


def choice_label(fmt: str, style: str) -> str:
    """The name of a format/style pair as the picker shows it."""
    for label, f, s in CHOICES:
        if (f, s) == (fmt, style):
            return label
    return style or fmt


class CitePicker(TakesTyping, ModalScreen[tuple[str, str] | None]):
    """A list of styles and formats; the preview follows the highlight; enter copies."""

    CSS_PATH = SCREENS_CSS
    BINDINGS = bindings.PICKER

    def __init__(self, papers: list[Paper], initial: tuple[str, str] | None = None) -> None:
        super().__init__()
        self.papers = papers
        self.initial = initial

    def ready_for_keys(self) -> bool:
        """The keys typed with ``Y`` (a move, enter) are for the list of styles."""
        return self.focused is not None

    def compose(self) -> ComposeResult:
        count = len(self.papers)
        what = "1 paper" if count == 1 else f"{count} papers"
        with Vertical(id="picker-dialog"):
            yield Static(f"Copy {what} as…", id="picker-title", markup=False)
            with Horizontal(id="picker-body"):
                yield Choices(
                    *[Option(label, id=f"{fmt}:{style}") for label, fmt, style in CHOICES],
                    id="picker-choices",
                )
                with VerticalScroll(id="picker-preview-scroll"):
                    yield Static(id="picker-preview", markup=False)
        # The dialog's own keys, over the footer of the screen below it.
        yield FittedFooter()

    def on_mount(self) -> None:
        """Start on the last choice."""
        options = self.query_one(OptionList)
        index = 0
        if self.initial is not None:
            for i, (_, fmt, style) in enumerate(CHOICES):
                if (fmt, style) == self.initial:
                    index = i
        options.highlighted = index
        options.focus()
        self._preview(index)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        """Show what the highlighted choice would copy."""
        self._preview(event.option_index)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Copy in the chosen style."""
        _, fmt, style = CHOICES[event.option_index]
        self.dismiss((fmt, style))

    def _preview(self, index: int) -> None:
        _, fmt, style = CHOICES[index]
        try:
            text = render_citation(self.papers[:20], fmt, style or "apa")
        except CitationError as exc:
            text = f"Cannot render this choice: {exc}"
        if len(self.papers) > 20:
            text += f"\n… and {len(self.papers) - 20:,} more"
        self.query_one("#picker-preview", Static).update(text)

    def action_copy(self) -> None:
        """Copy in the highlighted style (enter)."""
        options = self.query_one(OptionList)
        if options.highlighted is not None:
            _, fmt, style = CHOICES[options.highlighted]
            self.dismiss((fmt, style))

    def action_cancel(self) -> None:
        """Close without copying."""
        self.dismiss(None)
