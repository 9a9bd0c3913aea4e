"""Papers coming in: the sample on first start, files and ids imported from the app (in
batches the list shows as they commit); the index follows them (reader/ui/index_status.py)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from textual import work
from textual.worker import get_current_worker

from reader.library import (
    StoreError,
)
from reader.models import ImportSummary
from reader.ui.features.base import AppBase, Rerun
from reader.ui.index_status import IndexStatus
from reader.ui.screens.prompts import add_prompt, import_prompt

if TYPE_CHECKING:
    from reader.library.import_process import ImportProcess

#: Records an import started here writes per transaction.
IMPORT_BATCH = 2_000


class ImportsFeature(AppBase):
    """The sample, imports and additions from the app, and the index kept up with them."""

    @work(thread=True, exclusive=True, group="prepare", exit_on_error=False)
    def prepare_library(self) -> None:
        """Load the bundled sample into an empty library, then bring the index up to date."""
        if self.load_sample:
            summary = self.library.import_sample_if_empty()
            if summary is not None:
                self.call_from_thread(self._sample_loaded, summary)
        self.index_status.bring_up_to_date()

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
                    self.post_message(IndexStatus.Progress(event.done, event.total))
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
        self.call_from_thread(self.index_status.sync)

    def _indexed(self) -> None:
        """An import's papers are all indexed: the view's query runs over all of them."""
        self.index_status.caught_up()
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
        if summary.text_line():
            lines.append(summary.text_line())
        lines += summary.warnings
        lines += summary.problems[:3]
        if len(summary.problems) > 3:
            lines.append(f"… and {len(summary.problems) - 3} more (reader import --verbose)")
        self.notify("\n".join(lines), title="Imported", timeout=12)
