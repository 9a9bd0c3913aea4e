"""The full-text index: Whoosh BM25F over titles, abstracts, keywords, authors and notes.

The index is derived from the database and can always be rebuilt from it. It records the
library generation it reflects in a small sidecar file; on open, a missing or foreign
index is rebuilt and a stale one catches up on the rows changed since.
"""

from __future__ import annotations

import json
import os
import re
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from whoosh import index as whoosh_index
from whoosh.analysis import StandardAnalyzer
from whoosh.fields import ID, KEYWORD, NUMERIC, TEXT, Schema
from whoosh.index import LockError
from whoosh.lang.porter import stem
from whoosh.matching import NullMatcher
from whoosh.qparser import FuzzyTermPlugin, MultifieldParser, OrGroup
from whoosh.query import (
    And,
    DisjunctionMax,
    FuzzyTerm,
    Not,
    NullQuery,
    Query,
    Term,
    Variations,
)
from whoosh.searching import Searcher

from reader.models import Paper
from reader.query import Filter, ParsedQuery
from reader.textrender import to_plain

#: Bump when the schema or what is indexed changes: an index of another version is rebuilt.
INDEX_VERSION = 1
SEARCH_FIELDS = ("title", "abstract", "keywords", "authors", "notes")
FIELD_BOOSTS = {"title": 3.0, "keywords": 1.5, "authors": 1.2}
_GENERATION_FILE = "reader-generation.json"
_WRITER_TIMEOUT = 10.0

# No stemming in the index: prefixes (`spars*`) and typo tolerance work on the words as
# written. StemVariations gives back at query time the recall stemming would.
ANALYZER = StandardAnalyzer(stoplist=None, minsize=1)
_TOKEN = re.compile(r"\w+(?:\.?\w+)*", re.UNICODE)
# Bounds the words looked at when expanding one query word to its variants.
_MAX_VARIANT_SCAN = 400


class StemVariations(Variations):
    """A query word that also matches the indexed words with the same English stem
    (benchmark → benchmarks, benchmarking), found by a prefix walk of the term list."""

    def _btexts(self, ixreader):  # type: ignore[no-untyped-def]
        fieldname = self.fieldname
        text = self.text
        exact = text.encode("utf-8")
        if (fieldname, exact) in ixreader:
            yield exact
        if len(text) < 4 or not text.isalpha():
            return
        root = stem(text)
        prefix = root[: max(3, len(root) - 1)]
        for n, btext in enumerate(ixreader.expand_prefix(fieldname, prefix)):
            if n >= _MAX_VARIANT_SCAN:
                break
            if btext != exact and stem(btext.decode("utf-8")) == root:
                yield btext

    def matcher(self, searcher, context=None):  # type: ignore[no-untyped-def]
        """Score a paper by its best variant, with the field's boost.

        Whoosh's own expansion sums the variants (a paper saying both "benchmark" and
        "benchmarks" outranks one with the word in its title) and drops the boost when
        only one variant exists (so the title boost vanished for most words).
        """
        words = [w for w in self._btexts(searcher.reader()) if w]
        if not words:
            return NullMatcher()
        terms = [Term(self.fieldname, w, boost=self.boost) for w in words]
        query = terms[0] if len(terms) == 1 else DisjunctionMax(terms)
        return query.matcher(searcher, context)


def make_schema() -> Schema:
    """The index schema."""
    return Schema(
        id=ID(stored=True, unique=True),
        title=TEXT(analyzer=ANALYZER),
        abstract=TEXT(analyzer=ANALYZER),
        keywords=TEXT(analyzer=ANALYZER),
        authors=TEXT(analyzer=ANALYZER),
        notes=TEXT(analyzer=ANALYZER),
        flags=KEYWORD(lowercase=True),
        venue=KEYWORD(lowercase=True),
        year=NUMERIC(),
    )


@dataclass(frozen=True, slots=True)
class Hits:
    """Paper ids in rank order and the words to highlight."""

    ids: list[int]
    scores: list[float] = field(default_factory=list)
    terms: frozenset[str] = field(default_factory=frozenset)
    fell_back: bool = False


def document(paper: Paper) -> dict[str, object]:
    """The index document of a paper."""
    flags = []
    if paper.starred:
        flags.append("starred")
    if paper.note.strip():
        flags.append("notes")
    doc: dict[str, object] = {
        "id": str(paper.id),
        "title": paper.title,
        "abstract": to_plain(paper.abstract),
        "keywords": " ".join(paper.keywords),
        "authors": " ".join(paper.authors),
        "notes": paper.note,
        "flags": " ".join(flags),
    }
    if paper.venue:
        doc["venue"] = paper.venue
    if paper.year:
        doc["year"] = paper.year
    return doc


class SearchIndex:
    """One library's Whoosh index; safe to use from several threads of one process."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.schema = make_schema()
        self._lock = threading.Lock()
        self._ix: whoosh_index.Index | None = None
        self._searcher: Searcher | None = None
        self._searcher_generation = -1
        self._parser = MultifieldParser(
            list(SEARCH_FIELDS), self.schema, fieldboosts=FIELD_BOOSTS, termclass=StemVariations
        )
        self._parser.add_plugin(FuzzyTermPlugin())
        # Used when the query cannot be parsed: plain words, any of which may match.
        self._plain_parser = MultifieldParser(
            list(SEARCH_FIELDS), self.schema, fieldboosts=FIELD_BOOSTS, group=OrGroup
        )

    # -- state ------------------------------------------------------------------------------

    def _read_meta(self) -> dict[str, int]:
        try:
            data = json.loads((self.path / _GENERATION_FILE).read_text(encoding="utf-8"))
            return {"version": int(data["version"]), "generation": int(data["generation"])}
        except (OSError, ValueError, KeyError, TypeError):
            return {"version": -1, "generation": -1}

    def _write_meta(self, generation: int) -> None:
        tmp = self.path / (_GENERATION_FILE + ".tmp")
        tmp.write_text(json.dumps({"version": INDEX_VERSION, "generation": generation}))
        os.replace(tmp, self.path / _GENERATION_FILE)

    @property
    def generation(self) -> int:
        """The library generation the index reflects, or -1 when unknown."""
        return self._read_meta()["generation"]

    def usable(self) -> bool:
        """Whether an index of this version exists and opens."""
        if self._read_meta()["version"] != INDEX_VERSION:
            return False
        try:
            self._open()
        except Exception:  # noqa: BLE001 - any failure to open means "rebuild"
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
                return self._open().writer()
            except LockError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    # -- writing ----------------------------------------------------------------------------

    def rebuild(
        self,
        papers: Iterable[Paper],
        generation: int,
        progress: Callable[[int], None] | None = None,
    ) -> int:
        """Build a fresh index of ``papers``; returns how many were indexed."""
        with self._lock:
            self.path.mkdir(parents=True, exist_ok=True)
            self._close()
            ix = whoosh_index.create_in(str(self.path), self.schema)
            self._ix = ix
            writer = ix.writer(limitmb=128)
            count = _write_all(writer, writer.add_document, papers, progress)
            self._write_meta(generation)
            if progress is not None:
                progress(count)
            return count

    def update(
        self,
        papers: Iterable[Paper],
        generation: int,
        progress: Callable[[int], None] | None = None,
        deleted: Iterable[int] = (),
    ) -> int:
        """Drop deleted papers, re-index the given ones (one commit), record ``generation``."""
        with self._lock:
            writer = self._writer()
            try:
                # Deletions first: SQLite may give a deleted paper's id to a new one.
                for paper_id in deleted:
                    writer.delete_by_term("id", str(paper_id))
            except BaseException:
                writer.cancel()
                raise
            count = _write_all(writer, writer.update_document, papers, progress)
            if generation > self.generation:
                self._write_meta(generation)
            return count

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
            self._searcher = ix.searcher()
            self._searcher_generation = self._searcher.reader().generation()
        return self._searcher

    def count(self) -> int:
        """Number of documents in the index."""
        with self._lock:
            return int(self._current_searcher().doc_count())

    def parse(self, text: str) -> tuple[Query, bool]:
        """Parse free text with the full syntax; on failure, as plain words (never raises)."""
        try:
            query = self._parser.parse(text)
        except Exception:  # noqa: BLE001 - the parser must never surface an error
            query = NullQuery
        if query is NullQuery or _has_empty_terms(query):
            # Whoosh reads `(((` or `title:` as nothing at all rather than failing.
            words = " ".join(_TOKEN.findall(text))
            return self._plain_parser.parse(words), True
        return _widen_fuzzy(query), False

    def search(self, parsed: ParsedQuery, limit: int | None = None) -> Hits:
        """Paper ids matching the query, best first, and the words to highlight."""
        query, fell_back = self.parse(parsed.text) if parsed.text else (None, False)
        filters = [_filter_query(f) for f in parsed.filters]
        parts = [q for q in [query, *filters] if q is not None]
        if not parts:
            return Hits([])
        combined = parts[0] if len(parts) == 1 else And(parts)
        with self._lock:
            searcher = self._current_searcher()
            try:
                results = searcher.search(combined, limit=limit)
            except Exception:  # noqa: BLE001 - a query that fails to run falls back too
                if fell_back or not parsed.text:
                    return Hits([], fell_back=True)
                query = self._plain_parser.parse(" ".join(_TOKEN.findall(parsed.text)))
                fell_back = True
                results = searcher.search(And([query, *filters]) if filters else query, limit=limit)
            ids = [int(hit["id"]) for hit in results]
            scores = [float(hit.score or 0.0) for hit in results]
            terms = _highlight_terms(query, searcher) if query is not None else frozenset()
        return Hits(ids, scores, terms, fell_back)


def _write_all(
    writer: Any,
    put: Callable[..., None],
    papers: Iterable[Paper],
    progress: Callable[[int], None] | None,
) -> int:
    """Put every paper's document with ``put`` and commit, or cancel all on any error."""
    count = 0
    try:
        for paper in papers:
            put(**document(paper))
            count += 1
            if progress is not None and count % 200 == 0:
                progress(count)
    except BaseException:
        writer.cancel()
        raise
    writer.commit()
    return count


def _widen_fuzzy(query: Query) -> Query:
    """Let ``word~`` forgive two edits on longer words, so a swapped pair of letters
    (``benchmrak``) is found: Whoosh counts a transposition as two edits."""
    if isinstance(query, FuzzyTerm):
        if query.maxdist == 1 and len(query.text) >= 5:
            return FuzzyTerm(
                query.fieldname, query.text, boost=query.boost, maxdist=2, prefixlength=1
            )
        return query
    return query.apply(_widen_fuzzy)


def _has_empty_terms(query: Query) -> bool:
    """Whether a parsed query holds a term with no text (what `title:` parses to)."""
    return any(getattr(leaf, "text", None) in ("", b"") for leaf in query.leaves())


def _filter_query(f: Filter) -> Query:
    term = Term("flags", f.flag)
    return Not(term) if f.negated else term


def _highlight_terms(query: Query, searcher: Searcher) -> frozenset[str]:
    """The indexed words a query matched, expanded through prefixes, typos and variations."""
    words: set[str] = set()
    reader = searcher.reader()
    # Leaf by leaf: Query.existing_terms reuses its `fieldname` argument as a loop variable
    # and so skips every field after the first one it meets.
    for leaf in query.leaves():
        try:
            for fieldname, text in leaf.expanded_terms(reader):
                if (fieldname, text) in reader:
                    words.add(text.decode("utf-8") if isinstance(text, bytes) else str(text))
        except Exception:  # noqa: BLE001 - highlighting is a nicety, never an error
            continue
    return frozenset(w for w in words if w)


def highlight_spans(text: str, terms: frozenset[str]) -> list[tuple[int, int]]:
    """Character spans of the words of ``text`` that are among ``terms``."""
    if not terms or not text:
        return []
    spans = []
    for token in ANALYZER(text, chars=True, mode="index"):
        if token.text in terms:
            spans.append((token.startchar, token.endchar))
    return spans
