"""A library on disk: the database, the search index kept in step with it, and the
operations the CLI and the UI share (import, search, star, note, cite)."""

from __future__ import annotations

import queue
import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from reader.backup import automatic_backup, check_library_file, copy_database, stamp
from reader.importers import ImportFormatError, parse_file
from reader.importing import UndoResult
from reader.locations import LibraryPaths
from reader.models import ImportSummary, Paper
from reader.query import INDEX_FLAGS, ParsedQuery, filter_help, parse_query
from reader.remote import Endpoints, fetch
from reader.resources import sample_files
from reader.search import SearchIndex
from reader.store import Store, migrations

Progress = Callable[[int, int], None]


@dataclass(frozen=True, slots=True)
class SearchOutcome:
    """What a query found: ids best first, words to highlight, and anything to tell."""

    query: str
    ids: list[int]
    scores: list[float] = field(default_factory=list)
    terms: frozenset[str] = frozenset()
    notice: str | None = None


@dataclass(frozen=True, slots=True)
class Resolution:
    """The paper a reference (id, citation key or query) names, or the candidates."""

    paper: Paper | None
    candidates: list[Paper] = field(default_factory=list)
    total: int = 0


class Library:
    """One library directory; thread-safe, with one SQLite connection per thread."""

    def __init__(self, root: Path) -> None:
        self.paths = LibraryPaths(root).ensure()
        self._local = threading.local()
        self._stores: list[Store] = []
        self._stores_lock = threading.Lock()
        # Connections for short-lived worker threads, lent one thread at a time.
        self._pool: queue.LifoQueue[Store] = queue.LifoQueue()
        self._sync_lock = threading.Lock()
        self.index = SearchIndex(self.paths.index)
        self.store  # noqa: B018 - open (and migrate) now, so errors surface at start

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
    ) -> ImportSummary:
        """Import each file in one transaction (all files are read first, so a file that
        can't be read stops the import before anything is written); the index follows
        unless ``sync`` is off. ``strict`` refuses files with any bad record."""
        parsed = [parse_file(Path(f), fmt) for f in files]
        if strict:
            bad = [line for item in parsed for line in item.problems]
            if bad:
                raise ImportFormatError(
                    f"{len(bad)} bad record{'s' if len(bad) != 1 else ''}; nothing imported "
                    "(--strict):\n" + "\n".join(bad)
                )
        total = sum(len(p.records) for p in parsed)
        summary = ImportSummary(dry_run=dry_run)
        done = 0
        for item in parsed:

            def step(n: int, base: int = done) -> None:
                if progress is not None:
                    progress(base + n, total)

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
                )
            part.warnings = item.warnings
            if previous is not None:
                part.previous = previous[0]
            done += len(item.records)
            summary.add(part)
            summary.reports.append(part)
        if sync and not dry_run:
            self.sync_index()
        return summary

    def add(
        self, refs: Sequence[str], endpoints: Endpoints | None = None, timeout: float = 10.0
    ) -> ImportSummary:
        """Fetch papers by arXiv id, DOI or OpenReview id and import them like a file."""
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

    def doctor(self) -> list[str]:
        """Check the database and the index; repair what is safe (the index); say what."""
        report = []
        with self.session() as store:
            integrity = store.conn.execute("PRAGMA integrity_check").fetchone()[0]
            orphans = store.conn.execute("PRAGMA foreign_key_check").fetchall()
            counts = store.stats()
            generation = store.generation()
            report.append(
                f"database: {'ok' if integrity == 'ok' else 'DAMAGED: ' + integrity} "
                f"(schema {store.schema_version}; {counts['papers']:,} papers, "
                f"{counts['starred']:,} starred, {counts['with_notes']:,} with notes)"
            )
            if orphans:
                report.append(f"foreign keys: {len(orphans)} rows point at missing rows")
        state = self.index_state()
        documents = self.index.count() if state != "missing" else -1
        if state == "ok" and documents == counts["papers"]:
            report.append(f"search index: ok ({documents:,} documents, generation {generation})")
            return report
        if state == "missing":
            why = "missing or unreadable"
        elif state == "stale":
            why = f"behind the database (generation {self.index.generation} < {generation})"
        else:
            why = f"{documents:,} documents for {counts['papers']:,} papers"
        rebuilt = self.rebuild_index()
        report.append(f"search index: {why}; rebuilt from the database ({rebuilt:,} documents)")
        return report

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
        """``ok``, ``stale`` (behind the database) or ``missing`` (absent or unreadable)."""
        if not self.index.usable():
            return "missing"
        with self.session() as store:
            behind = self.index.generation < store.generation()
        if behind:
            return "stale"
        return "ok"

    def rebuild_index(self, progress: Progress | None = None) -> int:
        """Index every paper from scratch."""
        with self._sync_lock, self.session() as store:
            total = store.count()
            generation = store.generation()
            return self.index.rebuild(
                store.iter_papers(),
                generation,
                (lambda n: progress(n, total)) if progress else None,
            )

    def sync_index(self, progress: Progress | None = None) -> int:
        """Bring the index up to the database: re-index just the papers changed since."""
        if not self.index.usable():
            return self.rebuild_index(progress)
        with self._sync_lock, self.session() as store:
            papers, deleted, generation = store.changes_since(self.index.generation)
            if not papers and not deleted and generation <= self.index.generation:
                return 0
            total = len(papers)
            return self.index.update(
                papers,
                generation,
                (lambda n: progress(n, total)) if progress else None,
                deleted=deleted,
            )

    # -- queries ----------------------------------------------------------------------------

    def search(self, query: str, limit: int | None = None) -> SearchOutcome:
        """Papers matching ``query`` (the full query language), best first."""
        parsed = parse_query(query)
        notice = None
        if parsed.unknown:
            notice = f"Ignored unknown filter {', '.join(parsed.unknown)} (known: {filter_help()})"
        if not parsed.text:
            # Browsing, or filters alone: the database answers, in browsing order.
            with self.session() as store:
                ids = store.all_ids()
                for f in parsed.filters:
                    flagged = store.flagged_ids(f.flag)
                    ids = [i for i in ids if (i in flagged) != f.negated]
            return SearchOutcome(query, ids[:limit], notice=notice)
        in_index = tuple(f for f in parsed.filters if f.flag in INDEX_FLAGS)
        in_db = [f for f in parsed.filters if f.flag not in INDEX_FLAGS]
        hits = self.index.search(
            ParsedQuery(parsed.text, in_index), limit=None if in_db else limit
        )
        ids, scores = hits.ids, hits.scores
        if in_db:
            with self.session() as store:
                for f in in_db:
                    flagged = store.flagged_ids(f.flag)
                    keep = [(i in flagged) != f.negated for i in ids]
                    ids = [i for i, k in zip(ids, keep, strict=True) if k]
                    scores = [x for x, k in zip(scores, keep, strict=True) if k]
            ids, scores = ids[:limit], scores[:limit]
        if hits.fell_back and notice is None:
            notice = "Could not read that query; searched its words instead"
        return SearchOutcome(query, ids, scores, hits.terms, notice)

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

    def save_note(self, paper_id: int, body: str, sync: bool = True) -> None:
        """Store a paper's note, then re-index it."""
        with self.session() as store:
            store.set_note(paper_id, body)
        if sync:
            self.sync_index()
