"""Small writes keep the index small to change: a catch-up's commit merges only the
smallest segments, never the large ones a build wrote."""

from __future__ import annotations

import pytest
from whoosh import index as whoosh_index

import reader.search.index_writing as index_writing
from reader.library import Library


def _segments(library: Library) -> dict[str, int]:
    ix = whoosh_index.open_dir(str(library.paths.index))
    try:
        return {s.segment_id(): s.doc_count_all() for s in ix._segments()}
    finally:
        ix.close()


def test_catch_ups_merge_small_segments_and_never_a_large_one(
    library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The sample's segment (38 papers) stands for a large one.
    monkeypatch.setattr(index_writing, "MERGE_BELOW", 20)
    large = {name for name, count in _segments(library).items() if count >= 20}
    assert large
    ids = library.store.all_ids()

    for paper_id in ids[:25]:  # a star at a time, each indexed on its own
        library.set_starred(paper_id, True)
        library.sync_index()  # (a star alone is indexed at the next search)

    after = _segments(library)
    assert large <= set(after)
    assert len(after) < 10  # 25 one-paper segments did not pile up
    grown = {name for name, count in after.items() if count >= 20} - large
    assert grown  # small ones merged until one grew past the bound...

    for paper_id in ids[25:33]:
        library.set_starred(paper_id, True)
        library.sync_index()

    later = _segments(library)
    assert large | grown <= set(later)  # ...and it is never merged again
    assert len(later) < 10
    assert sorted(library.search("is:starred").ids) == sorted(ids[:33])
    assert library.search("transport").ids  # the large segment still answers
