"""Papers coming in: files imported (streamed in batches), papers added by id, the
bundled sample, and the last import undone."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from reader.errors import ReaderError, translate
from reader.import_summary import ImportSummary, Remark
from reader.library.door import translating
from reader.locations import reader_command
from reader.resources import is_sample_path, sample_files
from reader.search.renderings import Renderings
from reader.store.replies import any_waiting

if TYPE_CHECKING:
    from reader.intake.merge import RepliesOwed
    from reader.library.core import Library
    from reader.sources import StreamedFile
    from reader.sources.remote import Endpoints
    from reader.store.database import Store
    from reader.store.import_rows import UndoResult

from reader.library.base import Progress


class _Following(NamedTuple):
    """How the index follows an import: where the papers' indexing is reported, what is
    called while another process holds the index (None: the sync gives up after a while),
    and where the review text's indexing is reported."""

    indexing: Progress | None
    waiting: Callable[[], object] | None
    reviews: Progress | None
    written: Callable[[ImportSummary], object] | None = None


@translating
class Imports:
    """Papers coming in (``library.imports``)."""

    def __init__(self, library: Library) -> None:
        """A part of ``library``, reached through its connections and its other parts."""
        self._library = library

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
        """Import each file in one transaction (all files are opened and their format
        found first, so a file that can't be read stops the import before anything is
        written), and have the index follow: the library decides when. ``strict`` refuses
        files with any bad record. With ``batch``, a file is written in transactions of
        that many records, each visible to other connections (an open reader) as it
        commits.

        A file's records are written as they are read (JSON lines are decoded one at a
        time), so a long list is never held whole; ``strict`` reads every file whole
        first, as it must know of every bad record before it writes.

        The papers come first: a file whose records carry replies (a conference with its
        reviews) is read twice, its papers and their signals (ratings, decisions, counts)
        written on the first reading, which needs only the replies' scores, and the
        replies with their text on the second, in transactions of their own (reported to
        ``replies_progress``). With ``update``, a paper already in the library takes the
        file's values where they differ (:mod:`reader.intake.differing`). Between the two
        readings of the last file, once its papers
        are in, ``papers_in`` is called and the papers are indexed, so that reviews never
        delay the abstracts' index. Neither happens when no file owes replies. Once every
        file is in, the index catches up on what is left, then the index of review text.
        The papers' indexing is reported to ``indexing``; with ``waiting``, called whenever
        another process holds the index, it waits for that process and finishes what it
        leaves (:meth:`Indexing.sync_index`); the review text's to ``reviews_progress``.
        ``written`` is handed the summary once everything is written, before the index
        follows (the command line says it then, not a minute later). A dry run and
        ``strict`` read each file once; a dry run indexes nothing."""
        return self._import(
            files, fmt, progress, strict=strict, dry_run=dry_run, batch=batch,
            papers_in=papers_in, replies_progress=replies_progress,
            follow=_Following(indexing, waiting, reviews_progress, written), update=update,
        )

    def write_files(
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
    ) -> ImportSummary:
        """Write the papers of ``files`` as :meth:`import_files` does, and leave the index
        behind the database for whoever indexes them next: the import process, which
        reports its indexing step by step (reader/library/import_main.py), or the next
        sync."""
        return self._import(
            files, fmt, progress, strict=strict, dry_run=dry_run, batch=batch,
            papers_in=papers_in, replies_progress=replies_progress, follow=None,
        )

    def _import(
        self,
        files: Sequence[Path],
        fmt: str | None,
        progress: Progress | None,
        *,
        strict: bool,
        dry_run: bool,
        batch: int | None,
        update: bool = False,
        papers_in: Callable[[], None] | None,
        replies_progress: Progress | None,
        follow: _Following | None,
    ) -> ImportSummary:
        # Imported here: they bring the matching (numpy, rapidfuzz) and the file formats,
        # no part of a start.
        from reader.intake.merge import import_papers
        from reader.library.read_ahead import read_ahead
        from reader.sources import ImportFormatError, stream_file

        self._library.store.refuse_writes()
        twice = not (strict or dry_run)
        try:
            parsed = [stream_file(Path(f), fmt, reply_texts=not twice) for f in files]
        except ImportFormatError as exc:
            if len(files) < 2:
                raise
            # Every file is opened before any is written: the others were not imported.
            raise ImportFormatError(
                f"{exc}; none of the {len(files)} files named was imported (each is "
                "opened before any is written)"
            ) from exc
        if strict:
            parsed = [replace(item, records=iter(list(item.records))) for item in parsed]
            # Remarks (replies kept for papers not in the library) are no bad records.
            bad = [line for item in parsed for line in item.problems
                   if not isinstance(line, Remark)]
            if bad:
                raise ImportFormatError(
                    f"{len(bad)} bad record{'s' if len(bad) != 1 else ''}; nothing imported "
                    "(--strict):\n" + "\n".join(bad)
                )
        total = sum(p.count for p in parsed)
        summary = ImportSummary(dry_run=dry_run)
        done = 0

        def show() -> None:
            # The papers of every file are in, the last file's replies not yet. What the
            # merge rendered is kept first: the index may be built next, beside the memo.
            renderings.save()
            renderings.close()
            if papers_in is not None:
                papers_in()
            if follow is not None:
                self._library.indexing.sync_index(follow.indexing, waiting=follow.waiting)

        # What the merge renders to compare an export of the library's with is remembered
        # for the next time, beside what the index build rendered.
        renderings = Renderings.in_index(self._library.paths.index)
        try:
            for number, item in enumerate(parsed, start=1):

                def step(n: int, base: int = done) -> None:
                    if progress is not None:
                        # The total as known now: each file read corrects its estimate.
                        # (An estimate may fall short: never shown past its end.)
                        progress(base + n, max(total, base + n))  # noqa: B023

                # --strict has read every record already; there is nothing to read ahead.
                with self._library.session() as store:
                    before = store.count()
                    try:
                        # The replies of a first reading matter only by their versions,
                        # unless some wait for their paper (then its signals add up both).
                        versions_only = twice and not any_waiting(store.conn)
                        # A sketch finds a revised abstract among the papers there
                        # before the file: none, none is made.
                        with read_ahead(item, 0 if strict else None, versions_only,
                                        sketches=before > 0) as records:
                            source = str(item.path.resolve())
                            previous = store.imports.previous_import(source)
                            part, owed = import_papers(
                                store,
                                records,
                                source,
                                item.format,
                                step,
                                sha256=item.sha256,
                                problems=item.problems,
                                dry_run=dry_run,
                                batch=batch,
                                renderings=renderings,
                                orphans=item.orphans,
                                replies_later=twice,
                                take_differing=update,
                            )
                    except ImportFormatError as exc:
                        # A file refused part way (a record over its bound, met as it is
                        # read) has had its earlier batches committed: said, with the way
                        # back.
                        written = store.count() - before
                        if written > 0 and not dry_run:
                            undo = f"{reader_command(self._library.paths.root)} import --undo"
                            exc.message += (f" (after {written:,} of its papers were "
                                            f"written: `{undo}` removes them)")
                        raise
                    if owed is not None and owed.pending(item.orphans):
                        if number == len(parsed):
                            with _after_papers("the search index", _done_before(part)):
                                show()
                        with _after_papers(f"the replies of {item.path.name}",
                                           _done_before(part)):
                            self._write_replies(store, owed, item, part.read - part.skipped,
                                                batch, replies_progress)
                if not dry_run:
                    # Every paper and reply of the file is in; a run of it that a kill
                    # stopped before is finished by this one, and counted with it.
                    ratings, decisions = store.imports.finish_import(source)
                    part.ratings_changed += ratings
                    part.new_decisions += decisions
                part.warnings = item.warnings
                if previous is not None:
                    part.previous = previous[0]
                done += part.read
                total += part.read - item.count  # the count was at most that many
                summary.add(part)
                summary.reports.append(part)
                # What the file's import knew (its identity maps: 150 MB of 300,000
                # papers) goes before the next file, or the indexes, which add their
                # workers' memory to this process's.
                owed = None
        finally:
            renderings.save()
            renderings.close()
        if follow is not None and follow.written is not None:
            follow.written(summary)
        if follow is not None and not dry_run:
            with _after_papers("the search index", _done_before(summary)):
                self._library.indexing.sync_index(follow.indexing, waiting=follow.waiting)
            # After the abstracts: review text never delays them.
            with _after_papers("the review text index", _done_before(summary)):
                self._library.reviews.sync_reviews(follow.reviews)
        return summary

    def _write_replies(
        self, store: Store, owed: RepliesOwed, item: StreamedFile, read: int,
        batch: int | None, progress: Progress | None,
    ) -> None:
        """The second reading of a file whose papers are in: its replies with their text,
        read ahead as the first reading was."""
        from reader.library.read_ahead import read_ahead
        from reader.sources import stream_file

        again = replace(stream_file(item.path, item.format), papers=False)

        def step(n: int) -> None:
            if progress is not None:
                progress(n, read)

        with read_ahead(again) as records:
            owed.write(store, records, step, batch=batch, orphans=again.orphans)

    def checkpoint(self) -> None:
        """Copy into the database what a batched import left in the write-ahead log (it
        grows the log instead of copying at every batch: reader.store.import_rows), once
        the papers show; it waits for no reader."""
        with self._library.session() as store:
            store.checkpoint()

    def add(
        self, refs: Sequence[str], endpoints: Endpoints | None = None, timeout: float = 10.0
    ) -> ImportSummary:
        """Fetch papers by arXiv id, DOI or OpenReview id and import them like a file.
        FetchError, saying why for each id (a line each), when none could be fetched:
        nothing was read, and no import is recorded."""
        # The network client is imported on first use: most runs never fetch anything.
        from reader.intake.merge import import_records
        from reader.sources.remote import Endpoints, FetchError, fetch

        fetched = fetch(refs, endpoints or Endpoints.from_env(), timeout=timeout)
        if not fetched.records:
            raise FetchError("\n".join(fetched.problems))
        with self._library.session() as store:
            summary = import_records(
                store, fetched.records, "add: " + " ".join(refs), "remote",
                problems=fetched.problems,
            )
        self._library.indexing.sync_index()
        return summary

    def undo_last_import(self, dry_run: bool = False) -> UndoResult | None:
        """Remove what the last import added, except papers carrying the user's work
        (``dry_run``: say what that would do, and change nothing)."""
        with self._library.session() as store:
            result = store.imports.undo_last_import(dry_run)
        if dry_run:
            return result
        # The papers removed leave both indexes (their segments rewritten once mostly
        # deleted: reader.search.index_writing.merge_small), the review text after the
        # abstracts as always.
        self._library.indexing.sync_index()
        self._library.reviews.sync_reviews()
        return result

    def undo_imports_of(self, files: Sequence[Path] = (), *, sample: bool = False,
                        dry_run: bool = False) -> list[UndoResult]:
        """Undo the imports of ``files`` (and of the bundled sample, with ``sample``) still
        in effect, latest first, as :meth:`undo_last_import` undoes the last; a paper one
        of them added that a later import of another file merged into stays."""
        wanted = {str(path.resolve()) for path in files}

        def named(path: str) -> bool:
            return path in wanted or (sample and is_sample_path(path))

        with self._library.session() as store:
            results = store.imports.undo_imports_of(named, dry_run)
        if results and not dry_run:
            self._library.indexing.sync_index()
            self._library.reviews.sync_reviews()
        return results

    def import_sample_if_empty(self) -> ImportSummary | None:
        """Load the bundled ICLR 2026 sample into an empty library, unless the sample was
        there before and taken away (``reader import --undo sample``)."""
        with self._library.session() as store:
            if store.count() or self._library.read_only is not None:
                return None
            if any(is_sample_path(path) for path in store.imports.undone_paths()):
                return None  # the user took the sample away: empty is what they chose
        return self.import_files(sample_files(), "seed")


def _done_before(summary: ImportSummary) -> str:
    """What an import had written when a later step failed: said beside that failure, so
    "nothing was changed" is not read as the whole import's outcome."""
    files = ", ".join(Path(name).name for name in summary.files) or "the file"
    return (f"written before it: {summary.new:,} new and {summary.merged:,} merged papers "
            f"of {files}; importing {'it' if len(summary.files) < 2 else 'them'} again "
            "completes the rest")


@contextmanager
def _after_papers(what: str, written: str) -> Iterator[None]:
    """A step after the papers are in (replies, the indexes): its failure names the step
    and what the import had written already, for the papers are in the library."""
    try:
        yield
    except Exception as exc:
        error = exc if isinstance(exc, ReaderError) else translate(exc)
        if error is None:
            raise
        error.where = what
        error.message = f"{error.message} ({written})"
        if error is exc:
            raise
        raise error from exc
