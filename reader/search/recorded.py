"""What an index (a copy kept aside, say) records of the reader's marks.

A document stores only its paper's id and a digest; everything else is kept as words to
search by. What can be read back from those words: which papers the index holds, which
were starred (the ``starred`` flag), which had a note (the ``notes`` flag; its text is not
recoverable, only its stemmed words), and the words of each paper's tags (a tag's words,
not the tag as written: ``graph-nets`` is indexed as ``graph`` and ``nets``). Read marks are
not indexed at all.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from whoosh import index as whoosh_index

__all__ = ["IndexedMarks", "recorded_in"]


@dataclass(slots=True)
class IndexedMarks:
    """The papers and marks an index records."""

    ids: set[int] = field(default_factory=set)
    starred: set[int] = field(default_factory=set)
    #: Papers whose document had a note (its text is not stored).
    noted: set[int] = field(default_factory=set)
    #: Paper id → the words of its tags.
    tag_words: dict[int, set[str]] = field(default_factory=dict)


def recorded_in(path: Path) -> IndexedMarks:
    """What the index in the directory ``path`` records; raises what Whoosh raises for a
    directory holding no readable index."""
    marks = IndexedMarks()
    ix = whoosh_index.open_dir(str(path))
    try:
        with ix.searcher() as searcher:
            reader = searcher.reader()
            ids: dict[int, int] = {}
            for docnum, stored in reader.iter_docs():
                ids[docnum] = int(stored["id"])
            marks.ids = set(ids.values())

            def papers(fieldname: str, word: str) -> set[int]:
                if (fieldname, word) not in reader:
                    return set()
                postings = reader.postings(fieldname, word).all_ids()
                return {ids[d] for d in postings if d in ids}

            marks.starred = papers("flags", "starred")
            marks.noted = papers("flags", "notes")
            if "tags" in reader.indexed_field_names():
                for word in reader.field_terms("tags"):
                    for paper in papers("tags", word):
                        marks.tag_words.setdefault(paper, set()).add(word)
    finally:
        ix.close()
    return marks
