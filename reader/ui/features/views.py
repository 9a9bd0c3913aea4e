"""Sort orders and saved searches, what the app remembers for its next start, and the
ratings overview of the view."""

from __future__ import annotations

from functools import partial

from textual.css.query import NoMatches
from textual.timer import Timer

from reader.library import (
    SORT_KEYS,
)
from reader.ui.commands import SORT_LABELS
from reader.ui.features.base import PAPER_KEY, QUERY_KEY, SORT_KEY, AppBase
from reader.ui.screens.overview import OverviewScreen
from reader.ui.screens.prompts import PromptScreen
from reader.ui.search_session import Rerun
from reader.ui.widgets.search_box import SearchBox

#: How long the cursor rests on a paper before it is remembered for another window.
REMEMBER_AFTER_SECONDS = 1.0


class ViewsFeature(AppBase):
    """Sort orders and saved searches; the ratings overview."""

    _remember_timer: Timer | None = None

    def action_overview(self) -> None:
        """Show the ratings and decisions of the papers in the view, drawn."""
        count = len(self.paper_list.ids)
        what = "this view" if self.search.outcome else "the library"
        what += f" ({count:,} papers)"
        self.push_screen(OverviewScreen(
            self.paper_list.ids, partial(self.library.view_signals, ratings=True), what
        ))

    def action_cycle_sort(self) -> None:
        """Sort the view by the next order: relevance, title, year, added, starred first,
        mean rating, spread of ratings, confidence-weighted rating."""
        orders = list(SORT_KEYS)
        self.set_sort(orders[(orders.index(self.sort_order) + 1) % len(orders)])

    def set_sort(self, order: str) -> None:
        """Sort the view (and every later one) by ``order``; remembered between runs."""
        self.sort_order = order
        self.library.set_meta(SORT_KEY, order)
        self.rerun_view(Rerun.VIEW)
        self.notify(f"Sorted by {SORT_LABELS[order]}", timeout=3)

    def action_save_search(self) -> None:
        """Save the current query under a name."""
        query = self.query_one(SearchBox).value.strip()
        if not query:
            self.notify("Type a search first, then save it with S", severity="warning")
            return

        def chosen(name: str | None) -> None:
            if not name:
                return
            self.library.save_search(name, query)
            names = [n for n, _ in self.library.saved_searches()]
            slot = names.index(name) + 1
            key = f"; press {slot} to open it" if slot <= 9 else ""
            self.notify(f"Saved “{query}” as {name}{key} (ctrl+p lists them)")

        self.push_screen(
            PromptScreen("Save this search", "a name", f"Saves: {query}"), chosen
        )

    def action_open_saved(self, number: int) -> None:
        """Open the saved search with this number (in the order saved)."""
        saved = self.library.saved_searches()
        if not 1 <= number <= len(saved):
            self.notify(f"No saved search {number} (S saves one)", severity="warning")
            return
        name, query = saved[number - 1]
        self.run_query(query)
        self.notify(f"{name}: {query}", timeout=3)

    def delete_saved_search(self, name: str) -> None:
        """Forget a saved search."""
        self.library.delete_saved_search(name)
        self.notify(f"Deleted the saved search {name}")

    def _remember_soon(self) -> None:
        """Write down the view once the cursor has rested a moment: one write for a run
        of moves, not one per key."""
        timer = self._remember_timer
        if timer is not None:
            timer.stop()
        self._remember_timer = self.set_timer(REMEMBER_AFTER_SECONDS, self._remember_now)

    def _remember_now(self) -> None:
        self._remember_timer = None
        try:
            query = self.query_one(SearchBox).value
            current = self.paper_list.current_id
        except NoMatches:
            return  # the window is closing (quitting remembers the view itself)

        def not_remembered(exc: Exception) -> None:
            # A read-only library can't remember; remembering is a nicety, never a crash.
            self.log.warning(f"could not remember the view: {exc}")

        self.writes.run(lambda: self._remember(query, current), lambda: None, not_remembered)

    def _remember(self, query: str, current: int | None) -> None:
        """Write down the query and the selected paper for the next start (in a worker)."""
        library = self.library
        library.set_meta(QUERY_KEY, query)
        library.set_meta(PAPER_KEY, str(current) if current is not None else "")
