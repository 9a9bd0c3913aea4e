"""The full-text index: Whoosh BM25F over titles, abstracts, keywords, authors and notes.

The index is derived from the database and can always be rebuilt from it. It records the
library generation it reflects in a small sidecar file; on open, a missing or foreign
index is rebuilt and a stale one catches up on the rows changed since.
"""

from __future__ import annotations

import functools
import json
import os
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from whoosh import index as whoosh_index
from whoosh.collectors import WrappingCollector
from whoosh.index import LockError
from whoosh.qparser import (
    GroupPlugin,
    MultifieldParser,
    WildcardPlugin,
    syntax,
)
from whoosh.query import And, Not, NullQuery, Or, Query, Term
from whoosh.searching import Searcher

from reader.errors import IndexDamaged
from reader.models import Paper
from reader.search.analysis import WORD
from reader.search.build import FastSegmentWriter, build_in_processes
from reader.search.highlight import highlight_terms
from reader.search.parsing import (
    FIELD_SPACE,
    OPERATORS,
    STOP_STEMS,
    Parser,
    has_empty_terms,
    nearest_word,
    plain_words,
    widen_fuzzy,
)
from reader.search.query import Filter, ParsedQuery, SearchCancelled
from reader.search.schema import FIELD_BOOSTS, SEARCH_FIELDS, document, make_schema

#: Bump when the schema or what is indexed changes (reader.search.analysis included: a test pins
#: its output to this number): an index of another version is rebuilt.
INDEX_VERSION = 5
_GENERATION_FILE = "reader-generation.json"
_WRITER_TIMEOUT = 10.0
# Memory for each writer's posting pool before it spills a run to disk.
_LIMIT_MB = 128
# A full build writes its segments as separate files, not one compound file: Whoosh reads a
# compound file through mmap and copies each part it opens into memory (the postings of a
# 200k library are hundreds of MB, and every searcher copies them again). Separate files
# are read from disk as needed.
#: A zero-argument callable yielding papers; picklable, so a worker process can call it.
PaperSource = Callable[[], Iterable[Paper]]


class IndexBusy(Exception):
    """Another process held the index's writer lock for too long; the database write that
    wanted indexing is stored, and the index catches up on a later sync."""


_T = TypeVar("_T")


def _reading(method: Callable[..., _T]) -> Callable[..., _T]:
    """Turn any failure to read the index into IndexDamaged (after letting go of the
    broken readers), so callers mend the index instead of showing a traceback."""

    @functools.wraps(method)
    def wrapper(self: SearchIndex, *args: Any, **kwargs: Any) -> _T:
        try:
            return method(self, *args, **kwargs)
        except (IndexBusy, IndexDamaged, SearchCancelled):
            raise
        except Exception as exc:  # noqa: BLE001 - whatever Whoosh meets in a damaged file
            self.forget()
            raise IndexDamaged(describe_damage(exc)) from exc

    return wrapper


def describe_damage(exc: BaseException) -> str:
    """One line naming what failed in an index file."""
    text = " ".join(str(exc).split())[:120]
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


@dataclass(frozen=True, slots=True)
class Hits:
    """Paper ids in rank order and the words to highlight."""

    ids: list[int]
    scores: list[float] = field(default_factory=list)
    terms: frozenset[str] = field(default_factory=frozenset)
    fell_back: bool = False


class SearchIndex:
    """One library's Whoosh index; safe to use from several threads of one process."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.schema = make_schema()
        self._lock = threading.Lock()
        self._ix: whoosh_index.Index | None = None
        self._searcher: Searcher | None = None
        self._searcher_generation = -1
        #: (indexed, total) while this process builds the index in parts.
        self._building: tuple[int, int] | None = None
        self._parser = Parser(self.schema)
        # Used when the query cannot be read: its words, all of which must match, as in a
        # query of plain words.
        self._plain_parser = MultifieldParser(
            list(SEARCH_FIELDS), self.schema, fieldboosts=FIELD_BOOSTS
        )

    # -- state ------------------------------------------------------------------------------

    def _read_meta(self) -> dict[str, Any]:
        try:
            data = json.loads((self.path / _GENERATION_FILE).read_text(encoding="utf-8"))
            meta: dict[str, Any] = {
                "version": int(data["version"]), "generation": int(data["generation"])
            }
            building = data.get("building")
            if isinstance(building, dict):
                meta["building"] = {k: int(building[k]) for k in ("indexed", "total", "pid")}
            return meta
        except (OSError, ValueError, KeyError, TypeError):
            return {"version": -1, "generation": -1}

    def _write_meta(
        self, generation: int, building: tuple[int, int] | None = None
    ) -> None:
        data: dict[str, Any] = {"version": INDEX_VERSION, "generation": generation}
        if building is not None:
            data["building"] = {
                "indexed": building[0], "total": building[1], "pid": os.getpid()
            }
        tmp = self.path / f"{_GENERATION_FILE}.{os.getpid()}.tmp"
        tmp.write_text(json.dumps(data))
        os.replace(tmp, self.path / _GENERATION_FILE)

    def partial(self) -> tuple[int, int] | None:
        """(indexed, total) while a build is under way, here or in another live process:
        searches then run over the papers indexed so far."""
        if self._building is not None:
            return self._building
        building = self._read_meta().get("building")
        if building is None or building["pid"] == os.getpid():
            return None
        try:
            os.kill(building["pid"], 0)
        except ProcessLookupError:
            return None  # a build that was cut short: the next sync finishes the work
        except PermissionError:
            pass
        return building["indexed"], building["total"]

    def _published(self, generation: int, total: int, indexed: int) -> None:
        """A build has made ``indexed`` of ``total`` papers searchable."""
        self._building = (indexed, total)
        self._write_meta(generation, (indexed, total))

    @property
    def generation(self) -> int:
        """The library generation the index reflects, or -1 when unknown."""
        return self._read_meta()["generation"]

    def usable(self) -> bool:
        """Whether an index of this version exists and opens."""
        meta = self._read_meta()
        if meta["version"] != INDEX_VERSION or meta["generation"] < 0:
            return False  # another version, or a build from scratch that never finished
        try:
            # On first opening, a searcher opens every segment: one deleted or cut short fails
            # here, at start, rather than in the middle of a search. Once open, the index is
            # only changed by us, and reopening on every write would cost more than it finds.
            if self._ix is None:
                self.count()
        except Exception:  # noqa: BLE001 - any failure to open means "rebuild"
            try:
                self.close()
            except Exception:  # noqa: BLE001 - a broken index may not even close cleanly
                self._ix = self._searcher = None
            return False
        return True

    def _open(self) -> whoosh_index.Index:
        if self._ix is None:
            self._ix = whoosh_index.open_dir(str(self.path))
        return self._ix

    def _writer(self):  # type: ignore[no-untyped-def]
        """A writer, waiting for another process's lock rather than failing."""
        deadline = time.monotonic() + _WRITER_TIMEOUT
        while True:
            try:
                with self._lock:
                    return FastSegmentWriter(self._open())
            except LockError as exc:
                if time.monotonic() > deadline:
                    raise IndexBusy(
                        f"the search index is being written by another process ({self.path})"
                    ) from exc
                time.sleep(0.05)

    # -- writing ----------------------------------------------------------------------------

    def rebuild(
        self,
        papers: Iterable[Paper],
        generation: int,
        progress: Callable[[int], None] | None = None,
        *,
        parts: Sequence[PaperSource] = (),
        total: int = 0,
    ) -> int:
        """Build a fresh index; returns how many papers were indexed.

        With ``parts`` (picklable callables, each yielding a share of the papers, ``total``
        in all), every part is indexed in a process of its own into segments of its own,
        each published as it is written: the build uses every core, the calling process
        stays free, and searches run over what is indexed so far (see partial). Without
        them, ``papers`` are indexed here, in one process.
        """
        with self._lock:
            self.path.mkdir(parents=True, exist_ok=True)
            self._close()
            # A build cut short must not leave the old generation behind: it would make the
            # fresh (partial) index look merely stale.
            (self.path / _GENERATION_FILE).unlink(missing_ok=True)
            ix = whoosh_index.create_in(str(self.path), self.schema)
            self._ix = ix
            writer = FastSegmentWriter(ix, limitmb=_LIMIT_MB, compound=False)
        if parts:
            count = self._build(writer, parts, total, -1, progress)
        else:
            count = _write_all(writer, writer.add_document, map(document, papers), progress)
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
    ) -> int:
        """Index the parts in worker processes, publishing segments as they come."""
        self._published(generation, total, 0)
        try:
            return build_in_processes(
                writer, parts, progress,
                functools.partial(self._published, generation, total), limitmb=_LIMIT_MB,
                known=known, before_commit=before_commit,
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
    ) -> int:
        """Apply many changes at once, on every core: ``plan(generation)`` gives the ids
        of the papers changed and deleted since, sources (picklable) that yield the changed
        papers in parts, and the generation that reaches. As with catch_up, the plan is
        made once the writer lock is held. A changed paper whose searchable text is what
        the index holds is not indexed again; the new versions of the others become
        searchable segment by segment (see partial), and their old ones are deleted when
        the last is written (meanwhile a search may meet both: it shows the paper once)."""
        writer = self._writer()
        try:
            since = self.generation
            changed, deleted, parts, generation = plan(since)
            wanted = {str(i) for i in changed}
            with writer.searcher() as searcher:
                # Deletions first: SQLite may give a deleted paper's id to a new one.
                for paper_id in deleted:
                    writer.delete_by_term("id", str(paper_id), searcher=searcher)
                known = {
                    int(fields["id"]): fields.get("digest", "")
                    for fields in searcher.all_stored_fields()
                    if fields["id"] in wanted
                }
        except BaseException:
            writer.cancel()
            raise

        def replace_old(kept: set[int]) -> None:
            with writer.searcher() as searcher:
                for paper_id in known:
                    if paper_id not in kept:
                        writer.delete_by_term("id", str(paper_id), searcher=searcher)

        count = self._build(writer, parts, len(changed), since, progress, known, replace_old)
        if generation > self.generation:
            self._write_meta(generation)
        return count

    def catch_up(
        self,
        changes: Callable[[int], tuple[list[Paper], list[int], int]],
        progress: Callable[[int], None] | None = None,
    ) -> int:
        """Apply what changed since the index's generation: ``changes(generation)`` gives
        the papers changed and the ids deleted since, and the generation that reaches.

        The changes are read only once the writer lock is held. Two processes catching up at
        once otherwise both read, then write in turn, and the later writer can put a paper's
        older row over the newer one while the generation file says all is current.
        """
        writer = self._writer()
        try:
            papers, deleted, generation = changes(self.generation)
            # Deletions first: SQLite may give a deleted paper's id to a new one.
            for paper_id in deleted:
                writer.delete_by_term("id", str(paper_id))
        except BaseException:
            writer.cancel()
            raise
        try:
            docs = self._changed_documents(writer, papers)
        except BaseException:
            writer.cancel()
            raise
        if not docs and not deleted:
            writer.cancel()
            count = 0
        else:
            count = _write_all(writer, writer.update_document, docs, progress)
        if generation > self.generation:
            self._write_meta(generation)
        return count

    @staticmethod
    def _changed_documents(writer: Any, papers: list[Paper]) -> list[dict[str, object]]:
        """The documents of the papers whose searchable text differs from what the index
        holds for them."""
        docs = [document(paper) for paper in papers]
        if not docs:
            return docs
        with writer.searcher() as searcher:
            indexed = searcher.document
            return [
                doc for doc in docs
                if (indexed(id=doc["id"]) or {}).get("digest") != doc["digest"]
            ]

    def _close(self) -> None:
        if self._searcher is not None:
            self._searcher.close()
            self._searcher = None
        if self._ix is not None:
            self._ix.close()
            self._ix = None

    def close(self) -> None:
        """Release the index files."""
        with self._lock:
            self._close()

    # -- searching --------------------------------------------------------------------------

    def _current_searcher(self) -> Searcher:
        ix = self._open()
        if self._searcher is not None and ix.latest_generation() != self._searcher_generation:
            # Not Searcher.refresh(): it reuses the readers of unchanged segment ids, and so
            # keeps showing documents deleted since (an updated paper would appear twice).
            self._searcher.close()
            self._searcher = None
        if self._searcher is None:
            searcher = ix.searcher()
            # Each term's scorer asks for its field's average length, which Whoosh sums over
            # every segment each time: a query of three words over 7 fields in 30 segments
            # summed 20,000 segment lengths. The searcher's index does not change.
            searcher.avg_field_length = functools.lru_cache(maxsize=None)(  # type: ignore[method-assign]
                searcher.avg_field_length
            )
            self._searcher = searcher
            self._searcher_generation = searcher.reader().generation()
        return self._searcher

    def forget(self) -> None:
        """Drop the open readers (after damage was met): the next use opens the files anew."""
        with self._lock:
            try:
                self._close()
            except Exception:  # noqa: BLE001 - a broken index may not even close cleanly
                self._ix = self._searcher = None

    def check(self) -> str | None:
        """Read every segment file through and through: the terms and postings of every
        field, the stored fields and the field lengths. Returns what is damaged, or None."""
        try:
            ix = whoosh_index.open_dir(str(self.path))
            try:
                with ix.reader() as reader:
                    for leaf, _ in reader.leaf_readers():
                        for fieldname in leaf.indexed_field_names():
                            for text in leaf.lexicon(fieldname):
                                postings = leaf.postings(fieldname, text)
                                for _ in postings.items_as("weight"):
                                    pass
                        # Every stored document is read. A lengths file holds a byte for each
                        # document up to the last one with the field: an empty one was
                        # emptied (it reads as no lengths, and ranking then fails).
                        documents = sum(1 for _ in leaf.all_stored_fields())
                        segment = leaf.segment()
                        for fieldname in SEARCH_FIELDS:
                            lengths = self.path / segment.make_filename(f"._{fieldname}_len.col")
                            if documents and lengths.exists() and not lengths.stat().st_size:
                                raise ValueError(f"the {fieldname} lengths are cut short")
            finally:
                ix.close()
        except Exception as exc:  # noqa: BLE001 - any failure to read is damage
            return describe_damage(exc)
        return None

    @_reading
    def count(self) -> int:
        """Number of documents in the index."""
        with self._lock:
            return int(self._current_searcher().doc_count())

    @_reading
    def ids(self) -> set[int]:
        """The paper ids the index holds (for checking it against the database)."""
        with self._lock:
            searcher = self._current_searcher()
            return {int(fields["id"]) for fields in searcher.all_stored_fields()}

    def parse(self, text: str) -> tuple[Query, bool]:
        """Parse free text with the full syntax; a query that syntax cannot read is parsed as
        its plain words, and the flag says so (never raises)."""
        text = FIELD_SPACE.sub(r"\1:", text)
        try:
            query = NullQuery if self._unreadable(text) else self._parser.parse(text)
        except Exception:  # noqa: BLE001 - the parser must never surface an error
            query = NullQuery
        if query is NullQuery or has_empty_terms(query):
            # Whoosh reads `(((` or `title:` as nothing at all rather than failing.
            return self._plain_parser.parse(plain_words(text)), True
        return widen_fuzzy(query), False

    def _unreadable(self, text: str) -> bool:
        """Whether the query breaks the syntax where Whoosh would quietly read something
        else: an unclosed quote or bracket, an operator missing an operand (Whoosh takes
        `AND OR NOT` for three words), a field with nothing after it (a name that is no
        field is read as words: `N:M`), an unclosed range, or a "word" with no letter or
        digit (`***` would match every paper)."""
        nodes = list(self._parser.tag(text))
        depth = 0
        for i, node in enumerate(nodes):
            after = next((n for n in nodes[i + 1 :] if not isinstance(n, syntax.Whitespace)),
                         None)
            before = next(
                (n for n in reversed(nodes[:i]) if not isinstance(n, syntax.Whitespace)), None
            )
            if isinstance(node, syntax.WordNode):
                if (
                    '"' in node.text
                    or node.text in OPERATORS
                    or not WORD.search(node.text)
                    or (node.text[0] in "[{" and not {"]", "}"} & set(node.text))
                ):
                    return True
            elif isinstance(node, WildcardPlugin.WildcardNode):
                beside = nodes[i - 1 : i] + nodes[i + 1 : i + 2]
                if not any(isinstance(n, syntax.WordNode) for n in beside):
                    return True
            elif isinstance(node, syntax.FieldnameNode):
                if after is None or isinstance(
                    after, (GroupPlugin.CloseBracket, syntax.Whitespace)
                ):
                    return True
            elif isinstance(node, GroupPlugin.OpenBracket):
                depth += 1
                if isinstance(after, GroupPlugin.CloseBracket):
                    return True
            elif isinstance(node, GroupPlugin.CloseBracket):
                depth -= 1
                if depth < 0:
                    return True
            elif isinstance(node, syntax.InfixOperator):
                if before is None or after is None or isinstance(
                    before, (syntax.Operator, GroupPlugin.OpenBracket)
                ) or isinstance(after, (syntax.InfixOperator, GroupPlugin.CloseBracket)):
                    return True
            elif isinstance(node, syntax.PrefixOperator) and (
                after is None or isinstance(after, (syntax.InfixOperator, GroupPlugin.CloseBracket))
            ):
                return True
        return depth != 0

    @_reading
    def corrections(self, text: str) -> list[tuple[str, str]]:
        """For a query of plain words, each word the index does not hold with the nearest
        word it does (`unlearnign` → `unlearning`): a "did you mean". Empty for any other
        query, or when no word is missing or none is near."""
        nodes = list(self._parser.tag(text))
        if self._unreadable(text) or not all(
            isinstance(n, (syntax.WordNode, syntax.Whitespace)) for n in nodes
        ):
            return []
        found = []
        with self._lock:
            reader = self._current_searcher().reader()
            for node in nodes:
                if isinstance(node, syntax.WordNode):
                    nearest = nearest_word(reader, node.text)
                    if nearest:
                        found.append((node.text, nearest))
        return found

    @_reading
    def search(
        self,
        parsed: ParsedQuery,
        limit: int | None = None,
        cancelled: Callable[[], bool] | None = None,
    ) -> Hits:
        """Paper ids matching the query, best first, and the words to highlight; raises
        SearchCancelled once ``cancelled()`` is true."""
        query, fell_back = self.parse(parsed.text) if parsed.text else (None, False)
        filters = [_filter_query(f) for f in parsed.filters]
        parts = [q for q in [query, *filters] if q is not None]
        if not parts:
            return Hits([])
        combined = parts[0] if len(parts) == 1 else And(parts)
        with self._lock:
            searcher = self._current_searcher()
            try:
                results = _run(searcher, combined, limit, cancelled)
            except SearchCancelled:
                raise
            except Exception:  # noqa: BLE001 - a query that fails to run falls back too
                if fell_back or not parsed.text:
                    return Hits([], fell_back=True)
                query = self._plain_parser.parse(plain_words(parsed.text))
                fell_back = True
                results = _run(
                    searcher, And([query, *filters]) if filters else query, limit, cancelled
                )
            docs, scores = results
            stored = searcher.stored_fields
            ids = [int(stored(docnum)["id"]) for docnum in docs]
            terms = highlight_terms(query, searcher) if query is not None else frozenset()
        if len(set(ids)) < len(ids):
            # During a catch-up a changed paper's old and new documents may both be there.
            first = dict(zip(reversed(ids), reversed(scores), strict=True))
            ids = list(dict.fromkeys(ids))
            scores = [first[i] for i in ids]
        return Hits(ids, scores, terms, fell_back)

    @_reading
    def similar(
        self,
        text: str,
        exclude: Iterable[int] = (),
        limit: int | None = 500,
        numterms: int = 25,
    ) -> tuple[Hits, list[tuple[str, float]]]:
        """Papers like ``text`` (the title and abstract of one paper, or of several for a
        profile), best first, and the key terms that ranked them with their weights.

        This is Whoosh's "more like this" (Bo1 key terms of the text against the collection,
        then an OR of them), run on the title and the abstract together and with the
        papers in ``exclude`` left out. Common words are dropped from the key terms: the
        index keeps them (it has no stop list), but they say nothing about a topic. The key
        terms are stems, as indexed (see shared_terms for the words they stand for).
        """
        with self._lock:
            searcher = self._current_searcher()
            expanded = searcher.key_terms_from_text(
                "abstract", text, numterms=numterms * 2, normalize=True
            )
            key_terms = [
                (word, float(weight))
                for word, weight in expanded
                if word not in STOP_STEMS and len(word) > 2 and not word.isdigit()
            ][:numterms]
            if not key_terms:
                return Hits([]), []
            query = Or(
                [
                    Term(fieldname, word, boost=weight * FIELD_BOOSTS.get(fieldname, 1.0))
                    for word, weight in key_terms
                    for fieldname in ("title", "abstract")
                ]
            )
            skip = [Term("id", str(paper_id)) for paper_id in exclude]
            mask = Or(skip) if skip else None
            results = searcher.search(query, limit=limit, mask=mask)
            ids = [int(hit["id"]) for hit in results]
            scores = [float(hit.score or 0.0) for hit in results]
        return Hits(ids, scores, frozenset(w for w, _ in key_terms)), key_terms


class _Cancellable(WrappingCollector):
    """Collects what its child collects, and gives up (SearchCancelled) once ``cancelled()``
    is true, asked every few dozen matches: ranking the matches of common words in a large
    library takes from a tenth of a second to seconds, and by then the user has typed the
    next letter (whose search would wait for this one)."""

    def __init__(self, child: Any, cancelled: Callable[[], bool]) -> None:
        super().__init__(child)
        self._cancelled = cancelled

    def collect_matches(self) -> None:
        child = self.child
        for n, sub_docnum in enumerate(child.matches()):
            if not n % 64 and self._cancelled():
                raise SearchCancelled
            child.collect(sub_docnum)


def matching_context(searcher: Any) -> Any:
    """The search context both ways of ranking use: one whose matchers can say what they
    match at every step. In a segment of at most 5,000 documents Whoosh otherwise builds an
    Or of three parts or more as an array-backed union, which scores its first 2,048
    documents one by one as it is built, and adds the parts' scores in another order than
    a tree of unions does (floats added in another order may differ in their last bit);
    with this context every Or is a tree of unions, in every segment, for both."""
    return searcher.context(needs_current=True)


def _run(searcher: Searcher, query: Query, limit: int | None,
         cancelled: Callable[[], bool] | None) -> tuple[list[int], list[float]]:
    """The document numbers and scores of ``query``'s ``limit`` best matches, or of all.

    Matches are ranked with arrays (reader.search.ranking: every match scored at once, as Whoosh
    scores it, a segment at a time), several times faster than Whoosh's matchers, which
    score them one by one (and whose top-N search still scores most matches of an AND of
    common words); any query that module does not know goes to Whoosh."""
    try:
        from reader.search.ranking import ranked  # numpy: loaded with the first search
    except ImportError:  # an environment installed before numpy was a dependency
        found = None
    else:
        found = ranked(searcher, query, cancelled)
    if found is not None:
        docs, scores = found[0][:limit], found[1][:limit]
        return docs.tolist(), scores.tolist()
    # Every match ranked, then the first taken: Whoosh's top-N search over trees of unions
    # can leave out one of the best (the third of `setting learning` in a test), as its
    # unions drop a part whose best score seems too low to matter.
    collector = searcher.collector(limit=None)
    if cancelled is not None:
        collector = _Cancellable(collector, cancelled)
    searcher.search_with_collector(query, collector, matching_context(searcher))
    results = collector.results()
    hits = list(results)[:limit] if limit is not None else list(results)
    return [hit.docnum for hit in hits], [float(hit.score or 0.0) for hit in hits]


def _write_all(
    writer: Any,
    put: Callable[..., None],
    docs: Iterable[dict[str, object]],
    progress: Callable[[int], None] | None,
) -> int:
    """Put every document with ``put`` and commit, or cancel all on any error."""
    count = 0
    try:
        for doc in docs:
            put(**doc)
            count += 1
            if progress is not None and count % 200 == 0:
                progress(count)
    except BaseException:
        writer.cancel()
        raise
    writer.commit()
    return count


def _filter_query(f: Filter) -> Query:
    term = Term("flags", f.flag)
    return Not(term) if f.negated else term


