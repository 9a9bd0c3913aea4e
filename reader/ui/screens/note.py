"""The note editor: a Markdown note per paper, saved while typing and on leaving."""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual.app import ComposeResult
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, Static, TextArea

from reader.models import Paper
from reader.sanitize import visible
from reader.textrender import plain_line
from reader.ui import bindings

#: Stores a note: ``save(paper_id, text)``; the app reports back with ``saved``/``failed``.
SaveNote = Callable[[int, str], None]

#: The longest a change waits before it is written: the most typing a crash can lose.
AUTOSAVE_AFTER = 0.6


class NoteScreen(Screen[str]):
    """Edits one paper's note; ``esc`` saves and closes, and never discards text."""

    BINDINGS = bindings.NOTE_EDITOR

    def __init__(self, paper: Paper, save: SaveNote) -> None:
        super().__init__()
        self.paper = paper
        self._save = save
        # The text last handed to the app; None after a failure, so the next flush retries.
        self._sent: str | None = paper.note
        self._timer: Timer | None = None
        # Set by a first esc after a failed save: a second esc leaves without it stored.
        self._leave_unsaved = False

    def compose(self) -> ComposeResult:
        title = Text("Note · ", style="bold")
        title.append(visible(plain_line(self.paper.title)))
        yield Static(title, id="note-title")
        yield TextArea(self.paper.note, id="note-editor", soft_wrap=True)
        yield Static("Markdown · saved as you type · esc saves and closes", id="note-status",
                     markup=False)
        yield Footer()

    def on_mount(self) -> None:
        """Start typing at the end of the note."""
        editor = self.query_one(TextArea)
        editor.focus()
        editor.move_cursor(editor.document.end)

    @property
    def text(self) -> str:
        """The text in the editor."""
        return self.query_one(TextArea).text

    def on_text_area_changed(self, _event: TextArea.Changed) -> None:
        """Schedule a save; the timer is not restarted by further typing, so a change is
        written at most AUTOSAVE_AFTER seconds after it was made even while typing on."""
        if self._timer is None:
            self._timer = self.set_timer(AUTOSAVE_AFTER, self.flush)

    def flush(self) -> None:
        """Send the current text to be stored if it changed since last sent."""
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        text = self.text
        if text != self._sent:
            self._sent = text
            self._set_status("Saving…")
            self._save(self.paper.id, text)

    def saved(self, text: str) -> None:
        """The app stored ``text``."""
        if text == self.text:
            self._leave_unsaved = False
            self._set_status("Saved · esc closes")

    def failed(self, message: str) -> None:
        """The app could not store the note; it stays here, and the next change retries."""
        self._sent = None
        self._set_status(message)

    def _set_status(self, message: str) -> None:
        self.query_one("#note-status", Static).update(Text(message))

    def action_close(self) -> None:
        """Save and go back; after a failed save, stay (the text is safer here than only in
        a draft file) until esc is pressed again."""
        unsaved = self._sent is None
        self.flush()
        if unsaved and not self._leave_unsaved:
            self._leave_unsaved = True
            self._set_status(
                "Not stored yet (the draft file keeps it); saving again as you type · "
                "esc again leaves anyway"
            )
            return
        self.dismiss(self.text)
