"""Writing the index: a build from scratch (in worker processes for a large library,
publishing segments as they finish), and catching up on the papers changed since the
generation it reflects, skipping those whose searchable text is unchanged."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from whoosh import index as whoosh_index
from whoosh.reading import SegmentReader

from reader.errors import IndexBusy, IndexStopped
from reader.models import Paper
from reader.search.build import FastSegmentWriter
from reader.search.build_processes import build_in_processes
from reader.search.index_base import _GENERATION_FILE, _LIMIT_MB, IndexBase
from reader.search.renderings import Renderings
from reader.search.schema import document
from reader.text.render import to_plain

# A full build writes its segments as separate files, not one compound file: Whoosh reads a
# compound file through mmap and copies each part it opens into memory (the postings of a
# 200k library are hundreds of MB, and every searcher copies them again). Separate files
# are read from disk as needed.
#: A zero-argument callable yielding papers; picklable, so a worker process can call it.
PaperSource = Callable[[], Iterable[Paper]]
#: What makes an index document of an item other than a paper (a module-level function, so
#: a worker process can be handed it); the item has an ``id``.
ToDocument = Callable[[Any], dict[str, object]]


#: A commit of a catch-up merges the index's segments of fewer documents than this (those
#: of small writes: a star, a note, a short list) once there are MERGE_FEWEST of them.
MERGE_BELOW = 100
MERGE_FEWEST = 4


def merge_small(writer: Any, segments: list[Any], *, compact: bool = False) -> list[Any]:
    """The segments a commit keeps, after merging the smallest into its own (a merge
    policy, as Whoosh's ``mergetype``).

    Whoosh's MERGE_SMALL merges every segment below the first point where their documents
    are fewer than a Fibonacci number of their count: once an index has twenty segments
    (a build in parts and a few imports make them), that is nearly all of it, merged
    through Whoosh's slow pool: minutes and hundreds of megabytes for a note edited. Here
    only segments of small writes are merged, so a merge stays small, and a segment that
    has grown past MERGE_BELOW is never merged again.

    With ``compact`` (a commit that removes papers: an import undone), a segment of any
    size is rewritten once half its documents or more are deleted: its live documents are
    copied and the deleted ones dropped, so the index shrinks with the library. The copy
    costs at most as much as the deletions that made it due.
    """
    emptied = [s for s in segments if compact and _mostly_deleted(s)]
    small = [s for s in segments
             if s.doc_count_all() < MERGE_BELOW and all(s is not e for e in emptied)]
    chosen = emptied + (small if len(small) >= MERGE_FEWEST else [])
    if not chosen:
        return list(segments)
    for segment in chosen:
        reader = SegmentReader(writer.storage, writer.schema, segment)
        writer.add_reader(reader)
        reader.close()
    return [s for s in segments if all(s is not c for c in chosen)]


def _mostly_deleted(segment: Any) -> bool:
    """Whether half a segment's documents or more are deleted."""
    deleted = segment.deleted_count() if segment.has_deletions() else 0
    return deleted > 0 and deleted * 2 >= segment.doc_count_all()


def _documents(
    papers: Iterable[Any], renderings: Renderings, to_document: ToDocument | None = None
) -> Iterator[dict[str, object]]:
    """The papers' index documents, the renderings of their abstracts noted on the way; or,
    with ``to_document``, the documents it makes of the items given."""
    for paper in papers:
        if to_document is not None:
            yield to_document(paper)
            continue
        plain = to_plain(paper.abstract)  # rendered once, for the index and the memo
        doc = document(paper, plain)
        renderings.note(paper.abstract, plain)
        yield doc


def _write_all(
    writer: Any,
    put: Callable[..., None],
    docs: Iterable[dict[str, object]],
    progress: Callable[[int], None] | None,
    stopped: Callable[[], bool] | None = None,
    *,
    compact: bool = False,
) -> int:
    """Put every document with ``put`` and commit, or cancel all on any error (and once
    ``stopped()`` is true: IndexStopped); ``compact``: see merge_small."""
    count = 0
    try:
        for doc in docs:
            put(**doc)
            count += 1
            if count % 200 == 0:
                if stopped is not None and stopped():
                    raise IndexStopped(f"stopped at {count:,} papers")
                if progress is not None:
                    progress(count)
    except BaseException:
        writer.cancel()
        raise
    writer.commit(mergetype=functools.partial(merge_small, compact=compact))
    return count


class Writing(IndexBase):
    """Builds and catch-ups (mixed into :class:`reader.search.index.SearchIndex`)."""

    def _to_document(self) -> ToDocument | None:
        """What makes the documents of an index of items other than papers (None: papers,
        with reader.search.schema.document)."""
        return None

    def rebuild(
        self,
        papers: Iterable[Paper],
        generation: int,
        progress: Callable[[int], None] | None = None,
        *,
        parts: Sequence[PaperSource] = (),
        total: int = 0,
        stopped: Callable[[], bool] | None = None,
    ) -> int:
        """Build a fresh index; returns how many papers were indexed (IndexStopped once
        ``stopped()`` is true: the index is then missing, and built again by the next sync).

        With ``parts`` (picklable callables, each yielding a share of the papers, ``total``
        in all), every part is indexed in a process of its own into segments of its own,
        each published as it is written: the build uses every core, the calling process
        stays free, and searches run over what is indexed so far (see partial). Without
        them, ``papers`` are indexed here, in one process.
        """
        with self._lock:
            if self.written_elsewhere():
                # Creating the index now would replace the files that process is writing.
                raise IndexBusy(
                    f"the search index is being written by another process ({self.path})"
                )
            self.path.mkdir(parents=True, exist_ok=True)
            self._close()
            # A build cut short must not leave the old generation behind: it would make the
            # fresh (partial) index look merely stale.
            (self.path / _GENERATION_FILE).unlink(missing_ok=True)
            ix = whoosh_index.create_in(str(self.path), self.schema)
            self._ix = ix
            writer = FastSegmentWriter(ix, limitmb=_LIMIT_MB, compound=False)
            # Recorded as a build from scratch under way, as the build on every core records
            # itself: one stopped before its end is then told from an index lost.
            self._write_meta(-1)
        if parts:
            count = self._build(writer, parts, total, -1, progress, stopped=stopped)
        else:
            renderings = Renderings.in_index(self.path)
            count = _write_all(
                writer, writer.add_document, _documents(papers, renderings, self._to_document()),
                progress, stopped,
            )
            renderings.save()
            renderings.close()
        self._write_meta(generation)
        if progress is not None:
            progress(count)
        return count

    def _build(
        self,
        writer: FastSegmentWriter,
        parts: Sequence[PaperSource],
        total: int,
        generation: int,
        progress: Callable[[int], None] | None,
        known: dict[int, str] | None = None,
        before_commit: Callable[[set[int]], None] | None = None,
        stopped: Callable[[], bool] | None = None,
    ) -> int:
        """Index the parts in worker processes, publishing segments as they come."""
        self._published(generation, total, 0)
        try:
            return build_in_processes(
                writer, parts, progress,
                functools.partial(self._published, generation, total), limitmb=_LIMIT_MB,
                known=known, before_commit=before_commit, stopped=stopped,
                to_document=self._to_document(),
            )
        except BaseException:
            # Other processes wait for a build this live process claims: a failed one must
            # give the claim up, or they would wait for it for as long as it runs.
            self._write_meta(generation)
            raise
        finally:
            self._building = None

    def catch_up_in_parts(
        self,
        plan: Callable[[int], tuple[list[int], list[int], Sequence[PaperSource], int]],
        progress: Callable[[int], None] | None = None,
        stopped: Callable[[], bool] | None = None,
    ) -> int:
        """Apply many changes at once, on every core: ``plan(generation)`` gives the ids
        of the papers changed and deleted since, sources (picklable) that yield the changed
        papers in parts, and the generation that reaches. As with catch_up, the plan is
        made once the writer lock is held. A changed paper whose searchable text is what
        the index holds is not indexed again; the new versions of the others become
        searchable segment by segment (see partial), and their old ones are deleted when
        the last is written (meanwhile a search may meet both: it shows the paper once)."""
        writer = self._writer(stopped)
        try:
            since = self.generation
            changed, deleted, parts, generation = plan(since)
            wanted = {str(i) for i in changed}
            with writer.searcher() as searcher:
                # Deletions first: SQLite may give a deleted paper's id to a new one.
                for paper_id in deleted:
                    writer.delete_by_term("id", str(paper_id), searcher=searcher)
                known: dict[int, str] = {}
                for fields in searcher.all_stored_fields():
                    if fields["id"] in wanted:
                        paper_id = int(fields["id"])
                        # Two documents of one paper: a catch-up cut short (stopped or
                        # killed) had indexed its new version and not yet deleted the
                        # old one. Indexed again, so that both old ones are deleted.
                        known[paper_id] = "" if paper_id in known else fields.get("digest", "")
        except BaseException:
            writer.cancel()
            raise

        def replace_old(kept: set[int]) -> None:
            with writer.searcher() as searcher:
                for paper_id in known:
                    if paper_id not in kept:
                        writer.delete_by_term("id", str(paper_id), searcher=searcher)

        count = self._build(
            writer, parts, len(changed), since, progress, known, replace_old, stopped
        )
        if generation > self.generation:
            self._write_meta(generation)
        return count

    def catch_up(
        self,
        changes: Callable[[int], tuple[list[Paper], list[int], int]],
        progress: Callable[[int], None] | None = None,
        stopped: Callable[[], bool] | None = None,
    ) -> int:
        """Apply what changed since the index's generation: ``changes(generation)`` gives
        the papers changed and the ids deleted since, and the generation that reaches.

        The changes are read only once the writer lock is held. Two processes catching up at
        once otherwise both read, then write in turn, and the later writer can put a paper's
        older row over the newer one while the generation file says all is current.
        """
        writer = self._writer(stopped)
        try:
            papers, deleted, generation = changes(self.generation)
            # Deletions first: SQLite may give a deleted paper's id to a new one.
            for paper_id in deleted:
                writer.delete_by_term("id", str(paper_id))
        except BaseException:
            writer.cancel()
            raise
        try:
            docs = self._changed_documents(
                writer, papers, Renderings.in_index(self.path), self._to_document()
            )
        except BaseException:
            writer.cancel()
            raise
        if not docs and not deleted:
            writer.cancel()
            count = 0
        else:
            # Papers removed (an import undone): their segments are rewritten once mostly
            # deleted, so that the index shrinks as the library does.
            count = _write_all(writer, writer.update_document, docs, progress, stopped,
                               compact=bool(deleted))
        if generation > self.generation:
            self._write_meta(generation)
        return count

    @staticmethod
    def _changed_documents(
        writer: Any, papers: list[Any], renderings: Renderings,
        to_document: ToDocument | None = None,
    ) -> list[dict[str, object]]:
        """The documents of the papers whose searchable text differs from what the index
        holds for them (the renderings of their abstracts remembered)."""
        docs = list(_documents(papers, renderings, to_document))
        renderings.save()
        renderings.close()
        if not docs:
            return docs
        with writer.searcher() as searcher:
            indexed = searcher.documents
            # A paper held twice (a catch-up in parts cut short: see catch_up_in_parts) is
            # indexed again, which replaces both.
            return [
                doc for doc in docs
                if [d.get("digest") for d in indexed(id=doc["id"])] != [doc["digest"]]
            ]
