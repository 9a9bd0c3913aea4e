"""The reader application: a list and a detail pane over one library."""

from __future__ import annotations

import asyncio
import gc
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import partial
from pathlib import Path
from urllib.parse import urlparse

from textual import on, work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.widgets import Footer, Input, Static
from textual.worker import Worker, get_current_worker

from reader.config import Config
from reader.errors import IndexDamaged, describe_write_error
from reader.library import (
    SORT_KEYS,
    Library,
    LibraryState,
    NoteSaved,
    SearchCancelled,
    SearchOutcome,
    StoreError,
    configured_routes,
    copy_text,
    draft_dirs,
    in_tmux,
    normalize_tag,
    osc52_sequence,
    parse_query,
    window_writer,
    write_draft,
)
from reader.models import ImportSummary, Paper, PaperRow
from reader.resources import styles_dir
from reader.text.identifiers import arxiv_url, openreview_url
from reader.text.render import plain_line
from reader.ui import bindings
from reader.ui.commands import SORT_LABELS, ReaderCommands
from reader.ui.configure import apply_config, load_ui_config, register_themes
from reader.ui.intents import Intents
from reader.ui.keymap import key_label
from reader.ui.live import LiveLibrary
from reader.ui.paste import keep_pastes_in_order
from reader.ui.screens.help import HelpScreen
from reader.ui.screens.metadata import MetadataForm
from reader.ui.screens.note import NoteScreen
from reader.ui.screens.prompts import PromptScreen, add_prompt, export_prompt, import_prompt
from reader.ui.screens.reading import ReadingScreen
from reader.ui.screens.tags import TagEditor
from reader.ui.widgets.paper_detail import PaperDetail
from reader.ui.widgets.paper_list import PaperList
from reader.ui.writes import OrderedWrites

#: Records an import started here writes per transaction.
IMPORT_BATCH = 2_000
SEARCH_PLACEHOLDER = (
    "/ to search: words, \"phrases\", prefix*, typo~, title:word, AND/OR/NOT, "
    "is:starred, is:unseen, tag:x, like:KEY"
)


LAST_CHOICE_KEY = "ui.last_citation_choice"
#: What the app remembers between runs (in the library's meta table).
SORT_KEY, QUERY_KEY, PAPER_KEY = "ui.sort", "ui.last_query", "ui.last_paper"
#: How long typing must pause before a search that found nothing looks for a "did you mean".
SUGGEST_AFTER_SECONDS = 0.3
#: How often papers shown are written down as seen (batched: one write, not one per key).
SEEN_FLUSH_SECONDS = 0.5
#: The matches of a new query shown before all are ranked (more than a screen of rows):
#: ranking every match of a common word in a large library takes seconds.
FIRST_RESULTS = 100
#: From this many papers on. Below, ranking every match takes tens of milliseconds (60 ms
#: of CPU for `optimal` among 19,630 real records), and a first pass would only delay the
#: count by the cost of a second search.
FIRST_RESULTS_FROM = 50_000

#: App actions that need the list's current paper at hand.
_PAPER_ACTIONS = {
    "focus_search", "toggle_star", "edit_note", "copy_citation", "clear_search", "import_file",
    "add_by_id", "pick_citation", "toggle_mark", "clear_marks", "export", "toggle_read",
    "next_unseen", "edit_tags", "more_like", "for_you", "edit_metadata", "open_url",
    "cycle_sort", "save_search", "open_saved",
}


#: The search box's border, saying where keys go.
TYPING_HERE = "typing searches · enter, ↓ or tab: to the results · esc: clear and leave"
KEYS_ON_PAPER = "keys act on the highlighted paper · / to search"


class SearchBox(Input):
    """The query box: ``enter``, ``↓`` or ``tab`` hand the keyboard to the list once the
    results of what was typed are in; ``esc`` clears the query and leaves too."""

    BINDINGS = bindings.SEARCH

    def on_mount(self) -> None:
        """Say where keys go from the start."""
        self.border_title = KEYS_ON_PAPER

    def on_focus(self) -> None:
        """Keys type here now: say so on the border."""
        self.border_title = TYPING_HERE

    def on_blur(self) -> None:
        """Keys act on papers now: say so on the border."""
        self.border_title = KEYS_ON_PAPER

    async def action_to_list(self) -> None:
        """Move focus to the paper list, once it shows the results of the query typed:
        the keys pressed next then act on the paper highlighted in those results (they
        wait, in order, behind this one)."""
        app = self.app
        await self._take_typed()
        if isinstance(app, ReaderApp):
            await app.results_shown(self.value)
        # At once, not as focus() does after the keys already queued: they go to the list.
        self.screen.set_focus(app.query_one(PaperList))

    async def action_escape(self) -> None:
        """Clear the query (the whole library shows again) and go to the list."""
        await self._take_typed()
        self.value = ""
        await self.action_to_list()

    async def _take_typed(self) -> None:
        """Let the box take the keys typed before this one that still wait in its queue
        (this key was handled first, being a priority binding)."""
        for _ in range(100):
            if self._message_queue.empty():
                return
            await asyncio.sleep(0)


class ReaderApp(App[None]):
    """Browse, search, star, annotate and cite the papers of a library."""

    CSS_PATH = [str(styles_dir() / "app.tcss")]
    BINDINGS = bindings.APP
    TITLE = "reader"
    COMMANDS = App.COMMANDS | {ReaderCommands}
    #: How many of a new query's best matches are shown before all are ranked, in a
    #: library of how many papers at least.
    first_results = FIRST_RESULTS
    first_results_from = FIRST_RESULTS_FROM

    def __init__(
        self,
        library: Library,
        *,
        load_sample: bool = True,
        config: Config | None = None,
        ids: list[int] | None = None,
        counts: dict[str, int] | None = None,
    ) -> None:
        super().__init__()
        keep_pastes_in_order()
        register_themes(self)
        #: The user's settings; read from the config file unless given.
        self.config = config if config is not None else load_ui_config(self)
        self.library = library
        self.load_sample = load_sample
        self.writes = OrderedWrites()
        #: Stars and read marks asked for by a key and not yet stored.
        self.intents = Intents()
        #: How this window signs the note versions it saves.
        self.writer = window_writer()
        self.marked: set[int] = set()
        self.outcome: SearchOutcome | None = None
        self._search_seq = 0
        self._index_ready = False
        #: (indexed, total) while the index is being built (from scratch, or after an import).
        self._indexing: tuple[int, int] | None = None
        #: How many papers the build under way had made searchable at the last search.
        self._published = 0
        self._status_note = ""
        #: Papers shown this session (drawn as seen at once) and those not yet stored.
        self.seen_now: set[int] = set()
        self._seen_pending: set[int] = set()
        #: The papers of ``seen_now`` in the order they were shown: it only grows, so a
        #: worker counting a prefix of it knows which papers were shown after it looked.
        self.seen_log: list[int] = []
        #: Follows writes made elsewhere; the state of the library it last read.
        self.live = LiveLibrary(self)
        self._library_state: LibraryState | None = None
        #: Library counts (papers, seen, read, starred, with notes), kept current in memory
        #: between writes so moving the cursor never counts the whole library.
        self._counts: dict[str, int] = dict(counts) if counts is not None else {}
        #: Papers seen among those shown in the current view.
        self._view_seen = 0
        self.sort_order = "relevance"
        self._restore_paper: int | None = None
        self._seen_warned = False
        #: The library's ids (and above, its counts) when the caller has just read them:
        #: each read costs a walk of a large library before the first frame.
        self._initial_ids = ids
        self._damage_reported = False
        self._notice = ""
        self._status_body = ""
        #: The query last searched for, the one whose results the list shows, and an event
        #: set whenever results are shown (keys that leave the box wait on them).
        self._asked_query: str | None = None
        self._shown_query: str | None = None
        self._results_in = asyncio.Event()
        #: The worker following an import that runs in a process of its own, while it runs.
        self._import_worker: Worker[None] | None = None

    # -- layout -----------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield SearchBox(placeholder=SEARCH_PLACEHOLDER, id="search")
        with Horizontal(id="main"):
            yield PaperList(self._rows, on_cursor=self._cursor_moved, id="papers")
            yield PaperDetail(id="detail")
        yield Static(id="status", markup=False)
        yield Footer()

    @property
    def paper_list(self) -> PaperList:
        """The main list."""
        return self.query_one(PaperList)

    @property
    def terms(self) -> frozenset[str]:
        """The words of the current query, for highlighting."""
        return self.outcome.terms if self.outcome else frozenset()

    def on_mount(self) -> None:
        """Show the library at once; import the sample and ready the index in the background."""
        # First, so the theme and keys hold from the first frame.
        apply_config(self, self.config)
        self.paper_list.marked = self.marked
        self.paper_list.seen = self.seen_now
        library = self.library
        order = library.get_meta(SORT_KEY) or "relevance"
        self.sort_order = order if order in SORT_KEYS else "relevance"
        last_paper = library.get_meta(PAPER_KEY)
        self._restore_paper = int(last_paper) if last_paper and last_paper.isdigit() else None
        last_query = library.get_meta(QUERY_KEY) or ""
        if not self._counts:
            self._refresh_counts()
        self.paper_list.set_ids(
            library.sort_ids(
                self._initial_ids if self._initial_ids is not None else library.all_ids(),
                self.sort_order,
            ),
            keep=None if last_query else self._restore_paper,
        )
        self._view_seen = self._counts["seen"]  # the view is the whole library
        if last_query:
            self.query_one(SearchBox).value = last_query  # posts Changed: the search runs
        else:
            self._restore_paper = None
        self.paper_list.focus()
        self._update_status()
        self.set_interval(SEEN_FLUSH_SECONDS, self._flush_seen)
        self.call_after_refresh(self.live.start)
        # After the first frame: opening a large index holds the GIL for a while, and would
        # hold back the first paint.
        self.call_after_refresh(self.prepare_library)
        # Once the first screen is up, its objects are moved out of the collector's reach:
        # a full collection otherwise walks all of Textual's objects, and every dozen cursor
        # steps one of them took 40 ms. They are long-lived and freed by reference counting.
        self.call_after_refresh(_settle_collector)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The paper keys act on the main screen and in the reading view only, so the
        editor's and the help's footers don't offer keys that would do nothing there."""
        if action == "accept_suggestion":
            return (
                self.outcome is not None
                and bool(self.outcome.suggestion)
                and (len(self.screen_stack) == 1 or isinstance(self.screen, ReadingScreen))
            )
        if (
            action in _PAPER_ACTIONS
            and len(self.screen_stack) > 1
            and not isinstance(self.screen, ReadingScreen)
        ):
            return False
        if isinstance(self.focused, SearchBox) and action in _PAPER_ACTIONS | {"help", "quit"}:
            # Typed into the box, not run: the footer offers the box's own keys instead.
            return False
        return True

    # -- start-up work ----------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="prepare", exit_on_error=False)
    def prepare_library(self) -> None:
        """Load the bundled sample into an empty library, then bring the index up to date."""
        if self.load_sample:
            summary = self.library.import_sample_if_empty()
            if summary is not None:
                self.call_from_thread(self._sample_loaded, summary)
        state = self.library.index_state()
        if state == "missing":
            self.call_from_thread(self._set_status_note, "Building the search index…")
            self.library.rebuild_index(
                lambda done, total: self.call_from_thread(self._index_progress, done, total)
            )
        elif state == "stale":
            self.library.sync_index()
        self.call_from_thread(self._index_done)

    def _mend_index(self) -> None:
        """Rebuild an index a search found damaged (once, however many searches met it)."""
        if not self._index_ready:
            return  # being built already
        self._index_ready = False
        self._set_status_note("Rebuilding the damaged search index…")
        self.run_worker(self._rebuild_index, thread=True, group="prepare", exit_on_error=False)

    def _rebuild_index(self) -> None:
        self.library.mend_index(
            lambda done, total: self.call_from_thread(self._index_progress, done, total)
        )
        self.call_from_thread(self._index_done)

    def _sample_loaded(self, summary: ImportSummary) -> None:
        self._refresh_counts()
        self.paper_list.set_ids(self.library.all_ids())
        self._update_status()
        self.notify(
            f"The library was empty, so it now holds the bundled ICLR 2026 sample "
            f"({summary.new} abstracts). Import your own with: reader import FILE",
            title="Sample loaded",
            timeout=8,
        )

    def _index_progress(self, done: int, total: int) -> None:
        self._indexing = (done, total)
        self._set_status_note(f"Indexing {done:,} of {total:,}…")
        # A search shown over a partial index runs again as more of it is published.
        building = self.library.index_partial()
        published = building[0] if building else 0
        if published != self._published:
            self._published = published
            query = self.query_one(SearchBox).value
            if published and (parse_query(query).text or parse_query(query).like):
                self.run_search(query)

    def _index_done(self) -> None:
        self._index_ready = True
        self._indexing = None
        self._published = 0
        # The open index is long-lived too (see on_mount).
        gc.freeze()
        self._set_status_note("")
        query = self.query_one(SearchBox).value
        if query.strip():
            self.run_search(query)

    # -- search -----------------------------------------------------------------------------

    @on(Input.Changed, "#search")
    def _query_changed(self, event: Input.Changed) -> None:
        if event.value != self._asked_query:  # not already run by results_shown
            self.run_search(event.value)

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

    def run_search(self, query: str) -> None:
        """Search in a worker; only the newest query's results are shown."""
        self._asked_query = query
        self._search_seq += 1
        # A new query shows its best matches first. The query shown, run again (after a
        # write, or once indexing ends), ranks everything at once: the user may be far down
        # its list, and the list must not jump back to its top meanwhile.
        shown = self.outcome.query if self.outcome is not None else ""
        large = self._counts.get("papers", 0) >= self.first_results_from
        first = self.first_results if large and query.strip() != shown.strip() else None
        self.run_worker(
            partial(self._search_job, self._search_seq, query, first),
            thread=True,
            group="search",
            exit_on_error=False,
        )

    def _search_job(self, seq: int, query: str, first: int | None = None) -> None:
        if seq != self._search_seq:
            return  # a newer query is already on its way
        parsed = parse_query(query)
        if not self._index_ready and (parsed.text or parsed.like) and not self._searchable():
            # The index is locked while it is built: say so at once instead of waiting on it;
            # the query runs again when the index is done.
            done, total = self._indexing or (0, 0)
            progress = f" ({done:,} of {total:,} papers)" if total else ""
            outcome = SearchOutcome(
                query, [], notice=f"Still indexing{progress}; results when it is done"
            )
            self.call_from_thread(self._show_results, seq, outcome)
            return
        def replaced() -> bool:
            return seq != self._search_seq

        try:
            outcome = self.library.search(
                query, order=self.sort_order, suggest=False, first=first, cancelled=replaced,
                mend=False,
            )
            if not outcome.complete:
                # The best matches on screen at once; the rest, and their count, follow.
                self.call_from_thread(self._show_results, seq, outcome)
                outcome = self.library.search(
                    query, order=self.sort_order, suggest=False, cancelled=replaced,
                    mend=False,
                )
        except SearchCancelled:
            return  # a newer query took its place
        except IndexDamaged as exc:
            # Answered from the database at once, and again from the index once rebuilt.
            outcome = self.library.search_database(
                query, f"The search index is damaged ({exc}): rebuilding it · meanwhile "
                "these are papers containing the words",
            )
            self.call_from_thread(self._mend_index)
        except Exception:  # noqa: BLE001 - an index being (re)built can't answer yet
            if self._index_ready:
                raise
            outcome = SearchOutcome(
                query, [], notice="The search index is still being built; results follow"
            )
        logged = len(self.seen_log)
        seen = self._count_seen(outcome.ids, self.seen_log[:logged])
        self.call_from_thread(self._show_results, seq, outcome, seen, logged)

    def _searchable(self) -> bool:
        """Whether a build under way has published papers a search can run over."""
        building = self.library.index_partial()
        return building is not None and building[0] > 0

    def _show_results(
        self, seq: int, outcome: SearchOutcome, seen: int = 0, logged: int | None = None
    ) -> None:
        if seq != self._search_seq:
            return
        self._shown_query = outcome.query
        self._results_in.set()
        if logged is not None and len(self.seen_log) > logged:
            # Papers shown while the search ran: counted by no one yet.
            shown = set(self.seen_log[logged:])
            seen += sum(1 for i in outcome.ids if i in shown)
        same_view = (self.outcome.query if self.outcome else "").strip() == outcome.query.strip()
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
        keep = self._restore_paper or papers.current_id
        if self._restore_paper in outcome.ids or (
            outcome.ids and outcome.complete and self._index_ready
        ):
            # Kept until a search can answer: the first one may only say "still indexing",
            # or show only the best matches.
            self._restore_paper = None
        # Before the list places its cursor, which shows the paper there (and counts it seen).
        self._view_seen = seen
        if grows:
            papers.grow(outcome.ids)
        else:
            papers.set_ids(outcome.ids, self.terms, keep=keep, keep_scroll=same_view)
        self._update_status(outcome.notice or "")
        self.refresh_bindings()  # the footer offers a suggestion only while there is one
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
        seen = self.library.flagged_ids("seen")
        seen.update(shown)
        if len(seen) < len(ids):
            wanted = set(ids)
            return sum(1 for i in seen if i in wanted)
        return sum(1 for i in ids if i in seen)

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

    # -- the current paper ------------------------------------------------------------------

    @property
    def current_paper(self) -> Paper | None:
        """The paper under the list cursor (None, with a message, where the database is
        damaged: one bad page must not take the app and the user's typing down with it)."""
        paper_id = self.paper_list.current_id
        if paper_id is None:
            return None
        try:
            paper = self.library.paper(paper_id)
        except sqlite3.DatabaseError as exc:
            self._damaged(exc)
            return None
        return self.intents.apply(paper) if paper is not None else None

    def _rows(self, ids: Sequence[int]) -> dict[int, PaperRow]:
        """The list's rows; none where the database is damaged (and the user is told)."""
        try:
            rows = self.library.rows(ids)
            return {i: self.intents.apply(row) for i, row in rows.items()}
        except sqlite3.DatabaseError as exc:
            self._damaged(exc)
            return {}

    def _damaged(self, exc: Exception) -> None:
        if not self._damage_reported:
            self._damage_reported = True
            self.notify(
                f"The library database is damaged ({exc}). Quit and run: reader doctor "
                "(reader restore FILE puts back a backup)",
                severity="error", timeout=30,
            )

    def _cursor_moved(self, _paper_id: int | None) -> None:
        self._show_current()
        self._show_status()

    def _show_current(self) -> None:
        paper = self.current_paper
        why = self.library.why(paper, self.outcome) if paper and self.outcome else None
        empty = "No matches" if self.outcome is not None else "No paper selected"
        self.query_one("#detail", PaperDetail).show(paper, self.terms, why=why, empty=empty)
        if paper is not None:
            self._saw(paper)

    def _saw(self, paper: Paper) -> None:
        """A paper was shown: it is seen from now on (stored with the next batch)."""
        if paper.seen or paper.id in self.seen_now:
            return
        self.seen_now.add(paper.id)
        self.seen_log.append(paper.id)
        self._seen_pending.add(paper.id)
        self._counts["seen"] = self._counts.get("seen", 0) + 1
        self._view_seen += 1
        # Just the row whose mark changed: redrawing the whole list on every key is most of
        # what a cursor step costs.
        self.paper_list.refresh_line(self.paper_list.cursor)
        self._update_status()

    def _flush_seen(self) -> None:
        """Store the papers seen since the last flush, in one write."""
        if not self._seen_pending:
            return
        ids = sorted(self._seen_pending)
        self._seen_pending.clear()
        self._write(
            partial(self.library.mark_seen, ids),
            lambda: None,
            self._seen_failed,
            reindex=False,
        )

    def _seen_failed(self, exc: Exception) -> None:
        # Said once: a library that refuses writes would otherwise say it on every key.
        # The papers stay seen in this session either way.
        if not self._seen_warned:
            self._seen_warned = True
            self.notify(
                f"Could not record papers as seen ({exc}); they count as seen until you quit",
                severity="warning", timeout=10,
            )

    @on(PaperList.Opened)
    def _opened(self, event: PaperList.Opened) -> None:
        paper = self.library.paper(event.paper_id)
        if paper is not None:
            self.push_screen(
                ReadingScreen(self.intents.apply(paper), self.terms, self._step,
                              self._highlight, self._unhighlight)
            )
            self._show_status()

    def _step(self, delta: int) -> Paper | None:
        """Move the list cursor by ``delta`` and return the paper now under it."""
        papers = self.paper_list
        papers.cursor = max(0, min(len(papers.ids) - 1, papers.cursor + delta))
        return self.current_paper

    def _refresh_paper(self, paper_id: int) -> None:
        """Redraw everything that shows a paper after it changed."""
        self._refresh_counts()
        self.paper_list.invalidate(paper_id)
        if self.paper_list.current_id == paper_id:
            self._show_current()
            if isinstance(self.screen, ReadingScreen):
                self.screen.show(self.current_paper)
        self._update_status()

    # -- the live library -------------------------------------------------------------------

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
        if previous.papers_changed(state) or (self.outcome is not None and (retouched or moved)):
            # New or removed papers, or marks a query may select on (is:starred, tag:…).
            self._rerun_view()
        if retouched or moved:
            self.paper_list.invalidate_all()
            self._show_shown()
        if retouched and self._import_worker is None:
            # An import running here indexes its own papers, in its own process.
            self.sync_index()
        self._update_status()

    def _rerun_view(self) -> None:
        """Run the view's query again (the list keeps its cursor and scroll)."""
        query = self.query_one(SearchBox).value
        if self._index_ready or not (parse_query(query).text or parse_query(query).like):
            self.run_search(query)

    def _show_shown(self) -> None:
        """Redraw the paper shown in the detail pane and the reading view."""
        self._show_current()
        if isinstance(self.screen, ReadingScreen):
            self.screen.show(self.current_paper)

    # -- writes -----------------------------------------------------------------------------

    def _write(
        self,
        job: Callable[[], object],
        on_done: Callable[[], None],
        on_error: Callable[[Exception], None],
        *,
        reindex: bool = True,
    ) -> None:
        """Run a database write in a worker, in the order the user asked for it; then
        re-index what it changed."""
        ticket = self.writes.ticket()

        def run() -> None:
            with self.writes.turn(ticket):
                try:
                    job()
                except Exception as exc:  # noqa: BLE001 - reported to the user, never lost
                    self.call_from_thread(on_error, exc)
                    return
            self.call_from_thread(on_done)
            if reindex:
                self.call_from_thread(self.sync_index)

        self.run_worker(run, thread=True, group="writes", exit_on_error=False)

    @work(thread=True, group="index", exit_on_error=False)
    def sync_index(self) -> None:
        """Re-index what changed (one paper after a star or a note, or the papers another
        process imported); a search typed while the index was behind is run again, so its
        results are never stale, and while many papers are indexed it runs again as each
        part of them becomes searchable."""
        reported = False

        def progress(done: int, total: int) -> None:
            nonlocal reported
            reported = True
            self.call_from_thread(self._index_progress, done, total)

        indexed = self.library.sync_index(progress)
        if reported:
            self.call_from_thread(self._caught_up)
        if indexed and self._index_ready:
            self.call_from_thread(self._rerun_query)

    def _caught_up(self) -> None:
        """A catch-up that reported its progress is over."""
        self._indexing = None
        self._published = 0
        self._set_status_note("")

    def _rerun_query(self) -> None:
        query = self.query_one(SearchBox).value
        if query.strip():
            self.run_search(query)

    def action_toggle_star(self) -> None:
        """Star the current paper when it is shown unstarred, else unstar it."""
        paper = self.current_paper
        if paper is None:
            return
        starred = not self._shown(paper).starred
        self._set_mark(
            paper.id, "starred", starred,
            partial(self.library.set_starred, paper.id, starred, sync=False),
            "star" if starred else "unstar",
        )

    def _shown(self, paper: Paper) -> Paper | PaperRow:
        """The paper's marks as the window shows them: its row as drawn, else the paper."""
        return self.paper_list.drawn_row(paper.id) or paper

    def _set_mark(
        self, paper_id: int, mark: str, value: bool, job: Callable[[], object], verb: str
    ) -> None:
        """Show a mark as asked at once, and store it (as a value, never as a toggle)."""
        ticket = self.intents.ask(paper_id, mark, value)
        self.paper_list.invalidate(paper_id)
        self._show_shown()

        def failed(exc: Exception) -> None:
            self.intents.done(paper_id, mark, ticket)
            self._refresh_paper(paper_id)
            self.notify(f"Could not {verb} the paper: {exc}", severity="error")

        def done() -> None:
            self.intents.done(paper_id, mark, ticket)
            self._refresh_paper(paper_id)

        self._write(job, done, failed, reindex=mark != "read")

    def action_edit_note(self) -> None:
        """Open the note editor on the current paper."""
        paper = self.current_paper
        if paper is None:
            return
        try:
            state = self.library.note(paper.id)
        except sqlite3.DatabaseError as exc:
            self._damaged(exc)
            return
        self.push_screen(
            NoteScreen(
                paper,
                state,
                partial(self._save_note, paper.id),
                partial(self.library.note, paper.id),
                partial(self.library.note_versions, paper.id),
                self.writer,
            )
        )

    def _save_note(self, paper_id: int, text: str, base: int | None, kind: str) -> None:
        result: list[NoteSaved] = []

        def job() -> None:
            result.append(self.library.save_note(
                paper_id, text, sync=False, base=base, writer=self.writer, kind=kind,
            ))

        self._write(
            job,
            lambda: self._note_saved(paper_id, text, result[0]),
            partial(self._note_failed, paper_id, text),
        )

    def _note_editor(self, paper_id: int) -> NoteScreen | None:
        """The open note editor of a paper, if any (it may be under a versions list)."""
        for screen in reversed(self.screen_stack):
            if isinstance(screen, NoteScreen) and screen.paper.id == paper_id:
                return screen
        return None

    def _note_saved(self, paper_id: int, text: str, result: NoteSaved) -> None:
        editor = self._note_editor(paper_id)
        if editor is not None:
            editor.saved(text, result)
        self._refresh_paper(paper_id)

    def _note_failed(self, paper_id: int, text: str, exc: Exception) -> None:
        draft = write_draft(text, f"note-{paper_id}", draft_dirs(self.library.paths.drafts))
        if draft.path is not None:
            kept = f"kept a draft in {draft.path}"
        else:
            kept = (
                "and no draft could be written either ("
                + "; ".join(draft.refused) + "): only the editor holds the text"
            )
        message = f"Could not save the note: {describe_write_error(exc)}; {kept}"
        editor = self._note_editor(paper_id)
        if editor is not None:
            editor.failed(message, draft.path)
        self.notify(message, severity="error", timeout=15)

    # -- triage, tags, highlights, details --------------------------------------------------

    def action_toggle_read(self) -> None:
        """Mark the current paper read, or unread again."""
        paper = self.current_paper
        if paper is None:
            return
        self._saw(paper)
        read = not self._shown(paper).read
        self._set_mark(
            paper.id, "read", read, partial(self.library.set_read, paper.id, read),
            "mark" if read else "unmark",
        )

    def action_next_unseen(self) -> None:
        """Go to the next unseen paper of the view (after the cursor, then from the top)."""
        papers = self.paper_list
        ids = papers.ids
        if not ids:
            return
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

    def action_edit_tags(self) -> None:
        """Edit the current paper's tags, with completion from the tags in use."""
        paper = self.current_paper
        if paper is None:
            return

        def chosen(tags: list[str] | None) -> None:
            if tags is not None and tags != paper.tags:
                self._write(
                    partial(self.library.set_tags, paper.id, tags, sync=False),
                    partial(self._refresh_paper, paper.id),
                    lambda exc: self.notify(f"Could not save the tags: {exc}", severity="error"),
                )

        known = self.library.all_tags()
        self.push_screen(TagEditor(paper.title, paper.tags, known), chosen)

    def rename_tag(self, tag: str) -> None:
        """Ask for a new name for a tag and rename it on every paper."""

        def chosen(new: str | None) -> None:
            if new:
                self._write(
                    partial(self.library.rename_tag, tag, new, sync=False),
                    partial(self._tags_changed, f"Renamed the tag {tag} to {normalize_tag(new)}"),
                    lambda exc: self.notify(f"Could not rename the tag: {exc}", severity="error"),
                )

        self.push_screen(
            PromptScreen(f"Rename the tag {tag}", "new name", "Every paper with the tag gets "
                         "the new name (merged where it has both).", value=tag),
            chosen,
        )

    def delete_tag(self, tag: str) -> None:
        """Remove a tag from every paper."""
        self._write(
            partial(self.library.delete_tag, tag, sync=False),
            partial(self._tags_changed, f"Removed the tag {tag} from every paper"),
            lambda exc: self.notify(f"Could not delete the tag: {exc}", severity="error"),
        )

    def _tags_changed(self, message: str) -> None:
        self.paper_list.invalidate_all()
        self._show_current()
        self.notify(message)

    def _highlight(self, paper: Paper, start: int, end: int) -> None:
        """Highlight a passage, after asking for an optional note."""

        def chosen(note: str | None) -> None:
            if note is None:
                return
            self._write(
                partial(self.library.add_highlight, paper.id, start, end, note, sync=False),
                partial(self._refresh_paper, paper.id),
                lambda exc: self.notify(f"Could not highlight: {exc}", severity="error"),
            )

        self.push_screen(
            PromptScreen("Highlight this passage", "a note on it (optional): enter to save",
                         "The passage is stored with its place in the abstract and its words, "
                         "and found by search (highlight:word).", allow_empty=True),
            chosen,
        )

    def _unhighlight(self, paper: Paper, highlight_ids: list[int]) -> None:
        def remove_all() -> None:
            for highlight_id in highlight_ids:
                self.library.delete_highlight(highlight_id, sync=False)

        self._write(
            remove_all,
            partial(self._refresh_paper, paper.id),
            lambda exc: self.notify(f"Could not remove the highlight: {exc}", severity="error"),
        )

    def action_more_like(self) -> None:
        """List the papers most like the current one."""
        paper = self.current_paper
        if paper is not None:
            self.run_query(f"like:{paper.citekey}")

    def action_for_you(self) -> None:
        """Unseen papers ranked by what they share with the starred ones."""
        self.run_query("like:starred is:unseen")

    def action_edit_metadata(self) -> None:
        """Edit the current paper's title, authors, year, venue, URL, DOI and key."""
        paper = self.current_paper
        if paper is None:
            return

        def chosen(values: dict[str, object] | None) -> None:
            if values:
                self._write(
                    partial(self.library.update_metadata, paper.id, values, sync=False),
                    partial(self._details_saved, paper.id),
                    lambda exc: self.notify(f"Not saved: {exc}", severity="error", timeout=10),
                )

        self.push_screen(MetadataForm(paper, partial(self._taken_by, paper.id)), chosen)

    def _taken_by(self, paper_id: int, column: str, value: str) -> str | None:
        """The paper (other than ``paper_id``) whose citation key or DOI is ``value``."""
        owner = self.library.holder(column, value)
        if owner is None or owner.id == paper_id:
            return None
        title = plain_line(owner.title)
        title = title if len(title) <= 50 else title[:48] + "…"
        return f"@{owner.citekey} ({title})"

    def _details_saved(self, paper_id: int) -> None:
        self._refresh_paper(paper_id)
        self.notify("Details saved")

    def action_open_url(self) -> None:
        """Open the paper's page (http and https only) in the browser."""
        paper = self.current_paper
        if paper is None:
            return
        url = paper_url(paper)
        if url is None:
            self.notify("This paper has no web address (e edits its details)", severity="warning")
            return
        import webbrowser  # on first use: it costs the start of every session

        try:
            webbrowser.get()
        except webbrowser.Error:
            self.notify(f"No web browser found here; the address is {url}", timeout=10)
            return
        self.open_url(url)
        self.notify(f"Opened {url}", timeout=4)

    # -- views, sort, saved searches --------------------------------------------------------

    def action_cycle_sort(self) -> None:
        """Sort the view by the next order: relevance, title, year, added, starred first."""
        orders = list(SORT_KEYS)
        self.set_sort(orders[(orders.index(self.sort_order) + 1) % len(orders)])

    def set_sort(self, order: str) -> None:
        """Sort the view (and every later one) by ``order``; remembered between runs."""
        self.sort_order = order
        self.library.set_meta(SORT_KEY, order)
        self.run_search(self.query_one(SearchBox).value)
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

    def _remember(self) -> None:
        """Write down the query, the sort and the selected paper for the next start."""
        library = self.library
        library.set_meta(QUERY_KEY, self.query_one(SearchBox).value)
        current = self.paper_list.current_id
        library.set_meta(PAPER_KEY, str(current) if current is not None else "")

    # -- citations and the basket -----------------------------------------------------------

    def _citation_targets(self) -> list[Paper]:
        """The marked papers when there are any, else the current paper."""
        if self.marked:
            return self.library.papers(sorted(self.marked))
        paper = self.current_paper
        return [paper] if paper is not None else []

    def action_copy_citation(self) -> None:
        """Copy the current paper (or every marked one) in the default style."""
        self._copy(self._citation_targets(), self.config.citation)

    def action_pick_citation(self) -> None:
        """Choose a style or format, with a preview, then copy."""
        papers = self._citation_targets()
        if not papers:
            return
        last = self.library.get_meta(LAST_CHOICE_KEY)
        initial = tuple(last.split(":", 1)) if last and ":" in last else None

        def chosen(choice: tuple[str, str] | None) -> None:
            if choice is not None:
                self.library.set_meta(LAST_CHOICE_KEY, ":".join(choice))
                self._copy(papers, choice)

        from reader.ui.screens.cite_picker import CitePicker

        self.push_screen(CitePicker(papers, initial), chosen)  # type: ignore[arg-type]

    def _copy(self, papers: list[Paper], choice: tuple[str, str]) -> None:
        if not papers:
            return
        fmt, style = choice
        # The citation engine is imported on first use: the reader starts sooner.
        from reader.library import CitationError, render_citation
        from reader.ui.screens.cite_picker import choice_label

        try:
            text = render_citation(papers, fmt, style or "apa")
        except CitationError as exc:
            self.notify(str(exc), severity="error")
            return
        label = choice_label(fmt, style)
        what = label if len(papers) == 1 else f"{len(papers)} papers as {label}"
        outcome = copy_text(
            text, what, osc52=self.send_osc52, file=self.library.paths.clipboard_file,
            routes=configured_routes(self.config.clipboard),
        )
        message = outcome.message
        derived = [p for p in papers if p.title_derived and p.title]
        if outcome.ok and derived:
            message += "\n" + derived_warning(derived)
        self.notify(
            message,
            severity=("warning" if derived else "information") if outcome.ok else "error",
        )

    def action_toggle_mark(self) -> None:
        """Put the current paper in the basket (or take it out) and move on."""
        papers = self.paper_list
        paper_id = papers.current_id
        if paper_id is None:
            return
        self.marked.symmetric_difference_update({paper_id})
        papers.refresh()
        papers.action_cursor_down()
        self._update_status()

    def action_clear_marks(self) -> None:
        """Empty the basket."""
        self.marked.clear()
        self.paper_list.refresh()
        self._update_status()

    def action_export(self) -> None:
        """Export the marks (or the current view) to a file; the format follows its name."""
        ids = sorted(self.marked) if self.marked else list(self.paper_list.ids)
        if not ids:
            return
        what = f"{len(ids)} marked" if self.marked else f"the {len(ids)} papers shown"

        def chosen(path: str | None) -> None:
            if path:
                self.export_papers(ids, Path(path).expanduser())

        self.push_screen(export_prompt(what), chosen)

    @work(thread=True, group="export", exit_on_error=False)
    def export_papers(self, ids: list[int], path: Path) -> None:
        """Write the papers to a file in the background."""
        from reader.library import CitationError, export, format_for_path

        try:
            fmt = format_for_path(path)
            papers = self.library.papers(ids)
            export(papers, fmt, path)
        except (CitationError, OSError) as exc:
            self.call_from_thread(self.notify, f"Export failed: {exc}", severity="error")
            return
        self.call_from_thread(
            self.notify, f"Exported {len(ids):,} papers as {fmt} to {path}", title="Exported"
        )

    def action_import_file(self) -> None:
        """Ask for a file and import it in the background."""

        def chosen(path: str | None) -> None:
            if path is not None:
                self.import_files([Path(path).expanduser()])

        self.push_screen(import_prompt(), chosen)

    def action_add_by_id(self) -> None:
        """Ask for ids and fetch them in the background."""

        def chosen(refs: str | None) -> None:
            if refs:
                self.add_papers(refs.split())

        self.push_screen(add_prompt(), chosen)

    @work(thread=True, exclusive=True, group="import", exit_on_error=False)
    def add_papers(self, refs: list[str]) -> None:
        """Fetch and import papers by id, then report as an import does."""
        from reader.library import FetchError

        self.call_from_thread(self._set_status_note, f"Fetching {' '.join(refs)}…")
        try:
            summary = self.library.add(refs)
        except (FetchError, StoreError) as exc:
            self.call_from_thread(self.notify, str(exc), title="Add failed",
                                  severity="error", timeout=12)
        else:
            self.call_from_thread(self._imported, summary)
        finally:
            self.call_from_thread(self._set_status_note, "")

    @work(thread=True, exclusive=True, group="import", exit_on_error=False)
    def import_files(self, paths: list[Path]) -> None:
        """Import files, showing progress, then the summary as a notification.

        The import and its indexing run in a process of their own (this thread only reads
        its reports), so the window answers keys at once however long the list is. It
        writes in batches: the list shows each batch's papers as it commits (the live
        library notices the commits), instead of nothing new until the whole file is in.
        """
        from reader.library.import_process import run_import

        worker = get_current_worker()
        self._import_worker = worker
        names = ", ".join(p.name for p in paths)
        imported = False
        self.call_from_thread(self._set_status_note, f"Importing {names}…")
        try:
            for event in run_import(
                self.library.paths.root, [p.absolute() for p in paths], IMPORT_BATCH,
                lambda: worker.is_cancelled,
            ):
                if event.kind == "progress":
                    self.call_from_thread(
                        self._set_status_note,
                        f"Importing {names}: {event.done:,}/{event.total:,}",
                    )
                elif event.kind == "imported" and event.summary is not None:
                    imported = True
                    self.call_from_thread(self._imported, event.summary)
                    self.call_from_thread(self._set_status_note, "Indexing the new papers…")
                elif event.kind == "indexing":
                    self.call_from_thread(self._index_progress, event.done, event.total)
                elif event.kind == "failed":
                    self.call_from_thread(self._set_status_note, "")
                    self.call_from_thread(self.notify, event.message, title="Import failed",
                                          severity="error", timeout=12)
        finally:
            self._import_worker = None
        if worker.is_cancelled:
            return
        if imported:
            # A search typed meanwhile answered from the index as it was before the import.
            self.call_from_thread(self._indexed)
        # What this window wrote while the import held the index.
        self.call_from_thread(self.sync_index)

    def _indexed(self) -> None:
        """An import's papers are all indexed: the view's query runs over all of them."""
        self._indexing = None
        self._published = 0
        self._set_status_note("")
        self._rerun_query()

    def _imported(self, summary: ImportSummary) -> None:
        self._refresh_counts()
        # The rows drawn so far may have been retitled or re-marked by a merge.
        self.paper_list.invalidate_all()
        self.run_search(self.query_one(SearchBox).value)
        lines = [str(summary)]
        lines += [changes for r in summary.reports if (changes := r.changes())]
        if summary.key_changes():
            lines.append(summary.key_changes())
        lines += summary.warnings
        lines += summary.problems[:3]
        if len(summary.problems) > 3:
            lines.append(f"… and {len(summary.problems) - 3} more (reader import --verbose)")
        self.notify("\n".join(lines), title="Imported", timeout=12)

    def send_osc52(self, text: str) -> None:
        """Ask the terminal to set its clipboard; inside tmux, also wrapped for passthrough."""
        self.copy_to_clipboard(text)  # plain OSC 52, and app.clipboard for the record
        driver = self._driver  # Textual has no public way to write a raw sequence
        if in_tmux() and driver is not None:
            driver.write(osc52_sequence(text, tmux=True))

    def action_help(self) -> None:
        """Show every key."""
        self.push_screen(HelpScreen(self.config.keymap))

    def on_unmount(self) -> None:
        """Give the objects frozen after the first frame back to the collector: in a process
        that runs app after app (the tests), each one's would otherwise never be freed."""
        gc.unfreeze()
        self.live.close()

    async def action_quit(self) -> None:
        """Quit once pending writes are stored."""
        self._flush_seen()
        importing = self._import_worker
        if importing is not None:
            # Not waited for: the import goes on in its own process and finishes there.
            importing.cancel()
        others = [w for w in self.workers if w is not importing]
        if others:  # (an empty list means every worker to wait_for_complete)
            await self.workers.wait_for_complete(others)
        try:
            self._remember()
        except StoreError as exc:  # a read-only library can't remember; it still quits
            self.log.warning(f"could not remember the view: {exc}")
        except Exception as exc:  # noqa: BLE001 - remembering is a nicety, never a crash
            self.log.warning(f"could not remember the view: {exc}")
        self.exit()

    # -- status line ------------------------------------------------------------------------

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
        parts = []
        if self.marked:
            parts.append(f"{len(self.marked):,} marked (y copies them, V clears)")
        shown = len(self.paper_list.ids)
        if self.outcome is not None:
            like = self.outcome.like
            if len(like) > 40:
                like = like[:38].rstrip() + "…”"
            label = f"like {like}: " if like else ""
            if self.outcome.complete:
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
            short = f"{counts.get('seen', 0):,} / {counts.get('papers', 0):,} seen"
            total = len(self.paper_list.ids)
            room = self.size.width - 2 - (len(f"{total:,} / {total:,}  ·  ") if total else 0)
            if len("  ·  ".join([*parts, short])) <= room:
                parts.append(short)
        else:
            parts.append(library)
        if self.sort_order != "relevance":
            parts.append(f"sorted by {SORT_LABELS[self.sort_order]}")
        if self._status_note:
            parts.append(self._status_note)
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


def _settle_collector() -> None:
    """Freeze what exists after the first frame out of the collector's reach (see on_mount)
    and let it run again (the command line turns it off while the reader starts)."""
    gc.freeze()
    gc.enable()


def derived_warning(papers: list[Paper]) -> str:
    """Say that titles cited were derived from the abstract, and how to give real ones."""
    if len(papers) == 1:
        return (
            "Its title was derived from the abstract (the source had none) and is cited "
            "marked so; e gives it the real title"
        )
    return (
        f"{len(papers)} of these titles were derived from the abstract and are cited marked "
        "so; e on each gives it the real title"
    )


def paper_url(paper: Paper) -> str | None:
    """The paper's web page: its URL when it is http(s), else one made from its DOI, arXiv
    or OpenReview id. Never another scheme (a file: or javascript: link from a file)."""
    candidates = [paper.url]
    if paper.doi:
        candidates.append(f"https://doi.org/{paper.doi}")
    if paper.arxiv_id:
        candidates.append(arxiv_url(paper.arxiv_id))
    if paper.openreview_id:
        candidates.append(openreview_url(paper.openreview_id))
    for url in candidates:
        if url and urlparse(url).scheme in ("http", "https") and urlparse(url).netloc:
            return url
    return None
