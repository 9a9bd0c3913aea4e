"""Reviews and discussion fetched from OpenReview for papers of the window (the current
paper, the starred ones, those of the view).

:class:`FetchSession` owns the fetch under way: its thread worker, which runs the fetch the
``reader fetch openreview`` command runs (``library.fetching.fetch_openreview``), and the flag that
stops it between requests (esc). The worker reports by messages posted to the app
(``FetchSession.Progress``, ``Fetched``, ``Failed``, each a ``FetchSession.Report``), which
hands them to its fetching feature (reader/ui/features/fetching.py): the status line says
how far it is, and the file fetched is imported as any file is
(reader/ui/import_session.py).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

from textual.app import App
from textual.message import Message

from reader.errors import ReaderError
from reader.library import Library


class FetchSession:
    """The fetch from OpenReview of one window, one at a time."""

    class Report(Message):
        """What a fetch says as it goes (each kind below); the app routes them all."""

    class Progress(Report):
        """``done`` of the ``total`` papers of ``what`` (when known) have come."""

        def __init__(self, what: str, done: int, total: int | None) -> None:
            super().__init__()
            self.what = what
            self.done = done
            self.total = total

    class Fetched(Report):
        """The fetch of ``what`` is over: ``line`` says what came into ``path``
        (``papers`` of them); ``stopped`` why it ended early (None: it did not), and
        ``interrupted`` whether esc stopped it; ``notes`` what else to say (papers without
        an OpenReview id, forums OpenReview does not have)."""

        def __init__(
            self,
            what: str,
            line: str,
            path: Path,
            papers: int,
            stopped: str | None,
            notes: Sequence[str] = (),
            interrupted: bool = False,
        ) -> None:
            super().__init__()
            self.what = what
            self.line = line
            self.path = path
            self.papers = papers
            self.stopped = stopped
            self.notes = notes
            self.interrupted = interrupted

    class Failed(Report):
        """The fetch of ``what`` could not begin: ``message`` says why, in one line."""

        def __init__(self, what: str, message: str) -> None:
            super().__init__()
            self.what = what
            self.message = message

    def __init__(self, app: App[None], library: Library) -> None:
        self._app = app
        self._library = library
        self._stop = threading.Event()
        self._running = False

    @property
    def running(self) -> bool:
        """Whether a fetch started in this window is under way."""
        return self._running

    def fetch(
        self, paper_ids: Callable[[], Sequence[int]], what: str, name: str | None = None
    ) -> bool:
        """Fetch the replies of the papers ``paper_ids`` gives (asked in the worker: it
        may search) in a worker, into the file named ``name`` in the cache, else after the
        papers; False, and nothing started, while one runs."""
        if self._running:
            return False
        self._running = True
        self._stop.clear()
        self._app.run_worker(
            partial(self._fetch, paper_ids, what, name), thread=True,
            group="fetch", exit_on_error=False,
        )
        return True

    def cancel(self) -> bool:
        """Stop the fetch under way after the request in flight (what came is kept and
        imported); False when none runs."""
        if not self._running:
            return False
        self._stop.set()
        return True

    def _fetch(
        self, paper_ids: Callable[[], Sequence[int]], what: str, name: str | None
    ) -> None:
        post = self._app.post_message
        try:
            papers = self._library.papers(list(paper_ids()))
            if not papers:
                post(self.Failed(what, f"No {what} to fetch reviews for."))
                return
            if not any(p.openreview_id for p in papers):
                noun = "it has" if len(papers) == 1 else f"none of the {len(papers):,} has"
                post(self.Failed(what, f"Nothing fetched for the {what}: {noun} an "
                                       "OpenReview id."))
                return
            planned = self._library.fetching.papers_plan(papers, name)

            def progress(done: int, total: int | None) -> None:
                post(self.Progress(what, done, total))

            outcome = self._library.fetching.fetch_openreview(
                planned.plan, progress=progress, stopped=self._stop.is_set
            )
        except ReaderError as exc:  # credentials half given, the library
            post(self.Failed(what, str(exc)))
            return
        finally:
            self._running = False
        notes = list(outcome.problems)
        if planned.without_id:
            notes.insert(0, f"{planned.without_id:,} of the {planned.papers:,} {what} have no "
                            "OpenReview id: left out")
        from reader.library import fetched_line

        post(self.Fetched(what, fetched_line(outcome), outcome.path, outcome.papers,
                          outcome.stopped, notes, outcome.interrupted))
