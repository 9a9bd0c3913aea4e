"""Which paper a record is, and whether it is new: an import decided record by record,
and written by the store (:mod:`reader.store.import_rows`) in one transaction, or one per
batch, with a record of what happened to each paper (for diffs and undo).

:class:`_Import` is one import's decisions: it matches each record to a paper (by
identifier, abstract or title, and, for the library's own exports, its own entry), adds
the new ones, and hands the known ones to its :class:`~reader.intake.fields.FieldMerge`,
which decides what of the record merges. Both work on the import's caches of known papers
and keys, which this module owns and each step keeps current, so that a record is matched
against what the records before it wrote within the same transaction.

An import of a file whose records carry their replies' text may write the papers first
(:func:`import_papers`) and the replies after them (:class:`RepliesOwed`), from the file
read again: a conference's reviews are hundreds of megabytes, and the papers, with their
signals, show without waiting for them.

Kept whole: the second reading is the same import as the first, on the same state (the
papers each record became, what happened to each, the counts and the history written so
far); apart, one module would reach into the other's import at every step.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING

from reader.cite.keys import CitekeyAllocator
from reader.import_summary import ImportSummary, Remark
from reader.intake.fields import ACTIONS, CHANGED_ACTIONS, FieldMerge
from reader.intake.identity import Known, Matcher, other_part, same_title, title_key
from reader.intake.prepare import Prepared, prepare
from reader.intake.signals import Owed, SignalsIntake
from reader.models import PaperRecord
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


#: The identifiers a record and a paper are compared by, in the order they are given.
_ID_NAMES = ("DOI", "arXiv", "OpenReview")


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
    summary, _ = import_papers(
        store, records, source, fmt, progress, sha256=sha256, problems=problems,
        dry_run=dry_run, batch=batch, renderings=renderings, orphans=orphans,
    )
    return summary


def import_papers(
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
    replies_later: bool = False,
    take_differing: bool = False,
) -> tuple[ImportSummary, RepliesOwed | None]:
    """:func:`import_records`; with ``replies_later``, the papers and their signals
    only, and what is owed besides: the records' replies, which the caller writes by
    reading the file again (:meth:`RepliesOwed.write`), and the replies without their
    paper (``orphans`` is not written: a reading without the replies' text has them
    without it too).

    A conference with its reviews is several hundred megabytes of text: written with the
    papers, it kept them from showing for as long as the whole text took to unpack, pack
    and store. The records' replies need only their scores for the papers' signals
    (:func:`reader.sources.stream_file` without ``reply_texts``)."""
    summary = ImportSummary(files=[source], dry_run=dry_run, took_differing=take_differing)
    if batch is not None and not dry_run:
        with checkpoints_put_off(store.conn):
            remaining = iter(records)
            with store.transaction():
                rows = ImportRows(store, source, fmt, sha256)
                job = _Import(rows, summary, fmt, problems, renderings, replies_later,
                              take_differing)
                job.run(itertools.islice(remaining, batch), progress)
            # Each batch is written as it is read, never gathered first: records read
            # ahead by another process keep coming while this one writes.
            for first in remaining:
                with store.transaction():
                    rows.next_batch()
                    job.run(itertools.chain((first,), itertools.islice(remaining, batch - 1)),
                            progress)
            if orphans and not replies_later:
                with store.transaction():
                    job.signals.orphans(orphans)
        return summary, RepliesOwed(job) if replies_later else None
    try:
        with store.transaction():
            rows = ImportRows(store, source, fmt, sha256)
            job = _Import(rows, summary, fmt, problems, renderings,
                          replies_later and not dry_run, take_differing)
            job.run(records, progress)
            if not job.replies_later:
                job.signals.orphans(orphans)
            if dry_run:
                raise _DryRun
    except _DryRun:
        pass
    return summary, RepliesOwed(job) if job.replies_later else None


#: Records whose replies are written in one transaction, when the papers were written in
#: one: a batch is a few megabytes of packed text, and a stopped import keeps the batches
#: committed (the next import of the file writes the rest).
REPLIES_BATCH = 2_000


class RepliesOwed:
    """The replies an import of papers left for later (:func:`import_papers`), and the
    writing of them from the file read again with their text.

    Each record read again is matched to the one read first by its digest (its fields and
    its replies' ids and dates), so a record is given its own paper's replies whatever
    was skipped; a record not read the same way twice (the file changed in between) is
    said, and importing the file again brings the rest. Writing is done in transactions
    of its own, after the papers' and never holding them back; the import's history
    counts what they add (a paper there before whose replies changed is merged, not
    unchanged), and the summary the replies, as when all is written at once."""

    def __init__(self, job: _Import) -> None:
        self._job = job

    def pending(self, orphans: Sequence[Reply]) -> bool:
        """Whether anything is owed: replies of records, or ``orphans`` (the replies the
        first reading found without their paper)."""
        return bool(self._job.owed) or bool(orphans)

    def write(
        self,
        store: StoreBase,
        records: Iterable[PaperRecord | Prepared],
        progress: Callable[[int], None] | None = None,
        *,
        batch: int | None = None,
        orphans: Sequence[Reply] = (),
    ) -> None:
        """Write the replies owed from ``records`` (the file read again, replies with
        their text, in transactions of ``batch`` records or :data:`REPLIES_BATCH`), then
        ``orphans``, the replies without their paper of that reading."""
        job, size = self._job, batch or REPLIES_BATCH
        with checkpoints_put_off(store.conn):
            remaining = iter(records)
            for first in remaining:
                with store.transaction():
                    job.run_replies(
                        itertools.chain((first,), itertools.islice(remaining, size - 1)),
                        progress,
                    )
            with store.transaction():
                job.unread_replies()
                job.signals.orphans(orphans)


class _Import:
    """One import in progress inside its transaction."""

    def __init__(
        self,
        rows: ImportRows,
        summary: ImportSummary,
        fmt: str,
        problems: Sequence[str] = (),
        renderings: Renderings | None = None,
        replies_later: bool = False,
        take_differing: bool = False,
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
        self.fields = FieldMerge(rows, summary, self.matcher, self.citekeys, fmt, renderings,
                                 take_differing)
        self.actions: dict[int, str] = {}
        #: Papers whose action is not yet in import_items.
        self.unwritten: set[int] = set()
        #: Papers met by an earlier record of this file, and a digest of what that record
        #: says (not the record: a long list is not held whole): entries of one file are
        #: one paper only when they share an identifier or say the same.
        self.met: dict[int, int] = {}
        #: And the title and identifiers (DOI, arXiv, OpenReview) that record gave: a paper
        #: named twice has them twice.
        self.met_names: dict[int, tuple[str, tuple[str | None, ...]]] = {}
        #: The papers this import added: a second record of one (the same paper twice in
        #: a file) adds its tags to the first's, which are no user's yet.
        self.added: set[int] = set()
        #: The records' replies and signals, written beside their papers.
        self.signals = SignalsIntake(rows.conn, rows.import_id, rows.stamp, summary)
        #: Whether the records' replies are written after the papers (RepliesOwed).
        self.replies_later = replies_later
        #: The records whose replies are owed, by their digest (a record met twice is
        #: owed twice, in the order read), each with what the first reading made of it.
        #: (Lists: a deque for each of 20,000 records was a dozen megabytes.)
        self.owed: dict[int, list[tuple[Owed, str]]] = {}
        #: The records read again, for the progress of the second reading, and those of
        #: them with replies that the first reading did not have (the file changed).
        self.records_again = 0
        self.unmatched = 0
        #: The paper already there that the record in hand shares its title with but not
        #: an id (its id, and which id), said if the record becomes a paper of its own.
        self._apart: tuple[int, str] | None = None

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
            self._one(record if isinstance(record, Prepared) else prepare(
                record, not self.replies_later, sketches=not self.library_was_empty))
            if self.records_read % 500 == 0:
                self._count_problems()
        self._count_problems()
        # Only what this batch met (rewriting every earlier batch's rows each time made a
        # batched import's history quadratic in its length); see write_history for the
        # papers it left as they were.
        self.rows.write_history([(pid, self.actions[pid]) for pid in self.unwritten], summary)
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
        self._apart = None
        paper_id = self.matcher.exact(doi, arxiv_id, record.openreview_id, None)
        if paper_id is None:
            for candidate, how in (
                (self.matcher.exact(None, None, None, key), "abstract"),
                *((c, "title") for c in self.matcher.titled(prepared.by_title)),
            ):
                if candidate is not None and self._same_paper(candidate, prepared, ids, how):
                    paper_id = candidate
                    break
        if paper_id is None and record.citekey:
            # The library's own entry: found by its key (a title shared with another paper,
            # as xampl.bib's minimal and full entries share theirs, finds only one).
            candidate = self._own_entry(record) if self.fields.echoes else self._keyed(record)
            how = "abstract" if record.abstract else "title"
            if candidate is not None and self._same_paper(
                candidate, prepared, ids, how, keyed=True
            ):
                paper_id = candidate
        if paper_id is None and not self.library_was_empty and prepared.sketch:
            candidate = self.matcher.similar_by_sketch(prepared.sketch, record.abstract)
            if candidate is not None and self._same_paper(candidate, prepared, ids, "abstract"):
                paper_id = candidate
        if paper_id is None:
            paper_id = self._insert(prepared)
            # A file's tags become those of the papers it adds, and only theirs: a file
            # imported again said again which tags it had rewritten, writing none.
            self.summary.tags_rewritten += [
                pair for pair in record.tags_rewritten if pair not in self.summary.tags_rewritten]
            if self._apart is not None and self._apart[0] not in self.added:
                other, kind = self._apart
                self.summary.kept_apart.append((record.title, self.rows.key_of(other), kind))
            self.met.setdefault(paper_id, prepared.fingerprint)
            self.met_names.setdefault(paper_id, (record.title, ids))
            if self.replies_later and (record.replies or record.replies_to_come):
                self._owe(prepared, self.signals.paper_first(paper_id, record, new=True), "new")
            else:
                self.signals.paper(paper_id, record, new=True, forms=prepared.reply_forms)
            return
        owed: Owed | None = None
        if self.replies_later and (record.replies or record.replies_to_come):
            owed, replied = self.signals.paper_first(paper_id, record), False
        else:
            replied = self.signals.paper(paper_id, record, forms=prepared.reply_forms)
        if paper_id not in self.met:
            self.met[paper_id] = prepared.fingerprint
            self.met_names[paper_id] = (record.title, ids)
        else:
            self.summary.named_twice += 1
        action = self.fields.merge(paper_id, record, doi, arxiv_id, key,
                                   added_now=paper_id in self.added)
        marks = self.rows.fill_marks(paper_id, record, undoable=paper_id not in self.added)
        if marks:
            self.summary.took(self.rows.citekey_of(paper_id), marks,
                              added_now=paper_id in self.added)
            if action == "unchanged":
                action = "merged"  # a note or tags the paper had none of
        if paper_id in self.added:
            if self.rows.add_tags(paper_id, record.tags) and action == "unchanged":
                action = "merged"
        elif self.rows.marks_differ(paper_id, record):
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
        if owed is not None:
            self._owe(prepared, owed, action)
        self._act(paper_id, action)

    def _act(self, paper_id: int, action: str) -> None:
        """Note what happened to a paper; a paper met twice in one import keeps the
        strongest thing that happened to it."""
        previous = self.actions.get(paper_id)
        if previous is None or ACTIONS.index(action) < ACTIONS.index(previous):
            self.actions[paper_id] = action
            self.unwritten.add(paper_id)

    def _owe(self, prepared: Prepared, owed: Owed, action: str) -> None:
        """Keep a record whose replies are written on the second reading."""
        self.owed.setdefault(prepared.fingerprint, []).append((owed, action))

    def run_replies(
        self,
        records: Iterable[PaperRecord | Prepared],
        progress: Callable[[int], None] | None,
    ) -> None:
        """Write the replies owed of the records read again (with their text): each
        record's is matched by its digest to the record read first. A paper there before
        whose replies were new or edited counts as merged, not unchanged; the history
        and the counts written so far are brought up to date."""
        summary = self.summary
        for record in records:
            self.records_again += 1
            if progress is not None:
                progress(self.records_again)
            if not (record.record if isinstance(record, Prepared) else record).replies:
                continue
            prepared = (record if isinstance(record, Prepared)
                        else prepare(record, papers=False))
            waiting = self.owed.get(prepared.fingerprint)
            if not waiting:
                self.unmatched += 1
                continue
            owed, action = waiting.pop(0)
            if not waiting:
                del self.owed[prepared.fingerprint]
            replied = self.signals.replies(owed, prepared.record, prepared.reply_forms)
            if replied and action == "unchanged":
                # Its own fields are as they were, but a review of it is new or was edited.
                summary.unchanged -= 1
                summary.merged += 1
                self._act(owed.paper_id, "merged")
        self._count_problems()
        self.rows.write_history([(pid, self.actions[pid]) for pid in self.unwritten], summary)
        self.unwritten.clear()

    def unread_replies(self) -> None:
        """Once the file is read again: say what of the first reading was not met again,
        or met only then (the file changed in between), and whose replies are not all
        in the library; importing the file again brings them."""
        # A record changed is both: one of the first reading not met, one met only now.
        missed = max(sum(len(waiting) for waiting in self.owed.values()), self.unmatched)
        if missed:
            self.signals.remarks.append(Remark(
                f"{self.rows.source}: the file changed while it was read; the replies of "
                f"{missed:,} of its papers may not all be kept: import it again to bring them"
            ))
            self._count_problems()
            self.rows.write_history([], self.summary)
        self.owed.clear()

    def _same_paper(
        self,
        paper_id: int,
        prepared: Prepared,
        ids: tuple[str | None, str | None, str | None],
        how: str,
        *,
        keyed: bool = False,
    ) -> bool:
        """Whether a paper found by its abstract or title is the record's paper.

        Different DOIs, arXiv ids or OpenReview ids are different papers, but for a paper
        ``keyed`` (found by the record's own citation key, with its very title and abstract)
        or found by its abstract with the record's title and first author: there a
        different DOI is a corrected one, which the summary names; a title (with its
        year) needs the first authors to agree; an abstract too short to tell papers apart
        ("N/A", "No abstract available.") needs the titles to agree; and a paper an earlier
        record of this file already stands for is this one only if the two records say the
        same, or give it the same abstract, title and first author (a list naming a paper
        twice, once with fewer fields), and no other identifier.
        """
        met = self.met.get(paper_id)
        if met is not None and (
            met == prepared.fingerprint or keyed or how != "abstract"
            or not self._named_alike(paper_id, prepared.record.title, ids)
        ):
            # (A key, a title or an abstract alone shared with a paper of this file names
            # no paper twice; only then are the two compared, with the library's row.)
            return met == prepared.fingerprint
        row = self.rows.identity(paper_id)
        if row is None:
            return False
        record = prepared.record

        def same_words() -> bool:
            # (Last, and only when asked: comparing titles renders them.)
            return (how == "abstract" and same_title(record.title, row[4])
                    and _first_authors_agree(record.authors, row[3]))

        if met is not None and not same_words():
            return False
        corrected = met is None and (keyed or (
            how == "abstract"
            and len(record.abstract.split()) >= PLACEHOLDER_WORDS
            and not record.title_derived
            and same_words()
        ))
        pairs = list(zip(ids, row[:3], _ID_NAMES, strict=True))[1 if corrected else 0:]
        differing = [name for mine, theirs, name in pairs if mine and theirs and mine != theirs]
        if differing:
            if self._apart is None and how == "title" and same_title(record.title, row[4]):
                self._apart = (paper_id, differing[0])
            return False
        if (
            how == "abstract"
            and len(record.abstract.split()) < PLACEHOLDER_WORDS
            and not record.title_derived
            and not row[5]
            and not same_title(record.title, row[4])
        ):
            return False
        if how == "title" and other_part(
            (record.venue, record.csl.get("type"), record.kind), (row[6], row[7], row[8])
        ):
            return False
        return how != "title" or _first_authors_agree(record.authors, row[3])

    def _named_alike(
        self, paper_id: int, title: str, ids: tuple[str | None, str | None, str | None]
    ) -> bool:
        """Whether the record that met ``paper_id`` earlier in the file gave it this very
        title and no other identifier than ``ids``."""
        title_met, ids_met = self.met_names.get(paper_id, ("", ()))
        return title == title_met and not any(
            mine and theirs and mine != theirs for mine, theirs in zip(ids, ids_met, strict=False)
        )

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
        self.added.add(paper_id)
        self.fields.add_aliases(paper_id, record.aliases, citekey)
        self.matcher.add(
            Known(paper_id, doi, arxiv_id, record.openreview_id, key, prepared.by_title)
        )
        self.actions[paper_id] = "new"
        self.unwritten.add(paper_id)
        self.summary.new += 1
        return paper_id

    def _keyed(self, record: PaperRecord) -> int | None:
        """The paper a table's record names by its key (a library's own CSV or JSON export
        writes its text as stored), when it has the record's very title."""
        current = self.fields.current("citekey", record.citekey)
        if current is None or current["title"] != record.title:
            return None
        return int(current["id"])

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


def _first_authors_agree(mine: list[str], stored: str | None) -> bool:
    """Whether a record's authors and a paper's (its stored JSON list) both have none, or
    the same first author's family name (anonymous names apart)."""
    theirs = [a for a in json.loads(stored or "[]") if not is_anonymous(a)]
    if bool(mine) != bool(theirs):
        return False
    return not mine or family_key(mine[0]) == family_key(theirs[0])
