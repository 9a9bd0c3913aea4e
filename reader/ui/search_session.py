"""The window's search: the query asked, the one shown and its outcome, and the searches run
for them, one at a time and only the newest asked.

:class:`SearchSession` owns that state and runs each search in a thread worker, which
reports by messages to the app: ``SearchSession.Results`` (an outcome, the best matches
first in a large library, then all of them) and ``SearchSession.Suggestion`` (a "did you
mean" for a query that found nothing). The app routes them: the list, the detail pane and
the status line show what the session accepted as shown.

They are handed to the app on its thread at once (``call_from_thread``), not queued behind
the keys already pressed as a posted message is: a key that leaves the search box waits
for the results, and the keys behind it must act on them.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from dataclasses import replace
from enum import Enum
from functools import partial
from typing import TYPE_CHECKING

from msgspec import Struct
from textual.app import App
from textual.message import Message
from textual.worker import Worker, WorkerCancelled, WorkerFailed

# The search code is reached through the module, bound at the first search and not before
# the first frame (reader.library binds it on first use).
from reader import library as core
from reader.errors import IndexDamaged, ReaderError
from reader.library import Library
from reader.models import PaperRow
from reader.ui.index_status import IndexStatus

if TYPE_CHECKING:
    from reader.library import SearchOutcome

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
#: How long a search asked before the index was first looked at (the query the last run
#: left, searched as the window starts) waits for that look, which follows the first frame.
_LOOK_WAIT = 2.0


class Rerun(Enum):
    """Why the view's query runs again, which says which queries need to."""

    #: The papers or their marks changed: every query, but one of words while the index
    #: is built (it says "still indexing"; the index's end runs it).
    CHANGED = "changed"
    #: An index build under way made more papers searchable: queries of words.
    INDEX_GREW = "index grew"
    #: The index holds everything now: any query typed.
    INDEX_DONE = "index done"
    #: The sort order changed, or an import came in: the view as it is.
    VIEW = "view"
    #: Papers changed but none came or went (their marks, notes, tags or records, here or
    #: in another window): a query shown may select on what changed, as CHANGED; the
    #: whole library shows the same papers.
    RETOUCHED = "retouched"
    #: A paper was starred or unstarred here: a query shown that selects on stars
    #: (``is:starred``, ``like:starred``, sorted starred first), as CHANGED.
    STARRED = "starred"
    #: A paper was marked read or unread here (which stores it seen): a query shown that
    #: filters on either, as CHANGED.
    READ = "read"
    #: The index caught up with nothing to add: a query shown that was answered over part
    #: of it (while it was behind) runs over all of it.
    CAUGHT_UP = "caught up"


class SearchView(Struct, frozen=True):
    """What a search asks of the window it runs for, read in its worker."""

    #: The sort order of the view.
    order: Callable[[], str]
    #: How many papers the library holds (a large one shows a new query's best first).
    papers: Callable[[], int]
    #: The paper under the list cursor, whose rows are read with a result.
    current: Callable[[], int | None]
    #: The window's log of papers shown (it only grows).
    seen_log: list[int]
    #: How many of some ids have been seen (stored, or among the papers shown).
    count_seen: Callable[[list[int], list[int]], int]
    #: Takes a search's report (a Results or a Suggestion), on the app's thread.
    deliver: Callable[[Message], None]


class SearchSession:
    """The searches of one window: what was asked, what is shown, and the workers."""

    class Results(Message):
        """The outcome of the search asked as ``generation``: ``seen`` of its papers seen
        when the seen log was ``logged`` long (None: not counted yet), and ``rows`` the
        list draws first, read in the worker."""

        # Not a dataclass: one costs half a millisecond to make, before the first frame.
        def __init__(self, generation: int, outcome: SearchOutcome, seen: int = 0,
                     logged: int | None = None, rows: dict[int, PaperRow] | None = None) -> None:
            super().__init__()
            self.generation, self.outcome, self.seen = generation, outcome, seen
            self.logged, self.rows = logged, rows

    class Suggestion(Message):
        """A "did you mean" for the query asked as ``generation``, which found nothing."""

        def __init__(self, generation: int, suggestion: str) -> None:
            super().__init__()
            self.generation, self.suggestion = generation, suggestion

    def __init__(
        self, app: App[None], library: Library, index: IndexStatus, view: SearchView
    ) -> None:
        self._app = app
        self._library = library
        self._index = index
        self._view = view
        #: How many of a new query's best matches are shown before all are ranked, in a
        #: library of how many papers at least.
        self.first_results = FIRST_RESULTS
        self.first_results_from = FIRST_RESULTS_FROM
        #: How long a query typed waits for the next key.
        self.settle_seconds = SETTLE_SECONDS
        #: The search asked last: its number and its query.
        self.generation = 0
        self._asked: str | None = None
        #: The query whose results the list shows, and an event set whenever results are
        #: shown (keys that leave the box wait on them).
        self._shown: str | None = None
        self._results_in = asyncio.Event()
        #: The outcome shown (None: no query, the whole library).
        self._outcome: SearchOutcome | None = None
        #: Held by the search running: one at a time (see _job).
        self._running = threading.Lock()
        #: Whether papers went while the window was open (see _present).
        self._papers_removed = False

    @property
    def outcome(self) -> SearchOutcome | None:
        """The outcome the window shows; None when no query is."""
        return self._outcome

    @property
    def terms(self) -> frozenset[str]:
        """The words of the query shown, for highlighting."""
        return self._outcome.terms if self._outcome else frozenset()

    def asked(self, query: str) -> bool:
        """Whether ``query`` is the one searched for last."""
        return query == self._asked

    def current(self, generation: int) -> bool:
        """Whether ``generation`` is the newest search asked."""
        return generation == self.generation

    async def shown(self, query: str, timeout: float) -> None:
        """Wait (at most ``timeout`` seconds) until the results of ``query`` are shown."""
        try:
            async with asyncio.timeout(timeout):
                while self._shown != query:
                    self._results_in.clear()
                    await self._results_in.wait()
        except TimeoutError:
            pass  # a search that failed has said so; the keys must not wait forever

    def show(self, outcome: SearchOutcome) -> None:
        """The window shows ``outcome`` now (on the app's thread)."""
        self._shown = outcome.query
        self._results_in.set()
        self._outcome = outcome if outcome.query.strip() else None

    def answers(self, outcome: SearchOutcome) -> bool:
        """Whether ``outcome`` answers its query for good: papers, all of them ranked, over
        an index that holds the whole library."""
        return bool(outcome.ids) and outcome.complete and self._index.ready

    def suggested(self, generation: int, suggestion: str) -> bool:
        """The outcome shown offers ``suggestion`` as a "did you mean", found for the search
        asked as ``generation``; False, and nothing offered, when a newer search was asked
        or no query is shown."""
        if not self.current(generation) or self._outcome is None:
            return False
        self._outcome = replace(self._outcome, suggestion=suggestion)
        return True

    def papers_went(self) -> None:
        """Papers were removed while the window was open: searches leave out those the
        index still holds."""
        self._papers_removed = True

    def wants_rerun(self, query: str, why: Rerun) -> bool:
        """Whether the view's ``query`` should run again because of ``why``."""
        outcome = self._outcome
        if why is Rerun.VIEW:
            return True
        if why is Rerun.INDEX_DONE:
            return bool(query.strip())
        if why is Rerun.CAUGHT_UP:
            return outcome is not None and outcome.partial is not None and bool(query.strip())
        if why in (Rerun.RETOUCHED, Rerun.STARRED, Rerun.READ) and not self._selects_on(why):
            return False
        parsed = (
            outcome.parsed if outcome is not None and outcome.query == query
            and outcome.parsed is not None else core.parse_query(query)
        )
        searches = bool(parsed.text or parsed.like)
        return searches if why is Rerun.INDEX_GREW else self._index.ready or not searches

    def _selects_on(self, why: Rerun) -> bool:
        """Whether the view shown would change with what ``why`` says changed: any query,
        for RETOUCHED; for a star or a read mark, a query that selects on it."""
        outcome = self._outcome
        if outcome is None or outcome.parsed is None or why is Rerun.RETOUCHED:
            return outcome is not None
        mark = "starred" if why is Rerun.STARRED else "read"
        flags = {mark, "seen"} if mark == "read" else {mark}
        parsed = outcome.parsed
        if mark == "starred" and (
            parsed.like.lower() == "starred" or self._view.order() == mark
        ):
            return True
        return any(f.flag in flags for f in parsed.filters)

    def run(self, query: str, *, settle: bool = False) -> None:
        """Search in a worker; only the newest query's results are shown. A query being
        typed (``settle``) waits a moment for the next key first."""
        self._asked = query
        self.generation += 1
        # A new query shows its best matches first. The query shown, run again (after a
        # write, or once indexing ends), ranks everything at once: the user may be far down
        # its list, and the list must not jump back to its top meanwhile.
        shown = self._outcome.query if self._outcome is not None else ""
        large = self._view.papers() >= self.first_results_from
        first = self.first_results if large and query.strip() != shown.strip() else None
        if settle:
            # The wait for the next key is on the event loop, each key's ending the one
            # before: as a thread that slept, each key took one of the window's few threads
            # for its wait, and a long query typed quickly queued its keys' waits behind
            # each other (2,800 keys: results and quitting a minute late). A function, not
            # a coroutine made now, which the next key's cancelling would leave unawaited.
            self._app.run_worker(
                partial(self._settled, self.generation, query, first),  # type: ignore[arg-type]
                group="search-settle", exclusive=True, exit_on_error=False,
            )
        else:
            self._start(self.generation, query, first)

    async def _settled(self, generation: int, query: str, first: int | None) -> None:
        """Search for ``query`` once no key has come for a moment, and wait for the search
        (this worker's end is the search's, as the sleeping thread's was)."""
        await asyncio.sleep(self.settle_seconds)
        search = self._start(generation, query, first)
        if search is not None:
            with contextlib.suppress(WorkerCancelled, WorkerFailed):
                await search.wait()

    def _start(self, generation: int, query: str, first: int | None) -> Worker[None] | None:
        """Search for ``query`` in a worker, if it is still the newest query asked."""
        if not self.current(generation):
            return None  # another key came: its query is searched instead
        return self._app.run_worker(
            partial(self._job, generation, query, first),
            thread=True,
            group="search",
            exit_on_error=False,
        )

    def suggest(self, generation: int, outcome: SearchOutcome) -> None:
        """Look for a "did you mean" for the query of ``outcome`` (parsed as it was
        searched) in a worker, if the query is still the newest."""
        if self.current(generation):
            self._app.run_worker(
                partial(self._suggest_job, generation, outcome), thread=True,
                group="suggest", exit_on_error=False,
            )

    def _suggest_job(self, generation: int, outcome: SearchOutcome) -> None:
        suggestion = self._library.searching.suggestion(outcome.query, outcome.parsed)
        if suggestion:
            self._report(self.Suggestion(generation, suggestion))

    def _job(self, generation: int, query: str, first: int | None = None) -> None:
        # One search at a time, the newest: keys typed faster than a search runs would
        # otherwise each start one at once, all but the last for nothing, and beside an
        # index being built they took a third of a core from it. A search that a newer
        # query replaces gives way between the index's segments.
        with self._running:
            if not self.current(generation):
                return  # a newer query is already on its way
            self._search(generation, query, first)

    def _search(self, generation: int, query: str, first: int | None) -> None:
        post = self._report
        parsed = core.parse_query(query)
        index = self._index
        library = self._library
        order = self._view.order()
        if not index.ready and (parsed.text or parsed.like) and not (
            index.whole_at_start(_LOOK_WAIT) or self._searchable()
        ):
            # The index is locked while it is built: say so at once instead of waiting on it;
            # the query runs again when the index is done.
            done, total = index.building or (0, 0)
            progress = f" ({done:,} of {total:,} papers)" if total else ""
            outcome = core.SearchOutcome(
                query, [], notice=f"Still indexing{progress}; results when it is done",
                parsed=parsed,
            )
            post(self.Results(generation, outcome))
            return

        def replaced() -> bool:
            return not self.current(generation)

        try:
            outcome = library.search(
                query, order=order, suggest=False, first=first, cancelled=replaced,
                mend=False, parsed=parsed,
            )
            if not outcome.complete:
                # The best matches on screen at once; the rest, and their count, follow,
                # as the same search ranked them (no second search).
                post(self.Results(generation, outcome, 0, None, self._first_rows(outcome.ids)))
                outcome = library.searching.complete(outcome, cancelled=replaced, mend=False)
        except core.SearchCancelled:
            return  # a newer query took its place
        except IndexDamaged as exc:
            # Answered from the database at once, and again from the index once rebuilt.
            outcome = library.searching.search_database(
                query, f"The search index is damaged ({exc}): rebuilding it · meanwhile "
                "these are papers containing the words", parsed,
            )
            self._app.call_from_thread(index.mend)
        except Exception:  # noqa: BLE001 - an index being (re)built can't answer yet
            if index.ready:
                raise
            outcome = core.SearchOutcome(
                query, [], notice="The search index is still being built; results follow",
                parsed=parsed,
            )
        if self._papers_removed:
            outcome = self._present(outcome)
        seen_log = self._view.seen_log
        logged = len(seen_log)
        seen = self._view.count_seen(outcome.ids, seen_log[:logged])
        post(self.Results(generation, outcome, seen, logged, self._first_rows(outcome.ids)))

    def _report(self, message: Message) -> None:
        """Hand a worker's report to the app, on its thread, at once."""
        self._app.call_from_thread(self._view.deliver, message)

    def _present(self, outcome: SearchOutcome) -> SearchOutcome:
        """The outcome without papers the database no longer has: papers removed by
        another process (an import undone) stay in the index until that process has
        caught it up, and nothing tells this window when it has."""
        present = set(self._library.all_ids())
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
        current = self._view.current()
        if current is not None and current not in wanted:
            try:
                at = ids.index(current)
            except ValueError:
                pass
            else:
                wanted += ids[max(0, at - ROWS_AHEAD // 2) : at + ROWS_AHEAD // 2]
        try:
            return self._library.rows(wanted)
        except ReaderError:
            return {}  # the list reads them itself, and says what is wrong

    def _searchable(self) -> bool:
        """Whether a build under way has published papers a search can run over."""
        building = self._library.indexing.index_partial()
        return building is not None and building[0] > 0
