"""What every feature of the app stands on: the layout, the first view, the current
paper, writes in order and help."""

from __future__ import annotations

import gc
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from textual import on
from textual.app import App, ComposeResult
from textual.containers import Horizontal
from textual.message import Message
from textual.widgets import Footer, Static

from reader.config import Config
from reader.errors import ReaderError
from reader.library import (
    SORT_KEYS,
    Library,
    LibraryState,
    in_tmux,
    osc52_sequence,
    window_writer,
)
from reader.models import Paper, PaperRow
from reader.ui import bindings
from reader.ui.configure import apply_config, load_ui_config, register_themes
from reader.ui.fetch_session import FetchSession
from reader.ui.import_session import ImportSession
from reader.ui.index_status import IndexStatus
from reader.ui.intents import Intents
from reader.ui.live import LiveLibrary
from reader.ui.paste import keep_pastes_in_order
from reader.ui.screens.help import HelpScreen
from reader.ui.screens.reading import ReadingScreen
from reader.ui.search_session import Rerun, SearchSession, SearchView
from reader.ui.signals import SignalsLookup
from reader.ui.start_notices import quiet_informing_notices, start_notices
from reader.ui.widgets.paper_detail import PaperDetail
from reader.ui.widgets.paper_list import PaperList
from reader.ui.widgets.search_box import SearchBox
from reader.ui.writes import OrderedWrites

SEARCH_PLACEHOLDER = (
    # Cut at the box's width (about 110 columns at 120): the conference filters come before
    # the rarer syntax so that they show.
    "/ to search: words, \"phrases\", title:word, AND/OR/NOT, is:starred, tag:x, rating:>=6, "
    "decision:oral, review:\"…\", has:reviews, is:rating-changed, prefix*, typo~, is:unseen, "
    "like:KEY"
)
#: What the app remembers between runs (in the library's meta table).
SORT_KEY, QUERY_KEY, PAPER_KEY = "ui.sort", "ui.last_query", "ui.last_paper"
#: How often papers shown are written down as seen (batched: one write, not one per key).
SEEN_FLUSH_SECONDS = 0.5


class AppBase(App[None]):
    """The app's state and the parts every feature uses; the features are mixed in by
    :class:`reader.ui.app.ReaderApp`."""

    if TYPE_CHECKING:
        # Provided by the features mixed in beside this class (reader.ui.app.ReaderApp);
        # declared here so that each feature may call another's.
        def _flush_seen(self) -> None: ...
        def _highlight(
            self, paper: Paper, start: int, end: int, reply_id: str | None = None
        ) -> None: ...
        def _quit_note(self) -> str: ...
        def _refresh_counts(self) -> None: ...
        def _remember(self, query: str, current: int | None) -> None: ...
        def _remember_soon(self) -> None: ...
        def rerun_view(self, why: Rerun) -> None: ...
        def _saw(self, paper: Paper) -> None: ...
        def _search_reported(self, message: Message) -> None: ...
        def _set_status_note(self, note: str) -> None: ...
        def import_files(self, paths: list[Path]) -> None: ...
        def stop_fetch(self) -> bool: ...
        def _show_status(self) -> None: ...
        def _unhighlight(self, paper: Paper, highlight_ids: list[int]) -> None: ...
        def _update_status(self, notice: str | None = None) -> None: ...
        def prepare_library(self) -> object: ...
        def run_query(self, query: str) -> None: ...

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
        #: Writes asked for whose outcome the window has not yet drawn.
        self._writing = 0
        #: Stars and read marks asked for by a key and not yet stored.
        self.intents = Intents()
        #: How this window signs the note versions it saves.
        self.writer = window_writer()
        self.marked: set[int] = set()
        #: (indexed, total) while the index is being built (from scratch, or after an import).
        #: How many papers the build under way had made searchable at the last search.
        self._status_note = ""
        #: Papers shown this session (drawn as seen at once) and those not yet stored.
        self.seen_now: set[int] = set()
        self._seen_pending: set[int] = set()
        #: The papers of ``seen_now`` in the order they were shown: it only grows, so a
        #: worker counting a prefix of it knows which papers were shown after it looked.
        self.seen_log: list[int] = []
        #: The papers stored as seen, read once (by the first search that counts them) and
        #: kept current by this window's writes; None until read, or when another writer
        #: changed them (see StatusFeature.library_changed).
        self._stored_seen: set[int] | None = None
        #: Follows writes made elsewhere; the state of the library it last read.
        #: The search index: ready, or how far its build is; and the work that keeps it.
        self.index_status = IndexStatus(self, library)
        #: The query asked and shown, its outcome, and the searches that answer it.
        self.search = SearchSession(self, library, self.index_status, SearchView(
            order=lambda: self.sort_order,
            papers=lambda: self._counts.get("papers", 0),
            current=lambda: self.paper_list.current_id,
            seen_log=self.seen_log,
            count_seen=self._count_seen,
            deliver=self._search_reported,
        ))
        #: Imports started in this window: the process ready for the next, the one running.
        self.imports = ImportSession(self, library)
        #: The fetch from OpenReview started in this window, while it runs.
        self.fetches = FetchSession(self, library)
        self.live = LiveLibrary(self, library, self.seen_log, lambda: self.imports.running)
        self._library_state: LibraryState | None = None
        #: Library counts (papers, seen, read, starred, with notes), kept current in memory
        #: between writes so moving the cursor never counts the whole library.
        self._counts: dict[str, int] = dict(counts) if counts is not None else {}
        #: Papers seen among those shown in the current view.
        self._view_seen = 0
        self.sort_order = "relevance"
        self._restore_paper: int | None = None
        #: The paper under the cursor when the search box was last entered, and where the
        #: list goes back to when the search is cleared (see SearchFeature.run_search).
        self._paper_before_search: int | None = None
        self._return_paper: int | None = None
        self._seen_warned = False
        #: The library's ids (and above, its counts) when the caller has just read them:
        #: each read costs a walk of a large library before the first frame.
        self._initial_ids = ids
        self._damage_reported = False
        self._notice = ""
        self._status_body = ""
        #: Set once the user quits: the window waits for its writes, and an index build
        #: under way stops (see action_quit).
        self._quitting = False

    def compose(self) -> ComposeResult:
        yield SearchBox(placeholder=SEARCH_PLACEHOLDER, id="search")
        with Horizontal(id="main"):
            yield PaperList(self._rows, on_cursor=self._cursor_moved, id="papers")
            yield PaperDetail(
                id="detail", signals=SignalsLookup(self.library, lambda: self.paper_list.ids)
            )
        yield Static(id="status", markup=False)
        yield Footer()

    @property
    def paper_list(self) -> PaperList:
        """The main list."""
        return self.query_one(PaperList)

    @property
    def terms(self) -> frozenset[str]:
        """The words of the current query, for highlighting."""
        return self.search.terms

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
            restored=not last_query and self._restore_paper is not None,
        )
        self._view_seen = self._counts["seen"]  # the view is the whole library
        if last_query:
            self.query_one(SearchBox).value = last_query  # posts Changed: the search runs
        else:
            self._restore_paper = None
        self.paper_list.focus()
        self._update_status()
        for title, message in start_notices(library):
            # Possible loss is an error, never taken down with the notices that inform.
            loss = title == "possible loss"
            self.notify(message, title=title, timeout=60 if loss else 20,
                        severity="error" if loss else "information")
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
                self.search.outcome is not None
                and bool(self.search.outcome.suggestion)
                and (len(self.screen_stack) == 1 or isinstance(self.screen, ReadingScreen))
            )
        if (
            action in bindings.PAPER_ACTIONS
            and len(self.screen_stack) > 1
            and not isinstance(self.screen, ReadingScreen)
        ):
            return False
        if isinstance(self.focused, SearchBox) and action in bindings.TYPED_IN_BOX:
            # Typed into the box, not run: the footer offers the box's own keys instead.
            return False
        return True

    @property
    def current_paper(self) -> Paper | None:
        """The paper under the list cursor (None, with a message, where the database is
        damaged: one bad page must not take the app and the user's typing down with it)."""
        paper_id = self.paper_list.current_id
        if paper_id is None:
            return None
        try:
            paper = self.library.paper(paper_id)
        except ReaderError as exc:
            self._damaged(exc)
            return None
        return self.intents.apply(paper) if paper is not None else None

    def _rows(self, ids: Sequence[int]) -> dict[int, PaperRow]:
        """The list's rows; none where the database is damaged (and the user is told)."""
        try:
            rows = self.library.rows(ids)
            return {i: self.intents.apply(row) for i, row in rows.items()}
        except ReaderError as exc:
            self._damaged(exc)
            return {}

    def _count_seen(self, ids: list[int], shown: list[int]) -> int:
        """How many of ``ids`` have been seen (stored, or among the papers ``shown``); in a
        search's worker."""
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

    def _damaged(self, exc: Exception) -> None:
        if not self._damage_reported:
            self._damage_reported = True
            self.notify(
                f"The library database is damaged ({exc}). Quit and run: reader doctor "
                "(reader restore FILE puts back a backup)",
                severity="error", timeout=30,
            )

    def _cursor_moved(self, _paper_id: int | None) -> None:
        # Seen once the user has been on it (README, Triage): not when results or an
        # import place it under the cursor, nor while a query is typed.
        papers = self.paper_list
        self._show_current(saw=not papers.placing or (not papers.following and papers.has_focus))
        self._show_status()
        if not papers.placing:
            # A paper the user moved to is where a second window starts (and the next
            # start, should this one end without quitting).
            self._remember_soon()

    def _show_current(self, saw: bool = False) -> None:
        paper = self.current_paper
        outcome = self.search.outcome
        why = self.library.why(paper, outcome) if paper and outcome else None
        empty = "No matches" if outcome is not None else "No paper selected"
        self.query_one("#detail", PaperDetail).show(paper, self.terms, why=why, empty=empty)
        if saw and paper is not None:
            self._saw(paper)

    @on(PaperList.Opened)
    def _opened(self, event: PaperList.Opened) -> None:
        paper = self.library.paper(event.paper_id)
        if paper is not None:
            self._saw(paper)
            quiet_informing_notices(self)
            self.push_screen(
                ReadingScreen(self.intents.apply(paper), self.terms, self._step,
                              self._highlight, self._unhighlight,
                              replies=self.library.discussion)
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

    def _rewritten(self, paper_id: int) -> None:
        """A write of this window changed what the index holds of a paper (its note, tags,
        highlights or record), and the library has re-indexed it: redraw the paper, and
        run the view's query again, which may find it or lose it now."""
        self._refresh_paper(paper_id)
        if self.search.outcome is not None:
            self.rerun_view(Rerun.CHANGED)

    def _write(
        self,
        job: Callable[[], object],
        on_done: Callable[[], None],
        on_error: Callable[[Exception], None],
    ) -> None:
        """Run a database write in a worker, in the order the user asked for it (the
        library decides what it costs the index)."""
        ticket = self.writes.ticket()
        self._writing += 1

        def finish(then: Callable[..., None], *args: object) -> None:
            self._writing -= 1
            then(*args)
            if self.library.index_owed:
                self.index_status.sync()  # the index was busy as the write was stored

        def run() -> None:
            with self.writes.turn(ticket):
                try:
                    job()
                except Exception as exc:  # noqa: BLE001 - reported to the user, never lost
                    self.call_from_thread(finish, on_error, exc)
                    return
            self.call_from_thread(finish, on_done)

        self.run_worker(run, thread=True, group="writes", exit_on_error=False)

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
        self.imports.let_go()  # the window may close with the import prompt open
        self.fetches.cancel()  # its worker ends after the request in flight


def _settle_collector() -> None:
    """Freeze what exists after the first frame out of the collector's reach (see on_mount)
    and let it run again (the command line turns it off while the reader starts)."""
    gc.freeze()
    gc.enable()
