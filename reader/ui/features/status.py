"""The status line and the counts it shows, kept current in memory, and the live library:
writes by other windows and the CLI followed within a second."""

from __future__ import annotations

from textual import on
from textual.widgets import Static

from reader.library import (
    LibraryState,
)
from reader.ui.commands import SORT_LABELS
from reader.ui.features.base import AppBase
from reader.ui.index_status import IndexStatus
from reader.ui.live import LiveLibrary
from reader.ui.screens.reading import ReadingScreen
from reader.ui.search_session import Rerun
from reader.ui.widgets.paper_list import PaperList


class StatusFeature(AppBase):
    """The status line, the counts, and other writers followed."""

    def _set_status_note(self, note: str) -> None:
        self._status_note = note
        self._update_status()

    def _refresh_counts(self) -> None:
        """Count the library again (after a write or an import)."""
        library = self.library
        counts = library.triage_counts()
        # Papers shown but not yet written down as seen still count as seen; asked of the
        # database, as a paper marked read or seen by another window is stored as seen.
        counts["seen"] += library.count_unseen(self.seen_log)
        self._counts = counts

    def _update_status(self, notice: str | None = None) -> None:
        if notice is not None:
            self._notice = notice
        counts = self._counts
        library = (
            f"{counts.get('seen', 0):,} / {counts.get('papers', 0):,} seen · "
            f"{counts.get('starred', 0):,} starred · {counts.get('read', 0):,} read · "
            f"{counts.get('with_notes', 0):,} with notes"
        )
        short = f"{counts.get('seen', 0):,} / {counts.get('papers', 0):,} seen"
        total = len(self.paper_list.ids)
        room = self.size.width - 2 - (len(f"{total:,} / {total:,}  ·  ") if total else 0)
        parts = []
        marked = self.citations.marked
        if marked:
            parts.append(f"{len(marked):,} marked (y copies them, V clears)")
        shown = len(self.paper_list.ids)
        if self.search.outcome is not None:
            like = self.search.outcome.like
            if len(like) > 40:
                like = like[:38].rstrip() + "…”"
            label = f"like {like}: " if like else ""
            if self.search.outcome.complete:
                found = f"{shown:,} {'match' if shown == 1 else 'matches'}"
                seen = f", {min(self._view_seen, shown):,} seen" if shown else ""
                parts.append(f"{label}{found}{seen}")
            else:
                parts.append(f"{label}{shown:,}+ matches, counting…")
        if self._notice:
            # Beside the view it is about, where a narrow terminal still shows it.
            parts.append(self._notice)
            # The notice needs the room: the library's counts shrink to the seen count, or
            # go while it is shown if even that would cut the line (padding and place too).
            if len("  ·  ".join([*parts, short])) <= room:
                parts.append(short)
        else:
            parts.append(library)
        if self.sort_order != "relevance":
            parts.append(f"sorted by {SORT_LABELS[self.sort_order]}")
        if self._status_note:
            parts.append(self._status_note)
            if library in parts and len("  ·  ".join(parts)) > room:
                # The progress needs the room more than the counts: they shrink to the
                # seen count, or go while it is shown.
                at = parts.index(library)
                parts[at] = short
                if len("  ·  ".join(parts)) > room:
                    del parts[at]
        self._status_body = "  ·  ".join(parts)
        self._show_status()

    def _show_status(self) -> None:
        """Show the cursor's place in the view and the status, under the list and under the
        reading view (the place changes on every key: the rest is kept ready)."""
        papers = self.paper_list
        total = len(papers.ids)
        place = f"{papers.cursor + 1:,} / {total:,}  ·  " if total else ""
        text = place + self._status_body
        # One line high whatever it says (styles/app.tcss): no layout pass on every change.
        self.query_one("#status", Static).update(text, layout=False)
        if isinstance(self.screen, ReadingScreen):
            self.screen.show_status(text)

    @on(IndexStatus.Building)
    def _index_building(self, _message: IndexStatus.Building) -> None:
        self._set_status_note("Building the search index…")

    @on(IndexStatus.Mending)
    def _index_mending(self, _message: IndexStatus.Mending) -> None:
        self._set_status_note("Rebuilding the damaged search index…")

    @on(IndexStatus.Progress)
    def _index_progress(self, message: IndexStatus.Progress) -> None:
        grew = self.index_status.progressed(message.done, message.total)
        if self._quitting:
            # The build stops at its next safe point (see action_quit).
            self._set_status_note(self._quit_note())
            return
        self._set_status_note(f"Indexing {message.done:,} of {message.total:,}…")
        if grew:
            self.rerun_view(Rerun.INDEX_GREW)

    @on(IndexStatus.Grew)
    def _index_grew(self, _message: IndexStatus.Grew) -> None:
        self.rerun_view(Rerun.INDEX_GREW)

    @on(IndexStatus.Built)
    def _index_built(self, _message: IndexStatus.Built) -> None:
        if self._quitting:
            return  # the status line says what quitting waits for
        self.index_status.built()
        self._set_status_note("")
        self.rerun_view(Rerun.INDEX_DONE)

    @on(IndexStatus.Synced)
    def _index_synced(self, message: IndexStatus.Synced) -> None:
        if message.reported:
            self.index_status.caught_up()
            self._set_status_note("")
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
        counts["seen"] += state.unstored + len(self.seen_log) - logged
        previous, self._library_state = self._library_state, state
        moved = counts != self._counts
        self._counts = counts
        if previous is None:
            self._update_status()
            return
        retouched = state.generation != previous.generation
        # This window's own writes redraw what they changed as they are done, and those
        # still under way will: only what another writer did is redrawn here.
        others = retouched and not self.library.written_here(
            previous.generation, state.generation
        )
        if moved and not others and self.writes.under_way:
            moved = False
        if self._stored_seen is not None and len(self._stored_seen) != state.counts["seen"]:
            self._stored_seen = None  # another writer marked papers seen: read them again
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
        self._update_status()

    def _show_shown(self) -> None:
        """Redraw the paper shown in the detail pane and the reading view."""
        self.show_current()
        if isinstance(self.screen, ReadingScreen):
            self.screen.show(self.current_paper)
