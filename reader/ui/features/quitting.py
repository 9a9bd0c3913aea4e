"""Quitting: at once, with nothing lost. Writes asked for are stored; an index build under
way stops at its next safe point and is finished by whoever runs next."""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import TYPE_CHECKING, Any

from textual.worker import Worker, WorkerCancelled, WorkerFailed

from reader.ui.queued_keys import take_typed
from reader.ui.widgets.search_box import SearchBox

if TYPE_CHECKING:
    from reader.ui.app import ReaderApp

#: The longest quitting waits for the note editors' saves before it goes on (seconds).
_SAVE_WAIT = 2.0


class Quitting:
    """`q`: close the window once its writes are stored; a second `q` closes it at once."""

    def __init__(self, app: ReaderApp) -> None:
        self._app = app
        #: Set once the user quits: the window waits for its writes, and an index build
        #: under way stops (see quit).
        self._begun = False
        #: Set once quitting was refused for a note stored nowhere: asked again, it quits.
        self._warned = False
        #: Set from the key on, while the notes' saves are waited for (see asked).
        self._asked = False

    @property
    def asked(self) -> bool:
        """Whether the user asked to quit (and was not refused): the window waits for its
        writes, then closes."""
        return self._asked or self._begun

    async def quit(self) -> None:
        """Quit once pending writes are stored; an index build under way stops at its next
        safe point, and the next reader to run finishes it. A second press quits at once."""
        app = self._app
        if self._begun:
            self._close_now()
            return
        self._asked = True
        await self._tags_kept()
        if not self._warned and not await self._notes_kept():
            # Said in the editor; asked again, the window goes without that text.
            self._warned = True
            self._asked = False
            return
        app.seen.flush()
        # Not waited for: the import goes on in its own process and finishes there.
        importing = app.imports.cancel()
        # Read by an index build under way (see IndexStatus), which stops at its next safe
        # point: within a fraction of a second, where finishing it could take minutes. What
        # it published is kept; the index stays behind the database, which every reader
        # process (a window, `reader import`, `reader search`) catches up on.
        self._begun = True
        app.index_status.stop()
        # Told at once, not by a message queued behind the reports already posted: from
        # here on the status line says what quitting waits for, and an import's or the
        # index's end starts no more work.
        app.following.quitting()
        app.importing.quitting()
        app.status.note(self.note())
        self._remember_view()
        others = [w for w in app.workers if w is not importing]

        async def leave() -> None:
            await self._leave_when_done(others)

        # A function, not a coroutine made now: a second key may close the window before
        # the worker starts, and a coroutine never awaited is a warning printed on exit.
        # (Textual's typing infers no result type for a function of no result.)
        app.run_worker(leave, group="quit", exit_on_error=False)  # type: ignore[arg-type]

    def terminate(self) -> None:
        """The process was told to end (SIGTERM), its terminal still there: what the note
        editors hold is sent to be stored and written to its draft, the papers seen are
        stored, and the window closes as a second q closes it. The process ends once the
        writes are stored (see reader.ui.start)."""
        from reader.ui.screens.note import NoteScreen

        app = self._app
        for screen in app.screen_stack:
            if isinstance(screen, NoteScreen):
                screen.flush()
        app.seen.flush()
        self._begun = True
        self._close_now()

    def _close_now(self) -> None:
        """Close the window at once. Writes still under way are stored all the same: the
        process ends once they are (their threads are waited for), after the window has
        closed. A note not stored yet goes to its draft first: the save may wait on a lock
        the user does not wait out (ctrl+c in the terminal)."""
        self._app.notes.draft_unsaved()
        self._app.exit()

    async def _tags_kept(self) -> None:
        """Save what an open tag editor holds, as enter would: the tags typed there went
        with the window, where a note editor's text is kept (see _notes_kept)."""
        from reader.ui.screens.tags import TagEditor

        for editor in [s for s in self._app.screen_stack if isinstance(s, TagEditor)]:
            await editor.action_save()

    async def _notes_kept(self) -> bool:
        """Store what the open note editors hold (the text typed within the last moment
        waits for its autosave); False, said in the editor, where one holds text that
        neither the library nor a draft could take."""
        # Here, not at the top: the editor's widget is a tenth of what the window's first
        # frame would otherwise wait to import, and only a note editor open needs it.
        from textual.widgets import TextArea

        from reader.ui.screens.note import NoteScreen

        app = self._app
        editors = [screen for screen in app.screen_stack if isinstance(screen, NoteScreen)]
        if not editors:
            return True
        for editor in editors:
            await take_typed(editor.query_one(TextArea))  # the keys typed before the quit
            editor.flush()
            editor.hold_for_quit()
        # A save answered while another went out sends the newer text then: a few rounds,
        # bounded: a save waiting on another process's lock is waited for by the quit
        # itself, which a second key ends at once.
        deadline = time.monotonic() + _SAVE_WAIT
        while (writes := [w for w in app.workers if w.group == "writes" and not w.is_finished]):
            left = deadline - time.monotonic()
            if left <= 0:
                break
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(_ended(writes), left)
        lost = [editor for editor in editors if editor.held_only_here]
        for editor in editors if lost else ():
            editor.hold_for_quit(False)  # the window stays: so does the typing
        for editor in lost:
            editor.refuse_quit()
        return not lost

    def note(self) -> str:
        """What quitting waits for, said in the status line."""
        app = self._app
        building = any(w.group in ("index", "prepare") and w.is_running for w in app.workers)
        if building and app.index_status.building is not None:
            done, total = app.index_status.building
            # The key first: a line cut at the terminal's edge loses the detail, not it.
            return (f"Quitting (q quits now): indexing stops at {done:,} of {total:,}, "
                    "and the next run finishes it")
        if app.imports.running:
            # An import started here: its process goes on, and indexes what it wrote.
            return "Quitting (q quits now): the import goes on in its own process"
        if app.writes.unfinished():
            return "Quitting (q quits now) once your changes are saved…"
        return "Quitting (q quits now)…"  # (the searches and reads under way end first)

    def _remember_view(self) -> None:
        """Write down the view for the next start, after the writes asked for before it
        (in a worker: a database busy in another process holds up no key)."""
        app = self._app
        query = app.query_one(SearchBox).value
        current = app.paper_list.current_id

        def not_remembered(exc: Exception) -> None:
            # A read-only library can't remember; remembering is a nicety, never a crash.
            app.log.warning(f"could not remember the view: {exc}")

        app.writes.run(lambda: app.views.remember(query, current), lambda: None, not_remembered)

    async def _leave_when_done(self, workers: list[Worker[Any]]) -> None:
        """Quit once ``workers`` are done (writes stored, an index build stopped), and the
        writes asked for meanwhile (a note's save tried again, see Notes)."""
        await _ended(workers)
        app = self._app
        while writes := [w for w in app.workers if w.group == "writes" and not w.is_finished]:
            await _ended(writes)
        app.exit()


async def _ended(workers: list[Worker[Any]]) -> None:
    """Wait until each of ``workers`` has ended, however it ended: one cancelled (a save
    that a newer one replaced) or failed (its own handler said why, and kept a draft) must
    not end the quit with a traceback, as Textual's wait for them all did."""
    for worker in workers:
        with contextlib.suppress(WorkerCancelled, WorkerFailed):
            await worker.wait()
