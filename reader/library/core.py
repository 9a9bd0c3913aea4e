"""A library on disk: the database, the search index kept in step with it, and the
operations the CLI and the UI share (import, search, star, note, cite)."""

from __future__ import annotations

import os
import queue
import re
import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from functools import cached_property, partial
from pathlib import Path
from typing import TYPE_CHECKING

from reader.errors import IndexDamaged
from reader.library.queries import Queries
from reader.locations import LibraryPaths
from reader.models import ImportSummary, Paper
from reader.resources import sample_files
from reader.search.query import INDEX_FLAGS, Filter, ParsedQuery, filter_help, parse_query
from reader.sources import ImportFormatError, stream_file
from reader.store.backup import (
    automatic_backup,
    check_library_file,
    copy_database,
    set_aside,
    stamp,
)
from reader.store.database import Store, StoreError, migrations, read_papers
from reader.store.highlights import display_text
from reader.store.notes import CLI, HEAD, NoteSaved, NoteState, NoteVersion
from reader.text.render import plain_line, to_plain
from reader.text.tags import normalize_tag

if TYPE_CHECKING:
    from reader.search.index import PaperSource, SearchIndex
    from reader.sources.remote import Endpoints
    from reader.store.importing import UndoResult

Progress = Callable[[int, int], None]
#: How many starred papers (the most recent) make the profile ``like:starred`` ranks by.
PROFILE_SIZE = 200

#: Processes that build the search index of a large library (one segment each).
INDEX_PROCS = max(1, min(4, os.cpu_count() or 1))
#: Below this many papers the index is built in one process.
PARALLEL_MIN = 2_000


@dataclass(frozen=True, slots=True)
class SearchOutcome:
    """What a query found: ids best first, words to highlight, and anything to tell."""

    query: str
    ids: list[int]
    scores: list[float] = field(default_factory=list)
    terms: frozenset[str] = frozenset()
    notice: str | None = None
    #: For a ``like:`` ranking: its key terms with weights, and what it is like.
    key_terms: tuple[tuple[str, float], ...] = ()
    like: str = ""
    #: When nothing matched: the query with its misspelt words corrected, which does match.
    suggestion: str = ""
    #: False when ``ids`` are only the best matches, asked for with ``first``: the rest,
    #: and so the count, are not known yet.
    complete: bool = True


class DoctorReport(list[str]):
    """The lines ``reader doctor`` prints; ``ok`` is False when a problem remains."""

    ok: bool = True


def damaged_advice(root: Path) -> str:
    """What to do about a damaged database: the newest backup to restore, if there is one."""
    # `reader backup` writes to backups/ unless given a file, which people put beside the
    # library: in its directory or next to it.
    found = [p for p in (root / "backups").glob("*.sqlite") if not p.name.startswith("damaged-")]
    for place in (root, root.parent):
        found += [p for p in place.glob("*.sqlite") if p != root / "library.sqlite"
                  and _is_sqlite(p)]
    backups = sorted(set(found), key=lambda p: p.stat().st_mtime)
    if not backups:
        return (
            "no backup found; the file is left untouched (copy it somewhere safe before "
            "trying sqlite3's .recover)"
        )
    return f"restore the newest backup with: reader restore {backups[-1]}"


def restore_damaged(root: Path, source: Path) -> Path:
    """Put a backup in place of a damaged database, which can be neither opened nor backed
    up: it is moved aside whole into ``backups/``. Returns where it went."""
    database = LibraryPaths(root).database
    check_library_file(source, migrations()[-1][0])
    aside = set_aside(database, root / "backups")
    copy_database(source, database)
    return aside


def _is_sqlite(path: Path) -> bool:
    """Whether a file starts as an SQLite database does."""
    try:
        with open(path, "rb") as handle:
            return handle.read(16) == b"SQLite format 3\x00"
    except OSError:
        return False


@dataclass(frozen=True, slots=True)
class Resolution:
    """The paper a reference (id, citation key or query) names, or the candidates."""

    paper: Paper | None
    candidates: list[Paper] = field(default_factory=list)
    total: int = 0


class Library(Queries):
    """One library directory; thread-safe, with one SQLite connection per thread."""

    def __init__(self, root: Path) -> None:
        self.paths = LibraryPaths(root).ensure()
        self._local = threading.local()
        self._stores: list[Store] = []
        self._stores_lock = threading.Lock()
        # Connections for short-lived worker threads, lent one thread at a time.
        self._pool: queue.LifoQueue[Store] = queue.LifoQueue()
        self._sync_lock = threading.Lock()
        self.store  # noqa: B018 - open (and migrate) now, so errors surface at start

    @cached_property
    def index(self) -> SearchIndex:
        """The search index, opened on first use: Whoosh is a large import, and the reader
        shows the library before it needs to search it."""
        from reader.search.index import SearchIndex

        return SearchIndex(self.paths.index)

    def index_partial(self) -> tuple[int, int] | None:
        """(indexed, total) while an index build is under way, here or in another process,
        without opening the index just to ask; None when no build runs."""
        if "index" not in self.__dict__:
            return None
        return self.index.partial()

    def _open_store(self) -> Store:
        store = Store(self.paths.database)
        with self._stores_lock:
            self._stores.append(store)
        return store

    @property
    def store(self) -> Store:
        """The calling thread's own connection (for long-lived threads: the UI, the CLI)."""
        store: Store | None = getattr(self._local, "store", None)
        if store is None:
            store = self._local.store = self._open_store()
        return store

    @contextmanager
    def session(self) -> Iterator[Store]:
        """Borrow a connection for the length of a block (for worker threads)."""
        try:
            store = self._pool.get_nowait()
        except queue.Empty:
            store = self._open_store()
        try:
            yield store
        finally:
            self._pool.put(store)

    def close(self) -> None:
        """Close every connection and the index."""
        if "index" in self.__dict__:
            self.index.close()
        with self._stores_lock:
            for store in self._stores:
                store.close()
            self._stores.clear()
        self._local = threading.local()
        self._pool = queue.LifoQueue()

    # -- import -----------------------------------------------------------------------------

    def import_files(
        self,
        files: Sequence[Path],
        fmt: str | None = None,
        progress: Progress | None = None,
        *,
        sync: bool = True,
        strict: bool = False,
        dry_run: bool = False,
        batch: int | None = None,
    ) -> ImportSummary:
        """Import each file in one transaction (all files are opened and their format
        found first, so a file that can't be read stops the import before anything is
        written); the index follows unless ``sync`` is off. ``strict`` refuses files with
        any bad record. With ``batch``, a file is written in transactions of that many
        records, each visible to other connections (an open reader) as it commits.

        A file's records are written as they are read (JSON lines are decoded one at a
        time), so a long list is never held whole; ``strict`` reads every file whole
        first, as it must know of every bad record before it writes."""
        parsed = [stream_file(Path(f), fmt) for f in files]
        if strict:
            parsed = [replace(item, records=iter(list(item.records))) for item in parsed]
            bad = [line for item in parsed for line in item.problems]
            if bad:
                raise ImportFormatError(
                    f"{len(bad)} bad record{'s' if len(bad) != 1 else ''}; nothing imported "
                    "(--strict):\n" + "\n".join(bad)
                )
        total = sum(p.count for p in parsed)
        summary = ImportSummary(dry_run=dry_run)
        done = 0
        for item in parsed:

            def step(n: int, base: int = done) -> None:
                if progress is not None:
                    # The total as known now: each file read corrects its estimate.
                    progress(base + n, total)  # noqa: B023

            with self.session() as store:
                source = str(item.path.resolve())
                previous = store.previous_import(source)
                part = store.import_records(
                    item.records,
                    source,
                    item.format,
                    step,
                    sha256=item.sha256,
                    problems=item.problems,
                    dry_run=dry_run,
                    batch=batch,
                )
            part.warnings = item.warnings
            if previous is not None:
                part.previous = previous[0]
            done += part.read
            total += part.read - item.count  # the count was at most that many
            summary.add(part)
            summary.reports.append(part)
        if sync and not dry_run:
            self.sync_index()
        return summary

    def add(
        self, refs: Sequence[str], endpoints: Endpoints | None = None, timeout: float = 10.0
    ) -> ImportSummary:
        """Fetch papers by arXiv id, DOI or OpenReview id and import them like a file."""
        # The network client is imported on first use: most runs never fetch anything.
        from reader.sources.remote import Endpoints, fetch

        fetched = fetch(refs, endpoints or Endpoints.from_env(), timeout=timeout)
        with self.session() as store:
            summary = store.import_records(
                fetched.records, "add: " + " ".join(refs), "remote", problems=fetched.problems
            )
        self.sync_index()
        return summary

    # -- safety ---------------------------------------------------------------------------

    def backup(self, dest: Path | None = None) -> Path:
        """A consistent copy of the database (safe while the reader runs elsewhere)."""
        target = dest or self.paths.root / "backups" / f"library-{stamp()}.sqlite"
        return copy_database(self.paths.database, target)

    def restore(self, source: Path) -> Path | None:
        """Replace the database with a backup; the current one is backed up first, and the
        search index is rebuilt from what was restored. Returns that first backup."""
        check_library_file(source, migrations()[-1][0])
        saved = automatic_backup(self.paths.database, self.paths.root / "backups", "pre-restore")
        src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
        try:
            with self.session() as store:
                src.backup(store.conn)
        finally:
            src.close()
        self.close()
        with self.session() as store:
            store.migrate()
        self.rebuild_index()
        return saved

    def doctor(self) -> DoctorReport:
        """Check the database and the index; repair what is safe (the index); say what.

        The database is only ever read here: a damaged one is reported with the way back (a
        backup), never "repaired" by dropping what SQLite cannot read.
        """
        report = DoctorReport()
        with self.session() as store:
            try:
                problems = [r[0] for r in store.conn.execute("PRAGMA integrity_check(10)")]
                if problems == ["ok"]:
                    orphans = store.conn.execute("PRAGMA foreign_key_check").fetchall()
                    counts = store.stats()
                    generation = store.generation()
                    schema = store.schema_version
            except sqlite3.DatabaseError as exc:
                problems = [str(exc)]
        if problems != ["ok"]:
            report.ok = False
            # SQLite's first finding, on one line ("*** in database main ***" opens it).
            first = "; ".join(
                line for line in problems[0].splitlines() if not line.startswith("***")
            )
            more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
            report.append(f"database: DAMAGED: {first}{more}")
            report.append(damaged_advice(self.paths.root))
            report.append("search index: not checked (the database comes first)")
            return report
        report.append(
            f"database: ok (schema {schema}; {counts['papers']:,} papers, "
            f"{counts['starred']:,} starred, {counts['with_notes']:,} with notes)"
        )
        if orphans:
            report.ok = False
            tables = sorted({row[0] for row in orphans})
            report.append(
                f"foreign keys: {len(orphans):,} rows of {', '.join(tables)} point at missing "
                "rows (left as they are; nothing is deleted)"
            )
        why = self._index_problem(generation)
        if why is None:
            report.append(
                f"search index: ok ({counts['papers']:,} documents, generation {generation})"
            )
            return report
        rebuilt = self.mend_index()
        report.append(f"search index: {why}; rebuilt from the database ({rebuilt:,} documents)")
        return report

    def _index_problem(self, generation: int) -> str | None:
        """What is wrong with the index against a database at ``generation``, if anything."""
        if not self.index.usable():
            return "missing or unreadable"
        damage = self.index.check()
        if damage is not None:
            return f"damaged ({damage})"
        indexed = self.index.generation
        if indexed < generation:
            return f"behind the database (generation {indexed} < {generation})"
        if indexed > generation:
            return (
                f"ahead of the database (generation {indexed} > {generation}): built from "
                "another copy"
            )
        in_index = self.index.ids()
        with self.session() as store:
            in_db = set(store.all_ids())
        if in_index != in_db:
            return (
                f"{len(in_index - in_db):,} documents of papers no longer in the database, "
                f"{len(in_db - in_index):,} papers missing"
            )
        return None

    def undo_last_import(self) -> UndoResult | None:
        """Remove what the last import added, except papers carrying the user's work."""
        with self.session() as store:
            result = store.undo_last_import()
        self.sync_index()
        return result

    def import_sample_if_empty(self) -> ImportSummary | None:
        """Load the bundled ICLR 2026 sample into an empty library."""
        with self.session() as store:
            if store.count():
                return None
        return self.import_files(sample_files(), "seed")

    # -- index ------------------------------------------------------------------------------

    def index_state(self) -> str:
        """``ok``, ``stale`` (behind the database), ``missing`` (absent or unreadable) or
        ``building`` (another process is building it from scratch)."""
        if self.index.generation < 0 and self.index.partial() is not None:
            return "building"
        if not self.index.usable():
            return "missing"
        with self.session() as store:
            current = store.generation()
        if self.index.generation > current:
            # Built from another copy of the database (one restored or copied in by hand):
            # catching up cannot remove what it holds beyond this one.
            return "missing"
        if self.index.generation < current:
            return "stale"
        return "ok"

    def rebuild_index(self, progress: Progress | None = None) -> int:
        """Index every paper from scratch."""
        with self._sync_lock, self.session() as store:
            total = store.count()
            generation = store.generation()
            # Large libraries are indexed on every core; below that, starting the
            # processes would cost more than it saves.
            procs = INDEX_PROCS if total >= PARALLEL_MIN else 1
            parts = [
                partial(read_papers, self.paths.database, first, last)
                for first, last in store.id_ranges(procs)
            ] if procs > 1 else []
            return self.index.rebuild(
                store.iter_papers(),
                generation,
                (lambda n: progress(n, total)) if progress else None,
                parts=parts,
                total=total,
            )

    def sync_index(self, progress: Progress | None = None) -> int:
        """Bring the index up to the database: re-index just the papers changed since
        (on every core when there are many, as after importing a large list)."""
        state = self.index_state()
        if state == "missing":
            return self.rebuild_index(progress)
        if state == "building":
            return 0  # another process is building it, and will bring it up to date
        with self._sync_lock, self.session() as store:
            if store.generation() <= self.index.generation:
                return 0
            total = 0
            many = store.count_changed(self.index.generation) >= PARALLEL_MIN

            def changes(since: int) -> tuple[list[Paper], list[int], int]:
                nonlocal total
                papers, deleted, generation = store.changes_since(since)
                total = len(papers)
                return papers, deleted, generation

            def plan(since: int) -> tuple[list[int], list[int], list[PaperSource], int]:
                nonlocal total
                changed, deleted, generation = store.changed_ids(since)
                total = len(changed)
                return changed, deleted, self._parts(changed, since, generation), generation

            from reader.search.index import IndexBusy

            report = (lambda n: progress(n, total)) if progress else None
            try:
                if many:
                    return self.index.catch_up_in_parts(plan, report)
                return self.index.catch_up(changes, report)
            except IndexBusy:
                # The write itself is stored; the index stays behind (its generation says
                # so) and the next sync, here or in the other process, catches it up.
                return 0
            except Exception:  # noqa: BLE001 - a segment that cannot be read or updated
                pass
        # The index could not take the changes: a damaged file. It is derived, so it is
        # rebuilt from the database (outside the lock, which the rebuild takes itself).
        return self.mend_index(progress)

    def _parts(self, ids: list[int], since: int, until: int) -> list[PaperSource]:
        """Sources of the papers changed after ``since`` (up to ``until``) among ``ids``,
        in one id range per indexing process, of about equal counts."""
        procs = max(1, min(INDEX_PROCS, len(ids)))
        bounds = [ids[len(ids) * k // procs] for k in range(procs)]
        ends = [b - 1 for b in bounds[1:]] + [2**63 - 1]
        return [
            partial(read_papers, self.paths.database, first, last, since, until)
            for first, last in zip(bounds, ends, strict=True)
        ]

    # -- queries ----------------------------------------------------------------------------

    def search(
        self,
        query: str,
        limit: int | None = None,
        order: str = "relevance",
        suggest: bool = True,
        *,
        first: int | None = None,
        cancelled: Callable[[], bool] | None = None,
        mend: bool = True,
    ) -> SearchOutcome:
        """Papers matching ``query`` (the full query language), best first (or in
        ``order``, one of store.SORT_KEYS). When words of the query found nothing and
        ``suggest`` holds, the outcome suggests the query with them corrected.

        With ``first``, a query the index ranks alone may answer with its ``first`` best
        matches only (``complete`` says whether those are all): that costs a fraction of
        ranking every match. A search raises SearchCancelled once ``cancelled()`` is
        true.

        A damaged index is rebuilt from the database and the query run again, and the
        outcome says so; with ``mend`` off, IndexDamaged is raised for the caller to mend
        it (the reader answers from the database meanwhile: see search_database)."""
        try:
            return self._search(query, limit, order, suggest, first, cancelled)
        except IndexDamaged as exc:
            if not mend:
                raise
            rebuilt = self.mend_index()
            outcome = self._search(query, limit, order, suggest, first, cancelled)
            return replace(outcome, notice=(
                f"The search index was damaged ({exc}); rebuilt it from the database "
                f"({rebuilt:,} papers)"
            ))

    def mend_index(self, progress: Progress | None = None) -> int:
        """Rebuild an index found damaged, letting go of its broken readers first."""
        self.index.forget()
        return self.rebuild_index(progress)

    def search_database(self, query: str, notice: str) -> SearchOutcome:
        """The papers whose title, abstract or note contain every word of ``query`` (its
        filters applied), in browsing order: the answer while the index cannot give one."""
        parsed = parse_query(query)
        words = [w.lower() for w in _WORD.findall(parsed.text)
                 if w not in ("AND", "OR", "NOT")]
        with self.session() as store:
            ids = store.plain_match(words)
            ids, _ = _filtered(store, ids, [], parsed.filters)
        return SearchOutcome(query, ids, notice=notice)

    def _search(
        self, query: str, limit: int | None, order: str, suggest: bool,
        first: int | None, cancelled: Callable[[], bool] | None,
    ) -> SearchOutcome:
        parsed = parse_query(query)
        notice = None
        if parsed.unknown:
            notice = f"Ignored unknown filter {', '.join(parsed.unknown)} (known: {filter_help()})"
        if parsed.like:
            outcome = self._search_like(query, parsed, notice)
        elif not parsed.text:
            # Browsing, or filters alone: the database answers, in browsing order.
            with self.session() as store:
                ids, _ = _filtered(store, store.all_ids(), [], parsed.filters)
            outcome = SearchOutcome(query, ids, notice=notice)
        else:
            in_index = tuple(f for f in parsed.filters if f.flag in INDEX_FLAGS)
            in_db = [f for f in parsed.filters if f.flag not in INDEX_FLAGS]
            sorted_later = order != "relevance"
            # The index ranks the query alone: it may stop at the first matches.
            quick = first is not None and not in_db and not sorted_later
            top: int | None = None if in_db or sorted_later else limit
            if first is not None and quick:
                top = first if limit is None else min(limit, first)
            hits = self.index.search(
                ParsedQuery(parsed.text, in_index), limit=top, cancelled=cancelled
            )
            ids, scores = hits.ids, hits.scores
            if in_db:
                with self.session() as store:
                    ids, scores = _filtered(store, ids, scores, in_db)
            if hits.fell_back and notice is None:
                notice = "Could not read that query; searched its words instead"
            complete = first is None or not quick or len(hits.ids) < first
            outcome = SearchOutcome(query, ids, scores, hits.terms, notice, complete=complete)
            if not ids and suggest and notice is None:
                outcome = replace(outcome, suggestion=self.suggestion(query))
        if parsed.text or parsed.like:
            building = self.index.partial()
            if building is not None and outcome.notice is None:
                done, total = building
                outcome = replace(outcome, notice=f"partial: {done:,} of {total:,} indexed")
        if order != "relevance":
            with self.session() as store:
                ordered = store.sort_ids(outcome.ids, order)
            outcome = replace(outcome, ids=ordered, scores=[])
        if limit is not None:
            outcome = replace(outcome, ids=outcome.ids[:limit], scores=outcome.scores[:limit])
        return outcome

    def suggestion(self, query: str) -> str:
        """A "did you mean" for a query that found nothing: ``query`` with the words the
        index lacks corrected, if that query finds papers; else nothing."""
        parsed = parse_query(query)
        if not parsed.text or parsed.like or parsed.unknown:
            return ""
        corrections = self.index.corrections(parsed.text)
        if not corrections:
            return ""
        suggested = query
        for word, nearest in corrections:
            at = re.search(rf"(?<!\S){re.escape(word)}(?!\S)", suggested)
            if at is not None:
                suggested = suggested[: at.start()] + nearest + suggested[at.end() :]
        return suggested if self.search(suggested, limit=1, suggest=False).ids else ""

    def _search_like(self, query: str, parsed: ParsedQuery, notice: str | None) -> SearchOutcome:
        """Rank papers by how much they share with one paper, or with the starred ones."""
        with self.session() as store:
            if parsed.like.lower() == "starred":
                # The most recently starred first, so a long-starred past doesn't drown
                # what the user is after now.
                targets = [
                    r[0]
                    for r in store.conn.execute(
                        "SELECT id FROM papers WHERE starred = 1 ORDER BY updated_at DESC "
                        "LIMIT ?",
                        (PROFILE_SIZE,),
                    )
                ]
                label = f"your {len(targets):,} starred papers" if targets else ""
                if not targets:
                    return SearchOutcome(
                        query, [], notice="Star a few papers first: like:starred ranks papers "
                        "by what they share with your starred ones",
                    )
            else:
                ref = parsed.like
                found = int(ref) if ref.isdigit() else store.id_for_key(ref)
                if found is None or store.paper(found) is None:
                    return SearchOutcome(query, [], notice=f"like: no paper with key {ref!r}")
                targets = [found]
                label = ""
            papers = store.papers(targets)
        if not label:
            label = f"“{plain_line(papers[0].title) or papers[0].citekey}”"
        text = "\n".join(f"{p.title}\n{to_plain(p.abstract)}" for p in papers)
        hits, key_terms = self.index.similar(text, exclude=targets, limit=None)
        ids, scores = hits.ids, hits.scores
        terms: frozenset[str] = frozenset()
        if parsed.text:
            matched = self.index.search(ParsedQuery(parsed.text))
            within = set(matched.ids)
            keep = [i in within for i in ids]
            ids = [i for i, k in zip(ids, keep, strict=True) if k]
            scores = [x for x, k in zip(scores, keep, strict=True) if k]
            terms = matched.terms
        if parsed.filters:
            with self.session() as store:
                ids, scores = _filtered(store, ids, scores, list(parsed.filters))
        return SearchOutcome(
            query, ids, scores, terms, notice, key_terms=tuple(key_terms), like=label
        )

    def why(self, paper: Paper, outcome: SearchOutcome) -> list[str]:
        """The key terms a "like" ranking shares with ``paper``: why it ranks."""
        if not outcome.key_terms:
            return []
        from reader.search.index import shared_terms

        return shared_terms(f"{paper.title}\n{to_plain(paper.abstract)}", list(outcome.key_terms))

    def resolve(self, ref: str) -> Resolution:
        """The paper named by an id, a citation key, or an unambiguous query."""
        ref = ref.strip()
        if ref.isdigit():
            paper = self.store.paper(int(ref))
            if paper is not None:
                return Resolution(paper)
        key_id = self.store.id_for_key(ref)
        if key_id is not None:
            return Resolution(self.store.paper(key_id))
        found = self.search(ref)
        papers = self.store.papers(found.ids[:10])
        if len(found.ids) == 1:
            return Resolution(papers[0], total=1)
        return Resolution(None, papers, total=len(found.ids))

    # -- marks and notes --------------------------------------------------------------------

    def set_starred(self, paper_id: int, starred: bool, sync: bool = True) -> None:
        """Star or unstar a paper (stored at once), then re-index it."""
        with self.session() as store:
            store.set_starred(paper_id, starred)
        if sync:
            self.sync_index()

    def save_note(
        self, paper_id: int, body: str, sync: bool = True, *, base: int | None = HEAD,
        writer: str = CLI, kind: str = "save",
    ) -> NoteSaved:
        """Store a paper's note as a new version written from version ``base`` (merged with
        what another writer stored since), then re-index it."""
        with self.session() as store:
            saved = store.save_note(paper_id, body, base, writer, kind)
        if sync:
            self.sync_index()
        return saved

    def note(self, paper_id: int) -> NoteState:
        """A paper's note as stored now, with its version."""
        with self.session() as store:
            return store.note(paper_id)

    def note_versions(self, paper_id: int) -> list[NoteVersion]:
        """Every kept version of a paper's note, oldest first."""
        with self.session() as store:
            return store.note_versions(paper_id)

    def mark_seen(self, paper_ids: Sequence[int]) -> int:
        """Record that papers were shown (nothing to re-index)."""
        with self.session() as store:
            return store.mark_seen(paper_ids)

    def set_read(self, paper_id: int, read: bool) -> None:
        """Mark a paper read or unread (nothing to re-index)."""
        with self.session() as store:
            store.set_read(paper_id, read)

    def set_tags(self, paper_id: int, tags: Sequence[str], sync: bool = True) -> None:
        """Give a paper exactly these tags (normalised here), then re-index it."""
        with self.session() as store:
            store.set_tags(paper_id, [t for t in (normalize_tag(t) for t in tags) if t])
        if sync:
            self.sync_index()

    def rename_tag(self, old: str, new: str, sync: bool = True) -> int:
        """Rename a tag on every paper; returns how many papers carried it."""
        target = normalize_tag(new)
        if not target:
            raise StoreError(f"{new!r} is not a usable tag")
        with self.session() as store:
            count = store.rename_tag(normalize_tag(old), target)
        if sync:
            self.sync_index()
        return count

    def delete_tag(self, tag: str, sync: bool = True) -> int:
        """Remove a tag from every paper; returns how many carried it."""
        with self.session() as store:
            count = store.delete_tag(normalize_tag(tag))
        if sync:
            self.sync_index()
        return count

    def add_highlight(
        self, paper_id: int, start: int, end: int, note: str = "", sync: bool = True
    ) -> int:
        """Highlight characters ``start``–``end`` of the abstract as shown; the quote is
        taken from the stored abstract, so offsets and quote always agree."""
        with self.session() as store:
            paper = store.paper(paper_id)
            if paper is None:
                raise StoreError(f"no paper with id {paper_id}")
            text = display_text(paper.abstract)
            if not 0 <= start < end <= len(text) or not text[start:end].strip():
                raise StoreError("nothing to highlight there")
            highlight_id = store.add_highlight(paper_id, start, end, text[start:end], note)
        if sync:
            self.sync_index()
        return highlight_id

    def set_highlight_note(self, highlight_id: int, note: str, sync: bool = True) -> None:
        """Change a highlight's note."""
        with self.session() as store:
            store.set_highlight_note(highlight_id, note)
        if sync:
            self.sync_index()

    def delete_highlight(self, highlight_id: int, sync: bool = True) -> None:
        """Remove a highlight."""
        with self.session() as store:
            store.delete_highlight(highlight_id)
        if sync:
            self.sync_index()

    def update_metadata(self, paper_id: int, values: dict[str, object], sync: bool = True) -> None:
        """Store checked metadata edits (see reader.store.metadata.check), then re-index."""
        with self.session() as store:
            store.update_metadata(paper_id, values)
        if sync:
            self.sync_index()


#: The words of a query as a plain match reads them (field names and operators apart).
_WORD = re.compile(r"(?<![\w:])\w+(?!:)")


def _filtered(
    store: Store, ids: list[int], scores: list[float], filters: Sequence[Filter]
) -> tuple[list[int], list[float]]:
    """Keep the ids (and their scores, when given) that pass every filter."""
    for f in filters:
        flagged = store.tagged_ids(f.value) if f.flag == "tag" else store.flagged_ids(f.flag)
        keep = [(i in flagged) != f.negated for i in ids]
        ids = [i for i, k in zip(ids, keep, strict=True) if k]
        if scores:
            scores = [x for x, k in zip(scores, keep, strict=True) if k]
    return ids, scores
