"""Searching as you type: the search box, the results and a "did you mean" shown as the
window's SearchSession (reader/ui/search_session.py) posts them."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from textual.binding import Binding
from textual.message import Message

from reader.models import PaperRow
from reader.ui import bindings
from reader.ui.keymap import key_label
from reader.ui.screens import reading_screen
from reader.ui.search_session import Rerun, SearchSession
from reader.ui.widgets.search_box import SearchBox

if TYPE_CHECKING:
    from reader.library import SearchOutcome
    from reader.ui.app import ReaderApp

#: How long typing must pause before a search that found nothing looks for a "did you mean".
SUGGEST_AFTER_SECONDS = 0.3


class Searching:
    """Search as you type, and what follows from a query: the list shows the results,
    where the cursor goes in them and back from them."""

    def __init__(self, app: ReaderApp) -> None:
        self._app = app
        #: The paper the last session ended on, placed once a search can answer.
        self._restore_paper: int | None = None
        #: The paper under the cursor when the search box was last entered, and where the
        #: list goes back to when the search is cleared (see run_search).
        self._paper_before_search: int | None = None
        self._return_paper: int | None = None

    def restore(self, paper: int | None) -> None:
        """Place ``paper`` (where the last session ended) once the query it left shows."""
        self._restore_paper = paper

    def query_changed(self, query: str) -> None:
        """The search box holds ``query`` now: search it once typing pauses."""
        if not self._app.search.asked(query):  # not already run by results_shown
            self.run_search(query, settle=True)

    async def results_shown(self, query: str, timeout: float = 5.0) -> None:
        """Wait (at most ``timeout`` seconds) until the list shows the results of ``query``."""
        if not self._app.search.asked(query):
            self.run_search(query)  # its Changed message is still on its way
        await self._app.search.shown(query, timeout)

    def run_search(self, query: str, *, settle: bool = False) -> None:
        """Search in a worker; only the newest query's results are shown. A query being
        typed (``settle``) waits a moment for the next key first."""
        app = self._app
        if not query.strip() and app.outcome is not None and not app.paper_list.pinned:
            # The search is cleared (esc, or the box emptied) with the cursor where the
            # results put it: the list goes back to the paper it was on before. A paper
            # the user moved to in the results stays (the cursor is pinned to it).
            self._return_paper = self._paper_before_search
        app.search.run(query, settle=settle)

    def reported(self, message: Message) -> None:
        """Route a report of the search session (handed over at once, see SearchSession)."""
        if isinstance(message, SearchSession.Results):
            self.show_results(message.generation, message.outcome, message.seen,
                              message.logged, message.rows)
        elif isinstance(message, SearchSession.Suggestion):
            self._suggestion(message)

    def show_results(
        self, seq: int, outcome: SearchOutcome, seen: int = 0, logged: int | None = None,
        rows: dict[int, PaperRow] | None = None,
    ) -> None:
        """Show the outcome of the search asked as ``seq``, unless a newer one was asked."""
        app = self._app
        search = app.search
        if not search.current(seq):
            return
        if rows:
            app.paper_list.prime({i: app.intents.apply(row) for i, row in rows.items()})
        previous = app.outcome
        search.show(outcome)
        app.status.searched(app.outcome)
        if logged is not None and (late := app.seen.shown_since(logged)):
            # Papers shown while the search ran: counted by no one yet.
            shown = set(late)
            seen += sum(1 for i in outcome.ids if i in shown)
        same_view = (previous.query if previous else "").strip() == outcome.query.strip()
        offered = previous is not None and bool(previous.suggestion)
        papers = app.paper_list
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
        if self._restore_paper in outcome.ids or search.answers(outcome):
            # Kept until a search can answer: the first one may only say "still indexing",
            # or show only the best matches.
            self._restore_paper = None
        # Before the list places its cursor, which shows the paper there (and counts it seen).
        app.status.viewing(seen)
        if grows:
            papers.grow(outcome.ids)
        else:
            papers.set_ids(outcome.ids, app.terms, keep=keep,
                           keep_scroll=same_view and not restoring, restored=restoring)
        app.status.update(outcome.notice or "")
        if offered != (app.outcome is not None and bool(app.outcome.suggestion)):
            # The footer offers a suggestion only while there is one. Only then: the footer
            # rebuilds itself on every refresh (tens of milliseconds, on every result).
            app.refresh_bindings()
        if not outcome.ids and outcome.query.strip() and outcome.notice is None:
            # Once typing pauses: a query typed on would make the suggestion wasted work.
            app.set_timer(SUGGEST_AFTER_SECONDS, partial(search.suggest, seq, outcome))

    def _suggestion(self, message: SearchSession.Suggestion) -> None:
        if not self._app.search.suggested(message.generation, message.suggestion):
            return  # a newer search was asked, or the query was cleared
        self._app.status.searched(self._app.outcome)
        binding = next(
            b for b in bindings.APP if isinstance(b, Binding) and b.id == "search.suggestion"
        )
        key = key_label(binding, self._app.config.keymap)
        self._app.status.update(f"Did you mean “{message.suggestion}”? {key} searches it")
        self._app.refresh_bindings()

    def action_accept_suggestion(self) -> None:
        """Search for what the last search suggested instead ("did you mean")."""
        outcome = self._app.outcome
        if outcome is not None and outcome.suggestion:
            # Typing goes on where it was: taken to the list, the letters typed next to
            # mend the query acted on papers instead (an `a` opened the add dialog).
            typing = isinstance(self._app.focused, SearchBox)
            self.run_query(outcome.suggestion, to_list=not typing)

    def rerun_view(self, why: Rerun) -> None:
        """Run the view's query again (the list keeps its cursor and scroll), if ``why``
        can change what it finds."""
        boxes = self._app.query(SearchBox)
        if not boxes:
            # A report of the index that arrives as the window closes (its widgets gone):
            # nothing is shown to search again.
            return
        query = boxes.first().value
        if self._app.search.wants_rerun(query, why):
            self.run_search(query)

    def run_query(self, query: str, *, to_list: bool = True) -> None:
        """Put a query in the search box and run it (views, saved searches, tags); the keys
        go to the list next, unless not ``to_list`` (they stay in the box, its cursor at
        the query's end)."""
        box = self._app.query_one(SearchBox)
        if box.value == query:
            self.run_search(query)
        else:
            box.value = query  # posts Changed, which runs the search
        if reading_screen(self._app.screen):
            self._app.pop_screen()
        if to_list:
            self._app.paper_list.focus()
        else:
            box.cursor_position = len(query)

    def action_focus_search(self) -> None:
        """Put the cursor in the search box (leaving the reading view for the list)."""
        box = self._app.query_one(SearchBox)
        if not box.value:
            self._paper_before_search = self._app.paper_list.current_id
        if reading_screen(self._app.screen):
            self._app.pop_screen()
            self._app.call_after_refresh(box.focus)
        else:
            # Focus now, not after the keys already queued (as focus() would): keys typed
            # right behind `/` belong to the box.
            self._app.screen.set_focus(box)

    def action_clear_search(self) -> None:
        """Stop a fetch under way; else clear the query and show the whole library."""
        if self._app.fetching.stop_fetch():
            return
        box = self._app.query_one(SearchBox)
        if box.value:
            box.value = ""  # posts Changed, which shows everything again
        self._app.paper_list.focus()
