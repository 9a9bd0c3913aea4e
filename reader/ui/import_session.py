"""Papers coming into a window: a file imported in a process of its own, or papers fetched
by their ids.

:class:`ImportSession` owns what the window knows of such an import (the process started
as the import prompt opens, the worker following an import under way, whether it was
cancelled) and runs the work in thread workers, which report by messages posted to the
app (``ImportSession.Started``, ``Progress``, ``Imported``, ``Failed``, ``Finished``); the
app routes them: the status line says how far the import is, the list and the counts take
its papers in, the index follows (reader/ui/index_status.py).

The list follows each batch an import commits through the live library (reader/ui/live.py),
which sees the commits; no message is needed for them.
"""

from __future__ import annotations

from enum import Enum
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from textual.app import App
from textual.message import Message
from textual.worker import Worker, get_current_worker

from reader.errors import ReaderError
from reader.library import Library
from reader.ui.index_status import IndexStatus

if TYPE_CHECKING:
    # A report's summary is made where the import runs: its module (a dozen classes) is
    # no part of a window's start.
    from reader.import_summary import ImportSummary
    from reader.library.import_process import ImportProcess

#: Records an import started here writes per transaction.
IMPORT_BATCH = 2_000


class Source(Enum):
    """Where an import's papers come from."""

    #: Files, imported and indexed by a process of their own.
    FILES = "files"
    #: Ids fetched from the web, imported and indexed by this process.
    IDS = "ids"


class ImportSession:
    """The imports of one window: the process ready for the next, the one under way."""

    class Report(Message):
        """What an import says as it goes (each kind below); the app routes them."""

    class Started(Report):
        """An import of ``names`` (file names, or the ids fetched) began."""

        def __init__(self, source: Source, names: str) -> None:
            super().__init__()
            self.source = source
            self.names = names

    class Progress(Report):
        """``done`` of the ``total`` records of ``names`` are read (with ``reviews``: the
        papers are in, and the replies of ``done`` records are written)."""

        def __init__(self, names: str, done: int, total: int, reviews: bool = False) -> None:
            super().__init__()
            self.names = names
            self.done = done
            self.total = total
            self.reviews = reviews

    class Imported(Report):
        """Every record is written; ``summary`` says what came of them. ``source`` says
        whether the papers are still to be indexed (a file's are, by its process)."""

        def __init__(self, source: Source, summary: ImportSummary) -> None:
            super().__init__()
            self.source = source
            self.summary = summary

    class Failed(Report):
        """The import stopped: ``message`` says why, in one line (quoting the file or the
        ids, which are text, not markup)."""

        def __init__(self, source: Source, message: str) -> None:
            super().__init__()
            self.source = source
            self.message = message

    class Finished(Report):
        """The import is over (not posted for one cancelled: the window is quitting);
        ``imported`` whether it wrote its papers."""

        def __init__(self, source: Source, imported: bool) -> None:
            super().__init__()
            self.source = source
            self.imported = imported

    def __init__(self, app: App[None], library: Library) -> None:
        self._app = app
        self._library = library
        #: The import process started as the import prompt opened, until it is given a
        #: file (or let go).
        self._prepared: ImportProcess | None = None
        #: The worker following an import that runs in a process of its own, while it runs.
        self._worker: Worker[None] | None = None
        #: That import's process, while it runs.
        self._process: ImportProcess | None = None
        #: While the import under way writes its replies after its papers: the records
        #: whose replies are written, of how many (the reading view says so for a paper
        #: whose reviews are not in yet). Written by the worker, read by the window.
        self.reviews_coming: tuple[int, int] | None = None

    def reviews_awaited(self) -> tuple[int, int] | None:
        """Whether an import is writing the replies of the papers it wrote: this window's
        (as :attr:`reviews_coming`), else one elsewhere (another terminal's), as the
        library knows it. Asks the library: call it off the window's thread."""
        return self.reviews_coming or self._library.conference.replies_awaited()

    @property
    def running(self) -> bool:
        """Whether an import of files started in this window runs (in its own process)."""
        return self._worker is not None

    @property
    def prepared(self) -> ImportProcess | None:
        """The import process waiting for the file the prompt asks for, if any."""
        return self._prepared

    def prepare(self) -> None:
        """Start an import process now, so that it is ready (its interpreter started, its
        modules loaded, the library opened) by the time the file is named."""
        from reader.library.import_process import ImportProcess

        try:
            self._prepared = ImportProcess(self._library.paths.root, IMPORT_BATCH)
        except ReaderError:
            self._prepared = None  # started again once the file is named, and reported then

    def let_go(self) -> None:
        """The prompt closed without a file: the process prepared for it ends."""
        prepared, self._prepared = self._prepared, None
        if prepared is not None:
            prepared.cancel()

    def import_files(self, paths: list[Path]) -> None:
        """Import files in a worker (in the process prepared for them, or a new one)."""
        started, self._prepared = self._prepared, None
        self._app.run_worker(
            partial(self._import, paths, started), thread=True, exclusive=True,
            group="import", exit_on_error=False,
        )

    def add(self, refs: list[str]) -> None:
        """Fetch papers by their ids and import them, in a worker."""
        self._app.run_worker(
            partial(self._add, refs), thread=True, exclusive=True, group="import",
            exit_on_error=False,
        )

    def cancel(self) -> Worker[None] | None:
        """Stop following the import under way (the window quits; the import goes on in
        its process and finishes there); the worker that followed it, if any."""
        worker = self._worker
        process = self._process
        if process is not None:
            # Told at once, not when the worker next looks: the window may be gone by then,
            # and an import process whose window vanished without a word stops.
            process.let_go()
        if worker is not None:
            worker.cancel()
        return worker

    def _add(self, refs: list[str]) -> None:
        post = self._app.post_message
        post(self.Started(Source.IDS, " ".join(refs)))
        imported = False
        try:
            summary = self._library.add(refs)
        except ReaderError as exc:  # the network, an id not understood, the library
            post(self.Failed(Source.IDS, str(exc)))
        else:
            imported = True
            post(self.Imported(Source.IDS, summary))
        post(self.Finished(Source.IDS, imported))

    def _import(self, paths: list[Path], started: ImportProcess | None) -> None:
        """Import files, reporting as the import process does.

        The import and its indexing run in a process of their own (``started`` already,
        waiting for its paths, or started now; this thread only reads its reports), so the
        window answers keys at once however long the list is. It writes in batches: the
        list shows each batch's papers as it commits (the live library notices the
        commits), instead of nothing new until the whole file is in.
        """
        from reader.library.import_process import Event, ImportProcess, run_import

        worker = get_current_worker()
        self._worker = worker
        post = self._app.post_message
        names = ", ".join(p.name for p in paths)
        imported = False
        read = 0
        post(self.Started(Source.FILES, names))
        root, named = self._library.paths.root, [p.absolute() for p in paths]
        try:
            if started is None:
                started = ImportProcess(root, IMPORT_BATCH, named)
            self._process = started
            for event in run_import(
                root, named, IMPORT_BATCH, lambda: worker.is_cancelled, started,
            ):
                if worker.is_cancelled:
                    break  # the window is quitting: its status line says so, and stays
                if event.kind is Event.PROGRESS:
                    read = event.done
                    post(self.Progress(names, event.done, event.total))
                elif event.kind is Event.PAPERS:
                    # Every paper shows; the replies' text follows once they are indexed.
                    self.reviews_coming = (0, read)
                elif event.kind is Event.REPLIES:
                    # The papers show already; their reviews' text follows.
                    self.reviews_coming = (event.done, event.total)
                    post(self.Progress(f"the reviews of {names}", event.done, event.total,
                                       reviews=True))
                elif event.kind is Event.IMPORTED and event.summary is not None:
                    imported = True
                    self.reviews_coming = None
                    post(self.Imported(Source.FILES, event.summary))
                elif event.kind is Event.INDEXING:
                    post(IndexStatus.Progress(event.done, event.total))
                elif event.kind is Event.FAILED:
                    post(self.Failed(Source.FILES, event.message))
        except ReaderError as exc:  # its process could not start
            post(self.Failed(Source.FILES, exc.line()))
        finally:
            self._worker = self._process = None
            self.reviews_coming = None
        if not worker.is_cancelled:
            post(self.Finished(Source.FILES, imported))
