"""Keeping a library safe: backups, restoring one, and the doctor that checks the
database and the index and says what to do about damage."""

from __future__ import annotations

import shlex
import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING

from reader.library.door import translating
from reader.locations import LibraryPaths, reader_command
from reader.models import IndexState
from reader.search.meta import cut_short
from reader.store import review_texts, walk
from reader.store.backup import (
    BackupError,
    automatic_backup,
    check_library_file,
    copy_database,
    copy_problem,
    newest_sound_backup,
    set_aside,
    stamp,
)
from reader.store.base import StoreDamaged
from reader.store.database import migrations
from reader.store.drafts import draft_dirs, waiting_line

if TYPE_CHECKING:
    from reader.library.core import Library

# How the doctor starts the finding of an index that disagrees with the database.
_DISAGREES = "disagrees with the database: "
_BEHIND = "behind the database "


class DoctorReport(list[str]):
    """The lines ``reader doctor`` prints; ``ok`` is False when a problem remains."""

    ok: bool = True


def damaged_advice(root: Path) -> str:
    """What to do about a damaged database: the newest backup to restore, if there is one."""
    newest = newest_sound_backup(root)
    if newest is None:
        return (
            "no backup found; the file is left untouched (copy it somewhere safe before "
            "trying sqlite3's .recover)"
        )
    return (f"restore the newest backup with: {reader_command(root)} restore "
            f"{shlex.quote(str(newest))}")


def lost_advice(root: Path) -> str:
    """What to do about a database lost beside what its library left: restore a backup;
    with none, the files are left as they are, and starting anew is the user's choice."""
    advice = damaged_advice(root)
    if advice.startswith("no backup found"):
        database = LibraryPaths(root).database
        what = f"{database.name} and the rest of {root}" if database.exists() else str(root)
        return (
            "no backup found; nothing was written (to start a new library here, move "
            f"{what} aside first)"
        )
    return advice


def restore_damaged(root: Path, source: Path) -> Path:
    """Put a backup in place of a damaged database, which can be neither opened nor backed
    up: it is moved aside whole into ``backups/``. Returns where it went."""
    database = LibraryPaths(root).database
    check_library_file(source, migrations()[-1][0])
    aside = set_aside(database, root / "backups")
    copy_database(source, database)
    return aside


@translating
class Upkeep:
    """Keeping a library safe (``library.upkeep``)."""

    def __init__(self, library: Library) -> None:
        """A part of ``library``, reached through its connections and its other parts."""
        self._library = library

    def backup(self, dest: Path | None = None) -> Path:
        """A consistent copy of the database (safe while the reader runs elsewhere), to
        ``dest`` or the library's backups folder, which a read-only library cannot write
        (it is then refused, saying how to name a place)."""
        paths = self._library.paths
        if dest is None and self._library.read_only is not None:
            raise BackupError(
                f"the library in {paths.root} is read-only ({self._library.read_only}): its "
                "backups folder cannot be written; name where the copy goes: "
                "reader backup FILE"
            )
        target = dest or paths.root / "backups" / f"library-{stamp()}.sqlite"
        copy = copy_database(paths.database, target)
        problem = copy_problem(copy)
        if problem is not None:
            copy.unlink()  # else offered later as the backup to restore
            raise BackupError(f"not backed up: the library database is damaged ({problem}), "
                              f"and a copy would be too; {damaged_advice(paths.root)}")
        return copy

    def restore(self, source: Path) -> Path | None:
        """Replace the database with a backup; the current one is backed up first, and the
        search index is rebuilt from what was restored. Returns that first backup."""
        check_library_file(source, migrations()[-1][0])
        paths = self._library.paths
        saved = automatic_backup(paths.database, paths.root / "backups", "pre-restore")
        src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
        try:
            with self._library.session() as store:
                src.backup(store.conn)
        finally:
            src.close()
        self._library.close()
        walk.forget(paths.database)  # copied in page by page: the next start reads it all
        with self._library.session() as store:
            store.migrate()
        self._library.indexing.rebuild_index()
        return saved

    def check_pages(self) -> None:
        """The window's check before it opens (``reader.store.walk``): every page read and
        checked, unless the file is as a check found it sound."""
        with self._library.session() as store:
            problem = walk.check_unless_spared(self._library.paths.database, store.conn)
        if problem is not None:
            raise StoreDamaged(problem)

    def window_closed(self) -> None:
        """The file as the window left it checked for the next start (after the library's
        connections are closed: the last checkpoints the log)."""
        walk.checked(self._library.paths.database)

    def doctor(self) -> DoctorReport:
        """Check the database and the index; repair what is safe (the index); say what.

        The database is only ever read here: a damaged one is reported with the way back (a
        backup), never "repaired" by dropping what SQLite cannot read.
        """
        report = DoctorReport()
        with self._library.session() as store:
            try:
                problems = [r[0] for r in store.conn.execute("PRAGMA integrity_check(10)")]
                if problems == ["ok"]:
                    orphans = store.conn.execute("PRAGMA foreign_key_check").fetchall()
                    counts = store.stats()
                    generation = store.generation()
                    schema = store.schema_version
            except sqlite3.DatabaseError as exc:
                problems = [str(exc)]
        if problems != ["ok"]:
            report.ok = False
            walk.forget(self._library.paths.database)
            first = walk.finding(problems[0])
            more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
            report.append(f"database: DAMAGED: {first}{more}")
            report.append(damaged_advice(self._library.paths.root))
            report.append("search index: not checked (the database comes first)")
            return report
        figures = (
            f"schema {schema}; {counts['papers']:,} papers, {counts['starred']:,} starred, "
            f"{counts['with_notes']:,} with notes"
        )
        lost = self._library.loss.check() is not None
        # What an earlier rebuild kept aside and the database still lacks: a loss not over.
        waiting = [] if lost else self._waiting_lines()
        if lost:
            # Whole as a file, yet behind its own index: never called ok.
            report.ok = False
            report.append(f"database: intact as a file ({figures}), but it may have lost "
                          "changes: see the search index below")
        elif waiting:
            report.ok = False
            report.append(f"database: intact as a file ({figures}), but it may have lost "
                          "changes: what a rebuild kept aside holds what it lacks (below)")
        else:
            report.append(f"database: ok ({figures})")
        with self._library.session() as store:
            stopped = store.imports.stopped()
        for path, began in stopped:
            # Its papers are in; its replies (reviews, decisions) may not be, nor indexed.
            report.ok = False
            report.append(f"import: {path} (begun {began}) stopped part way; importing the "
                          "file again finishes it")
        held = waiting_line(draft_dirs(self._library.paths.drafts),
                            lambda paper_id: self._library.note(paper_id).text,
                            reader_command(self._library.paths.root))
        report.extend([held] if held else [])  # text a failed save left, said to the CLI too
        if orphans:
            report.ok = False
            tables = sorted({row[0] for row in orphans})
            report.append(
                f"foreign keys: {len(orphans):,} rows of {', '.join(tables)} point at missing "
                "rows (left as they are; nothing is deleted)"
            )
        if self._library.read_only is not None:
            why = self._index_problem(generation) if self._library.index.usable() else "missing"
            report.append(
                f"search index: {why or 'ok'}; not rebuilt, as the library is read-only "
                f"({self._library.read_only})" if why else
                f"search index: ok ({counts['papers']:,} documents, generation {generation}; "
                "the library is read-only)"
            )
            report.extend(self._reviews_lines())
            return report
        building = self._library.index.partial()
        if building is not None or self._library.index.written_elsewhere():
            progress = f": {building[0]:,} of {building[1]:,} indexed" if building else ""
            report.append(
                f"search index: being written by another process{progress}; not checked "
                "(it is brought up to date by that process)"
            )
            return report
        why = self._index_problem(generation)
        if why is not None and why.startswith(_BEHIND):
            # Behind by the changes since (a window quit while indexing, a write whose
            # index update another process's hold put off): caught up paper by paper, as
            # any reader does at start, rather than rebuilt whole.
            caught = self._library.sync_index()
            with self._library.session() as store:
                generation = store.generation()
            if self._index_problem(generation) is None:
                why = (f"was behind the database; caught up ({caught:,} "
                       f"paper{'s' * (caught != 1)} re-indexed; ")
        if why is None or why.startswith("was behind"):
            report.append(f"search index: {why or 'ok ('}{counts['papers']:,} documents, "
                          f"generation {generation})")
            report.extend(waiting)  # a loss found before is not over (said above)
            report.extend(self._reviews_lines())
            return report
        ahead = self._library.index.usable() and self._library.index.generation > generation
        evidence = ahead or why.startswith(_DISAGREES)
        seen = self._library.loss_evidence
        # Kept already as the library opened, before anything could checkpoint the log.
        kept = (seen.kept if seen is not None else None) or (
            self._library.loss.keep_aside() if evidence else None
        )
        rebuilt = self._library.indexing.mend_index()
        line = f"search index: {why}; rebuilt from the database ({rebuilt:,} documents)"
        if kept is not None:
            line += f"; the index it replaced and the write-ahead log are kept in {kept}"
        report.append(line)
        if ahead:
            # The index saw changes the database no longer holds: never explained away.
            report.ok = False
            report.append(damaged_advice(self._library.paths.root))
        if kept is not None:
            report.extend(self._recoverable_lines(kept, ahead))
        report.extend(self._reviews_lines())
        return report

    def _reviews_lines(self) -> list[str]:
        """The index of review text checked, once the papers' index is sound: built or
        caught up when it is missing or behind (nothing to say without replies); in a
        read-only library, said as it is, never mended."""
        with self._library.session() as store:
            total = review_texts.papers_with_replies(store.conn)
        if not total:
            return []
        state = self._library.reviews.reviews_state()
        if state is IndexState.OK:
            return [f"review text index: ok ({total:,} papers with replies)"]
        if state is IndexState.BUILDING:
            return ["review text index: being written by another process; not checked"]
        if self._library.read_only is not None:
            return [f"review text index: {state.value}; not rebuilt, as the library is "
                    f"read-only ({self._library.read_only})"]
        indexed = self._library.reviews.sync_reviews()
        said = "missing; built" if state is IndexState.MISSING else "behind; caught up"
        return [f"review text index: {said} ({indexed:,} papers' review text indexed)"]

    def _waiting_lines(self) -> list[str]:
        """What a folder kept by an earlier rebuild still holds that the database lacks:
        the loss it was kept for is not over until it is brought back or let go."""
        folders = self._library.recovery.kept_folders()
        if not folders:
            return []
        lines = self._recoverable_lines(folders[0], ahead=False)
        if lines:
            reader = reader_command(self._library.paths.root)
            lines.append(f"  (`{reader} recover --dismiss` lets them go; the folder is kept)")
        return lines

    def _recoverable_lines(self, kept: Path, ahead: bool) -> list[str]:
        """What the folder just kept holds that the database lacks, for the report: said
        when the database is behind its index (evidence of loss), else only when there is
        something the database lacks (papers lost whole are waiting too, until imported
        again or let go)."""
        found = self._library.recovery.recoverable(kept)
        if not ahead and (found is None or found.empty()):
            return []
        if found is None or found.empty():
            return ["recoverable: nothing the database lacks was found in what was kept"]
        reader = reader_command(self._library.paths.root)
        lines = [f"recoverable from {kept.name} (`{reader} recover` lists them, "
                 f"`{reader} recover --apply` brings them back):"]
        lines += [f"  {line}" for line in found.lines()]
        return lines

    def _index_problem(self, generation: int) -> str | None:
        """What is wrong with the index against a database at ``generation``, if anything."""
        if not self._library.index.usable():
            if cut_short(self._library.paths.index):
                return "a build from scratch was stopped before its end (not damaged)"
            return "missing or unreadable"
        damage = self._library.index.check()
        if damage is not None:
            return f"damaged ({damage})"
        indexed = self._library.index.generation
        if indexed < generation:
            return f"{_BEHIND}(generation {indexed} < {generation})"
        if indexed > generation:
            return (
                f"AHEAD of the database (generation {indexed} > {generation}): the database "
                "may have lost changes the index saw (a damaged or missing write-ahead log, "
                "an older copy put in its place)"
            )
        in_index = self._library.index.ids()
        with self._library.session() as store:
            in_db = set(store.all_ids())
        if in_index != in_db:
            return (
                f"{_DISAGREES}{len(in_index - in_db):,} documents of papers no longer in the "
                f"database, {len(in_db - in_index):,} papers missing"
            )
        return None
