"""Search: every piece of the syntax, filters, highlights, broken queries, index upkeep."""

from __future__ import annotations

import shutil

import pytest

from reader.library import Library
from reader.search import highlight_spans
from tests.conftest import paper_id_with


def titles(library: Library, query: str) -> list[str]:
    return [p.title for p in library.store.papers(library.search(query).ids)]


def test_plain_word_ranks_the_title_match_first(library: Library) -> None:
    assert titles(library, "gdpval")[0].startswith("GDPval")


def test_field_query(library: Library) -> None:
    found = titles(library, "title:gdpval")
    assert len(found) == 1 and found[0].startswith("GDPval")


def test_phrase(library: Library) -> None:
    ids = library.search('abstract:"optimal transport"').ids
    assert ids
    for paper in library.store.papers(ids):
        assert "optimal transport" in paper.abstract.lower()
    assert paper_id_with(library, "Entropic Optimal Transport") in ids


def test_prefix(library: Library) -> None:
    ids = library.search("spars*").ids
    assert paper_id_with(library, "N:M sparsity") in ids


def test_typo_tolerance(library: Library) -> None:
    fuzzy = library.search("benchmrak~")
    assert paper_id_with(library, "We introduce GDPval") in fuzzy.ids
    assert "benchmark" in fuzzy.terms
    assert library.search("benchmrak").ids == []


def test_words_match_their_variants(library: Library) -> None:
    singular = set(library.search("benchmark").ids)
    plural = set(library.search("benchmarks").ids)
    assert singular == plural and len(singular) > 10


def test_boolean_operators(library: Library) -> None:
    both = set(library.search("unlearning AND graph").ids)
    either = set(library.search("unlearning OR graph").ids)
    without = set(library.search("unlearning NOT graph").ids)
    unlearning = set(library.search("unlearning").ids)
    assert both and both < either
    assert without == unlearning - both


def test_filters_combine_with_terms(library: Library) -> None:
    gdpval = paper_id_with(library, "We introduce GDPval")
    library.set_starred(gdpval, True)
    assert library.search("is:starred").ids == [gdpval]
    assert library.search("is:starred benchmark").ids == [gdpval]
    assert library.search("is:starred unlearning").ids == []
    assert gdpval not in library.search("-is:starred benchmark").ids
    library.save_note(gdpval, "Read the grading section again.")
    assert library.search("has:notes").ids == [gdpval]
    assert library.search("grading has:notes").ids == [gdpval]


def test_notes_are_searched(library: Library) -> None:
    paper = paper_id_with(library, "We introduce GDPval")
    library.save_note(paper, "zanzibar is my private reminder word")
    assert library.search("zanzibar").ids == [paper]
    library.save_note(paper, "")
    assert library.search("zanzibar").ids == []


def test_unknown_filter_is_reported_not_fatal(library: Library) -> None:
    outcome = library.search("is:bogus gdpval")
    assert outcome.ids and outcome.notice and "is:bogus" in outcome.notice


@pytest.mark.parametrize(
    "query",
    ['"unclosed', "(((", "title:", "AND OR NOT", "a OR", "***", "~~", "[bold]", "\x00\x1b[2J",
     "title:(", "abstract:\"", "foo^bar", "year:[2020 TO", "*", "?", ":", "-"],
)
def test_broken_queries_never_raise(library: Library, query: str) -> None:
    library.search(query)


def test_highlight_terms_cover_prefix_and_variants(library: Library) -> None:
    terms = library.search("spars*").terms
    assert {"sparse", "sparsity"} <= terms
    text = "Sparse models and sparsity."
    assert [text[a:b] for a, b in highlight_spans(text, terms)] == ["Sparse", "sparsity"]
    assert "benchmarks" in library.search("benchmark").terms


def test_index_is_rebuilt_when_missing(library: Library) -> None:
    library.index.close()
    shutil.rmtree(library.paths.index)
    assert library.index_state() == "missing"
    assert library.sync_index() == 38
    assert library.index_state() == "ok"
    assert library.search("gdpval").ids


def test_stale_index_catches_up_on_changed_papers_only(library: Library) -> None:
    paper = paper_id_with(library, "We introduce GDPval")
    library.store.set_note(paper, "quokka")  # written behind the index's back
    assert library.index_state() == "stale"
    assert library.sync_index() == 1
    assert library.search("quokka").ids == [paper]
    assert library.index_state() == "ok"


def test_title_matches_rank_first(library: Library) -> None:
    assert "Unlearning" in titles(library, "unlearning")[0]
    assert "Optimal Transport" in titles(library, "optimal transport")[0]
    top = titles(library, "benchmark evaluating")[:3]
    assert any(t.startswith("GDPval") for t in top), top
