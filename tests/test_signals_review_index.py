"""The index of review text: ``review:`` searches the words of the replies (plain words keep
searching the papers' own fields), built beside the papers' index after it and never
before it, caught up on the papers whose replies changed, labelled while partial, and the
same built in worker processes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import reader.library.reviews as reviews_module
from reader.library import Library
from reader.models import IndexState

SAMPLE = Path(__file__).parent / "data" / "openreview-replies-3.jsonl"
FIRST = "DkHt2K1g2Y"  # the paper the rebuttal answers
REBUTTAL = {
    "id": "Rebut1abcd", "forum": FIRST, "replyto": "eIvfGTSO8v",
    "invitations": ["ICLR.cc/2026/Conference/Submission109/-/Official_Comment"],
    "signatures": ["ICLR.cc/2026/Conference/Submission109/Authors"],
    "cdate": 1763000000000, "mdate": 1763000000000,
    "content": {"title": {"value": "Rebuttal"},
                "comment": {"value": "We removed the data leakage between the splits; "
                                     "the zorblat baseline is retrained."}},
}


def _write(path: Path, rebuttal: dict[str, Any] | None = None) -> Path:
    rows = [json.loads(line) for line in SAMPLE.read_text(encoding="utf-8").splitlines()]
    rows[0]["replies"].append(rebuttal or REBUTTAL)
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _openreview_ids(library: Library, ids: list[int]) -> list[str | None]:
    return [p.openreview_id for p in library.papers(ids)]


def test_review_words_are_searched_apart_from_the_papers_words(
    empty_library: Library, tmp_path: Path
) -> None:
    library = empty_library
    library.import_files([_write(tmp_path / "s.jsonl")])
    assert (library.paths.root / "index-reviews").is_dir()
    assert library.reviews.reviews_state() == "ok"
    found = library.search('review:"data leakage"')
    assert found.notice is None
    assert _openreview_ids(library, found.ids) == [FIRST]
    # A phrase is a phrase: the words apart are not it.
    assert library.search('review:"leakage data"').ids == []
    # Plain words search the papers' own fields only.
    assert library.search("zorblat").ids == []
    assert _openreview_ids(library, library.search("review:zorblat").ids) == [FIRST]
    # With words of the paper, filters, and negated.
    assert _openreview_ids(library, library.search("image review:zorblat").ids) == [FIRST]
    assert library.search("review:zorblat decision:oral").ids == []
    others = library.search("-review:zorblat").ids
    assert sorted(_openreview_ids(library, others)) == ["qvEYHU4vub", "sLkis6UGKk"]


def test_review_text_waits_for_the_abstracts(empty_library: Library, tmp_path: Path) -> None:
    library = empty_library
    library.imports.write_files([_write(tmp_path / "s.jsonl")])
    # The papers' index is behind: review text is not indexed before it.
    assert library.reviews.sync_reviews() == 0
    assert library.reviews.reviews_state() == "missing"
    library.sync_index()
    outcome = library.search("review:zorblat")
    assert outcome.ids == [] and outcome.notice is not None
    assert "review text not indexed yet" in outcome.notice
    assert library.reviews.sync_reviews() == 3
    assert _openreview_ids(library, library.search("review:zorblat").ids) == [FIRST]


def test_a_partial_build_is_labelled(empty_library: Library, tmp_path: Path) -> None:
    library = empty_library
    library.import_files([_write(tmp_path / "s.jsonl")])
    library.reviews.review_index._building = (1, 3)  # as a build under way publishes its progress
    try:
        outcome = library.search("review:zorblat")
    finally:
        library.reviews.review_index._building = None
    assert outcome.notice == "partial: reviews of 1 of 3 papers indexed"
    assert _openreview_ids(library, outcome.ids) == [FIRST]


def test_only_changed_replies_are_indexed_again(empty_library: Library, tmp_path: Path) -> None:
    library = empty_library
    library.import_files([_write(tmp_path / "s.jsonl")])
    # A note saved, a star: the review text is not indexed again.
    paper = library.search("review:zorblat").ids[0]
    library.set_starred(paper, True)
    # The generation moved, the review text did not: a review search is not "partial".
    reply = next(r for r in library.replies(paper) if r.id == REBUTTAL["id"])
    library.add_highlight(paper, 0, 5, reply_id=reply.id)
    library.save_note(paper, "read the rebuttal")
    assert library.reviews.reviews_state() == "ok"
    assert library.search("review:zorblat").notice is None
    assert library.reviews.sync_reviews() == 0
    # The rebuttal edited: that paper alone is indexed again.
    edited = dict(REBUTTAL, mdate=REBUTTAL["mdate"] + 1000, content={
        "title": {"value": "Rebuttal"}, "comment": {"value": "The quixotic splits are fixed."}})
    summary = library.imports.write_files([_write(tmp_path / "e.jsonl", edited)])
    assert summary.reply_versions == 1
    library.sync_index()
    assert library.reviews.reviews_state() is IndexState.STALE
    assert library.reviews.sync_reviews() == 1
    assert library.search("review:zorblat").ids == []
    assert library.search("review:quixotic").ids == [paper]
    assert library.reviews.reviews_state() == "ok"


def test_a_build_in_worker_processes_finds_the_same(
    empty_library: Library, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(reviews_module, "REVIEWS_PARALLEL_MIN", 1)
    monkeypatch.setattr(reviews_module, "_REVIEWS_PROCS", 2)
    library = empty_library
    library.import_files([_write(tmp_path / "s.jsonl")])
    assert library.reviews.reviews_state() == "ok"
    assert _openreview_ids(library, library.search('review:"data leakage"').ids) == [FIRST]
    assert library.reviews.review_index.count() == 3
