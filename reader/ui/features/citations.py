"""Citations and the basket: copy in the last style chosen, pick a style, mark papers,
export them to a file."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from textual.app import App
from textual.worker import Worker

from reader.errors import ReaderError
from reader.models import Paper

if TYPE_CHECKING:
    from reader.ui.app import ReaderApp

LAST_CHOICE_KEY = "ui.last_citation_choice"


class Citations:
    """Copying citations, the basket of marked papers, and exports."""

    def __init__(self, app: ReaderApp) -> None:
        self._app = app
        #: The basket: papers marked with v (the list draws them, sharing the set).
        self.marked: set[int] = set()

    def _citation_targets(self) -> list[Paper]:
        """The marked papers when there are any, else the current paper."""
        if self.marked:
            return self._app.library.papers(sorted(self.marked))
        paper = self._app.current_paper
        return [paper] if paper is not None else []

    def action_copy_citation(self) -> None:
        """Copy the current paper (or every marked one) in the default style."""
        self._copy(self._citation_targets(), self._app.config.citation)

    def action_pick_citation(self) -> None:
        """Choose a style or format, with a preview, then copy."""
        papers = self._citation_targets()
        if not papers:
            return
        library = self._app.library
        last = library.queries.get_meta(LAST_CHOICE_KEY)
        initial = tuple(last.split(":", 1)) if last and ":" in last else None

        def chosen(choice: tuple[str, str] | None) -> None:
            if choice is not None:
                library.queries.set_meta(LAST_CHOICE_KEY, ":".join(choice))
                self._copy(papers, choice)

        from reader.ui.screens.cite_picker import CitePicker

        self._app.push_screen(CitePicker(papers, initial), chosen)  # type: ignore[arg-type]

    def _copy(self, papers: list[Paper], choice: tuple[str, str]) -> None:
        if not papers:
            return
        fmt, style = choice
        # The citation engine is imported on first use: the reader starts sooner.
        from reader.library import (
            CitationError,
            configured_routes,
            copy_text,
            render_citation,
        )
        from reader.ui.screens.cite_picker import choice_label

        app = self._app
        try:
            text = render_citation(papers, fmt, style or "apa")
        except CitationError as exc:
            app.notify(str(exc), severity="error")
            return
        label = choice_label(fmt, style)
        what = label if len(papers) == 1 else f"{len(papers):,} papers as {label}"
        outcome = copy_text(
            text, what, osc52=partial(send_osc52, app), file=app.library.paths.clipboard_file,
            routes=configured_routes(app.config.clipboard),
        )
        message = outcome.message
        derived = [p for p in papers if p.title_derived and p.title]
        if outcome.ok and derived:
            message += "\n" + derived_warning(derived)
        app.notify(
            message,
            severity=("warning" if derived else "information") if outcome.ok else "error",
        )

    def action_toggle_mark(self) -> None:
        """Put the current paper in the basket (or take it out) and move on."""
        papers = self._app.paper_list
        paper_id = papers.current_id
        if paper_id is None:
            return
        self.marked.symmetric_difference_update({paper_id})
        papers.refresh()
        papers.action_cursor_down()
        self._app.status.marked(len(self.marked))

    def action_clear_marks(self) -> None:
        """Empty the basket."""
        self.marked.clear()
        self._app.paper_list.refresh()
        self._app.status.marked(0)

    def action_export(self) -> None:
        """Export the marks (or the current view) to a file; the format follows its name."""
        ids = sorted(self.marked) if self.marked else list(self._app.paper_list.ids)
        if not ids:
            return
        what = f"{len(ids):,} marked" if self.marked else f"the {len(ids):,} papers shown"

        from reader.ui.screens.prompts import export_prompt

        prompt = export_prompt(what)

        def chosen(path: str | None) -> None:
            if path:
                replace = path == prompt.replacing
                # Named in full in what is said after: a relative name is relative to
                # wherever the window was started, which the user may not recall.
                self.export_papers(ids, Path(path).expanduser().absolute(), replace=replace)

        self._app.push_screen(prompt, chosen)

    def export_papers(self, ids: list[int], path: Path, *, replace: bool = False) -> Worker[None]:
        """Write the papers to a file in the background; a file already there is replaced
        only with ``replace`` (the user said so)."""
        return self._app.run_worker(
            partial(self._export, ids, path, replace), thread=True, group="export",
            exit_on_error=False,
        )

    def _export(self, ids: list[int], path: Path, replace: bool) -> None:
        from reader.library import (
            CitationError,
            check_folder,
            export,
            format_for_path,
            left_out,
            replaces_file,
        )

        app = self._app
        try:
            check_folder(path)  # a mistyped folder is said, not made
            if not replace and replaces_file(path):
                # Made since the prompt looked (or never asked about): not the user's to lose.
                raise CitationError(f"{path} exists; nothing exported")
            fmt = format_for_path(path)
            papers = app.library.papers(ids)
            signals = app.library.signals(ids)
            replied = app.library.conference.replied(ids)
            export(papers, fmt, path, signals=signals)
        except ReaderError as exc:  # a format, the library, the file written
            app.call_from_thread(app.notify, f"Export failed: {exc}", severity="error")
            return
        noun = "paper" if len(ids) == 1 else "papers"
        lost = left_out(papers, fmt, signals, replied)
        app.call_from_thread(
            app.notify, f"Exported {len(ids):,} {noun} as {fmt} to {path}."
            + (f" {lost}" if lost else ""), title="Exported"
        )


def send_osc52(app: App[None], text: str) -> None:
    """Ask the terminal to set its clipboard; inside tmux, also wrapped for passthrough."""
    from reader.library import in_tmux, osc52_sequence  # bound on a copy, not at start

    app.copy_to_clipboard(text)  # plain OSC 52, and app.clipboard for the record
    driver = app._driver  # Textual has no public way to write a raw sequence
    if in_tmux() and driver is not None:
        driver.write(osc52_sequence(text, tmux=True))


def derived_warning(papers: list[Paper]) -> str:
    """Say that titles cited were derived from the abstract, and how to give real ones."""
    if len(papers) == 1:
        return (
            "Its title was derived from the abstract (the source had none) and is cited "
            "marked so; e gives it the real title"
        )
    return (
        f"{len(papers):,} of these titles were derived from the abstract and are cited marked "
        "so; e on each gives it the real title"
    )
