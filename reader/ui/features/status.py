"""The index followed as it is built and caught up, and the live library: writes by other
windows and the CLI followed within a second."""

from __future__ import annotations

from textual import on

from reader.library import (
    LibraryState,
)
from reader.ui.features.base import AppBase
from reader.ui.index_status import IndexStatus
from reader.ui.live import LiveLibrary
from reader.ui.screens.reading import ReadingScreen
from reader.ui.search_session import Rerun
from reader.ui.widgets.paper_list import PaperList


class StatusFeature(AppBase):
    """The index followed, and other writers."""

    @on(IndexStatus.Building)
    def _index_building(self, _message: IndexStatus.Building) -> None:
        self.status.note("Building the search index…")

    @on(IndexStatus.Mending)
    def _index_mending(self, _message: IndexStatus.Mending) -> None:
        self.status.note("Rebuilding the damaged search index…")

    @on(IndexStatus.Progress)
    def _index_progress(self, message: IndexStatus.Progress) -> None:
        grew = self.index_status.progressed(message.done, message.total)
        if self.quitting.begun:
            # The build stops at its next safe point (see Quitting.quit).
            self.status.note(self.quitting.note())
            return
        self.status.note(f"Indexing {message.done:,} of {message.total:,}…")
        if grew:
            self.rerun_view(Rerun.INDEX_GREW)

    @on(IndexStatus.Grew)
    def _index_grew(self, _message: IndexStatus.Grew) -> None:
        self.rerun_view(Rerun.INDEX_GREW)

    @on(IndexStatus.Built)
    def _index_built(self, _message: IndexStatus.Built) -> None:
        if self.quitting.begun:
            return  # the status line says what quitting waits for
        self.index_status.built()
        self.status.note("")
        self.rerun_view(Rerun.INDEX_DONE)

    @on(IndexStatus.Synced)
    def _index_synced(self, message: IndexStatus.Synced) -> None:
        if message.reported:
            self.index_status.caught_up()
            self.status.note("")
        if self.index_status.ready and (message.indexed or self._shown_partial()):
            # A search shown over part of the index (this build's or another process's)
            # runs again over all of it.
            self.rerun_view(Rerun.INDEX_DONE)

    def _shown_partial(self) -> bool:
        """Whether the search shown was answered over part of the index."""
        outcome = self.search.outcome
        return outcome is not None and outcome.partial is not None

    @on(LiveLibrary.Changed)
    def _library_changed(self, message: LiveLibrary.Changed) -> None:
        if not self.query(PaperList):
            return  # a state read as the window closed, handled after its list went
        self.library_changed(message.state, message.logged)

    def library_changed(self, state: LibraryState, logged: int) -> None:
        """Something was committed (here or elsewhere): bring the counts, the rows, the
        paper shown and the view up to ``state``, read when the seen log was ``logged``
        long."""
        counts = dict(state.counts)
        counts["seen"] += state.unstored + len(self.seen.log) - logged
        previous, self._library_state = self._library_state, state
        moved = self.status.counted(counts)
        if previous is None:
            self.status.update()
            return
        retouched = state.generation != previous.generation
        # This window's own writes redraw what they changed as they are done, and those
        # still under way will: only what another writer did is redrawn here.
        others = retouched and not self.library.written_here(
            previous.generation, state.generation
        )
        if moved and not others and self.writes.under_way:
            moved = False
        self.seen.others_stored(state.counts["seen"])
        if state.papers - previous.papers < max(0, state.last_id - previous.last_id):
            self.search.papers_went()  # searches leave out what the index still holds
        shows_query = self.search.outcome is not None
        if previous.papers_changed(state) or (shows_query and (others or moved)):
            # New or removed papers, or marks a query may select on (is:starred, tag:…).
            self.rerun_view(Rerun.CHANGED)
        if others or moved:
            self.paper_list.invalidate_all()
            self._show_shown()
        if retouched and not self.imports.running and (
            others or self.library.index_owed
        ):
            # An import running here indexes its own papers, in its own process; this
            # window's own writes were indexed as they were stored, unless the index was
            # busy then.
            self.index_status.sync()
        self.status.update()

    def _show_shown(self) -> None:
        """Redraw the paper shown in the detail pane and the reading view."""
        self.show_current()
        if isinstance(self.screen, ReadingScreen):
            self.screen.show(self.current_paper)
