"""The reader application: a list and a detail pane over one library."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from functools import partial
from pathlib import Path

from textual import on, work
from textual.app import App, ComposeResult
from textual.containers import Horizontal
from textual.widgets import Footer, Input, Static

from reader.clipboard import copy_text, in_tmux, osc52_sequence
from reader.export import export, format_for_path
from reader.formats import CitationError, render
from reader.importers import ImportFormatError
from reader.library import Library, SearchOutcome
from reader.models import ImportSummary, Paper
from reader.remote import FetchError
from reader.resources import styles_dir
from reader.store import StoreError
from reader.ui import bindings
from reader.ui.screens.cite_picker import CitePicker, choice_label
from reader.ui.screens.help import HelpScreen
from reader.ui.screens.note import NoteScreen
from reader.ui.screens.prompts import PromptScreen, add_prompt, export_prompt, import_prompt
from reader.ui.screens.reading import ReadingScreen
from reader.ui.widgets.paper_list import PaperList
from reader.ui.widgets.paper_view import PaperView
from reader.ui.writes import OrderedWrites

SEARCH_PLACEHOLDER = (
    "/ to search: words, \"phrases\", prefix*, typo~, title:word, AND/OR/NOT, "
    "is:starred, has:notes"
)


#: What y copies until a default is configured: a BibTeX entry.
DEFAULT_CITATION = ("bibtex", "")
LAST_CHOICE_KEY = "ui.last_citation_choice"

#: App actions that need the list's current paper at hand.
_PAPER_ACTIONS = {
    "focus_search", "toggle_star", "edit_note", "copy_citation", "clear_search", "import_file",
    "add_by_id", "pick_citation", "toggle_mark", "clear_marks", "export",
}


class SearchBox(Input):
    """The query box; ``↓`` hands the keyboard to the list."""

    BINDINGS = bindings.SEARCH

    def action_to_list(self) -> None:
        """Move focus to the paper list."""
        self.app.query_one(PaperList).focus()


class ReaderApp(App[None]):
    """Browse, search, star, annotate and cite the papers of a library."""

    CSS_PATH = [str(styles_dir() / "app.tcss")]
    BINDINGS = bindings.APP
    TITLE = "reader"

    def __init__(self, library: Library, *, load_sample: bool = True) -> None:
        super().__init__()
        self.library = library
        self.load_sample = load_sample
        self.writes = OrderedWrites()
        self.marked: set[int] = set()
        self.outcome: SearchOutcome | None = None
        self._search_seq = 0
        self._index_ready = False
        self._status_note = ""

    # -- layout -----------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield SearchBox(placeholder=SEARCH_PLACEHOLDER, id="search")
        with Horizontal(id="main"):
            yield PaperList(self.library.store.rows, id="papers")
            yield PaperView(id="detail")
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
        self.paper_list.marked = self.marked
        self.paper_list.set_ids(self.library.store.all_ids())
        self.paper_list.focus()
        self._update_status()
        self.prepare_library()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The paper keys act on the main screen and in the reading view only, so the
        editor's and the help's footers don't offer keys that would do nothing there."""
        if action in _PAPER_ACTIONS and isinstance(
            self.screen, NoteScreen | HelpScreen | PromptScreen | CitePicker
        ):
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
                lambda done, total: self.call_from_thread(
                    self._set_status_note, f"Indexing {done:,}/{total:,}…"
                )
            )
        elif state == "stale":
            self.library.sync_index()
        self.call_from_thread(self._index_done)

    def _sample_loaded(self, summary: ImportSummary) -> None:
        self.paper_list.set_ids(self.library.store.all_ids())
        self._update_status()
        self.notify(
            f"The library was empty, so it now holds the bundled ICLR 2026 sample "
            f"({summary.new} abstracts). Import your own with: reader import FILE",
            title="Sample loaded",
            timeout=8,
        )

    def _index_done(self) -> None:
        self._index_ready = True
        self._set_status_note("")
        query = self.query_one(SearchBox).value
        if query.strip():
            self.run_search(query)

    # -- search -----------------------------------------------------------------------------

    @on(Input.Changed, "#search")
    def _query_changed(self, event: Input.Changed) -> None:
        self.run_search(event.value)

    @on(Input.Submitted, "#search")
    def _query_submitted(self, _event: Input.Submitted) -> None:
        self.paper_list.focus()

    def run_search(self, query: str) -> None:
        """Search in a worker; only the newest query's results are shown."""
        self._search_seq += 1
        self.run_worker(
            partial(self._search_job, self._search_seq, query),
            thread=True,
            group="search",
            exit_on_error=False,
        )

    def _search_job(self, seq: int, query: str) -> None:
        if seq != self._search_seq:
            return  # a newer query is already on its way
        try:
            outcome = self.library.search(query)
        except Exception:  # noqa: BLE001 - an index being (re)built can't answer yet
            if self._index_ready:
                raise
            outcome = SearchOutcome(
                query, [], notice="The search index is still being built; results follow"
            )
        self.call_from_thread(self._show_results, seq, outcome)

    def _show_results(self, seq: int, outcome: SearchOutcome) -> None:
        if seq != self._search_seq:
            return
        self.outcome = outcome if outcome.query.strip() else None
        self.paper_list.set_ids(outcome.ids, self.terms, keep=self.paper_list.current_id)
        self._show_current()
        self._update_status(outcome.notice or "")

    def action_focus_search(self) -> None:
        """Put the cursor in the search box (leaving the reading view for the list)."""
        box = self.query_one(SearchBox)
        if isinstance(self.screen, ReadingScreen):
            self.pop_screen()
            self.call_after_refresh(box.focus)
        else:
            # Focus now, not after a refresh: keys typed right behind `/` belong to the box.
            box.focus()

    def action_clear_search(self) -> None:
        """Clear the query and show the whole library."""
        box = self.query_one(SearchBox)
        if box.value:
            box.value = ""  # posts Changed, which shows everything again
        self.paper_list.focus()

    # -- the current paper ------------------------------------------------------------------

    @property
    def current_paper(self) -> Paper | None:
        """The paper under the list cursor."""
        paper_id = self.paper_list.current_id
        return self.library.store.paper(paper_id) if paper_id is not None else None

    @on(PaperList.Highlighted)
    def _highlighted(self, _event: PaperList.Highlighted) -> None:
        self._show_current()

    def _show_current(self) -> None:
        self.query_one("#detail", PaperView).show(self.current_paper, self.terms)

    @on(PaperList.Opened)
    def _opened(self, event: PaperList.Opened) -> None:
        paper = self.library.store.paper(event.paper_id)
        if paper is not None:
            self.push_screen(ReadingScreen(paper, self.terms, self._step))

    def _step(self, delta: int) -> Paper | None:
        """Move the list cursor by ``delta`` and return the paper now under it."""
        papers = self.paper_list
        papers.cursor = max(0, min(len(papers.ids) - 1, papers.cursor + delta))
        return self.current_paper

    def _refresh_paper(self, paper_id: int) -> None:
        """Redraw everything that shows a paper after it changed."""
        self.paper_list.invalidate(paper_id)
        if self.paper_list.current_id == paper_id:
            self._show_current()
            if isinstance(self.screen, ReadingScreen):
                self.screen.show(self.library.store.paper(paper_id))
        self._update_status()

    # -- writes -----------------------------------------------------------------------------

    def _write(
        self,
        job: Callable[[], None],
        on_done: Callable[[], None],
        on_error: Callable[[Exception], None],
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
            self.call_from_thread(self.sync_index)

        self.run_worker(run, thread=True, group="writes", exit_on_error=False)

    @work(thread=True, group="index", exit_on_error=False)
    def sync_index(self) -> None:
        """Re-index what changed (one paper after a star or a note); a search typed while
        the index was behind is run again, so its results are never stale."""
        if self.library.sync_index() and self._index_ready:
            self.call_from_thread(self._rerun_query)

    def _rerun_query(self) -> None:
        query = self.query_one(SearchBox).value
        if query.strip():
            self.run_search(query)

    def action_toggle_star(self) -> None:
        """Star or unstar the current paper."""
        paper = self.current_paper
        if paper is None:
            return
        self._write(
            partial(self.library.set_starred, paper.id, not paper.starred, sync=False),
            partial(self._refresh_paper, paper.id),
            lambda exc: self.notify(f"Could not star the paper: {exc}", severity="error"),
        )

    def action_edit_note(self) -> None:
        """Open the note editor on the current paper."""
        paper = self.current_paper
        if paper is None:
            return
        self.push_screen(NoteScreen(paper, self._save_note))

    def _save_note(self, paper_id: int, text: str) -> None:
        self._write(
            partial(self.library.save_note, paper_id, text, sync=False),
            partial(self._note_saved, paper_id, text),
            partial(self._note_failed, paper_id, text),
        )

    def _note_saved(self, paper_id: int, text: str) -> None:
        if isinstance(self.screen, NoteScreen) and self.screen.paper.id == paper_id:
            self.screen.saved(text)
        self._refresh_paper(paper_id)

    def _note_failed(self, paper_id: int, text: str, exc: Exception) -> None:
        draft = self.library.paths.drafts / f"note-{paper_id}-{datetime.now():%Y%m%d-%H%M%S}.md"
        try:
            draft.parent.mkdir(parents=True, exist_ok=True)
            draft.write_text(text, encoding="utf-8")
            kept = f"kept a draft in {draft}"
        except OSError as draft_exc:
            kept = f"and no draft could be written either ({draft_exc.strerror})"
        message = f"Could not save the note: {exc}; {kept}"
        if isinstance(self.screen, NoteScreen) and self.screen.paper.id == paper_id:
            self.screen.failed(message)
        self.notify(message, severity="error", timeout=15)

    # -- citations and the basket -----------------------------------------------------------

    def _citation_targets(self) -> list[Paper]:
        """The marked papers when there are any, else the current paper."""
        if self.marked:
            return self.library.store.papers(sorted(self.marked))
        paper = self.current_paper
        return [paper] if paper is not None else []

    def action_copy_citation(self) -> None:
        """Copy the current paper (or every marked one) in the default style."""
        self._copy(self._citation_targets(), DEFAULT_CITATION)

    def action_pick_citation(self) -> None:
        """Choose a style or format, with a preview, then copy."""
        papers = self._citation_targets()
        if not papers:
            return
        last = self.library.store.get_meta(LAST_CHOICE_KEY)
        initial = tuple(last.split(":", 1)) if last and ":" in last else None

        def chosen(choice: tuple[str, str] | None) -> None:
            if choice is not None:
                self.library.store.set_meta(LAST_CHOICE_KEY, ":".join(choice))
                self._copy(papers, choice)

        self.push_screen(CitePicker(papers, initial), chosen)  # type: ignore[arg-type]

    def _copy(self, papers: list[Paper], choice: tuple[str, str]) -> None:
        if not papers:
            return
        fmt, style = choice
        try:
            text = render(papers, fmt, style or "apa")
        except CitationError as exc:
            self.notify(str(exc), severity="error")
            return
        label = choice_label(fmt, style)
        what = label if len(papers) == 1 else f"{len(papers)} papers as {label}"
        outcome = copy_text(
            text, what, osc52=self.send_osc52, file=self.library.paths.clipboard_file
        )
        self.notify(outcome.message, severity="information" if outcome.ok else "error")

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
        try:
            fmt = format_for_path(path)
            with self.library.session() as store:
                papers = store.papers(ids)
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
        """Import files, showing progress, then the summary as a notification."""
        names = ", ".join(p.name for p in paths)

        def progress(done: int, total: int) -> None:
            self.call_from_thread(self._set_status_note, f"Importing {names}: {done:,}/{total:,}")

        try:
            summary = self.library.import_files(paths, progress=progress, sync=False)
        except (ImportFormatError, StoreError) as exc:
            self.call_from_thread(self._set_status_note, "")
            self.call_from_thread(self.notify, str(exc), title="Import failed",
                                  severity="error", timeout=12)
            return
        self.call_from_thread(self._imported, summary)
        self.call_from_thread(self._set_status_note, "Indexing the new papers…")
        self.library.sync_index(
            lambda done, total: self.call_from_thread(
                self._set_status_note, f"Indexing {done:,}/{total:,}…"
            )
        )
        self.call_from_thread(self._set_status_note, "")

    def _imported(self, summary: ImportSummary) -> None:
        self.run_search(self.query_one(SearchBox).value)
        lines = [str(summary)]
        lines += [changes for r in summary.reports if (changes := r.changes())]
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
        self.push_screen(HelpScreen())

    async def action_quit(self) -> None:
        """Quit once pending writes are stored."""
        await self.workers.wait_for_complete()
        self.exit()

    # -- status line ------------------------------------------------------------------------

    def _set_status_note(self, note: str) -> None:
        self._status_note = note
        self._update_status()

    def _update_status(self, notice: str = "") -> None:
        counts = self.library.store.stats()
        library = (
            f"{counts['papers']:,} papers · {counts['starred']:,} starred · "
            f"{counts['with_notes']:,} with notes"
        )
        parts = []
        if self.marked:
            parts.append(f"{len(self.marked):,} marked (y copies them, V clears)")
        if self.outcome is not None:
            found = len(self.outcome.ids)
            parts.append(f"{found:,} {'match' if found == 1 else 'matches'}")
        parts.append(library)
        if self._status_note:
            parts.append(self._status_note)
        if notice:
            parts.append(notice)
        self.query_one("#status", Static).update("  ·  ".join(parts))
