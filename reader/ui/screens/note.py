"""The note editor: a Markdown note per paper, saved while typing, merged with what other
writers store meanwhile, and closed only once its text is kept."""

from __future__ import annotations

import contextlib
import difflib
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from rich.text import Text
from textual.app import ComposeResult
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Static, TextArea

from reader.library import NoteSaved, NoteState, NoteVersion, describe_writer
from reader.models import Paper
from reader.text.notemerge import CONFLICT_END, CONFLICT_START, location, merge, moved_offset
from reader.ui import bindings
from reader.ui.early_keys import HandOn, TakesTyping
from reader.ui.queued_keys import take_typed
from reader.ui.screens import SCREENS_CSS
from reader.ui.text import heading
from reader.ui.widgets.footer import FittedFooter
from reader.ui.widgets.note_editor import NoteEditor

#: Stores a note: ``save(text, base, kind)``; the app answers with ``saved``/``failed``.
SaveNote = Callable[[str, "int | None", str], None]

#: The longest a change waits before it is written: the most typing a crash can lose.
AUTOSAVE_AFTER = 0.6
#: How often an open editor looks for versions stored by other writers.
FOLLOW_EVERY = 0.5

class NoteScreen(TakesTyping, Screen[str]):
    """Edits one paper's note; ``esc`` closes once the text is stored, never discarding it."""

    CSS_PATH = SCREENS_CSS
    BINDINGS = bindings.NOTE_EDITOR

    def __init__(
        self,
        paper: Paper,
        state: NoteState,
        save: SaveNote,
        load: Callable[[], NoteState],
        versions: Callable[[], list[NoteVersion]],
        writer: str,
        read_only: str | None = None,
    ) -> None:
        super().__init__()
        self.paper = paper
        #: Why the note cannot be changed (a read-only library), or None: then the text
        #: shows and takes no typing, so that keys typed for it reach no command either.
        self.read_only = read_only
        self._save = save
        self._load = load
        self._versions = versions
        self.writer = writer
        #: The stored version this editor's text was last brought up to, and its text.
        self.base: int | None = state.version
        self._stored = state.text
        self._initial = state.text
        #: The text of the save on its way (one at a time, so each knows its base).
        self._in_flight: str | None = None
        self._timer: Timer | None = None
        #: Why the last save failed, and the complete draft that holds the text it sent.
        self._failure: str | None = None
        self._draft: tuple[Path, str] | None = None
        self._close_wanted = False
        self._warned_leaving = False
        self._quitting = False
        self._replacing = False
        #: The last merge said in the status line, repeated when its result is saved.
        self._merge_said: str | None = None
        #: Whether the status line says "Saving…" now.
        self._saying_saving = False
        #: The one draft this editor writes (and rewrites) when a save fails.
        # Named by the paper's key as well as its number: a reader of the folder knows
        # which paper the text was for.
        key = "".join(c if c.isalnum() or c in "-_" else "-" for c in paper.citekey)[:60]
        self.draft_name = f"note-{key}-{paper.id}-{datetime.now():%Y%m%d-%H%M%S}"

    def compose(self) -> ComposeResult:
        title = Text("Note · ", style="bold")
        title.append(heading(self.paper.title))
        yield Static(title, id="note-title")
        yield NoteEditor(self._initial, id="note-editor", soft_wrap=True,
                         read_only=self.read_only is not None)
        status = (f"Read-only library ({self.read_only}): this note is shown, not edited · "
                  "esc closes" if self.read_only is not None else
                  "Markdown · saved as you type · esc saves and closes · ctrl+o versions")
        yield Static(status, id="note-status", markup=False)
        yield FittedFooter()

    def on_mount(self) -> None:
        """Start typing at the end of the note; follow what other writers store."""
        self.query_one(NoteEditor).before_edit = self._editing
        editor = self.query_one(TextArea)
        editor.focus()
        editor.move_cursor(editor.document.end)
        self.set_interval(FOLLOW_EVERY, self.follow)

    @property
    def text(self) -> str:
        """The text in the editor."""
        return self.query_one(TextArea).text

    @property
    def stored(self) -> bool:
        """Whether the library holds exactly the editor's text."""
        return self._in_flight is None and self.text == self._stored

    def _editing(self) -> None:
        """A key edits the text: it is unsaved from now, and said so before it shows."""
        if not self._replacing and not self._saying_saving:
            self._set_status("Saving…", saving=True)

    def on_text_area_changed(self, _event: TextArea.Changed) -> None:
        """Schedule a save; the timer is not restarted by further typing, so a change is
        written at most AUTOSAVE_AFTER seconds after it was made even while typing on.
        From the first unsaved keystroke the status says "Saving…": "Saved" is said only
        once the write is done."""
        if self._replacing:
            return
        if self._timer is None:
            # Once per autosave, not per key: comparing reads the whole text. A change that
            # only takes in what another writer stored is nothing to save.
            if self.text != self._stored:
                self._set_status("Saving…", saving=True)
            self._timer = self.set_timer(AUTOSAVE_AFTER, self.flush)

    def flush(self, kind: str = "save") -> None:
        """Send the current text to be stored, if it differs from the stored note."""
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        if self._in_flight is not None:
            return  # sent again when the save on its way is answered
        text = self.text
        if text == self._stored:
            if self._saying_saving and self._failure is None:
                self._set_status("Saved · esc closes")  # typed, then undone
            return
        self._in_flight = text
        self._set_status("Saving…", saving=True)
        self._save(text, self.base, kind)

    def saved(self, sent: str, result: NoteSaved) -> None:
        """The app stored a save: the note now holds ``result.text`` (merged with another
        writer's text when it differs from ``sent``)."""
        self._in_flight = None
        self._failure = None
        self.base = result.version
        self._stored = result.text
        if result.text != sent:
            # Typing done since the save went out is carried over onto the merged note.
            self._rebase(sent, result.text)
        if result.merged_with is not None:
            self._say_merged(describe_writer(result.merged_with, self.writer), result.conflicts)
        elif self.text == self._stored and self._merge_said is None:
            self._set_status("Saved · esc closes")
        elif self.text == self._stored:
            self._set_status(f"{self._merge_said} · saved · esc closes")
            self._merge_said = None
        if self._draft is not None and self.text == self._stored:
            # The draft a failed save left holds nothing the note does not now: one file
            # less for the user to read through and delete.
            with contextlib.suppress(OSError):
                self._draft[0].unlink(missing_ok=True)
            self._draft = None
        if self.text != self._stored:
            self.flush()
        elif self._close_wanted:
            # From the screen's own queue, as esc closes it.
            self.call_later(self._leave)

    def failed(self, message: str, draft: Path | None) -> None:
        """The app could not store the text it was sent; the text stays here, in a draft
        too when one could be written, and the next change (or esc) tries again."""
        sent = self._in_flight
        self._in_flight = None
        self._failure = message
        if draft is not None and sent is not None:
            self._draft = (draft, sent)
        if self._close_wanted:
            self._close_wanted = False
            self._refuse_close()
        else:
            self._set_status(message)

    def follow(self) -> None:
        """Take in a version another writer stored: an unchanged editor shows it, one with
        unsaved typing merges it in (and saves the merge)."""
        if self._in_flight is not None:
            return
        try:
            state = self._load()
        except Exception:  # noqa: BLE001 - a library that can't be read now is tried again
            return
        if state.version == self.base or state.version is None:
            return
        previous = self._stored
        self.base, self._stored = state.version, state.text
        merged = self._rebase(previous, state.text)
        who = describe_writer(state.writer, self.writer)
        if merged is not None:
            self._say_merged(who, merged.conflicts)
        else:
            self._set_status(f"Updated: {who} changed this note")
        if self.text != self._stored:
            self.flush()

    def _rebase(self, old_stored: str, new_stored: str):  # type: ignore[no-untyped-def]
        """Bring the editor from ``old_stored`` to ``new_stored``, keeping its own unsaved
        changes; returns the merge when there were any (None when the editor just follows)."""
        buffer = self.text
        if buffer == old_stored:
            self._replace(new_stored)
            return None
        merged = merge(old_stored, new_stored, buffer, theirs_label="stored meanwhile",
                       ours_label="yours")
        self._replace(merged.text)
        return merged

    def _replace(self, new: str) -> None:
        """Edit the buffer into ``new`` change by change (undo keeps working), with the
        cursor where the user's typing is: before text another writer added right there."""
        editor = self.query_one(TextArea)
        old = editor.text
        if old == new:
            return
        row, column = editor.cursor_location
        lines = old.split("\n")
        cursor = sum(len(line) + 1 for line in lines[:row]) + column
        ops = difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes()
        self._replacing = True
        try:
            for tag, i1, i2, j1, j2 in reversed(ops):
                if tag != "equal":
                    editor.replace(new[j1:j2], location(old, i1), location(old, i2))
        finally:
            self._replacing = False
        editor.move_cursor(location(new, moved_offset(ops, cursor)))

    def _say_merged(self, who: str, conflicts: int) -> None:
        """Say that another writer's change was merged in (kept said until the merge is
        saved)."""
        if conflicts:
            said = (
                f"Merged with {who}'s change: {conflicts} conflict{'s' * (conflicts != 1)} "
                f"marked {CONFLICT_START.strip()} … {CONFLICT_END.strip()}, both texts kept · "
                "ctrl+o versions"
            )
        else:
            said = f"Merged with {who}'s change"
        self._merge_said = said
        self._set_status(said)

    def _set_status(self, message: str, *, saving: bool = False) -> None:
        """Show ``message``; ``saving`` when it says words are not stored yet."""
        self._saying_saving = saving
        self.query_one("#note-status", Static).update(Text(message))

    @property
    def held_only_here(self) -> bool:
        """Whether a save of the text failed and no draft holds it: it is only here."""
        drafted = self._draft is not None and self._draft[1] == self.text
        return self._in_flight is None and self.text != self._stored and not drafted

    def refuse_quit(self) -> None:
        """Say that quitting now would lose the text only this screen holds."""
        self._set_status(f"Only this screen holds the text: ctrl+q again quits without it; "
                         f"free some space (or copy it) and press esc · "
                         f"{self._failure or 'Not stored yet'}")

    def hold_for_quit(self, held: bool = True, why: str = "") -> None:
        """Take no more typing, nor esc, while quitting stores the text (a save waiting on
        another process's lock took letters typed meanwhile into the editor and quit
        without them), saying ``why`` it waits; ``held=False`` gives the editor back when
        the quit is refused."""
        self._quitting = held
        self.query_one(NoteEditor).read_only = held or self.read_only is not None
        if held:
            self._set_status(f"Quitting once this note is stored{why}: typing is not taken "
                             "now · ctrl+q again closes the window (the save goes on; a "
                             "draft keeps the text if it fails)", saving=True)

    def ready_for_keys(self) -> bool:
        """Whether keys go to the text: not once esc asked to close (they are held, then go
        to the view under the editor)."""
        return not self._close_wanted and super().ready_for_keys()

    def closing(self) -> bool:
        """Whether esc asked to close, and the editor waits for its text to be stored."""
        return self._close_wanted

    async def action_close(self) -> None:
        """Save and go back once the text is stored; while it is stored nowhere, stay."""
        if self._quitting:
            self.app.bell()  # the window closes once the text is stored: said above
            return
        await take_typed(self.query_one(TextArea))  # the letters typed before esc first
        self.flush()
        if self._in_flight is not None:
            self._close_wanted = True
            self._set_status("Saving… the editor closes when the note is stored", saving=True)
            return
        if self.stored:
            self.dismiss(self.text)
            return
        self._refuse_close()

    def _leave(self) -> None:
        self.dismiss(self.text)
        self.app.post_message(HandOn())  # the keys typed behind esc, held as it was stored

    def _refuse_close(self) -> None:
        """Say why the editor stays open; with a complete draft of this very text, a second
        esc leaves."""
        why = self._failure or "Not stored yet"
        if self._draft is not None and self._draft[1] == self.text:
            if self._warned_leaving:
                self.call_later(self._leave)
                return
            self._warned_leaving = True
            self._set_status(
                f"{why} · the whole text is in the draft {self._draft[0]} · "
                "esc again leaves (the draft stays)"
            )
            return
        self._set_status(
            "No draft holds this text, only this screen: the editor stays open; free some "
            f"space (or copy the text) and type or press esc to try again · {why}"
        )

    def action_versions(self) -> None:
        """Show the note's versions; one chosen is put back into the editor and saved."""
        from reader.ui.screens.note_versions import VersionsScreen

        def chosen(text: str | None) -> None:
            if text is None:
                return
            self._replace(text)
            self.query_one(TextArea).move_cursor(self.query_one(TextArea).document.end)
            self.flush(kind="restore")

        self.app.push_screen(VersionsScreen(self._versions(), self.writer), chosen)

