"""Reading: the reading view opened on a paper, turning the list's pages under it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from reader.models import Paper
from reader.ui.start_notices import quiet_informing_notices

if TYPE_CHECKING:
    from reader.ui.app import ReaderApp


class Reading:
    """Enter on a paper: its whole page, its reviews and discussion; `j`/`k` there move
    the list's cursor, so that leaving the view leaves the list on the paper last read."""

    def __init__(self, app: ReaderApp) -> None:
        self._app = app

    def open(self, paper_id: int) -> None:
        """Open the reading view on the paper ``paper_id`` (seen, from then on)."""
        from reader.ui.screens.reading import ReadingScreen

        app = self._app
        paper = app.library.paper(paper_id)
        if paper is None:
            return
        app.seen.saw(paper)
        quiet_informing_notices(app)
        app.push_screen(ReadingScreen(
            app.intents.apply(paper), app.terms, self.step, app.tags.highlight,
            app.tags.unhighlight, replies=app.library.conference.discussion,
            reviews_coming=app.imports.reviews_awaited,
            replies_ahead=app.library.conference.discussion_ahead,
        ))
        app.status.show_place()

    def step(self, delta: int) -> Paper | None:
        """Move the list cursor by ``delta`` and return the paper now under it."""
        papers = self._app.paper_list
        papers.cursor = max(0, min(len(papers.ids) - 1, papers.cursor + delta))
        return self._app.current_paper
