"""Searching as you type: a worker per query, the best matches first in a large library,
results over a partial index while it is built, and a "did you mean"."""

from __future__ import annotations

import asyncio
import time
from dataclasses import replace
from functools import partial

from textual import on
from textual.binding import Binding
from textual.widgets import Input

from reader.errors import IndexDamaged, ReaderError
from reader.library import (
    SearchCancelled,
    SearchOutcome,
    parse_query,
)
from reader.models import PaperRow
from reader.ui import bindings
from reader.ui.features.base import AppBase, Rerun
from reader.ui.keymap import key_label
from reader.ui.screens.reading import ReadingScreen
from reader.ui.widgets.search_box import SearchBox

#: How long typing must pause before a search that found nothing looks for a "did you mean".
SUGGEST_AFTER_SECONDS = 0.3
#: The matches of a new query shown before all are ranked (more than a screen of rows):
#: ranking every match of a common word in a large library takes seconds.
FIRST_RESULTS = 100
#: From this many papers on. Below, ranking every match takes tens of milliseconds (60 ms
#: of CPU for `optimal` among 19,630 real records), and a first pass would only delay the
#: count by the cost of a second search.
FIRST_RESULTS_FROM = 50_000
#: Rows of a new result read with it, in its worker: more than a screen.
ROWS_AHEAD = 100
#: How long a query typed waits for the next key before it is searched: keys typed faster
#: than this are searched once, as the last of them left the query.
SETTLE_SECONDS = 0.1


class SearchFeature(AppBase):
    """Search as you type, and what follows from a query."""

    #: How many of a new query's best matches are shown before all are ranked, in a
    #: library of how many papers at least.
    first_results = FIRST_RESULTS
    first_results_from = FIRST_RESULTS_FROM
    #: How long a query typed waits for the next key.
    settle_seconds = SETTLE_SECONDS

    @on(Input.Changed, "#search")
    def _query_changed(self, event: Input.Changed) -> None:
        if event.value != self._asked_query:  # not already run by results_shown
            self.run_search(event.value, settle=True)

    async def results_shown(self, query: str, timeout: float = 5.0) -> None:
        """Wait (at most ``timeout`` seconds) until the list shows the results of ``query``."""
        if query != self._asked_query:
            self.run_search(query)  # its Changed message is still on its way
        try:
            async with asyncio.timeout(timeout):
                while self._shown_query != query:
                    self._results_in.clear()
                    await self._results_in.wait()
        except TimeoutError:
            pass  # a search that failed has said so; the keys must not wait forever

    def run_search(self, query: str, *, settle: bool = False) -> None:
        """Search in a worker; only the newest query's results are shown. A query being
        typed (``settle``) waits a moment for the next key first."""
        if not query.strip() and self.outcome is not None and not self.paper_list.pinned:
            # The search is cleared (esc, or the box emptied) with the cursor where the
            # results put it: the list goes back to the paper it was on before. A paper
            # the user moved to in the results stays (the cursor is pinned to it).
            self._return_paper = self._paper_before_search
        self._asked_query = query
        self._search_seq += 1
        # A new query shows its best matches first. The query shown, run again (after a
        # write, or once indexing ends), ranks everything at once: the user may be far down
        # its list, and the list must not jump back to its top meanwhile.
        shown = self.outcome.query if self.outcome is not None else ""
        large = self._counts.get("papers", 0) >= self.first_results_from
        first = self.first_results if large and query.strip() != shown.strip() else None
        self.run_worker(
            partial(self._search_job, self._search_seq, query, first, settle),
            thread=True,
            group="search",
            exit_on_error=False,
        )

    def _search_job(
        self, seq: int, query: str, first: int | None = None, settle: bool = False
    ) -> None:
        if settle:
            time.sleep(self.settle_seconds)
            if seq != self._search_seq:
                return  # another key came: its query is searched instead
        # One search at a time, the newest: keys typed faster than a search runs would
        # otherwise each start one at once, all but the last for nothing, and beside an
        # index being built they took a third of a core from it. A search that a newer
        # query replaces gives way between the index's segments.
        with self._search_running:
            if seq != self._search_seq:
                return  # a newer query is already on its way
            self._search_now(seq, query, first)

    def _search_now(self, seq: int, query: str, first: int | None) -> None:
        parsed = parse_query(query)
        index = self.index_status
        if not index.ready and (parsed.text or parsed.like) and not self._searchable():
            # The index is locked while it is built: say so at once instead of waiting on it;
            # the query runs again when the index is done.
            done, total = index.building or (0, 0)
            progress = f" ({done:,} of {total:,} papers)" if total else ""
            outcome = SearchOutcome(
                query, [], notice=f"Still indexing{progress}; results when it is done",
                parsed=parsed,
            )
            self.call_from_thread(self._show_results, seq, outcome)
            return
        def replaced() -> bool:
            return seq != self._search_seq

        try:
            outcome = self.library.search(
                query, order=self.sort_order, suggest=False, first=first, cancelled=replaced,
                mend=False, parsed=parsed,
            )
            if not outcome.complete:
                # The best matches on screen at once; the rest, and their count, follow.
                self.call_from_thread(self._show_results, seq, outcome, 0, None,
                                      self._first_rows(outcome.ids))
                outcome = self.library.search(
                    query, order=self.sort_order, suggest=False, cancelled=replaced,
                    mend=False, parsed=parsed,
                )
        except SearchCancelled:
            return  # a newer query took its place
        except IndexDamaged as exc:
            # Answered from the database at once, and again from the index once rebuilt.
            outcome = self.library.search_database(
                query, f"The search index is damaged ({exc}): rebuilding it · meanwhile "
                "these are papers containing the words", parsed,
            )
            self.call_from_thread(index.mend)
        except Exception:  # noqa: BLE001 - an index being (re)built can't answer yet
            if index.ready:
                raise
            outcome = SearchOutcome(
                query, [], notice="The search index is still being built; results follow",
                parsed=parsed,
            )
        if self._papers_removed:
            outcome = self._present(outcome)
        logged = len(self.seen_log)
        seen = self._count_seen(outcome.ids, self.seen_log[:logged])
        self.call_from_thread(self._show_results, seq, outcome, seen, logged,
                              self._first_rows(outcome.ids))

    def _present(self, outcome: SearchOutcome) -> SearchOutcome:
        """The outcome without papers the database no longer has: papers removed by
        another process (an import undone) stay in the index until that process has
        caught it up, and nothing tells this window when it has."""
        present = set(self.library.all_ids())
        if all(i in present for i in outcome.ids):
            return outcome
        kept = [n for n, i in enumerate(outcome.ids) if i in present]
        scores = [outcome.scores[n] for n in kept] if outcome.scores else []
        return replace(outcome, ids=[outcome.ids[n] for n in kept], scores=scores)

    def _first_rows(self, ids: list[int]) -> dict[int, PaperRow]:
        """The rows the list will draw first of ``ids`` (its top, and around the paper under
        the cursor), read here in the worker rather than by the list as it draws: every
        result shown would otherwise query the database on the thread that echoes keys."""
        wanted = ids[:ROWS_AHEAD]
        current = self.paper_list.current_id
        if current is not None and current not in wanted:
            try:
                at = ids.index(current)
            except ValueError:
                pass
            else:
                wanted += ids[max(0, at - ROWS_AHEAD // 2) : at + ROWS_AHEAD // 2]
        try:
            return self.library.rows(wanted)
        except ReaderError:
            return {}  # the list reads them itself, and says what is wrong

    def _searchable(self) -> bool:
        """Whether a build under way has published papers a search can run over."""
        building = self.library.index_partial()
        return building is not None and building[0] > 0

    def _show_results(
        self, seq: int, outcome: SearchOutcome, seen: int = 0, logged: int | None = None,
        rows: dict[int, PaperRow] | None = None,
    ) -> None:
        if seq != self._search_seq:
            return
        if rows:
            self.paper_list.prime({i: self.intents.apply(row) for i, row in rows.items()})
        self._shown_query = outcome.query
        self._results_in.set()
        if logged is not None and len(self.seen_log) > logged:
            # Papers shown while the search ran: counted by no one yet.
            shown = set(self.seen_log[logged:])
            seen += sum(1 for i in outcome.ids if i in shown)
        same_view = (self.outcome.query if self.outcome else "").strip() == outcome.query.strip()
        offered = self.outcome is not None and bool(self.outcome.suggestion)
        papers = self.paper_list
        # The rest of a query whose best matches are shown: the list grows below them, and
        # the cursor, the scroll and the detail pane stay where the user has them.
        grows = (
            self.outcome is not None
            and not self.outcome.complete
            and self.outcome.query == outcome.query
            and self._restore_paper is None
            and outcome.ids[: len(papers.ids)] == papers.ids
        )
        self.outcome = outcome if outcome.query.strip() else None
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
        self._view_seen = seen
        if grows:
            papers.grow(outcome.ids)
        else:
            papers.set_ids(outcome.ids, self.terms, keep=keep,
                           keep_scroll=same_view and not restoring, restored=restoring)
        self._update_status(outcome.notice or "")
        if offered != (self.outcome is not None and bool(self.outcome.suggestion)):
            # The footer offers a suggestion only while there is one. Only then: the footer
            # rebuilds itself on every refresh (tens of milliseconds, on every result).
            self.refresh_bindings()
        if not outcome.ids and outcome.query.strip() and outcome.notice is None:
            # Once typing pauses: a query typed on would make the suggestion wasted work.
            self.set_timer(SUGGEST_AFTER_SECONDS, partial(self._suggest, seq, outcome.query))

    def _suggest(self, seq: int, query: str) -> None:
        """Look for a "did you mean" in a worker, if the query is still the newest."""
        if seq == self._search_seq:
            self.run_worker(
                partial(self._suggest_job, seq, query), thread=True, group="suggest",
                exit_on_error=False,
            )

    def _suggest_job(self, seq: int, query: str) -> None:
        suggestion = self.library.suggestion(query)
        if suggestion:
            self.call_from_thread(self._show_suggestion, seq, suggestion)

    def _show_suggestion(self, seq: int, suggestion: str) -> None:
        if seq != self._search_seq or self.outcome is None:
            return
        self.outcome = replace(self.outcome, suggestion=suggestion)
        binding = next(
            b for b in bindings.APP if isinstance(b, Binding) and b.id == "search.suggestion"
        )
        key = key_label(binding, self.config.keymap)
        self._update_status(f"Did you mean “{suggestion}”? {key} searches it")
        self.refresh_bindings()

    def action_accept_suggestion(self) -> None:
        """Search for what the last search suggested instead ("did you mean")."""
        if self.outcome is not None and self.outcome.suggestion:
            self.run_query(self.outcome.suggestion)

    def _count_seen(self, ids: list[int], shown: list[int]) -> int:
        """How many of ``ids`` have been seen (stored, or among the papers ``shown``)."""
        stored = self._stored_seen
        if stored is None:
            stored = self._stored_seen = self.library.flagged_ids("seen")
        # A copy: the window adds to the set it keeps while this worker counts.
        seen = stored.copy()
        seen.update(shown)
        if len(seen) < len(ids):
            wanted = set(ids)
            return sum(1 for i in seen if i in wanted)
        return sum(1 for i in ids if i in seen)

    def rerun_view(self, why: Rerun) -> None:
        """Run the view's query again (the list keeps its cursor and scroll), if ``why``
        can change what it finds."""
        query = self.query_one(SearchBox).value
        outcome = self.outcome
        if why is Rerun.VIEW:
            self.run_search(query)
            return
        if why is Rerun.INDEX_DONE:
            if query.strip():
                self.run_search(query)
            return
        parsed = (
            outcome.parsed if outcome is not None and outcome.query == query
            and outcome.parsed is not None else parse_query(query)
        )
        searches = bool(parsed.text or parsed.like)
        if searches if why is Rerun.INDEX_GREW else self.index_status.ready or not searches:
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
        """Clear the query and show the whole library."""
        box = self.query_one(SearchBox)
        if box.value:
            box.value = ""  # posts Changed, which shows everything again
        self.paper_list.focus()
