"""Triage: stars and read marks (stated at once, stored in order), the next unseen paper,
more like this and papers for you (the papers seen are reader/ui/features/seen.py)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from reader.library import Change
from reader.models import Paper, PaperRow
from reader.ui.screens import reading_screen
from reader.ui.search_session import Rerun
from reader.ui.widgets.paper_detail import PaperDetail

if TYPE_CHECKING:
    from reader.ui.app import ReaderApp


class Triage:
    """Stars, read marks and the ways to the next paper worth reading."""

    def __init__(self, app: ReaderApp) -> None:
        self._app = app

    def action_toggle_star(self) -> None:
        """Star the current paper when it is shown unstarred, else unstar it."""
        shown = self._shown_current()
        if shown is None:
            return
        starred = not shown.starred
        self._set_mark(
            shown.id, "starred", starred,
            partial(self._app.library.set_starred, shown.id, starred),
            "star" if starred else "unstar",
        )

    def _shown_current(self) -> Paper | PaperRow | None:
        """The paper under the cursor with its marks as the window shows them: its row as
        drawn (nothing read), else the paper."""
        paper_id = self._app.paper_list.current_id
        if paper_id is None:
            return None
        row = self._app.paper_list.drawn_row(paper_id)
        return self._app.intents.apply(row) if row is not None else self._app.current_paper

    def _set_mark(
        self, paper_id: int, mark: str, value: bool, job: Callable[[], object], verb: str
    ) -> None:
        """Show a mark as asked at once, and store it (as a value, never as a toggle)."""
        ticket = self._app.intents.ask(paper_id, mark, value)
        self._show_marks(paper_id)
        written: list[object] = []

        def failed(exc: Exception) -> None:
            self._app.intents.done(paper_id, mark, ticket)
            self._app.refresh_paper(paper_id)
            self._app.notify(f"Could not {verb} the paper: {exc}", severity="error")

        def done() -> None:
            # Stored as shown: only the counts, and a view that selects on the mark, move.
            self._app.intents.done(paper_id, mark, ticket)
            if mark == "read":
                self._app.seen.stored_read(paper_id)
            change = written[0] if written else None
            # A write that says how it moved the counts (a star) adjusts them; another is
            # counted again.
            if not (isinstance(change, Change) and self._app.status.adjust(change)):
                self._app.status.recount()
            self._app.status.update()
            # A view that selects on the mark runs again (the search session knows which).
            self._app.searching.rerun_view(Rerun.STARRED if mark == "starred" else Rerun.READ)

        def write() -> None:
            written.append(job())

        self._app.writes.run(write, done, failed)

    def _show_marks(self, paper_id: int) -> None:
        """Redraw a paper whose marks were just asked for, from what the window shows of
        it (the row drawn, the paper in the detail pane and the reading view): the marks
        are the only thing that changed, so nothing is read again."""
        papers = self._app.paper_list
        row = papers.drawn_row(paper_id)
        if row is not None:
            papers.prime({paper_id: self._app.intents.apply(row)})
            papers.refresh()
        else:
            papers.invalidate(paper_id)
        detail = self._app.query_one("#detail", PaperDetail)
        if detail.paper is not None and detail.paper.id == paper_id:
            detail.restate(self._app.intents.apply(detail.paper))
        screen = reading_screen(self._app.screen)
        if screen is not None and screen.paper.id == paper_id:
            screen.show(self._app.intents.apply(screen.paper))

    def action_toggle_read(self) -> None:
        """Mark the current paper read, or unread again."""
        shown = self._shown_current()
        if shown is None:
            return
        self._app.seen.saw(shown)
        read = not shown.read
        self._set_mark(
            shown.id, "read", read, partial(self._app.library.marks.set_read, shown.id, read),
            "mark" if read else "unmark",
        )

    def action_next_unseen(self) -> None:
        """Go to the next unseen paper of the view (after the cursor, then from the top)."""
        papers = self._app.paper_list
        ids = papers.ids
        if not ids:
            return
        current = self._app.current_paper
        if current is not None:
            self._app.seen.saw(current)  # passed over: the user has been on it
        library = self._app.library
        found = None
        for start, stop in ((papers.cursor + 1, len(ids)), (0, papers.cursor)):
            position = start
            while position < stop:
                hit = library.queries.first_unseen(ids[:stop], position)
                if hit is None or not self._app.seen.was_shown(ids[hit]):
                    found = hit
                    break
                position = hit + 1
            if found is not None:
                break
        if found is None:
            self._app.notify("Every paper in this view has been seen", timeout=4)
            return
        papers.cursor = found
        if reading := reading_screen(self._app.screen):
            reading.show(self._app.current_paper)

    def action_more_like(self) -> None:
        """List the papers most like the current one."""
        paper = self._app.current_paper
        if paper is not None:
            self._app.searching.run_query(f"like:{paper.citekey}")

    def action_for_you(self) -> None:
        """Unseen papers ranked by what they share with the starred ones."""
        self._app.searching.run_query("like:starred is:unseen")
