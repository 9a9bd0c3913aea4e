"""The index followed as it is built and caught up, and the live library: writes by other
windows and the CLI followed within a second.

:class:`IndexStatus` and :class:`LiveLibrary` (reader/ui/index_status.py, reader/ui/live.py)
post what they see to the app, which hands it to :class:`Following`: the status line says
how far the index is, the view runs again as more of the library is searchable, and the
counts, rows and paper shown catch up with what another writer did."""

from __future__ import annotations

from typing import TYPE_CHECKING

from reader.library import (
    LibraryState,
)
from reader.ui.index_status import IndexStatus
from reader.ui.screens import reading_screen
from reader.ui.search_session import Rerun

if TYPE_CHECKING:
    from reader.ui.app import ReaderApp


class Following:
    """The index followed as it is built, and the library as other writers change it."""

    def __init__(self, app: ReaderApp) -> None:
        self._app = app
        #: The state of the library last read (None before the first read).
        self._library_state: LibraryState | None = None
        #: Set once the window quits (see quitting).
        self._quitting = False

    def quitting(self) -> None:
        """The window quits: the index's reports no longer touch the status line, which
        says what quitting waits for, nor start work (the next run finishes the index)."""
        self._quitting = True

    def index_reported(self, message: IndexStatus.Report) -> None:
        """Say how the index is coming on, and run the view's query again as more of the
        library becomes searchable."""
        if isinstance(message, IndexStatus.Building):
            self._index_building(message)
        elif isinstance(message, IndexStatus.Mending):
            self._index_mending(message)
        elif isinstance(message, IndexStatus.Progress):
            self._index_progress(message)
        elif isinstance(message, IndexStatus.Grew):
            self._index_grew(message)
        elif isinstance(message, IndexStatus.Built):
            self._index_built(message)
        elif isinstance(message, IndexStatus.Synced):
            self._index_synced(message)

    def _index_building(self, _message: IndexStatus.Building) -> None:
        self._app.status.note("Building the search index…")

    def _index_mending(self, _message: IndexStatus.Mending) -> None:
        self._app.status.note("Rebuilding the damaged search index…")

    def _index_progress(self, message: IndexStatus.Progress) -> None:
        grew = self._app.index_status.progressed(message.done, message.total)
        if self._quitting:
            # The build stops at its next safe point (see Quitting.quit).
            self._app.status.note(self._app.quitting.note())
            return
        self._app.status.note(f"Indexing {message.done:,} of {message.total:,}…")
        if grew:
            self._app.searching.rerun_view(Rerun.INDEX_GREW)

    def _index_grew(self, _message: IndexStatus.Grew) -> None:
        self._app.searching.rerun_view(Rerun.INDEX_GREW)

    def _index_built(self, _message: IndexStatus.Built) -> None:
        if self._quitting:
            return  # the status line says what quitting waits for
        self._app.index_status.built()
        self._app.status.note("")
        self._app.searching.rerun_view(Rerun.INDEX_DONE)

    def _index_synced(self, message: IndexStatus.Synced) -> None:
        ready = self._app.index_status.synced(message.reported)
        if message.reported:
            self._app.status.note("")
        if ready:
            # What it indexed may be found now; a search shown over part of the index (this
            # build's or another process's) runs again over all of it.
            self._app.searching.rerun_view(
                Rerun.INDEX_DONE if message.indexed else Rerun.CAUGHT_UP
            )

    def library_changed(self, state: LibraryState, logged: int) -> None:
        """Something was committed (here or elsewhere): bring the counts, the rows, the
        paper shown and the view up to ``state``, read when the seen log was ``logged``
        long."""
        counts = dict(state.counts)
        counts["seen"] += state.unstored + len(self._app.seen.shown_since(logged))
        previous, self._library_state = self._library_state, state
        moved = self._app.status.counted(counts, state.generation)
        if previous is None:
            self._app.status.update()
            return
        retouched = state.generation != previous.generation
        # This window's own writes redraw what they changed as they are done, and those
        # still under way will: only what another writer did is redrawn here.
        others = retouched and not self._app.library.written_here(
            previous.generation, state.generation
        )
        if moved and not others and self._app.writes.under_way:
            moved = False
        self._app.seen.others_stored(state.counts["seen"])
        if state.papers - previous.papers < max(0, state.last_id - previous.last_id):
            self._app.search.papers_went()  # searches leave out what the index still holds
        if previous.papers_changed(state):
            self._app.searching.rerun_view(Rerun.CHANGED)  # new or removed papers
        elif others or moved:
            # Marks a query shown may select on (is:starred, tag:…).
            self._app.searching.rerun_view(Rerun.RETOUCHED)
        if others or moved:
            self._app.paper_list.invalidate_all()
            self._show_shown(elsewhere=others or previous.replies_changed(state))
        elif previous.replies_changed(state) and (reading := reading_screen(self._app.screen)):
            reading.written_elsewhere()  # an import's replies: the generation stays
        if retouched and not self._app.imports.running and (
            others or self._app.library.index_owed
        ):
            # An import running here indexes its own papers, in its own process; this
            # window's own writes were indexed as they were stored, unless the index was
            # busy then.
            self._app.index_status.sync()
        self._app.status.update()

    def _show_shown(self, elsewhere: bool = False) -> None:
        """Redraw the paper shown in the detail pane and the reading view (``elsewhere``:
        another process wrote, perhaps the replies it shows)."""
        self._app.show_current()
        if reading := reading_screen(self._app.screen):
            reading.show(self._app.current_paper)
            if elsewhere:
                reading.written_elsewhere()
