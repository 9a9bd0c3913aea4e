"""Sort orders and saved searches, what the app remembers for its next start, and the
ratings overview of the view."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from textual.css.query import NoMatches
from textual.timer import Timer

from reader.library import RELEVANCE, SORT_KEYS
from reader.ui.commands import SORT_LABELS
from reader.ui.search_session import Rerun
from reader.ui.widgets.search_box import SearchBox

if TYPE_CHECKING:
    from reader.ui.app import ReaderApp

#: What the app remembers between runs (in the library's meta table).
SORT_KEY, QUERY_KEY, PAPER_KEY = "ui.sort", "ui.last_query", "ui.last_paper"
#: How long the cursor rests on a paper before it is remembered for another window.
REMEMBER_AFTER_SECONDS = 1.0


class Views:
    """Sort orders and saved searches; the ratings overview; the view remembered."""

    def __init__(self, app: ReaderApp) -> None:
        self._app = app
        #: The order the view is sorted in (see SORT_KEYS).
        self.order = RELEVANCE
        self._remember_timer: Timer | None = None

    def show_first(self, ids: list[int] | None) -> None:
        """Show the view the last run left: the library (``ids``, when the caller has just
        read them) in the order it left, at the paper it ended on, or the query it left,
        searched."""
        app = self._app
        library = app.library
        last_query, last_paper = self._restore()
        app.status.count_if_unknown()
        if last_query:
            # Nothing until the query's results: the whole library under the box's query
            # was a view no one asked for, and a key pressed in it (s, r) acted on its first
            # paper, a paper the query may not find.
            app.paper_list.set_ids([])
        else:
            app.paper_list.set_ids(
                library.queries.sort_ids(ids if ids is not None else library.all_ids(),
                                         self.order),
                keep=last_paper, restored=last_paper is not None,
            )
        app.status.viewing_all()
        if last_query:
            app.searching.restore(last_paper)
            app.query_one(SearchBox).value = last_query  # posts Changed: the search runs
            # The keys typed before the results wait for them, in the list's queue behind
            # this wait, and then act on the paper the results put the cursor on: typed
            # into the empty list, they were lost without a word.
            app.paper_list.call_later(app.searching.results_shown, last_query)

    def _restore(self) -> tuple[str, int | None]:
        """Take up the sort order the last run left; the query and the paper it ended on."""
        library = self._app.library
        order = library.queries.get_meta(SORT_KEY) or RELEVANCE
        self.order = order if order in SORT_KEYS else RELEVANCE
        self._app.status.sorted_by(self.order)
        last_paper = library.queries.get_meta(PAPER_KEY)
        paper = int(last_paper) if last_paper and last_paper.isdigit() else None
        return library.queries.get_meta(QUERY_KEY) or "", paper

    def action_overview(self) -> None:
        """Show the ratings and decisions of the papers in the view, drawn."""
        app = self._app
        count = len(app.paper_list.ids)
        what = "this view" if app.outcome else "the library"
        what += f" ({count:,} papers)"
        from reader.ui.screens.overview import OverviewScreen

        app.push_screen(OverviewScreen(
            app.paper_list.ids, partial(app.library.conference.view_signals, ratings=True), what
        ))

    def action_cycle_sort(self) -> None:
        """Sort the view by the next order: relevance, title, year, added, starred first,
        mean rating, spread of ratings, confidence-weighted rating."""
        orders = list(SORT_KEYS)
        self.set_sort(orders[(orders.index(self.order) + 1) % len(orders)])

    def set_sort(self, order: str) -> None:
        """Sort the view (and every later one) by ``order``; remembered between runs."""
        self.order = order
        self._app.status.sorted_by(order)
        self._app.library.queries.set_meta(SORT_KEY, order)
        self._app.searching.rerun_view(Rerun.VIEW)
        self._app.notify(f"Sorted by {SORT_LABELS[order]}", timeout=3)

    def action_save_search(self) -> None:
        """Save the current query under a name."""
        app = self._app
        query = app.query_one(SearchBox).value.strip()
        if not query:
            app.notify("Type a search first, then save it with S", severity="warning")
            return

        def chosen(name: str | None) -> None:
            if not name:
                return
            app.library.queries.save_search(name, query)
            names = [n for n, _ in app.library.queries.saved_searches()]
            slot = names.index(name) + 1
            key = f"; press {slot} to open it" if slot <= 9 else ""
            app.notify(f"Saved “{query}” as {name}{key} (ctrl+p lists them)")

        from reader.ui.screens.prompts import PromptScreen

        app.push_screen(
            PromptScreen("Save this search", "a name", f"Saves: {query}"), chosen
        )

    def action_open_saved(self, number: int) -> None:
        """Open the saved search with this number (in the order saved)."""
        app = self._app
        saved = app.library.queries.saved_searches()
        if not 1 <= number <= len(saved):
            app.notify(f"No saved search {number} (S saves one)", severity="warning")
            return
        name, query = saved[number - 1]
        app.searching.run_query(query)
        app.notify(f"{name}: {query}", timeout=3)

    def delete_saved_search(self, name: str) -> None:
        """Forget a saved search."""
        self._app.library.queries.delete_saved_search(name)
        self._app.notify(f"Deleted the saved search {name}")

    def remember_soon(self) -> None:
        """Write down the view once the cursor has rested a moment: one write for a run
        of moves, not one per key."""
        timer = self._remember_timer
        if timer is not None:
            timer.stop()
        self._remember_timer = self._app.set_timer(REMEMBER_AFTER_SECONDS, self._remember_now)

    def _remember_now(self) -> None:
        self._remember_timer = None
        app = self._app
        try:
            query = app.query_one(SearchBox).value
            current = app.paper_list.current_id
        except NoMatches:
            return  # the window is closing (quitting remembers the view itself)

        def not_remembered(exc: Exception) -> None:
            # A read-only library can't remember; remembering is a nicety, never a crash.
            app.log.warning(f"could not remember the view: {exc}")

        app.writes.run(lambda: self.remember(query, current), lambda: None, not_remembered)

    def remember(self, query: str, current: int | None) -> None:
        """Write down the query and the selected paper for the next start (in a worker)."""
        library = self._app.library
        library.queries.set_meta(QUERY_KEY, query)
        library.queries.set_meta(PAPER_KEY, str(current) if current is not None else "")
