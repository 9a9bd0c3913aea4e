"""Undoing an import, as the user sees it after: the papers it added leave the search
index and the index of review text (no longer found, and the indexes shrink), and an
import that only merged into papers already there is undone too (its changes reverted)."""

from __future__ import annotations

from pathlib import Path

from whoosh import index as whoosh_index

from reader.library import Library, parse_query

DATA = Path(__file__).parent / "data"


def _documents(path: Path) -> tuple[int, int]:
    """Live documents, and all documents the index's files hold (deleted ones too)."""
    ix = whoosh_index.open_dir(str(path))
    try:
        return ix.doc_count(), ix.doc_count_all()
    finally:
        ix.close()


def _size(path: Path) -> int:
    return sum(f.stat().st_size for f in path.iterdir() if f.is_file())


def test_undone_papers_leave_the_index_and_it_shrinks(library: Library) -> None:
    before = _size(library.index.path)
    library.import_files([DATA / "openreview-40.jsonl"])
    grown = _size(library.index.path)
    assert _documents(library.index.path) == (78, 78)
    title = library.papers(library.search("is:new").ids[:1])[0].title
    result = library.undo_last_import()
    assert result is not None and result.removed == 40
    assert library.search(f'title:"{title}"').ids == []
    assert _documents(library.index.path) == (38, 38)
    assert _size(library.index.path) < before + (grown - before) / 2


def test_undone_papers_leave_the_index_of_review_text(library: Library) -> None:
    library.import_files([DATA / "openreview-replies-3.jsonl"])
    reviews = library.paths.root / "index-reviews"
    live, _ = _documents(reviews)
    assert live == 3 and library.search_reviews(parse_query("review:model"))[0]
    library.undo_last_import()
    assert library.search_reviews(parse_query("review:model"))[0] == []
    assert _documents(reviews) == (0, 0)
