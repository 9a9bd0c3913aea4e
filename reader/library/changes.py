"""What a write changed, said by the write itself, so that the library (not its caller)
decides what follows: the index re-reads only what it holds, and a window tells its own
writes from another writer's."""

from __future__ import annotations

from collections.abc import Mapping

from msgspec import Struct

#: A paper's fields a write may change, by what the reader shows of them.
STARRED, READ, SEEN = "starred", "read", "seen"
NOTE, TAGS, HIGHLIGHTS, METADATA = "note", "tags", "highlights", "metadata"

#: What the search index holds of a paper (reader/search/schema.py): its text (the record,
#: the note, tags and highlights) and the flags a search filters on there (starred).
#: Seen and read live in the database alone.
INDEXED = frozenset({STARRED, NOTE, TAGS, HIGHLIGHTS, METADATA})

#: What the index holds of a paper as a flag alone, read by nothing but a search: a write of
#: nothing else is indexed before the next search, not as it is stored, so that a press of
#: `s` costs no index write.
FLAGS = frozenset({STARRED})


class Change(Struct, frozen=True):
    """One write: the papers it changed (None when it names none, as a tag renamed across
    the library does), which of their fields, and the library generation it reached
    (None when it moved none: seen and read marks), and how it moved the library's counts
    (by their names in ``triage_counts``: ``{"starred": 1}``) when the write knows, so a
    window adjusts the counts it shows instead of counting again (None: it does not)."""

    papers: frozenset[int] | None
    fields: frozenset[str]
    generation: int | None = None
    counts: Mapping[str, int] | None = None

    @classmethod
    def of(
        cls, paper: int | None, *fields: str, generation: int | None = None,
        counts: Mapping[str, int] | None = None,
    ) -> Change:
        """The change of ``fields`` of one paper (or of papers not named, for None)."""
        papers = None if paper is None else frozenset({paper})
        return cls(papers, frozenset(fields), generation, counts)

    @property
    def indexed(self) -> bool:
        """Whether the search index holds anything this write changed."""
        return self.touches(*INDEXED)

    @property
    def flags_only(self) -> bool:
        """Whether the index holds nothing of this write but flags a search filters on
        (:data:`FLAGS`): it may catch up before the next search instead of at once."""
        return self.indexed and self.fields & INDEXED <= FLAGS

    def touches(self, *fields: str) -> bool:
        """Whether the write changed any of ``fields``."""
        return not self.fields.isdisjoint(fields)
