"""The reader's commands in the command palette (ctrl+p): saved searches with their counts,
tags to show, rename or delete across the library, the sort order, the "for you" view."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, cast

from textual.command import DiscoveryHit, Hit, Hits, Provider

from reader.library import RELEVANCE, SORT_KEYS

if TYPE_CHECKING:
    from reader.ui.app import ReaderApp

#: How each sort order is described.
SORT_LABELS = {
    RELEVANCE: "relevance (order added when browsing)",
    "title": "title",
    "year": "year, newest first",
    "added": "date added, newest first",
    "starred": "starred first",
    "rating": "mean rating, highest first",
    "spread": "spread of ratings, most divided first",
    "weighted": "confidence-weighted rating, highest first",
}

Command = tuple[str, str, Callable[[], object]]


def _papers(count: int) -> str:
    return f"{count:,} paper" if count == 1 else f"{count:,} papers"


class ReaderCommands(Provider):
    """Commands built from the library when the palette opens."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self._commands: list[Command] = []

    @property
    def reader(self) -> ReaderApp:
        """The app, typed."""
        return cast("ReaderApp", self.app)

    async def startup(self) -> None:
        """Gather the commands (counting saved searches runs them, so off the UI thread)."""
        self._commands = await asyncio.to_thread(self._gather)

    def _gather(self) -> list[Command]:
        app = self.reader
        library = app.library
        commands: list[Command] = []
        run_query = app.searching.run_query
        saved = library.queries.saved_searches()
        tags = library.queries.all_tags()
        for n, (name, query) in enumerate(saved, start=1):
            try:
                # Counted, not listed: only the best is looked up.
                count = f"{library.search(query, limit=1, suggest=False).count:,} papers"
            except Exception:  # noqa: BLE001 - an index being built can't count yet
                count = "count after indexing"
            key = f" · key {n}" if n <= 9 else ""
            commands.append(
                (f"Saved search: {name} ({count})", f"{query}{key}", partial(run_query, query))
            )
            commands.append((f"Delete saved search: {name}", query,
                             partial(app.views.delete_saved_search, name)))
        for tag, uses in tags:
            commands.append(
                (f"Show tag: {tag} ({uses:,})", f"tag:{tag}", partial(run_query, f"tag:{tag}"))
            )
            commands.append(
                (f"Rename tag: {tag}", f"on {_papers(uses)}", partial(app.tags.rename_tag, tag))
            )
            commands.append(
                (f"Delete tag: {tag}", f"from {_papers(uses)}", partial(app.tags.delete_tag, tag))
            )
        fetching = app.fetching
        for order in SORT_KEYS:
            commands.append(
                (f"Sort by {SORT_LABELS[order]}", "the choice is remembered",
                 partial(app.views.set_sort, order))
            )
        commands.append(
            ("For you: unseen papers like your starred ones", "like:starred is:unseen",
             app.triage.action_for_you)
        )
        commands.append(("Ratings overview: the view's ratings and decisions, drawn",
                         "key R", app.views.action_overview))
        commands.append(("Save this search", "under a name; open it with 1–9",
                         app.views.action_save_search))
        commands.append(("Fetch reviews from OpenReview: this paper",
                         "its reviews, decision and discussion · key F · esc stops",
                         fetching.action_fetch_replies))
        commands.append(("Fetch reviews from OpenReview: the starred papers",
                         "those with an OpenReview id · esc stops", fetching.fetch_starred_replies))
        commands.append(("Fetch reviews from OpenReview: the papers of this view",
                         "those with an OpenReview id · esc stops", fetching.fetch_view_replies))
        return commands

    async def discover(self) -> Hits:
        """Offer every command when nothing is typed yet."""
        for name, help_text, callback in self._commands:
            yield DiscoveryHit(name, callback, help=help_text)

    async def search(self, query: str) -> Hits:
        """Commands whose name matches what is typed."""
        matcher = self.matcher(query)
        for name, help_text, callback in self._commands:
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, matcher.highlight(name), callback, help=help_text)
