"""The note editor's text area: its editing keys act in the order typed, a paste keeps its
order, and control characters are made visible instead of being typed into the note."""

from __future__ import annotations

from collections.abc import Callable

from textual import events
from textual.widgets import TextArea
from textual.widgets.text_area import Edit, EditResult

from reader.text.sanitize import visible
from reader.ui.widgets.line_input import editing_keys

__all__ = ["EDIT_LIMIT", "NoteEditor"]

#: The longest note the editor takes, in characters (some 300 pages). Each autosave reads
#: and stores the whole text, and a 10 MB note took seconds to open and to save with every
#: pause in the typing; a longer one is shown to read, and ``reader note`` edits it.
EDIT_LIMIT = 1_000_000


#: TextArea's keys that edit the note or move in it, by key (see NoteEditor._on_key).
_EDITING = editing_keys(TextArea.BINDINGS, ("delete_", "cursor_", "select_", "undo", "redo"))


class NoteEditor(TextArea):
    """The note's text area: its editing keys act as they reach it, a paste keeps its
    order, and its control characters are made visible (as everywhere reader shows text)
    instead of being typed into the note."""

    #: Called as an edit is made, before it is drawn (set by the screen).
    before_edit: Callable[[], None] | None = None

    def edit(self, edit: Edit) -> EditResult:
        """Make ``edit``, the status told first: "Saving…" and the new text reach the
        screen in the same frame, never the text beside a "Saved" it no longer is."""
        if self.before_edit is not None:
            self.before_edit()
        return super().edit(edit)

    async def _on_key(self, event: events.Key) -> None:
        if self.read_only and (event.is_printable or event.key in ("enter", "tab")):
            # A read-only TextArea lets a letter go on up, where it is a command (q quits):
            # typed for the note, it is taken here, and changes nothing.
            event.stop()
            event.prevent_default()
            self.app.bell()
            return
        action = _EDITING.get(event.key)
        if action is not None:
            # Run as the key reaches the editor: a binding runs only as the key comes back
            # up from it, after the keys typed behind it, and a backspace sent with the
            # next letter (one write of a terminal, over ssh) deleted that letter instead.
            event.stop()
            event.prevent_default()
            await self.run_action(action)
            return
        await super()._on_key(event)

    async def _on_paste(self, event: events.Paste) -> None:
        # Instead of TextArea's own paste, which would insert the text as it came.
        event.prevent_default()
        if self.read_only:
            return
        text = visible(event.text.replace("\r\n", "\n").replace("\r", "\n"))
        if len(self.document.text) + len(text) > EDIT_LIMIT:
            self.notify(
                f"Not pasted: {len(text):,} characters would make the note longer than the "
                f"{EDIT_LIMIT:,} the editor takes",
                severity="warning", timeout=10,
            )
            return
        result = self.replace(text, *self.selection)
        self.move_cursor(result.end_location)
