"""A library on disk: the database, the search index kept in step with it, and the
operations the CLI and the UI share (import, search, star, note, cite).

:class:`Library` is the door. It stands on its connections (base.py) and is composed of
parts, each a collaborator owning its state and reached by a name that reads at the call
site: ``library.imports`` (files and papers coming in, undo), ``library.indexing`` (the
index kept in step), ``library.reviews`` (the index of review text), ``library.searching``
(search, suggestions, why a paper matched), ``library.marks`` (stars, notes, tags,
highlights, metadata edits), ``library.queries`` (reads and small settings),
``library.conference`` (replies and signals), ``library.upkeep`` (backups, the doctor),
``library.recovery`` (what a damaged log lost) and ``library.fetching`` (OpenReview).
The few operations nearly every front end uses are kept on the door itself, each handing
over to the part that owns it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from reader.library.base import LibraryBase, Progress
from reader.library.door import translating
from reader.library.indexing import Indexing
from reader.library.queries import Queries
from reader.library.signals import SignalReads
from reader.parts import Part
from reader.store.notes import CLI, HEAD, NoteSaved, NoteState
from reader.store.reading import RELEVANCE

if TYPE_CHECKING:
    from reader.import_summary import ImportSummary
    from reader.library.annotations import Annotations
    from reader.library.changes import Change
    from reader.library.fetching import OpenReviewFetching
    from reader.library.imports import Imports
    from reader.library.loss import LossCheck
    from reader.library.outcomes import Resolution, SearchOutcome
    from reader.library.recovery import Recovery
    from reader.library.reviews import ReviewIndexing
    from reader.library.searching import Searching
    from reader.library.upkeep import Upkeep
    from reader.models import IndexState, Paper, PaperRow
    from reader.search.query import ParsedQuery
    from reader.signals import Reply, Signals
    from reader.sources.remote import Endpoints

__all__ = ["Library", "Progress"]


@translating
class Library(LibraryBase):
    """One library directory; thread-safe, with one SQLite connection per thread.

    What its methods, and its parts' methods, raise is a
    :class:`reader.errors.ReaderError` (or control flow: a search cancelled, a build
    stopped): SQLite's, the disk's and Whoosh's errors are translated on the way out
    (door.py), by the door and by each part alike.
    """

    def __init__(self, root: Path, read_only: str | None = None) -> None:
        """Open the library in ``root`` (made when new); read-only when ``read_only``
        says why, or when it cannot be written to."""
        # The parts the first view reads, and the one that holds state (what the index
        # owes), first: opening the store below may already lean on them. The others are
        # made on first use, their modules imported then, so that the window's first frame
        # does not wait for the code of imports, searches, upkeep and fetching.
        self.indexing = Indexing(self)
        self.queries = Queries(self)
        self.conference = SignalReads(self)
        super().__init__(root, read_only)

    reviews: Part[ReviewIndexing] = Part("reader.library.reviews", "ReviewIndexing")
    searching: Part[Searching] = Part("reader.library.searching", "Searching")
    imports: Part[Imports] = Part("reader.library.imports", "Imports")
    marks: Part[Annotations] = Part("reader.library.annotations", "Annotations")
    upkeep: Part[Upkeep] = Part("reader.library.upkeep", "Upkeep")
    loss: Part[LossCheck] = Part("reader.library.loss", "LossCheck")
    recovery: Part[Recovery] = Part("reader.library.recovery", "Recovery")
    fetching: Part[OpenReviewFetching] = Part("reader.library.fetching", "OpenReviewFetching")

    def close(self) -> None:
        """Close every connection, the index and the index of review text."""
        if Library.reviews.made(self):
            self.reviews.close()
        super().close()

    # The door's own operations, which nearly every front end uses: each hands over to
    # the part that owns it (same names, same arguments).

    def import_files(
        self,
        files: Sequence[Path],
        fmt: str | None = None,
        progress: Progress | None = None,
        *,
        strict: bool = False,
        dry_run: bool = False,
        batch: int | None = None,
        papers_in: Callable[[], None] | None = None,
        replies_progress: Progress | None = None,
        indexing: Progress | None = None,
        waiting: Callable[[], object] | None = None,
        reviews_progress: Progress | None = None,
        written: Callable[[ImportSummary], object] | None = None,
        update: bool = False,
    ) -> ImportSummary:
        """Import files, the index following (:meth:`Imports.import_files`)."""
        return self.imports.import_files(
            files, fmt, progress, strict=strict, dry_run=dry_run, batch=batch,
            papers_in=papers_in, replies_progress=replies_progress, indexing=indexing,
            waiting=waiting, reviews_progress=reviews_progress, written=written, update=update,
        )

    def add(
        self, refs: Sequence[str], endpoints: Endpoints | None = None, timeout: float = 10.0
    ) -> ImportSummary:
        """Fetch papers by id and import them (:meth:`Imports.add`)."""
        return self.imports.add(refs, endpoints, timeout)

    def search(
        self,
        query: str,
        limit: int | None = None,
        order: str = RELEVANCE,
        suggest: bool = True,
        *,
        first: int | None = None,
        cancelled: Callable[[], bool] | None = None,
        mend: bool = True,
        parsed: ParsedQuery | None = None,
    ) -> SearchOutcome:
        """Papers matching ``query`` (:meth:`Searching.search`)."""
        return self.searching.search(
            query, limit, order, suggest, first=first, cancelled=cancelled, mend=mend,
            parsed=parsed,
        )

    def resolve(self, ref: str) -> Resolution:
        """The paper named by an id or a key (:meth:`Searching.resolve`)."""
        return self.searching.resolve(ref)

    def paper(self, paper_id: int) -> Paper | None:
        """One paper with its note, or None."""
        return self.queries.paper(paper_id)

    def papers(self, ids: Iterable[int]) -> list[Paper]:
        """Papers with their notes, in the order of ``ids``."""
        return self.queries.papers(ids)

    def rows(self, ids: Iterable[int]) -> dict[int, PaperRow]:
        """The list columns of the given papers, keyed by id."""
        return self.queries.rows(ids)

    def all_ids(self) -> list[int]:
        """Every paper id in the default browsing order."""
        return self.queries.all_ids()

    def generation(self) -> int:
        """The generation of the library's last change."""
        return self.queries.generation()

    def index_state(self) -> IndexState:
        """Whether the index is up to date (:meth:`Indexing.index_state`)."""
        return self.indexing.index_state()

    def sync_index(
        self,
        progress: Progress | None = None,
        *,
        waiting: Callable[[], object] | None = None,
        stopped: Callable[[], bool] | None = None,
    ) -> int:
        """Bring the index up to the database (:meth:`Indexing.sync_index`)."""
        return self.indexing.sync_index(progress, waiting=waiting, stopped=stopped)

    def rebuild_index(
        self, progress: Progress | None = None, stopped: Callable[[], bool] | None = None
    ) -> int:
        """Index every paper from scratch (:meth:`Indexing.rebuild_index`)."""
        return self.indexing.rebuild_index(progress, stopped)

    def note(self, paper_id: int) -> NoteState:
        """A paper's note as stored now, with its version."""
        return self.marks.note(paper_id)

    def save_note(
        self, paper_id: int, body: str, *, base: int | None = HEAD, writer: str = CLI,
        kind: str = "save",
    ) -> NoteSaved:
        """Store a paper's note as a new version (:meth:`Annotations.save_note`)."""
        return self.marks.save_note(paper_id, body, base=base, writer=writer, kind=kind)

    def set_starred(self, paper_id: int, starred: bool) -> Change:
        """Star or unstar a paper (stored at once)."""
        return self.marks.set_starred(paper_id, starred)

    def set_tags(self, paper_id: int, tags: Sequence[str]) -> Change:
        """Give a paper exactly these tags (normalised)."""
        return self.marks.set_tags(paper_id, tags)

    def add_highlight(
        self, paper_id: int, start: int, end: int, note: str = "", *, reply_id: str | None = None
    ) -> int:
        """Highlight a span of the abstract or a reply (:meth:`Annotations.add_highlight`)."""
        return self.marks.add_highlight(paper_id, start, end, note, reply_id=reply_id)

    def replies(self, paper_id: int) -> list[Reply]:
        """A paper's replies, each as its newest version, oldest first."""
        return self.conference.replies(paper_id)

    def signals(self, ids: Iterable[int]) -> dict[int, Signals]:
        """The signals of the papers among ``ids`` that have some, by paper id."""
        return self.conference.signals(ids)
