"""Notes: the editor, saves merged with another writer's, drafts when a save fails."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from reader.errors import Busy, ReaderError, describe_write_error
from reader.library import (
    Draft,
    NoteSaved,
    describe_writer,
    draft_dirs,
    draft_paper,
    reader_command,
    restore_command,
    waiting_drafts,
    window_writer,
    write_draft,
)
from reader.ui.text import heading

if TYPE_CHECKING:
    from reader.ui.app import ReaderApp
    from reader.ui.screens.note import NoteScreen


class Notes:
    """The note editor and what becomes of its saves."""

    def __init__(self, app: ReaderApp) -> None:
        self._app = app
        #: How this window signs the note versions it saves.
        self.writer = window_writer()
        #: What became of the saves that ended after the window closed (see after_close),
        #: and how many of them failed.
        self._after_close: list[str] = []
        self._failed_after_close = 0
        #: The text each open editor held as the window closed at once, by paper: a save
        #: still on its way then stores this after its own (see _save_note).
        self._closing: dict[int, str] = {}

    def action_edit_note(self) -> None:
        """Open the note editor on the current paper."""
        paper = self._app.current_paper
        if paper is None:
            return
        try:
            state = self._app.library.note(paper.id)
        except ReaderError as exc:
            self._app.damaged(exc)
            return
        # Imported when first opened: the editor's TextArea is a tenth of what the reader
        # imports before its first frame.
        from reader.ui.screens.note import NoteScreen
        from reader.ui.screens.whole_text import WholeTextScreen
        from reader.ui.widgets.note_editor import EDIT_LIMIT

        if len(state.text) > EDIT_LIMIT:
            self._app.push_screen(WholeTextScreen(f"Note · {heading(paper.title)}", state.text))
            self._app.notify(
                f"This note is {len(state.text):,} characters, more than the {EDIT_LIMIT:,} "
                f"the editor takes: shown to read. `reader note {paper.citekey}` edits it "
                "in your $EDITOR.",
                timeout=15,
            )
            return

        self._app.push_screen(
            NoteScreen(
                paper,
                state,
                partial(self._save_note, paper.id),
                partial(self._app.library.note, paper.id),
                partial(self._app.library.marks.note_versions, paper.id),
                self.writer,
                # An editor whose words could never be saved would only lose them: shown,
                # taking the keys typed for it (which would otherwise act as commands).
                read_only=self._app.library.read_only,
            )
        )
        library = self._app.library
        drafts = [d for d in waiting_drafts(draft_dirs(library.paths.drafts),
                                            held=lambda paper_id: library.note(paper_id).text)
                  if draft_paper(d) == paper.id]
        if drafts:
            # Text a failed save left is not in the note shown: said before it is typed over.
            self._app.notify(
                f"A draft of this note waits (a save that failed): {drafts[-1]}"
                + (f" and {len(drafts) - 1} more" if len(drafts) > 1 else "")
                + "; paste what you want to keep, then delete it",
                severity="warning", timeout=15,
            )

    def _save_note(self, paper_id: int, text: str, base: int | None, kind: str) -> None:
        result: list[NoteSaved] = []
        drafted: list[Draft] = []
        editor = self._note_editor(paper_id)
        # One draft per editor, rewritten at each failing save, not a new file per change.
        name = editor.draft_name if editor is not None else f"note-{paper_id}"
        places = draft_dirs(self._app.library.paths.drafts)
        root = self._app.library.paths.root

        def newest() -> str:
            # The window closed at once while this save waited: the editor's text then is
            # newer than this one where typing went on after it was sent. It is stored on
            # top of this save (no handler of the window sends it any more), and it is what
            # a failure leaves in the draft.
            return text if self._app.is_running else self._closing.get(paper_id, text)

        def job() -> None:
            try:
                result.append(self._app.library.save_note(
                    paper_id, text, base=base, writer=self.writer, kind=kind,
                ))
                if (latest := newest()) != text:
                    result.append(self._app.library.save_note(
                        paper_id, latest, base=result[-1].version, writer=self.writer,
                    ))
            except Exception as exc:
                # Written here, in the worker: a window closed meanwhile (ctrl+q twice while
                # another process held the library) runs no handler any more.
                if not drafted:
                    drafted.append(write_draft(newest(), name, places, stamped=editor is None))
                if not self._app.is_running and not isinstance(exc, Busy):
                    self._after_close.append(_left_behind(paper_id, exc, drafted[0], root))
                    self._failed_after_close += 1
                raise
            if not self._app.is_running:
                self._after_close.append(f"The note of paper {paper_id} is stored.")
                _forget_draft(newest(), name, places)  # written as the window closed

        self._app.writes.run(
            job,
            lambda: self._note_saved(paper_id, text, result[0]),
            lambda exc: self._note_failed(paper_id, text, drafted[0], exc,
                                          retry=partial(self._save_note, paper_id, text,
                                                        base, kind)),
            # While the window is open, said in the editor, with a draft (_note_failed);
            # once it has closed, the process waits for this save anyway: tried again until
            # the other process lets go (ctrl+c in the terminal stops the wait).
            retry_busy=lambda: not self._app.is_running,
        )

    def draft_unsaved(self) -> list[NoteScreen]:
        """Write the text of each open editor not stored yet to its draft (the window
        closes at once, its saves still waiting); those editors."""
        from reader.ui.screens.note import NoteScreen

        places = draft_dirs(self._app.library.paths.drafts)
        unsaved = [s for s in self._app.screen_stack
                   if isinstance(s, NoteScreen) and not s.stored]
        for screen in unsaved:
            write_draft(screen.text, screen.draft_name, places, stamped=False)
            self._closing[screen.paper.id] = screen.text
        return unsaved

    def store_unsaved_now(self) -> None:
        """Store the text of each open editor not stored yet, here and now, its draft
        written first (the terminal has gone: the window cannot close the usual way, and
        the process ends after this). A text the library does not take stays in its draft."""
        places = draft_dirs(self._app.library.paths.drafts)
        for screen in self.draft_unsaved():
            text = screen.text
            try:
                self._app.library.save_note(screen.paper.id, text, base=screen.base,
                                            writer=self.writer)
            except Exception:  # noqa: BLE001 (its draft is the text's place now)
                continue
            _forget_draft(text, screen.draft_name, places)

    def after_close(self) -> tuple[list[str], int]:
        """What became of the note saves that ended after the window closed, a line each,
        for the terminal (see ``reader.ui.start``), and how many of them failed."""
        return list(self._after_close), self._failed_after_close

    def _note_editor(self, paper_id: int) -> NoteScreen | None:
        """The open note editor of a paper, if any (it may be under a versions list)."""
        from reader.ui.screens.note import NoteScreen

        for screen in reversed(self._app.screen_stack):
            if isinstance(screen, NoteScreen) and screen.paper.id == paper_id:
                return screen
        return None

    def _note_saved(self, paper_id: int, text: str, result: NoteSaved) -> None:
        editor = self._note_editor(paper_id)
        if editor is not None:
            editor.saved(text, result)
        if result.merged_with is not None and (editor is None or editor.closing()):
            # The editor closes on this save: what it says is said where it can be read.
            who = describe_writer(result.merged_with, self.writer)
            marked = (f", {result.conflicts} conflict{'s' * (result.conflicts != 1)} marked "
                      "with both texts" if result.conflicts else "")
            self._app.notify(f"The note was merged with {who}'s change made meanwhile{marked}:"
                             " both kept (its versions: ctrl+o in the editor)", timeout=10)
        self._app.rewritten(paper_id)

    def _note_failed(self, paper_id: int, text: str, draft: Draft, exc: Exception,
                     retry: Callable[[], None]) -> None:
        editor = self._note_editor(paper_id)
        cause = describe_write_error(exc)
        if draft.path is not None:
            kept = f"kept a draft in {draft.path}"
        else:
            kept = (f"and no draft could be written either ({draft.refusals(cause)}): only "
                    "the editor holds the text")
        message = f"Could not save the note: {cause}; {kept}"
        if isinstance(exc, Busy) and self._app.quitting.asked:
            # The window waits for its writes anyway: the save is tried again until the
            # other process lets go (or ctrl+q closes the window, the draft kept).
            if editor is not None:
                editor.failed(message, draft.path)
                editor.flush()
                kept = " (the text is in a draft meanwhile)" if draft.path is not None else ""
                editor.hold_for_quit(why=f": {cause}; trying again{kept}")
            else:
                retry()
            return
        if editor is not None:
            editor.failed(message, draft.path)
        self._app.notify(message, severity="error", timeout=15)


def _left_behind(paper_id: int, exc: Exception, draft: Draft, root: Path) -> str:
    """The line for a note whose save failed after the window closed: where its text is."""
    cause = describe_write_error(exc)
    if draft.path is None:
        return (f"Could not store the note of paper {paper_id}: {cause}; no draft could be "
                f"written either ({draft.refusals(cause)})")
    return (f"Could not store the note of paper {paper_id}: {cause}; its text is in "
            f"{draft.path} (`{restore_command(draft.path, reader_command(root))}` makes it "
            "the note)")


def _forget_draft(text: str, name: str, places: list[Path]) -> None:
    """Delete the editor's draft (``name``) where it holds ``text``, now stored."""
    for place in places:
        draft = place / f"{name}.md"
        with contextlib.suppress(OSError):
            if draft.read_text(encoding="utf-8") == text:
                draft.unlink()
