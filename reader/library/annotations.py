"""The reader's own marks on papers: stars, notes and their versions, seen and read,
tags, highlights, and metadata edits.

Each write says what it changed (a :class:`~reader.library.changes.Change`) and the library
decides what follows (:meth:`reader.library.base.LibraryBase.wrote`): a read or seen
mark costs the index nothing; a star, a note, a tag, a highlight or an edited record
re-indexes those papers.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from reader.library.changes import HIGHLIGHTS, METADATA, NOTE, READ, SEEN, STARRED, TAGS, Change
from reader.library.door import translating
from reader.store.database import PaperNotFound, StoreError
from reader.store.highlights import display_text, shown_reply
from reader.store.notes import CLI, HEAD, NoteSaved, NoteState, NoteVersion
from reader.store.replies import reply_of
from reader.text.tags import normalize_tag

if TYPE_CHECKING:
    from reader.library.core import Library


@translating
class Annotations:
    """The reader's own marks on papers (``library.marks``):
    stars, notes, seen and read, tags, highlights, edited records."""

    def __init__(self, library: Library) -> None:
        """A part of ``library``, reached through its connections and its other parts."""
        self._library = library

    def set_starred(self, paper_id: int, starred: bool) -> Change:
        """Star or unstar a paper (stored at once)."""
        with self._library.session() as store:
            generation, moved = store.marks.set_starred(paper_id, starred)
        by = (1 if starred else -1) if moved else 0
        return self._library.wrote(
            Change.of(paper_id, STARRED, generation=generation, counts={"starred": by})
        )

    def save_note(
        self, paper_id: int, body: str, *, base: int | None = HEAD, writer: str = CLI,
        kind: str = "save",
    ) -> NoteSaved:
        """Store a paper's note as a new version written from version ``base`` (merged with
        what another writer stored since)."""
        with self._library.session() as store:
            saved = store.edits.save_note(paper_id, body, base, writer, kind)
            generation = store.generation()
        self._library.wrote(Change.of(paper_id, NOTE, generation=generation))
        return saved

    def note(self, paper_id: int) -> NoteState:
        """A paper's note as stored now, with its version."""
        with self._library.session() as store:
            return store.edits.note(paper_id)

    def note_versions(self, paper_id: int) -> list[NoteVersion]:
        """Every kept version of a paper's note, oldest first."""
        with self._library.session() as store:
            return store.edits.note_versions(paper_id)

    def mark_seen(self, paper_ids: Sequence[int]) -> int:
        """Record that papers were shown; returns how many were seen for the first time. A
        read-only library keeps no such record, and there is nothing to tell about it."""
        if self._library.read_only is not None:
            return 0
        with self._library.session() as store:
            count = store.marks.mark_seen(paper_ids)
        self._library.wrote(Change(frozenset(paper_ids), frozenset({SEEN})))
        return count

    def set_read(self, paper_id: int, read: bool) -> Change:
        """Mark a paper read (and so seen) or unread."""
        with self._library.session() as store:
            store.marks.set_read(paper_id, read)
        return self._library.wrote(Change.of(paper_id, READ, SEEN))

    def set_tags(self, paper_id: int, tags: Sequence[str]) -> Change:
        """Give a paper exactly these tags (normalised here)."""
        with self._library.session() as store:
            generation = store.marks.set_tags(
                paper_id, [t for t in (normalize_tag(t) for t in tags) if t]
            )
        return self._library.wrote(Change.of(paper_id, TAGS, generation=generation))

    def rename_tag(self, old: str, new: str) -> int:
        """Rename a tag on every paper; returns how many papers carried it."""
        target = normalize_tag(new)
        if not target:
            raise StoreError(f"{new!r} is not a usable tag")
        with self._library.session() as store:
            count = store.marks.rename_tag(normalize_tag(old), target)
            generation = store.generation()
        self._library.wrote(Change.of(None, TAGS, generation=generation))
        return count

    def delete_tag(self, tag: str) -> int:
        """Remove a tag from every paper; returns how many carried it."""
        with self._library.session() as store:
            count = store.marks.delete_tag(normalize_tag(tag))
            generation = store.generation()
        self._library.wrote(Change.of(None, TAGS, generation=generation))
        return count

    def add_highlight(
        self, paper_id: int, start: int, end: int, note: str = "", *, reply_id: str | None = None
    ) -> int:
        """Highlight characters ``start``–``end`` of the abstract as shown, or of the reply
        ``reply_id`` (a note id) as shown; the quote is taken from the stored text, so
        offsets and quote always agree. A passage of a reply re-indexes the paper's own
        fields (its highlights are searched there), never the replies' text."""
        with self._library.session() as store:
            if reply_id is None:
                paper = store.paper(paper_id)
                if paper is None:
                    raise PaperNotFound(f"no paper with id {paper_id}")
                text = display_text(paper.abstract)
            else:
                reply = reply_of(store.conn, paper_id, reply_id)
                if reply is None:
                    raise StoreError(f"the paper has no reply {reply_id}")
                text = shown_reply(reply).text
            if not 0 <= start < end <= len(text) or not text[start:end].strip():
                raise StoreError("nothing to highlight there")
            highlight_id = store.marks.add_highlight(
                paper_id, start, end, text[start:end], note, reply_id
            )
            generation = store.generation()
        self._library.wrote(Change.of(paper_id, HIGHLIGHTS, generation=generation))
        return highlight_id

    def set_highlight_note(self, highlight_id: int, note: str) -> Change:
        """Change a highlight's note."""
        with self._library.session() as store:
            store.marks.set_highlight_note(highlight_id, note)
            generation = store.generation()
        return self._library.wrote(Change.of(None, HIGHLIGHTS, generation=generation))

    def delete_highlight(self, highlight_id: int) -> Change:
        """Remove a highlight."""
        with self._library.session() as store:
            store.marks.delete_highlight(highlight_id)
            generation = store.generation()
        return self._library.wrote(Change.of(None, HIGHLIGHTS, generation=generation))

    def update_metadata(self, paper_id: int, values: dict[str, object]) -> Change:
        """Store checked metadata edits (see reader.store.metadata.check)."""
        with self._library.session() as store:
            generation = store.edits.update_metadata(paper_id, values)
        return self._library.wrote(Change.of(paper_id, METADATA, generation=generation))
