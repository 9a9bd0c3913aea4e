"""Papers coming in: the sample on first start, files and ids imported from the app (run
by reader/ui/import_session.py, whose messages the app hands to :class:`Importing`: the
list shows the batches as they commit); the index follows them
(reader/ui/index_status.py)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from textual.worker import Worker

from reader.library import reader_command
from reader.ui.import_session import ImportSession, Source
from reader.ui.keymap import label_of
from reader.ui.screens import reading_screen
from reader.ui.search_session import Rerun

if TYPE_CHECKING:
    from reader.import_summary import ImportSummary
    from reader.ui.app import ReaderApp


class Importing:
    """The sample, imports and additions from the app, and the index kept up with them."""

    def __init__(self, app: ReaderApp, load_sample: bool) -> None:
        """Import for ``app``; the bundled sample into an empty library if ``load_sample``."""
        self._app = app
        self._load_sample = load_sample
        #: Set once the window quits (see quitting).
        self._quitting = False

    def quitting(self) -> None:
        """The window quits: an import under way goes on in its own process, and its
        reports no longer touch the status line (which says what quitting waits for) nor
        the index (the next run catches it up)."""
        self._quitting = True

    def prepare_library(self) -> Worker[None]:
        """Load the bundled sample into an empty library, then bring the index up to date
        (in a worker)."""
        return self._app.run_worker(
            self._prepare, thread=True, exclusive=True, group="prepare", exit_on_error=False
        )

    def _prepare(self) -> None:
        app = self._app
        if self._load_sample:
            summary = app.library.imports.import_sample_if_empty()
            if summary is not None:
                app.call_from_thread(self._sample_loaded, summary)
        app.index_status.bring_up_to_date()

    def _sample_loaded(self, summary: ImportSummary) -> None:
        self._app.status.recount()
        self._app.paper_list.set_ids(self._app.library.all_ids())
        self._app.status.update()
        # The command names the library unless it is the default one: run as shown, it
        # imports into this library.
        root = self._app.library.paths.root
        reader = reader_command(root)
        # Where a library other than the default one is, said too: a mistyped --library
        # shows the sample in a new directory, not the user's papers.
        where = "" if reader == "reader" else f" in {root}"
        # The window's key first (as the user's keymap has it): the notice is read there.
        key = label_of("app.import", self._app.config.keymap)
        self._app.notify(
            f"The library{where} was empty, so it now holds the bundled ICLR 2026 sample "
            f"({summary.new} abstracts): press {key} to import your own (from the shell: "
            f"{reader} import FILE; {reader} import --undo sample takes the sample away)",
            title="Sample loaded",
            timeout=10,
        )

    def action_import_file(self) -> None:
        """Ask for a file and import it in the background.

        The import process is started as the prompt opens: it is ready by the time the
        file is named. A read-only library says so at once, before a path is typed for
        nothing.
        """
        why = self._app.library.read_only
        if why is not None:
            self._app.notify(f"Read-only library ({why}): an import cannot be saved",
                             title="Import", severity="warning", timeout=8)
            return
        self._app.imports.prepare()

        def chosen(path: str | None) -> None:
            if path is not None:
                self.import_files([Path(path).expanduser()])
            else:
                self._app.imports.let_go()

        from reader.ui.screens.prompts import import_prompt

        self._app.push_screen(import_prompt(), chosen)

    def action_add_by_id(self) -> None:
        """Ask for ids and fetch them in the background."""

        def chosen(refs: str | None) -> None:
            if refs:
                self._app.imports.add(refs.split())

        from reader.ui.screens.prompts import add_prompt

        self._app.push_screen(add_prompt(), chosen)

    def import_files(self, paths: list[Path]) -> None:
        """Import files in the background, showing progress, then the summary."""
        self._app.imports.import_files(paths)

    def reported(self, message: ImportSession.Report) -> None:
        """Say how an import goes; take its papers in as it writes them."""
        if isinstance(message, ImportSession.Started):
            self._import_started(message)
        elif isinstance(message, ImportSession.Progress):
            self._import_progress(message)
        elif isinstance(message, ImportSession.Imported):
            self._import_written(message)
        elif isinstance(message, ImportSession.Failed):
            self._import_failed(message)
        elif isinstance(message, ImportSession.Finished):
            self._import_finished(message)

    def _import_started(self, message: ImportSession.Started) -> None:
        verb = "Importing" if message.source is Source.FILES else "Fetching"
        self._import_note(f"{verb} {message.names}…")

    def _import_progress(self, message: ImportSession.Progress) -> None:
        self._import_note(f"Importing {message.names}: {message.done:,}/{message.total:,}")
        if message.reviews:
            self._reviews_arriving()

    def _reviews_arriving(self) -> None:
        """A reading view waiting for its paper's reviews looks again (under a dialog too:
        it shows them when the dialog closes)."""
        for screen in self._app.screen_stack:
            if reading := reading_screen(screen):
                reading.reviews_arriving()

    def _import_written(self, message: ImportSession.Imported) -> None:
        self._imported(message.summary)
        self._reviews_arriving()

        if message.source is Source.FILES:
            # By the import's process: the papers, or, once they were indexed before the
            # replies' text was written, that text.
            summary = message.summary
            replies = summary.replies_new or summary.reply_versions
            self._import_note("Indexing the reviews' text…" if replies
                              else "Indexing the new papers…")

    def _import_failed(self, message: ImportSession.Failed) -> None:
        if message.source is Source.FILES:
            self._import_note("")
            # The message quotes the file, which is text, not markup.
            self._app.notify(message.message, title="Import failed", severity="error",
                        timeout=12, markup=False)
        else:
            self._app.notify(message.message, title="Add failed", severity="error", timeout=12)

    def _import_finished(self, message: ImportSession.Finished) -> None:
        if message.source is Source.IDS:
            self._import_note("")
            return
        if self._quitting:
            return  # the index's work stops, and the next start finishes it
        if message.imported:
            # A search typed meanwhile answered from the index as it was before the import.
            self._indexed()
        # What this window wrote while the import held the index.
        self._app.index_status.sync()

    def _import_note(self, note: str) -> None:
        """Say how an import is going, unless the window is quitting: its status line
        then says what quitting waits for, and stays."""
        if not self._quitting:
            self._app.status.note(note)

    def _indexed(self) -> None:
        """An import's papers are all indexed: the view's query runs over all of them."""
        self._app.index_status.caught_up()
        self._app.status.note("")
        self._app.searching.rerun_view(Rerun.INDEX_DONE)

    def _imported(self, summary: ImportSummary) -> None:
        self._app.status.recount()
        # The rows drawn so far may have been retitled or re-marked by a merge.
        self._app.paper_list.invalidate_all()
        self._app.searching.rerun_view(Rerun.VIEW)
        lines = [str(summary)]
        lines += [changes for r in summary.reports if (changes := r.changes())]
        if summary.key_changes():
            lines.append(summary.key_changes())
        if summary.text_line():
            lines.append(summary.text_line())
        # Named here: `reader import --verbose` run again would find them unchanged.
        for line, papers in ((summary.differing_line(), summary.kept_differing),
                             (summary.filled_line(), summary.filled),
                             (summary.filled_new_line(), summary.filled_new)):
            if line:
                keys = ", ".join(key for key, _ in papers[:3])
                more = f" and {len(papers) - 3:,} more" if len(papers) > 3 else ""
                lines.append(f"{line}: {keys}{more}")
        if summary.signals_line():  # ratings changed, replies new and edited, as the CLI says
            lines.append(summary.signals_line())
        if summary.new:
            # The browsing order is the order papers came in: the new ones are at the
            # list's end, out of sight (the view stays the user's).
            key = label_of("list.last", self._app.config.keymap)
            lines.append(f"New papers come at the end of the list ({key}); is:new lists them")
        lines += summary.warnings
        lines += summary.problems[:3]
        if len(summary.problems) > 3:
            lines.append(f"… and {len(summary.problems) - 3} more (reader import --verbose)")
        self._app.notify("\n".join(lines), title="Imported", timeout=12)
