"""Ranking with arrays gives Whoosh's own ranking: the same papers, in the same order, with
the same scores, for the whole list and for its first screen.

A real library in a temporary directory, indexed in several segments (one of them with
deleted documents), searched once through reader.search.ranking and once through Whoosh's own
collectors over the same index.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import reader.library.indexing as library_module
import reader.search.build_processes as build_processes
import reader.search.ranking as ranking
from reader.library import Library, parse_query
from reader.search.index import Hits
from reader.search.query import ParsedQuery
from tests.test_index_build import write_openreview

#: Plain words (an AND of common words above all), every operator, fields, typos,
#: prefixes, phrases (and one with slop, which goes to Whoosh), filters.
QUERIES = [
    "setting", "learning", "graph neural", "setting learning", "models memory reasoning",
    "graph AND neural AND learning", "learning OR graph", "graph NOT neural",
    "(graph OR memory) learning", "title:learning", "keywords:agents", "transport^3 graph",
    "benchmrak~", "learnign~ graph", "spars*", "\"optimal transport\"", "is:starred",
    "\"graph neural\"", "\"memory learning\"", "\"graph neural\"~2",
    "learning is:starred", "learning -is:starred", "quokka", "setting 17",
    # Several words (an AND put together from its parts' arrays), a boosted AND in one.
    "learning setting graph neural", "(graph learning)^2 memory",
    "learning (setting AND models)^0.5",
]


def _whooshs(library: Library, query: str, limit: int | None,
             monkeypatch: pytest.MonkeyPatch) -> Hits:
    """The hits Whoosh's own collectors give for ``query``."""
    with monkeypatch.context() as patch:
        patch.setattr(ranking, "ranked", lambda *args, **kwargs: None)
        return library.index.search(ParsedQuery(*_split(query)), limit=limit)


def _split(query: str) -> tuple[str, tuple]:
    parsed = parse_query(query)
    return parsed.text, tuple(parsed.filters)


@pytest.fixture
def segmented(empty_library: Library, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
              ) -> Library:
    """240 papers indexed by two processes into segments of 20, 40, 60 papers, then a few
    papers changed (their old documents deleted, their new ones in another segment)."""
    library = empty_library
    monkeypatch.setattr(library_module, "PARALLEL_MIN", 1)
    monkeypatch.setattr(library_module, "INDEX_PROCS", 2)
    monkeypatch.setattr(build_processes, "FIRST_SEGMENT", 20)
    library.import_files([write_openreview(tmp_path / "a.jsonl", 240)])
    for paper_id in (3, 50, 200):
        library.save_note(paper_id, "learning graph quokka notes")
    library.set_starred(7, True)
    library.set_starred(120, True)
    assert len(list(library.paths.index.glob("*.pst"))) >= 5
    return library


def test_ranking_with_arrays_is_whooshs(
    segmented: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every query ranks the same papers in the same order with exactly the same scores
    as Whoosh's collectors, and its first screen (the best 40) and best 3 are the first
    of those."""
    library = segmented
    answered = 0
    for query in QUERIES:
        expected = _whooshs(library, query, None, monkeypatch)
        got = library.index.search(ParsedQuery(*_split(query)))
        assert got.ids == expected.ids, query
        assert got.scores == expected.scores, query  # not approximately: the same floats
        assert got.terms == expected.terms, query
        for limit in (40, 3):
            first = library.index.search(ParsedQuery(*_split(query)), limit=limit)
            assert first.ids == expected.ids[:limit], (query, limit)
            assert _whooshs(library, query, limit, monkeypatch).ids == first.ids
        answered += len(expected.ids) > 3
    assert answered >= len(QUERIES) - 4


def test_queries_it_does_not_know_go_to_whoosh(segmented: Library) -> None:
    """A phrase with slop and a NOT are not ranked with arrays (Whoosh ranks them), and
    still answer; a plain phrase is."""
    searcher = segmented.index._current_searcher()
    for text in ('"setting 17"~3', "graph NOT neural"):
        query, _ = segmented.index.parse(text)
        assert ranking.ranked(searcher, query) is None, text
    assert segmented.index.search(ParsedQuery('"setting 17"~3')).ids
    phrase, _ = segmented.index.parse('"setting 17"')
    assert ranking.ranked(searcher, phrase) is not None
    plain, _ = segmented.index.parse("setting learning")
    assert ranking.ranked(searcher, plain) is not None


def test_phrases_of_several_words_rank_as_whoosh_ranks_them(
    segmented: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each word at the position after the one before, in every field: the same papers,
    order and scores as Whoosh's spans find, whether or not any paper has the phrase."""
    answered = 0
    for query in ('"setting 17 we study"', '"graph neural learning"', '"in setting 203"',
                  '"neural graph neural"', '"study transport"', '"quokka notes"'):
        expected = _whooshs(segmented, query, None, monkeypatch)
        got = segmented.index.search(ParsedQuery(*_split(query)))
        assert (got.ids, got.scores) == (expected.ids, expected.scores), query
        answered += bool(expected.ids)
    assert answered >= 3
