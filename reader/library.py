"""A library on disk: the database, the search index kept in step with it, and the
operations the CLI and the UI share (import, search, star, note, cite)."""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from reader.citations import bibtex_entry
from reader.importers import parse_file
from reader.locations import LibraryPaths
from reader.models import ImportSummary, Paper
from reader.query import filter_help, parse_query
from reader.resources import sample_files
from reader.search import SearchIndex
from reader.store import Store

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
        sync: bool = True,
    ) -> ImportSummary:
        """Import each file in one transaction; the index follows unless ``sync`` is off."""
        parsed = [parse_file(Path(f), fmt) for f in files]
        total = sum(len(p.records) for p in parsed)
        summary = ImportSummary()
        done = 0
        for item in parsed:

            def step(n: int, base: int = done) -> None:
                if progress is not None:
                    progress(base + n, total)

            with self.session() as store:
                part = store.import_records(item.records, str(item.path), item.format, step)
            done += part.read
            summary.read += part.read
            summary.new += part.new
            summary.present += part.present
            summary.files.append(str(item.path))
        if sync:
            self.sync_index()
        return summary

    def import_sample_if_empty(self) -> ImportSummary | None:
        """Load the bundled ICLR 2026 sample into an empty library."""
        with self.session() as store:
            if store.count():
                return None
        return self.import_files(sample_files())

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
            papers, generation = store.changes_since(self.index.generation)
            if not papers and generation <= self.index.generation:
                return 0
            total = len(papers)
            return self.index.update(
                papers, generation, (lambda n: progress(n, total)) if progress else None
            )

    # -- queries ----------------------------------------------------------------------------

    def search(self, query: str, limit: int | None = None) -> SearchOutcome:
        """Papers matching ``query`` (the full query language), best first."""
        parsed = parse_query(query)
        notice = None
        if parsed.unknown:
            notice = f"Ignored unknown filter {', '.join(parsed.unknown)} (known: {filter_help()})"
        if parsed.is_empty:
            with self.session() as store:
                return SearchOutcome(query, store.all_ids()[:limit], notice=notice)
        hits = self.index.search(parsed, limit=limit)
        if hits.fell_back and notice is None:
            notice = "Could not read that query; searched its words instead"
        return SearchOutcome(query, hits.ids, hits.scores, hits.terms, notice)

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

    def bibtex(self, paper_ids: Sequence[int]) -> str:
        """BibTeX entries of the given papers."""
        return "\n".join(bibtex_entry(p) for p in self.store.papers(paper_ids))
