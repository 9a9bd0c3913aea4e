"""The metadata form: title, authors, year, venue, URL, DOI, key and the record's type,
volume, issue, pages, publisher, place and editors, checked as typed."""

from __future__ import annotations

from collections.abc import Callable

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Static

from reader.library import FIELDS, check
from reader.models import Paper
from reader.record import names_text
from reader.ui import bindings
from reader.ui.early_keys import TakesTyping
from reader.ui.screens import SCREENS_CSS
from reader.ui.widgets.footer import FittedFooter
from reader.ui.widgets.line_input import LineInput

#: Who already has this key or DOI (a short description of the paper), or None.
Taken = Callable[[str, str], str | None]


def form_values(paper: Paper) -> dict[str, str]:
    """The text each field of the form starts with."""
    return {
        "title": paper.title,
        "authors": "; ".join(paper.authors),
        "year": str(paper.year or ""),
        "venue": paper.venue or "",
        "url": paper.url or "",
        "doi": paper.doi or "",
        "citekey": paper.citekey,
        **{
            name: str(paper.csl.get(name) or "")
            for name in ("type", "volume", "issue", "page", "publisher", "publisher-place")
        },
        "editor": names_text(paper.csl.get("editor") or []),
    }


class MetadataForm(TakesTyping, ModalScreen[dict[str, object] | None]):
    """Edit a paper's details; ctrl+s (or enter in a field) saves when every field is
    valid, esc cancels. Only the fields that changed are returned."""

    CSS_PATH = SCREENS_CSS
    BINDINGS = bindings.FORM

    def __init__(self, paper: Paper, taken: Taken | None = None) -> None:
        super().__init__()
        self._paper = paper
        self._initial = form_values(paper)
        self._taken = taken

    def compose(self) -> ComposeResult:
        with Vertical(id="form-dialog"):
            yield Static("Edit the details of this paper", id="form-title")
            with VerticalScroll(id="form-fields"):
                for name, label in FIELDS:
                    with Horizontal(classes="form-row"):
                        yield Label(label, classes="form-label")
                        # Typing edits the value where the cursor is (its end), never
                        # replaces it whole, as a selection made on focus would.
                        yield LineInput(value=self._initial[name], id=f"field-{name}",
                                        select_on_focus=False)
                    yield Static("", id=f"error-{name}", classes="form-error", markup=False)
            yield Static("ctrl+s or enter saves · esc cancels", id="form-help")
        # The dialog's own keys, over the footer of the screen below it.
        yield FittedFooter()

    def on_mount(self) -> None:
        """Start in the title field."""
        self.query_one("#field-title", Input).focus()

    def _changed(self) -> dict[str, str]:
        values = {name: self.query_one(f"#field-{name}", Input).value for name, _ in FIELDS}
        return {k: v for k, v in values.items() if v.strip() != self._initial[k].strip()}

    def on_input_changed(self, event: Input.Changed) -> None:
        """Check a field as it is typed."""
        name = (event.input.id or "").removeprefix("field-")
        result = check({name: event.value})
        self._show_error(name, result.errors.get(name, ""))
        event.input.set_class(name in result.errors, "invalid")

    def on_input_submitted(self, _event: Input.Submitted) -> None:
        """Enter in any field saves, as ctrl+s does."""
        self.action_save()

    def action_save(self) -> None:
        """Save the changed fields if all are valid; otherwise show what is wrong."""
        result = check(self._changed())
        if self._taken is not None:
            # A key or DOI another paper holds is caught here, with the form still open,
            # so nothing typed in the other fields is lost.
            for name in ("citekey", "doi"):
                value = result.values.get(name)
                if isinstance(value, str) and name not in result.errors:
                    owner = self._taken(name, value)
                    if owner:
                        result.errors[name] = f"Already used by {owner}"
        for name, _ in FIELDS:
            self._show_error(name, result.errors.get(name, ""))
        if not result.ok:
            first = next(name for name, _ in FIELDS if name in result.errors)
            self.query_one(f"#field-{first}", Input).focus()
            return
        self.dismiss(result.values)

    def _show_error(self, name: str, message: str) -> None:
        """Show what is wrong with a field under it (nothing, and no blank line, if fine)."""
        error = self.query_one(f"#error-{name}", Static)
        error.update(message)
        error.display = bool(message)

    def action_cancel(self) -> None:
        """Close without saving."""
        self.dismiss(None)
