"""Bringing back what a damaged library lost, from what the doctor kept aside.

When the database is behind its own index, the doctor keeps the index, the write-ahead log
and the database file in ``kept/before-rebuild-*`` before rebuilding anything. From them:

- the log's intact frames, applied to the kept database file (:mod:`reader.store.salvage`),
  give the library as its last writer left it, but for the pages the damage hit: stars,
  read marks, tags and note text, each as written;
- the kept index records which papers were starred and which had a note (not its text),
  and the words of their tags (not the tags as written); it knows nothing of read marks.

:meth:`Recovery.recoverable` says what those hold that the database lacks;
:meth:`Recovery.recover` brings back the kinds the user chooses, through the same writes a
key press makes, and never over what the library holds now: a note is brought back only to
a paper with none, and a tag is added, never put in another's place.
"""

from __future__ import annotations

import sqlite3
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from reader.library.door import translating
from reader.store.notes import CLI
from reader.text.render import plain_line
from reader.text.tags import normalize_tag

if TYPE_CHECKING:
    from reader.library.core import Library
    from reader.store.salvage import SavedMarks

__all__ = ["KINDS", "Recoverable", "Recovery"]

#: What can be brought back, as the command names it.
KINDS = ("stars", "read", "tags", "notes")
_LOG = "library.sqlite-wal"
_DATABASE = "library.sqlite"


@dataclass(slots=True)
class Recoverable:
    """What a kept folder holds that the database lacks, paper ids with their titles."""

    folder: Path
    #: Where it was read from, said in a line each (the log salvaged, the index read).
    sources: list[str] = field(default_factory=list)
    titles: dict[int, str] = field(default_factory=dict)
    stars: set[int] = field(default_factory=set)
    read: dict[int, str] = field(default_factory=dict)
    tags: dict[int, set[str]] = field(default_factory=dict)
    notes: dict[int, str] = field(default_factory=dict)
    #: Notes found whose paper holds another note now: named, never written over.
    other_notes: dict[int, str] = field(default_factory=dict)
    #: Papers the index says had a note the database lacks, whose text is not recoverable.
    noted: set[int] = field(default_factory=set)
    #: Tag words the index records that no tag of the paper holds (the tags not known).
    tag_words: dict[int, set[str]] = field(default_factory=dict)
    #: Papers recorded but no longer in the database (re-importing their file brings them
    #: back; the marks they carried are not applied to anything).
    lost_papers: dict[int, str] = field(default_factory=dict)

    def empty(self) -> bool:
        """Whether nothing can be brought back, nor is named as lost."""
        return not (self.stars or self.read or self.tags or self.notes or self.other_notes
                    or self.noted or self.tag_words or self.lost_papers)

    def restorable(self) -> bool:
        """Whether anything can be brought back (not only named)."""
        return bool(self.stars or self.read or self.tags or self.notes)

    def lines(self) -> list[str]:
        """What can be recovered, a line a kind, then what cannot."""
        lines: list[str] = []
        if self.stars:
            lines.append(f"stars: {len(self.stars):,} ({self._names(self.stars)})")
        if self.read:
            lines.append(f"read marks: {len(self.read):,} ({self._names(self.read)})")
        if self.tags:
            count = sum(len(t) for t in self.tags.values())
            lines.append(f"tags: {count:,} on {len(self.tags):,} papers "
                         f"({self._names(self.tags, self.tags)})")
        if self.notes:
            lines.append(f"notes: {len(self.notes):,} ({self._names(self.notes)})")
        if self.other_notes:
            lines.append(f"not brought back: {len(self.other_notes):,} notes whose paper holds "
                         f"another now ({self._names(self.other_notes)})")
        if self.noted:
            papers = "1 paper" if len(self.noted) == 1 else f"{len(self.noted):,} papers"
            lines.append(f"not recoverable: the text of the notes of {papers} the index "
                         f"records ({self._names(self.noted)}): the index keeps a note's "
                         "words, not the note")
        if self.tag_words:
            words = sorted({w for ws in self.tag_words.values() for w in ws})
            lines.append(f"not recoverable as tags: the tag words {', '.join(words[:10])} "
                         f"on {len(self.tag_words):,} papers (the index keeps a tag's words)")
        if self.lost_papers:
            lines.append(f"papers no longer in the database: {len(self.lost_papers):,} "
                         f"({self._names(self.lost_papers)}); importing their file again "
                         "brings them back")
        return lines

    def _names(self, ids: object, tags: dict[int, set[str]] | None = None) -> str:
        """A few of the papers, by title (with their tags), and how many more."""
        chosen = sorted(ids)  # type: ignore[call-overload]
        shown = []
        for paper in chosen[:3]:
            # Shown as the reader shows it: TeX as Unicode, no "{Reason}" braces.
            title = plain_line(self.titles.get(paper) or self.lost_papers.get(paper) or "")
            title = title or f"#{paper}"
            title = title if len(title) <= 50 else title[:49] + "…"
            extra = f" [{', '.join(sorted(tags[paper]))}]" if tags else ""
            shown.append(f"{title}{extra}")
        more = f" and {len(chosen) - 3:,} more" if len(chosen) > 3 else ""
        return "; ".join(shown) + more


@translating
class Recovery:
    """Finding and bringing back what was lost (``library.recovery``)."""

    def __init__(self, library: Library) -> None:
        """A part of ``library``, reached through its connections and its other parts."""
        self._library = library

    def kept_folders(self) -> list[Path]:
        """The folders the doctor kept aside before a rebuild, newest first."""
        kept = self._library.paths.root / "kept"
        return sorted(kept.glob("before-rebuild-*"), reverse=True) if kept.is_dir() else []

    def dismiss(self) -> Path | None:
        """Let the newest kept folder go: renamed ``dismissed-…`` (nothing is deleted), so
        the doctor no longer counts what it holds as waiting; None when none was kept."""
        folders = self.kept_folders()
        if not folders:
            return None
        target = folders[0].with_name(folders[0].name.replace("before-rebuild-", "dismissed-", 1))
        folders[0].rename(target)
        return target

    def recoverable(self, folder: Path | None = None) -> Recoverable | None:
        """What ``folder`` (default: the newest kept folder) holds that the database lacks;
        None when no folder was kept."""
        if folder is None:
            folders = self.kept_folders()
            if not folders:
                return None
            folder = folders[0]
        # The salvage is imported when a loss is looked into, never as a window starts.
        from reader.store.salvage import read_marks

        found = Recoverable(folder)
        with self._library.session() as store:
            now = read_marks(store.conn)
        saved = _salvaged(folder, found.sources)
        if saved is not None:
            _compare(found, saved, now)
        _from_index(found, folder, now, saved)
        found.titles.update(now.titles)
        return found

    def recover(self, found: Recoverable, kinds: tuple[str, ...] = KINDS) -> list[str]:
        """Bring back the ``kinds`` of :data:`KINDS` that ``found`` holds; a line a kind
        saying how many were brought back."""
        done: list[str] = []
        if "stars" in kinds and found.stars:
            for paper in sorted(found.stars):
                self._library.marks.set_starred(paper, True)
            done.append(f"stars brought back: {len(found.stars):,}")
        if "read" in kinds and found.read:
            for paper in sorted(found.read):
                self._library.marks.set_read(paper, True)
            done.append(f"read marks brought back: {len(found.read):,}")
        if "tags" in kinds and found.tags:
            from reader.store.salvage import read_marks

            count = 0
            with self._library.session() as store:
                now = read_marks(store.conn).tags
            for paper, tags in sorted(found.tags.items()):
                have = sorted(now.get(paper, set()))
                self._library.marks.set_tags(paper, [*have, *sorted(tags)])
                count += len(tags)
            done.append(f"tags brought back: {count:,} on {len(found.tags):,} papers")
        if "notes" in kinds and found.notes:
            for paper, body in sorted(found.notes.items()):
                self._library.marks.save_note(paper, body, writer=CLI, kind="restore")
            done.append(f"notes brought back: {len(found.notes):,}")
        return done


def _salvaged(folder: Path, sources: list[str]) -> SavedMarks | None:
    """The marks of the kept database file with the kept log's intact frames applied;
    None (and a line in ``sources`` saying why) when there is no log or it gives nothing."""
    log, base = folder / _LOG, folder / _DATABASE
    if not log.is_file() or log.stat().st_size == 0:
        # Opened once since the loss, the library copied in what its log held up to the
        # damage and dropped the rest.
        sources.append("write-ahead log: none was kept with changes in it (it was gone by "
                       "then)")
        return None
    if not base.is_file():
        sources.append("write-ahead log: kept without the database file it belongs to; "
                       "not read")
        return None
    from reader.store.salvage import marks_in, salvage_log

    with tempfile.TemporaryDirectory() as scratch:
        try:
            salvaged = salvage_log(base, log, Path(scratch) / _DATABASE)
            marks = marks_in(salvaged.path)
        except (OSError, ValueError, sqlite3.Error) as exc:
            sources.append(f"write-ahead log: unreadable ({exc})")
            return None
    state = ("whole" if salvaged.check == "ok"
             else f"damaged ({salvaged.check}): read as far as it goes")
    sources.append(
        f"write-ahead log: {salvaged.applied:,} intact pages applied to the kept database, "
        f"{salvaged.damaged:,} damaged passed over; the result is {state}"
    )
    return marks


def _compare(found: Recoverable, saved: SavedMarks, now: SavedMarks) -> None:
    """What the salvaged copy holds that the database lacks, into ``found``."""
    here = set(now.titles)
    found.titles.update(saved.titles)
    found.lost_papers.update({p: t for p, t in saved.titles.items() if p not in here})
    found.stars |= {p for p in saved.starred - now.starred if p in here}
    found.read.update({p: at for p, at in saved.read.items() if p in here and p not in now.read})
    for paper, tags in saved.tags.items():
        missing = {t for t in tags if normalize_tag(t)} - now.tags.get(paper, set())
        if paper in here and missing:
            found.tags[paper] = missing
    for paper, body in saved.notes.items():
        if paper not in here or now.notes.get(paper, "").strip() == body.strip():
            continue
        if now.notes.get(paper, "").strip():
            found.other_notes[paper] = body
        else:
            found.notes[paper] = body


def _from_index(
    found: Recoverable, folder: Path, now: SavedMarks, saved: SavedMarks | None
) -> None:
    """What the kept index records that neither the database nor the salvaged log holds."""
    from reader.search.recorded import recorded_in

    try:
        marks = recorded_in(folder / "index")
    except Exception as exc:  # noqa: BLE001 - whatever Whoosh raises for an unreadable index
        found.sources.append(f"index: unreadable ({type(exc).__name__}: {exc})")
        return
    found.sources.append(f"index: {len(marks.ids):,} papers recorded")
    here = set(now.titles)
    known = set(saved.titles) if saved is not None else set()
    for paper in marks.ids - here - set(found.lost_papers):
        found.lost_papers[paper] = ""
    found.stars |= {p for p in marks.starred - now.starred if p in here}
    for paper in marks.noted:
        if paper in here and not now.notes.get(paper, "").strip() and paper not in found.notes:
            found.noted.add(paper)
    for paper, words in marks.tag_words.items():
        if paper not in here or paper in known:
            continue  # the log's tags, whole, say more than the index's words
        have = {w for tag in now.tags.get(paper, set()) for w in _words(tag)}
        if words - have:
            found.tag_words[paper] = words - have


def _words(tag: str) -> set[str]:
    """The words the index makes of a tag."""
    from reader.search.analysis import ANALYZER

    return {token.text for token in ANALYZER(tag)}
