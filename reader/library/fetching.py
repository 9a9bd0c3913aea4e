"""Papers with their reviews and discussion fetched from OpenReview into a JSON-lines file
in the library's cache, for both front ends: what to fetch (a venue, or the forums of
papers the library holds), where the file and the state of a stopped run are kept, and
the run itself (:class:`reader.sources.remote.openreview_notes.NotesFetcher`), which the
caller may stop from another thread. The file is then imported as any other."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from reader.library.door import translating

if TYPE_CHECKING:
    from reader.library.core import Library
    from reader.models import Paper
    from reader.sources.remote.openreview_notes import Outcome, Plan, Progress

#: The most papers OpenReview gives in one answer of a venue.
PAGE_SIZE = 1000


@dataclass(frozen=True, slots=True)
class PapersPlan:
    """The plan for papers of the library: the forums of those with an OpenReview id, and
    how many of the papers have none (left out)."""

    plan: Plan
    papers: int
    without_id: int


def digest(parts: Sequence[str]) -> str:
    """A short name for a list of things asked (paper ids, a query)."""
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:8]


def fetched_line(outcome: Outcome) -> str:
    """``Fetched 400 papers with 1,666 replies from OpenReview into FILE``."""
    noun = "paper" if outcome.papers == 1 else "papers"
    replies = "reply" if outcome.replies == 1 else "replies"
    line = (f"Fetched {outcome.papers:,} {noun} with {outcome.replies:,} {replies} from "
            f"OpenReview into {outcome.path}")
    if outcome.resumed_from:
        line += f" (continuing a fetch stopped after {outcome.resumed_from:,})"
    return line


@translating
class OpenReviewFetching:
    """Fetching from OpenReview (``library.fetching``)."""

    def __init__(self, library: Library) -> None:
        """A part of ``library``, reached through its connections and its other parts."""
        self._library = library

    def papers_plan(self, papers: Sequence[Paper], name: str | None = None) -> PapersPlan:
        """The plan that fetches the replies of ``papers`` (those with an OpenReview id);
        named ``name``, else after the papers. FetchError when none has an id."""
        from reader.sources.remote.openreview_plan import forums_plan

        forums = [p.openreview_id for p in papers if p.openreview_id]
        if name is None:
            name = f"forum-{forums[0]}" if len(set(forums)) == 1 else f"papers-{digest(forums)}"
        return PapersPlan(forums_plan(forums, name), len(papers), len(papers) - len(forums))

    def openreview_files(self, plan: Plan, out: Path | None = None) -> tuple[Path, Path]:
        """Where a plan's papers are written (``out``, else in the library's cache) and
        where the state of a run stopped early is kept, beside the cache."""
        cache = self._library.paths.cache / "openreview"
        path = out if out is not None else cache / f"{plan.name}.jsonl"
        where = hashlib.sha256(str(path.resolve()).encode()).hexdigest()[:8]
        return path, cache / f"{plan.name}-{where}.state.json"

    def fetch_openreview(
        self,
        plan: Plan,
        *,
        out: Path | None = None,
        restart: bool = False,
        timeout: float = 60.0,
        page_size: int = PAGE_SIZE,
        progress: Progress | None = None,
        stopped: Callable[[], bool] | None = None,
    ) -> Outcome:
        """Fetch ``plan`` into its file, continuing a run stopped before (unless
        ``restart``), logged in with the credentials of the environment or the OS keyring
        when there are some. What came is kept whatever stops the run (Ctrl-C, ``stopped``
        answering True, the network, a refusal: the outcome says which). FetchError when
        the run cannot begin (credentials half given)."""
        from reader.sources.remote.openreview_login import find_credentials
        from reader.sources.remote.openreview_notes import NotesFetcher

        path, state = self.openreview_files(plan, out)
        if restart:
            state.unlink(missing_ok=True)
        fetcher = NotesFetcher.from_env(find_credentials(), timeout, page_size)
        return fetcher.run(plan, path, state, progress, stopped)
