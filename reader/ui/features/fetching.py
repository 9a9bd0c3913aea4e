"""Reviews and discussion fetched from OpenReview from the app: for the current paper
(``F``), the starred papers or the papers of the view (the command palette). The fetch runs
in a worker (reader/ui/fetch_session.py), says how far it is in the status line and stops
on esc; what came is imported as a file is (reader/ui/features/imports.py)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from textual import on

from reader.ui.features.base import AppBase
from reader.ui.fetch_session import FetchSession


class FetchingFeature(AppBase):
    """Fetching replies from OpenReview for papers of the window."""

    def action_fetch_replies(self) -> None:
        """Fetch the reviews and discussion of the current paper from OpenReview."""
        paper = self.current_paper
        if paper is None:
            return
        self._start_fetch(lambda: [paper.id], "paper", None)

    def fetch_starred_replies(self) -> None:
        """Fetch the reviews and discussion of the starred papers."""
        library = self.library
        self._start_fetch(lambda: library.search("is:starred").ids, "starred papers",
                          "starred")

    def fetch_view_replies(self) -> None:
        """Fetch the reviews and discussion of the papers of the view shown."""
        ids = list(self.paper_list.ids)
        self._start_fetch(lambda: ids, "papers of the view", None)

    def stop_fetch(self) -> bool:
        """Stop the fetch under way (esc); False when none runs."""
        if not self.fetches.cancel():
            return False
        self.status.note("Stopping the fetch after the request under way…")
        return True

    def _start_fetch(self, ids: Callable[[], Sequence[int]], what: str,
                     name: str | None) -> None:
        if self.imports.running:
            self.notify("An import is under way: fetch once it is done")
            return
        if not self.fetches.fetch(ids, what, name):
            self.notify("A fetch is under way already (esc stops it)")
            return
        self.status.note(f"Fetching the reviews of the {what} from OpenReview… "
                              "(esc stops)")

    @on(FetchSession.Progress)
    def _fetch_progress(self, message: FetchSession.Progress) -> None:
        total = f"/{message.total:,}" if message.total is not None else ""
        self.status.note(f"Fetching the reviews of the {message.what} from OpenReview: "
                              f"{message.done:,}{total} (esc stops)")

    @on(FetchSession.Failed)
    def _fetch_failed(self, message: FetchSession.Failed) -> None:
        self.status.note("")
        self.notify(message.message, title="Fetch failed", severity="error", timeout=12,
                    markup=False)

    @on(FetchSession.Fetched)
    def _fetched(self, message: FetchSession.Fetched) -> None:
        self.status.note("")
        stopped = message.stopped
        if not message.papers:
            why = ("stopped before any paper came" if stopped == "interrupted"
                   else stopped or "OpenReview gave no paper")
            self.notify("\n".join([f"Nothing fetched: {why}", *message.notes[:3]]),
                        title="Fetch failed", severity="error", timeout=15, markup=False)
            return
        lines = [message.line, *message.notes[:3]]
        if stopped is not None:
            reason = "Stopped (esc)" if stopped == "interrupted" else f"Stopped: {stopped}"
            lines.append(f"{reason}. What came is kept and imported; fetch again to get "
                         "the rest.")
        self.notify("\n".join(lines), title="Fetched from OpenReview",
                    severity="information" if stopped is None else "warning",
                    timeout=12, markup=False)
        self.import_files([message.path])
