"""What a write changed, said by the write itself, so that the library (not its caller)
decides what follows: the index re-reads only what it holds, and a window tells its own
writes from another writer's."""

from __future__ import annotations

from dataclasses import dataclass

#: A paper's fields a write may change, by what the reader shows of them.
STARRED, READ, SEEN = "starred", "read", "seen"
NOTE, TAGS, HIGHLIGHTS, METADATA = "note", "tags", "highlights", "metadata"

#: What the search index holds of a paper (reader/search/schema.py): its text (the record,
#: the note, tags and highlights) and the flags a search filters on there (starred).
#: Seen and read live in the database alone.
INDEXED = frozenset({STARRED, NOTE, TAGS, HIGHLIGHTS, METADATA})


@dataclass(frozen=True, slots=True)
class Change:
    """One write: the papers it changed (None when it names none, as a tag renamed across
    the library does), which of their fields, and the library generation it reached
    (None when it moved none: seen and read marks)."""

    papers: frozenset[int] | None
    fields: frozenset[str]
    generation: int | None = None

    @classmethod
    def of(cls, paper: int | None, *fields: str, generation: int | None = None) -> Change:
        """The change of ``fields`` of one paper (or of papers not named, for None)."""
        papers = None if paper is None else frozenset({paper})
        return cls(papers, frozenset(fields), generation)

    @property
    def indexed(self) -> bool:
        """Whether the search index holds anything this write changed."""
        return not self.fields.isdisjoint(INDEXED)

    def touches(self, *fields: str) -> bool:
        """Whether the write changed any of ``fields``."""
        return not self.fields.isdisjoint(fields)
