"""Papers coming in: the sample on first start, files and ids imported from the app (in
batches the list shows as they commit), and the search index built or mended meanwhile."""

from __future__ import annotations

import gc
from pathlib import Path
from typing import TYPE_CHECKING

from textual import work
from textual.worker import get_current_worker

from reader.library import (
    IndexStopped,
    StoreError,
)
from reader.models import ImportSummary
from reader.ui.features.base import AppBase, Rerun
from reader.ui.screens.prompts import add_prompt, import_prompt

if TYPE_CHECKING:
    from reader.library.import_process import ImportProcess

#: Records an import started here writes per transaction.
IMPORT_BATCH = 2_000
#: How often a window looks again at an index another process is building.
INDEX_RETRY_SECONDS = 2.0


class ImportsFeature(AppBase):
    """The sample, imports and additions from the app, and the index kept up with them."""

    @work(thread=True, exclusive=True, group="prepare", exit_on_error=False)
    def prepare_library(self) -> None:
        """Load the bundled sample into an empty library, then bring the index up to date."""
        if self.load_sample:
            summary = self.library.import_sample_if_empty()
            if summary is not None:
                self.call_from_thread(self._sample_loaded, summary)
        state = self.library.index_state()
        progress = self._report_indexing
        if state == "missing":
            self.call_from_thread(self._set_status_note, "Building the search index…")
            try:
                self.library.rebuild_index(progress, self._stopping)
            except IndexStopped:
                return  # quitting: the next start builds it
        elif state == "stale":
            # An index left behind: a build cut short when a reader quit (or was killed)
            # while indexing, or writes made while none ran. What it lacks is indexed now.
            self.library.sync_index(progress, stopped=self._stopping)
        self.call_from_thread(self._index_done)

    def _stopping(self) -> bool:
        """Whether an index build under way is to stop: the window is quitting."""
        return self._quitting

    def _report_indexing(self, done: int, total: int) -> None:
        """Show an index build's progress (called from its worker thread)."""
        self.call_from_thread(self._index_progress, done, total)

    def _mend_index(self) -> None:
        """Rebuild an index a search found damaged (once, however many searches met it)."""
        if not self._index_ready:
            return  # being built already
        self._index_ready = False
        self._set_status_note("Rebuilding the damaged search index…")
        self.run_worker(self._rebuild_index, thread=True, group="prepare", exit_on_error=False)

    def _rebuild_index(self) -> None:
        try:
            self.library.mend_index(self._report_indexing, self._stopping)
        except IndexStopped:
            return  # quitting: the next start builds it
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
        if self._quitting:
            # The build stops at its next safe point (see action_quit).
            self._set_status_note(self._quit_note())
            return
        self._set_status_note(f"Indexing {done:,} of {total:,}…")
        building = self.library.index_partial()
        self._published_more(building[0] if building else 0)

    def _index_done(self) -> None:
        if self._quitting:
            return  # the status line says what quitting waits for
        self._index_ready = True
        self._indexing = None
        self._published = 0
        # The open index is long-lived too (see on_mount).
        gc.freeze()
        self._set_status_note("")
        self.rerun_view(Rerun.INDEX_DONE)

    def action_import_file(self) -> None:
        """Ask for a file and import it in the background.

        The import process is started as the prompt opens: it is ready (its interpreter
        started, its modules loaded, the library opened) by the time the file is named.
        """
        from reader.library.import_process import ImportProcess

        try:
            ready: ImportProcess | None = ImportProcess(self.library.paths.root, IMPORT_BATCH)
        except OSError:
            ready = None  # started again once the file is named, and reported then
        self._ready_import = ready

        def chosen(path: str | None) -> None:
            self._ready_import = None
            if path is not None:
                self.import_files([Path(path).expanduser()], ready)
            elif ready is not None:
                ready.cancel()

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
    def import_files(self, paths: list[Path], started: ImportProcess | None = None) -> None:
        """Import files, showing progress, then the summary as a notification.

        The import and its indexing run in a process of their own (``started`` already,
        waiting for its paths, or started now; this thread only reads its reports), so the
        window answers keys at once however long the list is. It writes in batches: the
        list shows each batch's papers as it commits (the live library notices the
        commits), instead of nothing new until the whole file is in.
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
                lambda: worker.is_cancelled, started,
            ):
                if worker.is_cancelled:
                    break  # the window is quitting: its status line says so, and stays
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
                    # The message quotes the file, which is text, not markup.
                    self.call_from_thread(self.notify, event.message, title="Import failed",
                                          severity="error", timeout=12, markup=False)
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
        self.rerun_view(Rerun.INDEX_DONE)

    def _imported(self, summary: ImportSummary) -> None:
        self._refresh_counts()
        # The rows drawn so far may have been retitled or re-marked by a merge.
        self.paper_list.invalidate_all()
        self.rerun_view(Rerun.VIEW)
        lines = [str(summary)]
        lines += [changes for r in summary.reports if (changes := r.changes())]
        if summary.key_changes():
            lines.append(summary.key_changes())
        lines += summary.warnings
        lines += summary.problems[:3]
        if len(summary.problems) > 3:
            lines.append(f"… and {len(summary.problems) - 3} more (reader import --verbose)")
        self.notify("\n".join(lines), title="Imported", timeout=12)

    @work(thread=True, group="index", exit_on_error=False)
    def sync_index(self) -> None:
        """Re-index what changed (one paper after a star or a note, or the papers another
        process imported); a search typed while the index was behind is run again, so its
        results are never stale, and while many papers are indexed it runs again as each
        part of them becomes searchable.

        While another build is under way (another process's import, another window) the
        window does not wait on it: it looks again a little later, and finishes the work
        itself if that build was cut short (its process quit or was killed).

        Once the window quits, a sync under way stops at its next safe point (see
        action_quit) and none starts."""
        if self._quitting:
            return
        building = self.library.index_partial()
        if building is not None:
            # Another process builds: a search shown follows what it publishes.
            self.call_from_thread(self._published_more, building[0])
            self.call_from_thread(self._sync_later)
            return
        reported = False

        def progress(done: int, total: int) -> None:
            nonlocal reported
            reported = True
            self.call_from_thread(self._index_progress, done, total)

        indexed = self.library.sync_index(progress, stopped=self._stopping)
        if self._quitting:
            return
        if reported:
            self.call_from_thread(self._caught_up)
        if (indexed or self._shown_partial()) and self._index_ready:
            # A search shown over part of the index (this build's or another process's)
            # runs again over all of it.
            self.call_from_thread(self.rerun_view, Rerun.INDEX_DONE)
        if self.library.index_state() != "ok":
            self.call_from_thread(self._sync_later)  # another process held the index

    def _shown_partial(self) -> bool:
        """Whether the search shown was answered over part of the index."""
        outcome = self.outcome
        return outcome is not None and (outcome.notice or "").startswith("partial")

    def _published_more(self, published: int) -> None:
        """A build (here or in another process) has published ``published`` papers: a
        search shown over a partial index runs again as more of it is published."""
        if published != self._published:
            self._published = published
            if published:
                self.rerun_view(Rerun.INDEX_GREW)

    def _sync_later(self) -> None:
        if not self._sync_due and not self._quitting:
            self._sync_due = True
            self.set_timer(INDEX_RETRY_SECONDS, self._sync_again)

    def _sync_again(self) -> None:
        self._sync_due = False
        self.sync_index()

    def _caught_up(self) -> None:
        """A catch-up that reported its progress is over."""
        self._indexing = None
        self._published = 0
        self._set_status_note("")
