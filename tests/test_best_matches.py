"""A search asked for its best matches only (``reader search`` shows twenty) looks up only
those, counts the rest, and gives what a search of every match gives: the same papers
first, with the same scores, and the same count. And the words of each field, read from the
term files at once for a typo's search, are the words Whoosh's lexicon lists.

A real library in a temporary directory, indexed in several segments (one with deleted
documents), searched through the library and through the command.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

import reader.library.indexing as library_module
import reader.search.build_processes as build_processes
from reader.cli import cli
from reader.library import Library
from reader.search.lexicon import field_words
from tests.test_index_build import write_openreview
from tests.test_ranking import QUERIES


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
    assert len(list(library.paths.index.glob("*.pst"))) >= 5
    return library


def _same_best(library: Library, query: str, limit: int) -> None:
    every = library.search(query)
    best = library.search(query, limit=limit)
    assert best.ids == every.ids[:limit], query
    assert best.scores == every.scores[:limit], query
    assert best.count == len(every.ids), query
    assert best.terms == every.terms, query


def test_the_best_matches_are_the_first_of_every_match_and_all_are_counted(
    segmented: Library,
) -> None:
    counted = 0
    for query in [*QUERIES, "setting", "in we study"]:
        for limit in (1, 3, 20):
            _same_best(segmented, query, limit)
        counted += segmented.search(query, limit=3).count > 3
    assert counted >= 10


def test_while_the_index_is_behind_the_best_and_the_count_are_still_right(
    segmented: Library, tmp_path: Path
) -> None:
    """Papers written and not yet indexed: a paper may then have two documents in the
    index, so every match is looked up; the answer is the same."""
    segmented.imports.write_files([write_openreview(tmp_path / "b.jsonl", 30, offset=240)])
    assert segmented.search("learning").partial is not None
    for query in ("learning", "graph neural", "spars*", '"optimal transport"'):
        _same_best(segmented, query, 3)


def test_the_words_of_a_field_are_whooshs_lexicon(segmented: Library) -> None:
    searcher = segmented.index._current_searcher()
    fields = [name for name in searcher.schema.names() if searcher.schema[name].indexed]
    listed = 0
    for leaf, _ in searcher.reader().leaf_readers():
        for fieldname in fields:
            expected = [word.decode("utf-8") for word in leaf.lexicon(fieldname)]
            if fieldname == "year":
                continue  # numbers are stored as binary terms: never asked for as words
            assert field_words(leaf, fieldname) == expected, fieldname
            listed += len(expected)
    assert listed > 1000


def test_the_command_shows_the_best_of_many_matches_and_counts_them(
    segmented: Library,
) -> None:
    every = segmented.search("learning")
    assert len(every.ids) > 100
    root = segmented.paths.root
    result = CliRunner().invoke(
        cli, ["--library", str(root), "search", "learning", "--limit", "5"], obj={}
    )
    assert result.exit_code == 0, result.output
    lines = result.stdout.strip().splitlines()
    assert [int(line.split()[0]) for line in lines] == every.ids[:5]
    assert f"Showing 5 of {len(every.ids):,}" in result.output


def test_the_rest_of_the_first_matches_while_the_index_is_behind(
    segmented: Library, tmp_path: Path
) -> None:
    """A paper may have two documents while the index is behind: the rest of the first
    matches, looked up from the same search, lists each paper once, as a search of every
    match does."""
    segmented.imports.write_files([write_openreview(tmp_path / "b.jsonl", 30, offset=240)])
    for query in ("learning", "graph neural", "spars*", '"optimal transport"'):
        every = segmented.search(query)
        rest = segmented.searching.complete(segmented.search(query, first=3))
        assert rest.complete, query
        assert (rest.ids, rest.scores) == (every.ids, every.scores), query
