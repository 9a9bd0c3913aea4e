"""Reviews and discussion fetched from OpenReview from the app: for the current paper
(``F``), the starred papers or the papers of the view (the command palette). The fetch runs
in a worker (reader/ui/fetch_session.py), whose reports the app hands to :class:`Fetching`:
it says how far the fetch is in the status line and stops it on esc; what came is imported
as a file is (reader/ui/features/imports.py)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from reader.ui.fetch_session import FetchSession

if TYPE_CHECKING:
    from reader.ui.app import ReaderApp


class Fetching:
    """Fetching replies from OpenReview for papers of the window."""

    def __init__(self, app: ReaderApp) -> None:
        self._app = app

    def action_fetch_replies(self) -> None:
        """Fetch the reviews and discussion of the current paper from OpenReview."""
        paper = self._app.current_paper
        if paper is None:
            return
        self._start_fetch(lambda: [paper.id], "paper", None)

    def fetch_starred_replies(self) -> None:
        """Fetch the reviews and discussion of the starred papers."""
        library = self._app.library
        self._start_fetch(lambda: library.search("is:starred").ids, "starred papers",
                          "starred")

    def fetch_view_replies(self) -> None:
        """Fetch the reviews and discussion of the papers of the view shown."""
        ids = list(self._app.paper_list.ids)
        self._start_fetch(lambda: ids, "papers of the view", None)

    def stop_fetch(self) -> bool:
        """Stop the fetch under way (esc); False when none runs."""
        if not self._app.fetches.cancel():
            return False
        self._app.status.note("Stopping the fetch after the request under way…")
        return True

    def _start_fetch(self, ids: Callable[[], Sequence[int]], what: str,
                     name: str | None) -> None:
        if self._app.imports.running:
            self._app.notify("An import is under way: fetch once it is done")
            return
        if not self._app.fetches.fetch(ids, what, name):
            self._app.notify("A fetch is under way already (esc stops it)")
            return
        self._app.status.note(f"Fetching the reviews of the {what} from OpenReview… "
                              "(esc stops)")

    def reported(self, message: FetchSession.Report) -> None:
        """Say how the fetch under way goes; import what came."""
        if isinstance(message, FetchSession.Progress):
            self._progress(message)
        elif isinstance(message, FetchSession.Failed):
            self._failed(message)
        elif isinstance(message, FetchSession.Fetched):
            self._fetched(message)

    def _progress(self, message: FetchSession.Progress) -> None:
        total = f"/{message.total:,}" if message.total is not None else ""
        self._app.status.note(f"Fetching the reviews of the {message.what} from OpenReview: "
                              f"{message.done:,}{total} (esc stops)")

    def _failed(self, message: FetchSession.Failed) -> None:
        self._app.status.note("")
        self._app.notify(message.message, title="Fetch failed", severity="error", timeout=12,
                    markup=False)

    def _fetched(self, message: FetchSession.Fetched) -> None:
        self._app.status.note("")
        stopped = message.stopped
        if not message.papers:
            why = ("stopped before any paper came" if message.interrupted
                   else stopped or "OpenReview gave no paper")
            self._app.notify("\n".join([f"Nothing fetched: {why}", *message.notes[:3]]),
                        title="Fetch failed", severity="error", timeout=15, markup=False)
            return
        lines = [message.line, *message.notes[:3]]
        if stopped is not None:
            reason = "Stopped (esc)" if message.interrupted else f"Stopped: {stopped}"
            lines.append(f"{reason}. What came is kept and imported; fetch again to get "
                         "the rest.")
        self._app.notify("\n".join(lines), title="Fetched from OpenReview",
                    severity="information" if stopped is None else "warning",
                    timeout=12, markup=False)
        self._app.importing.import_files([message.path])
