"""Tags (edit, rename, delete) and highlights in the reading view."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from reader.library import (
    normalize_tag,
)
from reader.models import Paper
from reader.ui.search_session import Rerun

if TYPE_CHECKING:
    from reader.ui.app import ReaderApp


class Tags:
    """Tags and highlights of the papers."""

    def __init__(self, app: ReaderApp) -> None:
        self._app = app

    def action_edit_tags(self) -> None:
        """Edit the current paper's tags, with completion from the tags in use."""
        app = self._app
        paper = app.current_paper
        if paper is None:
            return

        def chosen(tags: list[str] | None) -> None:
            if tags is not None and tags != paper.tags:
                app.writes.run(
                    partial(app.library.set_tags, paper.id, tags),
                    partial(app.rewritten, paper.id),
                    lambda exc: app.notify(f"Could not save the tags: {exc}", severity="error"),
                )

        from reader.ui.screens.tags import TagEditor

        known = app.library.queries.all_tags()
        app.push_screen(TagEditor(paper.title, paper.tags, known), chosen)

    def rename_tag(self, tag: str) -> None:
        """Ask for a new name for a tag and rename it on every paper."""
        app = self._app

        def chosen(new: str | None) -> None:
            if new:
                app.writes.run(
                    partial(app.library.marks.rename_tag, tag, new),
                    partial(self._tags_changed, f"Renamed the tag {tag} to {normalize_tag(new)}"),
                    lambda exc: app.notify(f"Could not rename the tag: {exc}", severity="error"),
                )

        from reader.ui.screens.prompts import PromptScreen

        app.push_screen(
            PromptScreen(f"Rename the tag {tag}", "new name", "Every paper with the tag gets "
                         "the new name (merged where it has both).", value=tag),
            chosen,
        )

    def delete_tag(self, tag: str) -> None:
        """Remove a tag from every paper."""
        app = self._app
        app.writes.run(
            partial(app.library.marks.delete_tag, tag),
            partial(self._tags_changed, f"Removed the tag {tag} from every paper"),
            lambda exc: app.notify(f"Could not delete the tag: {exc}", severity="error"),
        )

    def _tags_changed(self, message: str) -> None:
        app = self._app
        app.paper_list.invalidate_all()
        app.show_current()
        # The index holds tags: a query shown may find others now.
        app.searching.rerun_view(Rerun.RETOUCHED)
        app.notify(message)

    def highlight(
        self, paper: Paper, start: int, end: int, reply_id: str | None = None
    ) -> None:
        """Highlight a passage of the abstract (or of the reply ``reply_id``), after asking
        for an optional note."""
        app = self._app

        def chosen(note: str | None) -> None:
            if note is None:
                return
            app.writes.run(
                partial(app.library.add_highlight, paper.id, start, end, note,
                        reply_id=reply_id),
                partial(app.rewritten, paper.id),
                lambda exc: app.notify(f"Could not highlight: {exc}", severity="error"),
            )

        from reader.ui.screens.prompts import PromptScreen

        app.push_screen(
            PromptScreen("Highlight this passage", "a note on it (optional): enter to save",
                         "The passage is stored with its place in the "
                         f"{'abstract' if reply_id is None else 'reply'} and its words, "
                         "and found by search (highlight:word).", allow_empty=True),
            chosen,
        )

    def unhighlight(self, paper: Paper, highlight_ids: list[int]) -> None:
        """Remove highlights of the paper (by id)."""
        app = self._app

        def remove_all() -> None:
            for highlight_id in highlight_ids:
                app.library.marks.delete_highlight(highlight_id)

        app.writes.run(
            remove_all,
            partial(app.rewritten, paper.id),
            lambda exc: app.notify(f"Could not remove the highlight: {exc}", severity="error"),
        )
