"""Triage: stars and read marks (stated at once, stored in order), papers seen as they
are shown, the next unseen paper, more like this and papers for you."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from textual import events

from reader.models import Paper, PaperRow
from reader.ui.features.base import AppBase
from reader.ui.screens.reading import ReadingScreen
from reader.ui.search_session import Rerun
from reader.ui.widgets.paper_detail import PaperDetail


class TriageFeature(AppBase):
    """Stars, read marks, seen papers and the ways to the next paper worth reading."""

    def action_toggle_star(self) -> None:
        """Star the current paper when it is shown unstarred, else unstar it."""
        shown = self._shown_current()
        if shown is None:
            return
        starred = not shown.starred
        self._set_mark(
            shown.id, "starred", starred,
            partial(self.library.set_starred, shown.id, starred),
            "star" if starred else "unstar",
        )

    def _shown_current(self) -> Paper | PaperRow | None:
        """The paper under the cursor with its marks as the window shows them: its row as
        drawn (nothing read), else the paper."""
        paper_id = self.paper_list.current_id
        if paper_id is None:
            return None
        row = self.paper_list.drawn_row(paper_id)
        return self.intents.apply(row) if row is not None else self.current_paper

    def _set_mark(
        self, paper_id: int, mark: str, value: bool, job: Callable[[], object], verb: str
    ) -> None:
        """Show a mark as asked at once, and store it (as a value, never as a toggle)."""
        ticket = self.intents.ask(paper_id, mark, value)
        self._show_marks(paper_id)

        def failed(exc: Exception) -> None:
            self.intents.done(paper_id, mark, ticket)
            self.refresh_paper(paper_id)
            self.notify(f"Could not {verb} the paper: {exc}", severity="error")

        def done() -> None:
            # Stored as shown: only the counts, and a view that selects on the mark, move.
            self.intents.done(paper_id, mark, ticket)
            if mark == "read" and self._stored_seen is not None:
                self._stored_seen.add(paper_id)
            self.status.recount()
            self.status.update()
            if self._view_selects_on(mark):
                self.rerun_view(Rerun.CHANGED)

        self.writes.run(job, done, failed)

    def _show_marks(self, paper_id: int) -> None:
        """Redraw a paper whose marks were just asked for, from what the window shows of
        it (the row drawn, the paper in the detail pane and the reading view): the marks
        are the only thing that changed, so nothing is read again."""
        papers = self.paper_list
        row = papers.drawn_row(paper_id)
        if row is not None:
            papers.prime({paper_id: self.intents.apply(row)})
            papers.refresh()
        else:
            papers.invalidate(paper_id)
        detail = self.query_one("#detail", PaperDetail)
        if detail.paper is not None and detail.paper.id == paper_id:
            detail.restate(self.intents.apply(detail.paper))
        screen = self.screen
        if isinstance(screen, ReadingScreen) and screen.paper.id == paper_id:
            screen.show(self.intents.apply(screen.paper))

    def _view_selects_on(self, mark: str) -> bool:
        """Whether the view shown would change with ``mark`` of a paper: a filter on it,
        papers ranked like the starred ones, or starred papers sorted first."""
        outcome = self.search.outcome
        if outcome is None or outcome.parsed is None:
            return outcome is not None
        flags = {mark, "seen"} if mark == "read" else {mark}
        parsed = outcome.parsed
        if mark == "starred" and (parsed.like.lower() == "starred" or self.views.order == mark):
            return True
        return any(f.flag in flags for f in parsed.filters)

    def action_toggle_read(self) -> None:
        """Mark the current paper read, or unread again."""
        shown = self._shown_current()
        if shown is None:
            return
        self._saw(shown)
        read = not shown.read
        self._set_mark(
            shown.id, "read", read, partial(self.library.set_read, shown.id, read),
            "mark" if read else "unmark",
        )

    def action_next_unseen(self) -> None:
        """Go to the next unseen paper of the view (after the cursor, then from the top)."""
        papers = self.paper_list
        ids = papers.ids
        if not ids:
            return
        current = self.current_paper
        if current is not None:
            self._saw(current)  # passed over: the user has been on it
        library = self.library
        found = None
        for start, stop in ((papers.cursor + 1, len(ids)), (0, papers.cursor)):
            position = start
            while position < stop:
                hit = library.first_unseen(ids[:stop], position)
                if hit is None or ids[hit] not in self.seen_now:
                    found = hit
                    break
                position = hit + 1
            if found is not None:
                break
        if found is None:
            self.notify("Every paper in this view has been seen", timeout=4)
            return
        papers.cursor = found
        if isinstance(self.screen, ReadingScreen):
            self.screen.show(self.current_paper)

    def action_more_like(self) -> None:
        """List the papers most like the current one."""
        paper = self.current_paper
        if paper is not None:
            self.run_query(f"like:{paper.citekey}")

    def action_for_you(self) -> None:
        """Unseen papers ranked by what they share with the starred ones."""
        self.run_query("like:starred is:unseen")

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """Coming to the list (from the search box, or at start) is being on its paper."""
        if event.widget is self.paper_list:
            paper = self.current_paper
            if paper is not None:
                self._saw(paper)

    def _saw(self, paper: Paper | PaperRow) -> None:
        """A paper was shown: it is seen from now on (stored with the next batch)."""
        if paper.seen or paper.id in self.seen_now:
            return
        self.seen_now.add(paper.id)
        self.seen_log.append(paper.id)
        self._seen_pending.add(paper.id)
        self.status.saw_one()
        # Just the row whose mark changed: redrawing the whole list on every key is most of
        # what a cursor step costs.
        self.paper_list.refresh_line(self.paper_list.cursor)
        self.status.update()

    def _flush_seen(self) -> None:
        """Store the papers seen since the last flush, in one write."""
        if not self._seen_pending:
            return
        ids = sorted(self._seen_pending)
        self._seen_pending.clear()
        self.writes.run(partial(self.library.mark_seen, ids), partial(self._seen_stored, ids),
                    self._seen_failed)

    def _seen_stored(self, ids: list[int]) -> None:
        if self._stored_seen is not None:
            self._stored_seen.update(ids)

    def _seen_failed(self, exc: Exception) -> None:
        # Said once: a library that refuses writes would otherwise say it on every key.
        # The papers stay seen in this session either way.
        if not self._seen_warned:
            self._seen_warned = True
            self.notify(
                f"Could not record papers as seen ({exc}); they count as seen until you quit",
                severity="warning", timeout=10,
            )
