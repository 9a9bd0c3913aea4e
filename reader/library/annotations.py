"""The reader's own marks on papers: stars, notes and their versions, seen and read,
tags, highlights, and metadata edits; each write also reaches the index."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from reader.store.database import StoreError
from reader.store.highlights import display_text
from reader.store.notes import CLI, HEAD, NoteSaved, NoteState, NoteVersion
from reader.text.tags import normalize_tag

if TYPE_CHECKING:
    pass

from reader.library.base import LibraryBase


class Annotations(LibraryBase):
    """The reader's own marks on papers (mixed into :class:`reader.library.core.Library`)."""

    def set_starred(self, paper_id: int, starred: bool, sync: bool = True) -> None:
        """Star or unstar a paper (stored at once), then re-index it."""
        with self.session() as store:
            store.set_starred(paper_id, starred)
        if sync:
            self.sync_index()

    def save_note(
        self, paper_id: int, body: str, sync: bool = True, *, base: int | None = HEAD,
        writer: str = CLI, kind: str = "save",
    ) -> NoteSaved:
        """Store a paper's note as a new version written from version ``base`` (merged with
        what another writer stored since), then re-index it."""
        with self.session() as store:
            saved = store.save_note(paper_id, body, base, writer, kind)
        if sync:
            self.sync_index()
        return saved

    def note(self, paper_id: int) -> NoteState:
        """A paper's note as stored now, with its version."""
        with self.session() as store:
            return store.note(paper_id)

    def note_versions(self, paper_id: int) -> list[NoteVersion]:
        """Every kept version of a paper's note, oldest first."""
        with self.session() as store:
            return store.note_versions(paper_id)

    def mark_seen(self, paper_ids: Sequence[int]) -> int:
        """Record that papers were shown (nothing to re-index); a read-only library keeps
        no such record, and there is nothing to tell about it."""
        if self.read_only is not None:
            return 0
        with self.session() as store:
            return store.mark_seen(paper_ids)

    def set_read(self, paper_id: int, read: bool) -> None:
        """Mark a paper read or unread (nothing to re-index)."""
        with self.session() as store:
            store.set_read(paper_id, read)

    def set_tags(self, paper_id: int, tags: Sequence[str], sync: bool = True) -> None:
        """Give a paper exactly these tags (normalised here), then re-index it."""
        with self.session() as store:
            store.set_tags(paper_id, [t for t in (normalize_tag(t) for t in tags) if t])
        if sync:
            self.sync_index()

    def rename_tag(self, old: str, new: str, sync: bool = True) -> int:
        """Rename a tag on every paper; returns how many papers carried it."""
        target = normalize_tag(new)
        if not target:
            raise StoreError(f"{new!r} is not a usable tag")
        with self.session() as store:
            count = store.rename_tag(normalize_tag(old), target)
        if sync:
            self.sync_index()
        return count

    def delete_tag(self, tag: str, sync: bool = True) -> int:
        """Remove a tag from every paper; returns how many carried it."""
        with self.session() as store:
            count = store.delete_tag(normalize_tag(tag))
        if sync:
            self.sync_index()
        return count

    def add_highlight(
        self, paper_id: int, start: int, end: int, note: str = "", sync: bool = True
    ) -> int:
        """Highlight characters ``start``–``end`` of the abstract as shown; the quote is
        taken from the stored abstract, so offsets and quote always agree."""
        with self.session() as store:
            paper = store.paper(paper_id)
            if paper is None:
                raise StoreError(f"no paper with id {paper_id}")
            text = display_text(paper.abstract)
            if not 0 <= start < end <= len(text) or not text[start:end].strip():
                raise StoreError("nothing to highlight there")
            highlight_id = store.add_highlight(paper_id, start, end, text[start:end], note)
        if sync:
            self.sync_index()
        return highlight_id

    def set_highlight_note(self, highlight_id: int, note: str, sync: bool = True) -> None:
        """Change a highlight's note."""
        with self.session() as store:
            store.set_highlight_note(highlight_id, note)
        if sync:
            self.sync_index()

    def delete_highlight(self, highlight_id: int, sync: bool = True) -> None:
        """Remove a highlight."""
        with self.session() as store:
            store.delete_highlight(highlight_id)
        if sync:
            self.sync_index()

    def update_metadata(self, paper_id: int, values: dict[str, object], sync: bool = True) -> None:
        """Store checked metadata edits (see reader.store.metadata.check), then re-index."""
        with self.session() as store:
            store.update_metadata(paper_id, values)
        if sync:
            self.sync_index()
