"""Searching as you type: the search box, the results and a "did you mean" shown as the
window's SearchSession (reader/ui/search_session.py) posts them."""

from __future__ import annotations

from functools import partial

from textual import on
from textual.binding import Binding
from textual.message import Message
from textual.widgets import Input

from reader.library import SearchOutcome
from reader.models import PaperRow
from reader.ui import bindings
from reader.ui.features.base import AppBase
from reader.ui.keymap import key_label
from reader.ui.screens.reading import ReadingScreen
from reader.ui.search_session import Rerun, SearchSession
from reader.ui.widgets.search_box import SearchBox

#: How long typing must pause before a search that found nothing looks for a "did you mean".
SUGGEST_AFTER_SECONDS = 0.3


class SearchFeature(AppBase):
    """Search as you type, and what follows from a query."""

    @on(Input.Changed, "#search")
    def _query_changed(self, event: Input.Changed) -> None:
        if not self.search.asked(event.value):  # not already run by results_shown
            self.run_search(event.value, settle=True)

    async def results_shown(self, query: str, timeout: float = 5.0) -> None:
        """Wait (at most ``timeout`` seconds) until the list shows the results of ``query``."""
        if not self.search.asked(query):
            self.run_search(query)  # its Changed message is still on its way
        await self.search.shown(query, timeout)

    def run_search(self, query: str, *, settle: bool = False) -> None:
        """Search in a worker; only the newest query's results are shown. A query being
        typed (``settle``) waits a moment for the next key first."""
        if not query.strip() and self.search.outcome is not None and not self.paper_list.pinned:
            # The search is cleared (esc, or the box emptied) with the cursor where the
            # results put it: the list goes back to the paper it was on before. A paper
            # the user moved to in the results stays (the cursor is pinned to it).
            self._return_paper = self._paper_before_search
        self.search.run(query, settle=settle)

    def _search_reported(self, message: Message) -> None:
        """Route a report of the search session (handed over at once, see SearchSession)."""
        if isinstance(message, SearchSession.Results):
            self._show_results(message.generation, message.outcome, message.seen,
                               message.logged, message.rows)
        elif isinstance(message, SearchSession.Suggestion):
            self._suggestion(message)

    def _show_results(
        self, seq: int, outcome: SearchOutcome, seen: int = 0, logged: int | None = None,
        rows: dict[int, PaperRow] | None = None,
    ) -> None:
        search = self.search
        if not search.current(seq):
            return
        if rows:
            self.paper_list.prime({i: self.intents.apply(row) for i, row in rows.items()})
        previous = search.outcome
        search.show(outcome)
        if logged is not None and len(self.seen.log) > logged:
            # Papers shown while the search ran: counted by no one yet.
            shown = set(self.seen.log[logged:])
            seen += sum(1 for i in outcome.ids if i in shown)
        same_view = (previous.query if previous else "").strip() == outcome.query.strip()
        offered = previous is not None and bool(previous.suggestion)
        papers = self.paper_list
        # The rest of a query whose best matches are shown: the list grows below them, and
        # the cursor, the scroll and the detail pane stay where the user has them.
        grows = (
            previous is not None
            and not previous.complete
            and previous.query == outcome.query
            and self._restore_paper is None
            and outcome.ids[: len(papers.ids)] == papers.ids
        )
        # The paper of the last session is placed as the user left it, not as a cursor
        # left at the top of the view by a search that could not answer yet.
        restoring = self._restore_paper is not None
        keep = self._restore_paper or papers.current_id
        if not same_view and not restoring and outcome.query.strip():
            # A new query starts at its best match, wherever the cursor was.
            keep = None
        if self._return_paper is not None and not outcome.query.strip():
            keep, self._return_paper = self._return_paper, None
        if self._restore_paper in outcome.ids or (
            outcome.ids and outcome.complete and self.index_status.ready
        ):
            # Kept until a search can answer: the first one may only say "still indexing",
            # or show only the best matches.
            self._restore_paper = None
        # Before the list places its cursor, which shows the paper there (and counts it seen).
        self.status.viewing(seen)
        if grows:
            papers.grow(outcome.ids)
        else:
            papers.set_ids(outcome.ids, self.terms, keep=keep,
                           keep_scroll=same_view and not restoring, restored=restoring)
        self.status.update(outcome.notice or "")
        if offered != (search.outcome is not None and bool(search.outcome.suggestion)):
            # The footer offers a suggestion only while there is one. Only then: the footer
            # rebuilds itself on every refresh (tens of milliseconds, on every result).
            self.refresh_bindings()
        if not outcome.ids and outcome.query.strip() and outcome.notice is None:
            # Once typing pauses: a query typed on would make the suggestion wasted work.
            self.set_timer(SUGGEST_AFTER_SECONDS, partial(search.suggest, seq, outcome.query))

    def _suggestion(self, message: SearchSession.Suggestion) -> None:
        search = self.search
        if not search.current(message.generation) or search.outcome is None:
            return
        search.suggested(message.suggestion)
        binding = next(
            b for b in bindings.APP if isinstance(b, Binding) and b.id == "search.suggestion"
        )
        key = key_label(binding, self.config.keymap)
        self.status.update(f"Did you mean “{message.suggestion}”? {key} searches it")
        self.refresh_bindings()

    def action_accept_suggestion(self) -> None:
        """Search for what the last search suggested instead ("did you mean")."""
        outcome = self.search.outcome
        if outcome is not None and outcome.suggestion:
            self.run_query(outcome.suggestion)

    def rerun_view(self, why: Rerun) -> None:
        """Run the view's query again (the list keeps its cursor and scroll), if ``why``
        can change what it finds."""
        query = self.query_one(SearchBox).value
        if self.search.wants_rerun(query, why):
            self.run_search(query)

    def run_query(self, query: str) -> None:
        """Put a query in the search box and run it (views, saved searches, tags)."""
        box = self.query_one(SearchBox)
        if box.value == query:
            self.run_search(query)
        else:
            box.value = query  # posts Changed, which runs the search
        if isinstance(self.screen, ReadingScreen):
            self.pop_screen()
        self.paper_list.focus()

    def action_focus_search(self) -> None:
        """Put the cursor in the search box (leaving the reading view for the list)."""
        box = self.query_one(SearchBox)
        if not box.value:
            self._paper_before_search = self.paper_list.current_id
        if isinstance(self.screen, ReadingScreen):
            self.pop_screen()
            self.call_after_refresh(box.focus)
        else:
            # Focus now, not after the keys already queued (as focus() would): keys typed
            # right behind `/` belong to the box.
            self.screen.set_focus(box)

    def action_clear_search(self) -> None:
        """Stop a fetch under way; else clear the query and show the whole library."""
        if self.fetching.stop_fetch():
            return
        box = self.query_one(SearchBox)
        if box.value:
            box.value = ""  # posts Changed, which shows everything again
        self.paper_list.focus()
