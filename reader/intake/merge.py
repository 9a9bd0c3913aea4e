"""Which paper a record is, and whether it is new: an import decided record by record,
and written by the store (:mod:`reader.store.import_rows`) in one transaction, or one per
batch, with a record of what happened to each paper (for diffs and undo).

:class:`_Import` is one import's decisions: it matches each record to a paper (by
identifier, abstract or title, and, for the library's own exports, its own entry), adds
the new ones, and hands the known ones to its :class:`~reader.intake.fields.FieldMerge`,
which decides what of the record merges. Both work on the import's caches of known papers
and keys, which this module owns and each step keeps current, so that a record is matched
against what the records before it wrote within the same transaction.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING

from reader.cite.keys import CitekeyAllocator
from reader.intake.fields import ACTIONS, CHANGED_ACTIONS, FieldMerge
from reader.intake.identity import Known, Matcher, same_title, title_key
from reader.intake.prepare import Prepared, prepare
from reader.intake.signals import SignalsIntake
from reader.models import ImportSummary, PaperRecord, Remark
from reader.record import family_key, is_anonymous
from reader.signals import Reply
from reader.store.import_rows import ImportRows, checkpoints_put_off

if TYPE_CHECKING:
    from reader.search.renderings import Renderings
    from reader.store.base import StoreBase

# An abstract of fewer words is no identity of a paper when titles disagree: a source's
# stand-in for a missing abstract ("N/A", ".", "No abstract available.") is shared by
# unrelated papers.
PLACEHOLDER_WORDS = 12


class _DryRun(Exception):
    """Raised inside the transaction of a dry run, so that nothing is written."""


def import_records(
    store: StoreBase,
    records: Iterable[PaperRecord | Prepared],
    source: str,
    fmt: str,
    progress: Callable[[int], None] | None = None,
    *,
    sha256: str | None = None,
    problems: Sequence[str] = (),
    dry_run: bool = False,
    batch: int | None = None,
    renderings: Renderings | None = None,
    orphans: Sequence[Reply] = (),
) -> ImportSummary:
    """Add new records and merge known ones, in one transaction; see ImportSummary.

    The records' replies and signals are written with them (:mod:`reader.intake.signals`);
    ``orphans``, replies whose paper was not in the file (a list that fills while the
    records are read), are kept once they are all read, for when their papers come.

    With ``batch``, in one transaction per ``batch`` records instead, so that a reader
    shows the papers of a long list as each batch commits; every batch is a generation of
    its own, and the import history counts what the batches so far wrote.

    ``renderings`` is where the plain renderings of the papers' abstracts are remembered:
    an import of the library's own RIS or CSL-JSON export compares with them.
    """
    summary = ImportSummary(files=[source], dry_run=dry_run)
    if batch is not None and not dry_run:
        with checkpoints_put_off(store.conn):
            remaining = iter(records)
            with store.transaction():
                rows = ImportRows(store, source, fmt, sha256)
                job = _Import(rows, summary, fmt, problems, renderings)
                job.run(itertools.islice(remaining, batch), progress)
            # Each batch is written as it is read, never gathered first: records read
            # ahead by another process keep coming while this one writes.
            for first in remaining:
                with store.transaction():
                    rows.next_batch()
                    job.run(itertools.chain((first,), itertools.islice(remaining, batch - 1)),
                            progress)
            if orphans:
                with store.transaction():
                    job.signals.orphans(orphans)
        return summary
    try:
        with store.transaction():
            rows = ImportRows(store, source, fmt, sha256)
            job = _Import(rows, summary, fmt, problems, renderings)
            job.run(records, progress)
            job.signals.orphans(orphans)
            if dry_run:
                raise _DryRun
    except _DryRun:
        pass
    return summary


class _Import:
    """One import in progress inside its transaction."""

    def __init__(
        self,
        rows: ImportRows,
        summary: ImportSummary,
        fmt: str,
        problems: Sequence[str] = (),
        renderings: Renderings | None = None,
    ) -> None:
        self.rows = rows
        self.summary = summary
        #: The bad records' lines: a list that grows while the records are read, when
        #: they are read as they are written.
        self.problems = problems
        self.records_read = 0
        self.library_was_empty = rows.library_was_empty
        self.matcher = Matcher(self._known(), rows.abstracts())
        self.citekeys = CitekeyAllocator(rows.taken_keys())
        #: What of a record merges into the known paper it is.
        self.fields = FieldMerge(rows, summary, self.matcher, self.citekeys, fmt, renderings)
        self.actions: dict[int, str] = {}
        #: Papers whose action is not yet in import_items.
        self.unwritten: set[int] = set()
        #: Papers met by an earlier record of this file, and a digest of what that record
        #: says (not the record: a long list is not held whole): entries of one file are
        #: one paper only when they share an identifier or say the same.
        self.met: dict[int, int] = {}
        #: The records' replies and signals, written beside their papers.
        self.signals = SignalsIntake(rows.conn, rows.import_id, rows.stamp, summary)

    def _known(self) -> Iterator[Known]:
        for row in self.rows.known():
            paper_id, doi, arxiv_id, openreview_id, key, title, year, derived = row
            yield Known(
                paper_id, doi, arxiv_id, openreview_id, key, title_key(title, year, bool(derived))
            )

    def run(
        self,
        records: Iterable[PaperRecord | Prepared],
        progress: Callable[[int], None] | None,
    ) -> None:
        """Import every record (as read, or prepared by the process that read it), then
        record the counts and what happened to each paper (so far: a batched import runs
        once per batch)."""
        summary = self.summary
        for record in records:
            self.records_read += 1
            if progress is not None:
                progress(self.records_read + len(self.problems))
            self._one(record if isinstance(record, Prepared) else prepare(record))
            if self.records_read % 500 == 0:
                self._count_problems()
        self._count_problems()
        # Only what this batch added or upgraded (rewriting every earlier batch's rows each
        # time made a batched import's history quadratic in its length).
        # A paper the import left as it was gets no row: nothing reads one (is:new and
        # is:changed, and undo, ask for what an import did), and an unchanged re-import
        # of a conference list wrote a megabyte of them each time.
        self.rows.write_history(
            [(pid, action) for pid in self.unwritten
             if (action := self.actions[pid]) != "unchanged"],
            summary,
        )
        self.unwritten.clear()

    def _count_problems(self) -> None:
        """Take in the bad records met so far, which count as read and skipped, and the
        remarks (a reply kept for a paper not in the library, a rating kept as written),
        which are listed only."""
        problems, remarks = self.problems, self.signals.remarks
        if len(self.summary.problems) != len(problems) + len(remarks):
            self.summary.problems = [*problems, *remarks]
            self.summary.skipped = sum(not isinstance(p, Remark) for p in problems)
        self.summary.read = self.records_read + self.summary.skipped

    def _one(self, prepared: Prepared) -> None:
        record, doi, arxiv_id, key = (
            prepared.record, prepared.doi, prepared.arxiv_id, prepared.key
        )
        ids = (doi, arxiv_id, record.openreview_id)
        paper_id = self.matcher.exact(doi, arxiv_id, record.openreview_id, None)
        if paper_id is None:
            for candidate, how in (
                (self.matcher.exact(None, None, None, key), "abstract"),
                (self.matcher.exact(None, None, None, None, prepared.by_title), "title"),
            ):
                if candidate is not None and self._same_paper(candidate, prepared, ids, how):
                    paper_id = candidate
                    break
        if paper_id is None and self.fields.echoes:
            candidate = self._own_entry(record)
            how = "abstract" if record.abstract else "title"
            if candidate is not None and self._same_paper(candidate, prepared, ids, how):
                paper_id = candidate
        if paper_id is None and not self.library_was_empty and prepared.sketch:
            candidate = self.matcher.similar_by_sketch(prepared.sketch, record.abstract)
            if candidate is not None and self._same_paper(candidate, prepared, ids, "abstract"):
                paper_id = candidate
        if paper_id is None:
            paper_id = self._insert(prepared)
            self.met.setdefault(paper_id, prepared.fingerprint)
            self.signals.paper(paper_id, record, new=True, forms=prepared.reply_forms)
            return
        replied = self.signals.paper(paper_id, record, forms=prepared.reply_forms)
        if paper_id not in self.met:
            self.met[paper_id] = prepared.fingerprint
        action = self.fields.merge(paper_id, record, doi, arxiv_id, key)
        if self.rows.marks_differ(paper_id, record):
            # The user's marks on a paper already here are theirs: the file's do not
            # replace them, and the summary says so.
            self.summary.marks_kept += 1
        if action == "unchanged" and replied:
            # Its own fields are as they were, but a review of it is new or was edited.
            action = "merged"
        if action == "unchanged":
            self.summary.unchanged += 1
        else:
            self.summary.merged += 1
            if action in CHANGED_ACTIONS:
                setattr(self.summary, action, getattr(self.summary, action) + 1)
        previous = self.actions.get(paper_id)
        # A paper met twice in one import keeps the strongest thing that happened to it.
        if previous is None or ACTIONS.index(action) < ACTIONS.index(previous):
            self.actions[paper_id] = action
            self.unwritten.add(paper_id)

    def _same_paper(
        self,
        paper_id: int,
        prepared: Prepared,
        ids: tuple[str | None, str | None, str | None],
        how: str,
    ) -> bool:
        """Whether a paper found by its abstract or title is the record's paper.

        Different DOIs, arXiv ids or OpenReview ids are different papers; a title (with its
        year) needs the first authors to agree; an abstract too short to tell papers apart
        ("N/A", "No abstract available.") needs the titles to agree; and a paper an earlier
        record of this file already stands for is this one only if the two records say the
        same.
        """
        if paper_id in self.met:
            return self.met[paper_id] == prepared.fingerprint
        row = self.rows.identity(paper_id)
        if row is None:
            return False
        pairs = zip(ids, row[:3], strict=True)
        if any(mine and theirs and mine != theirs for mine, theirs in pairs):
            return False
        record = prepared.record
        if (
            how == "abstract"
            and len(record.abstract.split()) < PLACEHOLDER_WORDS
            and not record.title_derived
            and not row[5]
            and not same_title(record.title, row[4])
        ):
            return False
        if how == "title":
            theirs = [a for a in json.loads(row[3] or "[]") if not is_anonymous(a)]
            mine = prepared.record.authors
            if bool(mine) != bool(theirs):
                return False
            if mine and family_key(mine[0]) != family_key(theirs[0]):
                return False
        return True

    def _insert(self, prepared: Prepared) -> int:
        record, doi, arxiv_id, key = (
            prepared.record, prepared.doi, prepared.arxiv_id, prepared.key
        )
        wanted = prepared.wanted_key
        if wanted:
            citekey, origin = self.citekeys.claim(wanted), "source"
            if citekey != record.citekey:
                self.summary.renamed_keys.append((record.citekey or "", citekey))
        else:
            citekey = self.citekeys.allocate_from(prepared.key_base)
            origin = "generated"
        paper_id = self.rows.insert_paper(
            record, abstract_key=key, doi=doi, arxiv_id=arxiv_id, citekey=citekey,
            origin=origin,
        )
        self.fields.add_aliases(paper_id, record.aliases, citekey)
        self.matcher.add(
            Known(paper_id, doi, arxiv_id, record.openreview_id, key, prepared.by_title)
        )
        self.actions[paper_id] = "new"
        self.unwritten.add(paper_id)
        self.summary.new += 1
        return paper_id

    def _own_entry(self, record: PaperRecord) -> int | None:
        """The paper a record is the library's own entry of: the one its key names, when
        that paper's entry reads back as the record's title and abstract. (Its escaped or
        rendered text, a derived title or a title shared with another paper keep it from
        being found by abstract or by title.)"""
        current = self.fields.current("citekey", record.citekey) if record.citekey else None
        echo = self.fields.echo(current) if current else None
        if current is None or echo is None or record.abstract != echo.abstract:
            return None
        if not record.title_derived and record.title != echo.title:
            return None
        return int(current["id"])
