"""The reader application: a list and a detail pane over one library.

The app is composed of collaborators, each owning its state (reader/ui/features): the
search shown (``Searching``), triage (``Triage``) and the papers seen (``SeenPapers``),
notes, tags and highlights, a paper's details, the reading view (``Reading``), views
(sort orders, saved searches), the citations and their basket, imports, fetching from
OpenReview, the status line (``StatusLine``), the index and other writers followed
(``Following``) and quitting; and
beside them the sessions whose workers report by messages (``IndexStatus``,
``SearchSession``, ``ImportSession``, ``FetchSession``, ``LiveLibrary``). The app owns the
list and the detail pane, hands each message to the collaborator it is for, and makes the
collaborators' actions its own (reader/ui/actions.py); a collaborator calls another's
public methods through the app, never reads another's state: the owner of a state tells
those it matters to as it changes (the status line is told the search shown, the sort order
and the basket), or decides for them (the search session, which views a change reruns). The
search shown is the view's, written by the search session alone and handed out by the app
(``ReaderApp.outcome``). The keys of all of them are in one table, ``reader.ui.bindings``.
"""

from __future__ import annotations

from collections.abc import Sequence

from textual import events, on
from textual.app import App, ComposeResult
from textual.containers import Horizontal
from textual.widgets import Input, Static

from reader import library as core
from reader.config import Config
from reader.errors import Damaged, ReaderError
from reader.library import Library, ViewSignals, reader_command
from reader.models import Paper, PaperRow
from reader.resources import styles_dir
from reader.ui import bindings, collector
from reader.ui.actions import enabled, route_actions
from reader.ui.commands import ReaderCommands
from reader.ui.configure import apply_config, load_ui_config, register_themes
from reader.ui.early_keys import EarlyKeys, HandOn, Typed, again, keys_waiting, takes_text
from reader.ui.features.citations import Citations
from reader.ui.features.details import Details, paper_url
from reader.ui.features.fetching import Fetching
from reader.ui.features.following import Following
from reader.ui.features.imports import Importing
from reader.ui.features.notes import Notes
from reader.ui.features.quitting import Quitting
from reader.ui.features.reading import Reading
from reader.ui.features.search import Searching
from reader.ui.features.seen import SEEN_FLUSH_SECONDS, SeenPapers
from reader.ui.features.status_line import StatusLine
from reader.ui.features.tags import Tags
from reader.ui.features.triage import Triage
from reader.ui.features.views import Views
from reader.ui.fetch_session import FetchSession
from reader.ui.import_session import ImportSession
from reader.ui.index_status import IndexStatus
from reader.ui.intents import Intents
from reader.ui.live import LiveLibrary
from reader.ui.paste import keep_pastes_in_order
from reader.ui.queued_keys import take_typed
from reader.ui.screens import read_screen_styles, reading_screen
from reader.ui.screens.main import MainScreen, mount_footer
from reader.ui.search_session import Rerun, SearchSession, SearchView
from reader.ui.signals import SignalsLookup
from reader.ui.widgets.line_input import edit_in_order
from reader.ui.widgets.paper_detail import PaperDetail
from reader.ui.widgets.paper_list import PaperList
from reader.ui.widgets.search_box import KEYS_ON_PAPER, SEARCH_PLACEHOLDER, TYPING_HERE, SearchBox
from reader.ui.writes import WindowWrites

__all__ = [
    "KEYS_ON_PAPER", "SEEN_FLUSH_SECONDS", "TYPING_HERE", "ReaderApp", "SearchBox", "paper_url",
]


class ReaderApp(App[None]):
    """Browse, search, star, annotate and cite the papers of a library."""

    CSS_PATH = [str(styles_dir() / "app.tcss")]
    #: Under 100 columns the list and the detail pane are stacked (styles/app.tcss).
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (100, "-wide")]
    BINDINGS = bindings.APP
    TITLE = "reader"
    COMMANDS = App.COMMANDS | {ReaderCommands}

    def __init__(
        self,
        library: Library,
        *,
        load_sample: bool = True,
        config: Config | None = None,
        ids: list[int] | None = None,
        counts: dict[str, int] | None = None,
        signals: ViewSignals | None = None,
    ) -> None:
        """A window on ``library``: the bundled sample loaded into it when it is empty
        (``load_sample``); ``config`` read from the config file unless given; ``ids``,
        ``counts`` and what the ids add up to (``signals``) when the caller has just read them."""
        super().__init__()
        #: Keys typed for a dialog before it took the focus (see ``reader.ui.early_keys``).
        self.early_keys = EarlyKeys()
        keep_pastes_in_order()
        register_themes(self)
        #: The user's settings; read from the config file unless given.
        self.config = config if config is not None else load_ui_config(self)
        self.library = library
        #: Stars and read marks asked for by a key and not yet stored.
        self.intents = Intents()
        #: The papers shown, drawn as seen at once and written down in batches.
        self.seen = SeenPapers(self)
        #: The status line, and the library's counts it shows.
        self.status = StatusLine(self, counts)
        #: The search index: ready, or how far its build is; and the work that keeps it.
        self.index_status = IndexStatus(self, library)
        #: The window's writes, each in a worker, in the order asked for.
        self.writes = WindowWrites(self, library, self.index_status)
        #: The results shown, and where the cursor goes in them.
        self.searching = Searching(self)
        #: The query asked and shown, its outcome, and the searches that answer it.
        self.search = SearchSession(self, library, self.index_status, SearchView(
            order=lambda: self.views.order,
            papers=lambda: self.status.counts.get("papers", 0),
            current=lambda: self.paper_list.current_id,
            seen_log=self.seen.log,
            count_seen=self.seen.count,
            deliver=self.searching.reported,
        ))
        #: Imports started in this window: the process ready for the next, the one running.
        self.imports = ImportSession(self, library)
        #: The fetch from OpenReview started in this window, while it runs.
        self.fetches = FetchSession(self, library)
        #: Commits made elsewhere (another window, the CLI, an import here), followed.
        self.live = LiveLibrary(self, library, self.seen.log, lambda: self.imports.running)
        #: The library's ids (and above, its counts) and what they add up to, when the
        #: caller has just read them: each read walks a large library before the first frame.
        self._initial_ids = ids
        self._initial_signals = signals
        #: The features of the window, each owning its state; their actions are the app's.
        self.details = Details(self)
        self.citations = Citations(self)
        self.views = Views(self)
        self.triage = Triage(self)
        self.fetching = Fetching(self)
        self.notes = Notes(self)
        self.tags = Tags(self)
        self.importing = Importing(self, load_sample)
        self.quitting = Quitting(self)
        self.following = Following(self)
        self.reading = Reading(self)
        route_actions(self, self.searching, self.triage, self.notes, self.tags, self.details,
                      self.views, self.citations, self.importing, self.fetching)

    def get_default_screen(self) -> MainScreen:
        """The screen the window is composed into."""
        return MainScreen(id="_default")

    def compose(self) -> ComposeResult:
        """The search box over the list and the detail pane, the status line, the keys."""
        yield SearchBox(placeholder=SEARCH_PLACEHOLDER, id="search",
                        results_shown=self.searching.results_shown)
        with Horizontal(id="main"):
            yield PaperList(self._rows, on_cursor=self._cursor_moved, on_open=self.reading.open,
                            id="papers")
            yield PaperDetail(id="detail", signals=SignalsLookup(
                self.library, lambda: self.paper_list.ids, self.damaged,
                self._initial_ids, self._initial_signals))
        yield Static(id="status", markup=False)
        yield Static(id="footer-place")  # see mount_footer

    @property
    def paper_list(self) -> PaperList:
        """The main list."""
        return self.query_one(PaperList)

    @property
    def outcome(self) -> core.SearchOutcome | None:
        """The outcome of the search the view shows (None: the whole library): the view's
        state, written by the search session alone, handed out as a frozen value."""
        return self.search.outcome

    @property
    def terms(self) -> frozenset[str]:
        """The words of the current query, for highlighting."""
        return self.search.terms

    def on_mount(self) -> None:
        """Show the library at once; import the sample and ready the index in the background."""
        # First, so the theme and keys hold from the first frame.
        apply_config(self, self.config)
        self.paper_list.marked = self.citations.marked
        self.paper_list.seen = self.seen.now
        self.views.show_first(self._initial_ids)
        self.paper_list.focus()
        self.status.update()
        # After the first frame, what it need not wait for: a toast, the look for drafts left
        # behind, the index's opening (it holds the GIL a while), the dialogs' styles, the
        # footer (see mount_footer); and the first screen's objects leave the collector.
        self.call_after_refresh(self._start_notices)
        self.set_interval(SEEN_FLUSH_SECONDS, self.seen.flush)
        self.call_after_refresh(self.live.start)
        self.call_after_refresh(self.importing.prepare_library)
        self.call_after_refresh(read_screen_styles, self)
        self.call_after_refresh(collector.settle)
        self.call_after_refresh(mount_footer, self.screen)

    def _start_notices(self) -> None:
        from reader.ui.start_notices import start_notices

        for notice in start_notices(self.library):
            self.notify(notice.message, title=notice.title, timeout=notice.timeout,
                        severity=notice.severity)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Whether a key's action may run here (and the footer offers it): actions.py."""
        return enabled(self, action, self.outcome)

    @property
    def current_paper(self) -> Paper | None:
        """The paper under the cursor (None, said, where it cannot be read: one bad page
        must not take the app and the user's typing down with it)."""
        paper_id = self.paper_list.current_id
        if paper_id is None:
            return None
        try:
            paper = self.library.paper(paper_id)
        except ReaderError as exc:
            self.damaged(exc)
            return None
        return self.intents.apply(paper) if paper is not None else None

    def _rows(self, ids: Sequence[int]) -> dict[int, PaperRow]:
        """The list's rows; none where the database is damaged (and the user is told)."""
        try:
            rows = self.library.rows(ids)
            return {i: self.intents.apply(row) for i, row in rows.items()}
        except ReaderError as exc:
            self.damaged(exc)
            return {}

    def damaged(self, exc: Exception) -> None:
        """Say the database is damaged (once) and what to do, another failure as it is."""
        if isinstance(exc, ReaderError) and not isinstance(exc, Damaged):
            self.notify(exc.line(), title=exc.title, severity="warning", timeout=10)
        elif not self.status.damaged:
            self.status.say_damaged()  # and stays said: what is missing from now on is why
            reader = reader_command(self.library.paths.root)
            self.notify(f"The library database is damaged ({exc}). Quit and run: {reader} "
                        f"doctor ({reader} restore FILE puts back a backup)",
                        severity="error", timeout=30)

    def _cursor_moved(self, _paper_id: int | None) -> None:
        # Seen once the user has been on it (README, Triage): not when results or an
        # import place it under the cursor, nor while a query is typed.
        papers = self.paper_list
        self.show_current(saw=not papers.placing or (not papers.following and papers.has_focus))
        self.status.show_place()
        if not papers.placing:
            # A paper the user moved to is where a second window starts (and the next
            # start, should this one end without quitting).
            self.views.remember_soon()

    def show_current(self, saw: bool = False) -> None:
        """Show the paper under the cursor in the detail pane (seen, when ``saw``)."""
        paper = self.current_paper
        outcome = self.outcome
        why = self.library.searching.why(paper, outcome) if paper and outcome else None
        empty = "No matches" if outcome is not None else "No paper selected"
        self.query_one("#detail", PaperDetail).show(paper, self.terms, why=why, empty=empty)
        if saw and paper is not None:
            self.seen.saw(paper)

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """Coming to the list (from the search box, or at start) is being on its paper."""
        if event.widget is self.paper_list:
            paper = self.current_paper
            if paper is not None:
                self.seen.saw(paper)

    @on(Input.Changed, "#search")
    def _query_changed(self, event: Input.Changed) -> None:
        self.searching.query_changed(event.value)

    @on(IndexStatus.Report)
    def _index_reported(self, message: IndexStatus.Report) -> None:
        self.following.index_reported(message)

    @on(LiveLibrary.Changed)
    @on(ImportSession.Report)
    @on(FetchSession.Report)
    def _reported(
        self, message: LiveLibrary.Changed | ImportSession.Report | FetchSession.Report
    ) -> None:
        if not self.query(PaperList):
            return  # read or reported as the window closed, handled after its list went
        if isinstance(message, LiveLibrary.Changed):
            self.following.library_changed(message.state, message.logged)
        elif isinstance(message, ImportSession.Report):
            self.importing.reported(message)
        else:
            self.fetching.reported(message)

    def refresh_paper(self, paper_id: int) -> None:
        """Redraw everything that shows a paper after it changed."""
        self.status.recount()
        self.paper_list.invalidate(paper_id)
        if self.paper_list.current_id == paper_id:
            self.show_current()
            if reading := reading_screen(self.screen):
                reading.show(self.current_paper)
        self.status.update()

    def rewritten(self, paper_id: int) -> None:
        """A write of this window changed what the index holds of a paper (its note, tags,
        highlights or record), and the library has re-indexed it: redraw the paper, and
        run the view's query again, which may find it or lose it now."""
        self.refresh_paper(paper_id)
        self.searching.rerun_view(Rerun.RETOUCHED)

    async def action_quit(self) -> None:
        """Quit once pending writes are stored; an index build under way stops at its next
        safe point, and the next reader to run finishes it. A second press quits at once."""
        await self.quitting.quit()

    async def action_quit_anywhere(self) -> None:
        """ctrl+q: quit as `q` does, from the search box too."""
        await self.quitting.quit()

    def action_help(self) -> None:
        """Show every key."""
        from reader.ui.screens.help import HelpScreen

        self.push_screen(HelpScreen(self.config.keymap))

    def on_unmount(self) -> None:
        """Give the objects frozen after the first frame back to the collector; stop the
        sessions' work that would outlive the window."""
        collector.release()
        self.live.close()
        self.imports.let_go()  # the window may close with the import prompt open
        self.fetches.cancel()  # its worker ends after the request in flight

    async def on_event(self, event: events.Event) -> None:
        """Keys act in the order typed, on what they were typed for: those typed right
        behind a key that opens a dialog go to the dialog (held until it can take them),
        never to the view below, and a priority key (``/``) waits for the keys before it."""
        if isinstance(event, (events.Key, events.Paste)):
            if not event.is_forwarded:
                await self._typed(event)
                return
            if self.early_keys.came_back_late(event, self.screen, self.focused):
                event.stop()
                await self._typed(again(event))
                return
            if isinstance(event, events.Key) and self.early_keys.waited(event) and (
                await self._check_bindings(event.key, priority=True)
            ):
                event.stop()
                return
        elif isinstance(event, (events.DescendantFocus, HandOn)):
            await self._release()
        await super().on_event(event)

    async def _release(self) -> None:
        """Hand on the keys held for the dialog now ready, in order: each letter to its
        field, and a key that acts (esc, enter) only once the letters before it are in, so
        that what it saves or closes is what was typed, and the keys after it go where it
        leaves the focus (the list, once the dialog is closed; held again while it closes):
        typed there as any key is, so that a screen it opens takes them once it is up."""
        for passed in self.early_keys.passed_on(dialog := self.screen):
            await self._typed(passed)
        for held in self.early_keys.ready(dialog):
            if self.screen is dialog and isinstance(held, events.Key) and not held.is_printable:
                if self.focused is not None:
                    await take_typed(self.focused)
                if await self._check_bindings(held.key, priority=True) or (
                    await self._check_bindings(held.key)
                ):
                    continue
            await self._typed(held)

    async def _typed(self, key: Typed) -> None:
        """A key typed: after any held for the screen on top, unless it must wait too; and
        behind the keys the focused widget has yet to take, if there are any."""
        await self._release()
        if self.early_keys.hold(self.screen, key):
            return
        focused = self.focused
        # Not behind what a text field has yet to take: its letters never come back, and the
        # keys after a priority key there (esc, enter) belong where it moves the focus.
        if focused is not None and not takes_text(focused) and keys_waiting(focused):
            self.early_keys.sent(key, self.screen, focused, behind=True)
            focused._forward_event(key)
            return
        await self._deliver(key)

    async def _deliver(self, key: Typed) -> None:
        """Send a key on as Textual does, noting where it went (see edit_in_order)."""
        if not await edit_in_order(self.focused, key):
            self.early_keys.sent(key, self.screen, self.focused)
            await super().on_event(key)
