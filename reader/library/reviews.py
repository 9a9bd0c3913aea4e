"""The index of review text kept in step with the replies, after the papers' index: built
from scratch (in worker processes for a large library, publishing what it has indexed as
it goes), caught up on the papers whose replies changed, and searched for ``review:``.

Review text never delays the abstracts: :meth:`ReviewIndexing.sync_reviews` does nothing
while the papers' index is behind, and nothing else calls it on the way to the papers'
index. Beside the index, a small file keeps the mark of the replies it holds (the library
generation and the last reply version stored); the index is current when the database's
mark is that one, which costs two reads of an index's end to know.
"""

from __future__ import annotations

import json
import os
import threading
from functools import cached_property, partial
from typing import TYPE_CHECKING, Any, cast

from reader.errors import IndexBusy, IndexStopped
from reader.library.base import Progress
from reader.library.door import translating
from reader.models import IndexState
from reader.search.query import ParsedQuery
from reader.store import review_texts
from reader.store.review_texts import ReviewsMark

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from reader.library.core import Library
    from reader.models import Paper
    from reader.search.index_writing import PaperSource
    from reader.search.reviews import ReviewIndex

#: The directory of the index of review text, beside the papers' index.
REVIEWS_DIR = "index-reviews"
_MARK_FILE = "reader-replies.json"
#: Below this many papers to index, review text is indexed in one process.
REVIEWS_PARALLEL_MIN = 1_000
_REVIEWS_PROCS = max(1, min(4, os.cpu_count() or 1))
_LAST_ID = 2**63 - 1


@translating
class ReviewIndexing:
    """The index of review text (``library.reviews``): it owns
    that index, opened on first use, and the lock its writers take."""

    def __init__(self, library: Library) -> None:
        """A part of ``library``, reached through its connections and its other parts."""
        self._library = library

    @cached_property
    def review_index(self) -> ReviewIndex:
        """The index of review text, opened on first use."""
        from reader.search.reviews import ReviewIndex

        return ReviewIndex(self._library.paths.root / REVIEWS_DIR)

    @cached_property
    def _reviews_lock(self) -> threading.Lock:
        return threading.Lock()

    def close(self) -> None:
        """Close the index of review text, when it was opened (the library closes it
        with its own index)."""
        if "review_index" in self.__dict__:
            self.review_index.close()

    def _held_mark(self) -> ReviewsMark | None:
        try:
            data = json.loads((self.review_index.path / _MARK_FILE).read_text("utf-8"))
            return ReviewsMark(int(data["generation"]), int(data["versions"]))
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def _hold_mark(self, mark: ReviewsMark) -> None:
        path = self.review_index.path / _MARK_FILE
        tmp = path.with_name(f"{_MARK_FILE}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(mark._asdict()), encoding="utf-8")
        os.replace(tmp, path)

    def reviews_state(self) -> IndexState:
        """``OK`` (every reply's words searchable), ``BUILDING`` (a build under way, here
        or in another process), ``STALE`` (replies stored that it lacks) or ``MISSING``."""
        if self.review_index.partial() is not None:
            return IndexState.BUILDING
        held = self._held_mark()
        if held is None or not self.review_index.usable():
            return IndexState.MISSING
        with self._library.session() as store:
            mark = review_texts.reviews_mark(store.conn)
            if mark == held:
                return IndexState.OK
            if mark.versions != held.versions or self._changed(store.conn, held):
                return IndexState.STALE
        # Only the library's generation moved (a star, a note, a highlight on a review):
        # the review text indexed is the replies' text still, so the mark moves with it,
        # and a review search is not called partial over a write that changed none of it.
        try:
            self._hold_mark(mark)
        except OSError:
            pass  # a read-only library: the same answer, found again next time
        return IndexState.OK

    def _changed(self, conn: Any, held: ReviewsMark) -> bool:
        """Whether a paper's review text differs from what the index holds of it since
        ``held``: a paper written since whose replies' digest is not the indexed one, or
        a paper with indexed reviews deleted since."""
        candidates = review_texts.reviews_changed_since(conn, held)
        if len(candidates) > 200:
            return True  # a catch-up's work, not a question's
        if conn.execute("SELECT 1 FROM deleted_papers WHERE generation > ? LIMIT 1",
                        (held.generation,)).fetchone():
            return True
        if not candidates:
            return False
        digests = review_texts.review_digests(conn, candidates)
        indexed = self.review_index.digests_of(candidates)
        return any(digests.get(i) != indexed.get(i) for i in candidates)

    def sync_reviews(
        self, progress: Progress | None = None, stopped: Callable[[], bool] | None = None
    ) -> int:
        """Bring the index of review text up to the replies stored, once the papers' index
        is current (else nothing: abstracts come first); returns how many papers' review
        text was indexed. Another process building it is left to do so."""
        if self._library.indexing.index_state() is not IndexState.OK:
            return 0
        index = self.review_index
        if index.partial() is not None or index.written_elsewhere():
            return 0
        with self._reviews_lock, self._library.session() as store:
            mark = review_texts.reviews_mark(store.conn)
            held = self._held_mark()
            usable = held is not None and index.usable()
            if usable and held == mark:
                return 0
            try:
                if not usable or held is None:
                    count = self._build_reviews(mark, progress, stopped)
                else:
                    count = self._catch_up_reviews(held, mark, progress, stopped)
            except (IndexBusy, IndexStopped):
                return 0  # another process took it, or we quit: the next sync goes on
            self._hold_mark(mark)
            return count

    def _build_reviews(
        self, mark: ReviewsMark, progress: Progress | None, stopped: Callable[[], bool] | None
    ) -> int:
        """Index every paper's review text from scratch."""
        database = self._library.paths.database
        with self._library.session() as store:
            total = review_texts.papers_with_replies(store.conn)
            ranges = store.id_ranges(_REVIEWS_PROCS) if total >= REVIEWS_PARALLEL_MIN else []
        parts = [partial(review_texts.read_review_texts, database, first, last)
                 for first, last in ranges] if len(ranges) > 1 else []
        (self.review_index.path / _MARK_FILE).unlink(missing_ok=True)
        # The index makes its documents of review texts (ReviewIndex._to_document), where
        # the papers' index makes them of papers: the same builder, other items.
        return self.review_index.rebuild(
            cast("Iterable[Paper]", review_texts.read_review_texts(database, 0, _LAST_ID)),
            mark.generation,
            (lambda n: progress(n, total)) if progress else None,
            parts=cast("list[PaperSource]", parts),
            total=total,
            stopped=stopped,
        )

    def _catch_up_reviews(
        self, held: ReviewsMark, mark: ReviewsMark, progress: Progress | None,
        stopped: Callable[[], bool] | None,
    ) -> int:
        """Index again the papers whose replies changed since ``held`` (their digests say
        which did), and drop those deleted or left without replies."""
        with self._library.session() as store:
            candidates = review_texts.reviews_changed_since(store.conn, held)
            digests = review_texts.review_digests(store.conn, candidates)
            deleted = [row[0] for row in store.conn.execute(
                "SELECT paper_id FROM deleted_papers WHERE generation > ?", (held.generation,)
            )]
        indexed = self.review_index.digests_of(candidates)
        changed = [i for i in candidates if digests.get(i) != indexed.get(i)]
        gone = [i for i in candidates if i not in digests and i in indexed]
        if len(changed) >= REVIEWS_PARALLEL_MIN:
            return self._build_reviews(mark, progress, stopped)
        database = self._library.paths.database

        def changes(_since: int) -> tuple[list[Any], list[int], int]:
            items = list(review_texts.read_review_texts(database, 0, _LAST_ID, changed))
            return items, [*deleted, *gone], mark.generation

        report = (lambda n: progress(n, len(changed))) if progress else None
        return self.review_index.catch_up(changes, report, stopped)

    def search_reviews(self, parsed: ParsedQuery) -> tuple[list[int], set[int], str | None]:
        """The papers whose review text matches every ``review:`` term of ``parsed``, best
        first; those matching any ``-review:`` term; and what to say of an index that does
        not hold every paper's review text yet (None when it does)."""
        index = self.review_index
        notice: str | None = None
        state = self.reviews_state()
        if state is not IndexState.OK:
            with self._library.session() as store:
                total = review_texts.papers_with_replies(store.conn)
            building = index.partial()
            if building is not None:
                notice = f"partial: reviews of {building[0]:,} of {total:,} papers indexed"
            elif state is IndexState.MISSING:
                return [], set(), (
                    f"review text not indexed yet ({total:,} papers with replies); "
                    "`reader search` indexes it"
                )
            else:
                notice = "partial: review text of the latest replies not indexed yet"
        ranked: list[int] | None = None
        for words in parsed.reviews:
            ids = index.search(ParsedQuery(words)).ids
            if ranked is None:
                ranked = ids
            else:
                keep = set(ids)
                ranked = [i for i in ranked if i in keep]
        excluded: set[int] = set()
        for words in parsed.not_reviews:
            excluded.update(index.search(ParsedQuery(words)).ids)
        return ranked or [], excluded, notice
