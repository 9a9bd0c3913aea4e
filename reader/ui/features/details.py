"""A paper's details: the form that edits its record, and its page opened in a browser."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING
from urllib.parse import urlparse

from reader.models import Paper
from reader.text.identifiers import arxiv_url, openreview_url
from reader.text.render import plain_line

if TYPE_CHECKING:
    from reader.ui.app import ReaderApp


class Details:
    """Editing a paper's record; opening its page."""

    def __init__(self, app: ReaderApp) -> None:
        self._app = app

    def action_edit_metadata(self) -> None:
        """Edit the current paper's title, authors, year, venue, URL, DOI and key."""
        app = self._app
        paper = app.current_paper
        if paper is None:
            return

        def chosen(values: dict[str, object] | None) -> None:
            if values:
                app.writes.run(
                    partial(app.library.marks.update_metadata, paper.id, values),
                    partial(self._details_saved, paper.id),
                    lambda exc: app.notify(f"Not saved: {exc}", severity="error", timeout=10),
                )

        from reader.ui.screens.metadata import MetadataForm

        app.push_screen(MetadataForm(paper, partial(self._taken_by, paper.id)), chosen)

    def _taken_by(self, paper_id: int, column: str, value: str) -> str | None:
        """The paper (other than ``paper_id``) whose citation key or DOI is ``value``."""
        owner = self._app.library.queries.holder(column, value)
        if owner is None or owner.id == paper_id:
            return None
        title = plain_line(owner.title)
        title = title if len(title) <= 50 else title[:48] + "…"
        return f"@{owner.citekey} ({title})"

    def _details_saved(self, paper_id: int) -> None:
        self._app.rewritten(paper_id)
        self._app.notify("Details saved")

    def action_open_url(self) -> None:
        """Open the paper's page (http and https only) in the browser."""
        app = self._app
        paper = app.current_paper
        if paper is None:
            return
        url = paper_url(paper)
        if url is None:
            app.notify("This paper has no web address (e edits its details)", severity="warning")
            return
        import webbrowser  # on first use: it costs the start of every session

        try:
            webbrowser.get()
        except webbrowser.Error:
            app.notify(f"No web browser found here; the address is {url}", timeout=10)
            return
        app.open_url(url)
        app.notify(f"Opened {url}", timeout=4)


def paper_url(paper: Paper) -> str | None:
    """The paper's web page: its URL when it is http(s), else one made from its DOI, arXiv
    or OpenReview id. Never another scheme (a file: or javascript: link from a file)."""
    candidates = [paper.url]
    if paper.doi:
        candidates.append(f"https://doi.org/{paper.doi}")
    if paper.arxiv_id:
        candidates.append(arxiv_url(paper.arxiv_id))
    if paper.openreview_id:
        candidates.append(openreview_url(paper.openreview_id))
    for url in candidates:
        if url and urlparse(url).scheme in ("http", "https") and urlparse(url).netloc:
            return url
    return None
