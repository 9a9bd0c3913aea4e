"""The full-text index: Whoosh BM25F over titles, abstracts, keywords, authors and notes.

The index is derived from the database and can always be rebuilt from it. It records the
library generation it reflects in a small sidecar file; on open, a missing or foreign
index is rebuilt and a stale one catches up on the rows changed since.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable

from whoosh import index as whoosh_index
from whoosh.qparser import (
    GroupPlugin,
    WildcardPlugin,
    syntax,
)
from whoosh.query import And, Not, NullQuery, Or, Query, Term
from whoosh.searching import Searcher

from reader.search.analysis import WORD
from reader.search.highlight import highlight_terms
from reader.search.hits import Hits, Rest, distinct_papers, paper_ids_of
from reader.search.index_base import IndexBase, describe_damage, reads_index
from reader.search.index_writing import Writing
from reader.search.matching import run
from reader.search.parsing import FIELD_SPACE, STOP_STEMS, has_empty_terms, widen_fuzzy
from reader.search.query import Filter, ParsedQuery, SearchCancelled
from reader.search.query_words import OPERATORS, plain_words, without_symbols
from reader.search.schema import FIELD_BOOSTS, SEARCH_FIELDS
from reader.search.suggest import nearest_word
from reader.text.greek import untex_query


class SearchIndex(Writing, IndexBase):
    """One library's Whoosh index; safe to use from several threads of one process."""


    # -- state ------------------------------------------------------------------------------


    # -- writing ----------------------------------------------------------------------------


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
            searcher.avg_field_length = functools.lru_cache(maxsize=None)(
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
                        if segment is None:  # an index of no documents has no segment
                            continue
                        for fieldname in SEARCH_FIELDS:
                            lengths = self.path / segment.make_filename(f"._{fieldname}_len.col")
                            if documents and lengths.exists() and not lengths.stat().st_size:
                                raise ValueError(f"the {fieldname} lengths are cut short")
            finally:
                ix.close()
        except Exception as exc:  # noqa: BLE001 - any failure to read is damage
            return describe_damage(exc)
        return None

    @reads_index
    def count(self) -> int:
        """Number of documents in the index."""
        with self._lock:
            return int(self._current_searcher().doc_count())

    @reads_index
    def ids(self) -> set[int]:
        """The paper ids the index holds (for checking it against the database)."""
        with self._lock:
            searcher = self._current_searcher()
            return {int(fields["id"]) for fields in searcher.all_stored_fields()}

    def parse(self, text: str) -> tuple[Query, bool]:
        """Parse free text with the full syntax; a query that syntax cannot read is parsed as
        its plain words, and the flag says so (never raises)."""
        text = without_symbols(untex_query(FIELD_SPACE.sub(r"\1:", text)))
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

    @reads_index
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

    @reads_index
    def search(
        self,
        parsed: ParsedQuery,
        limit: int | None = None,
        cancelled: Callable[[], bool] | None = None,
        *,
        distinct: bool = False,
    ) -> Hits:
        """Paper ids matching the query, best first, and the words to highlight; raises
        SearchCancelled once ``cancelled()`` is true.

        With ``limit``, only the best ``limit`` papers are given. ``distinct`` says the
        caller knows the index to hold one document for each paper (it is current, and no
        build is under way): only the best documents are then looked up, and ``total``
        counts every match. Without it, a paper may have two documents (a catch-up under
        way), so the ids are looked up until ``limit`` papers are found, and ``total``
        is None when the others were not looked up."""
        query, fell_back = self.parse(parsed.text) if parsed.text else (None, False)
        filters = [_filter_query(f) for f in parsed.filters]
        parts = [q for q in [query, *filters] if q is not None]
        if not parts:
            return Hits([], total=0)
        combined = parts[0] if len(parts) == 1 else And(parts)
        top = limit if distinct else None
        with self._lock:
            searcher = self._current_searcher()
            try:
                results = run(searcher, combined, top, cancelled)
            except SearchCancelled:
                raise
            except Exception:  # noqa: BLE001 - a query that fails to run falls back too
                if fell_back or not parsed.text:
                    return Hits([], fell_back=True, total=0)
                query = self._plain_parser.parse(plain_words(parsed.text))
                fell_back = True
                results = run(
                    searcher, And([query, *filters]) if filters else query, top, cancelled
                )
            docs, scores = results
            ids, looked_up = paper_ids_of(searcher, docs, limit, str(self.path))
            terms = highlight_terms(query, searcher) if query is not None else frozenset()
        total: int | None = len(docs) if distinct or looked_up == len(docs) else None
        ids, score_list, total = distinct_papers(
            ids, [float(x) for x in scores[:looked_up]], total, looked_up
        )
        rest = None
        if limit is not None and (looked_up < len(docs) or len(ids) > limit):
            # Every match was ranked: the rest can follow without searching again.
            rest = Rest(searcher, docs, scores, str(self.path), self._lock,
                        lambda: self._searcher is searcher)
            ids, score_list = ids[:limit], score_list[:limit]
        return Hits(ids, score_list, terms, fell_back, total, rest)

    @reads_index
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
        return Hits(ids, scores, frozenset(w for w, _ in key_terms), total=len(ids)), key_terms


def _filter_query(f: Filter) -> Query:
    term = Term("flags", f.flag)
    return Not(term) if f.negated else term


