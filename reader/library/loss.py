"""Evidence of lost writes: the search index holding changes the database does not.

Asked as every command and every window starts, so kept apart from the doctor
(reader.library.upkeep), whose modules the window's first frame does not wait for.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import TYPE_CHECKING

from msgspec import Struct

from reader.library.door import translating
from reader.locations import reader_command
from reader.search.meta import recorded_generation
from reader.store.backup import stamp

if TYPE_CHECKING:
    from reader.library.core import Library


class LossEvidence(Struct, frozen=True):
    """The search index holds changes the database does not: what was seen as the library
    opened, and where the evidence was kept before anything could replace it."""

    indexed: int
    current: int
    #: The folder holding the index, the write-ahead log and the database file; None when
    #: nothing could be copied (a read-only or full disk).
    kept: Path | None
    #: The library's directory (the commands it names are run on it).
    root: Path

    def __str__(self) -> str:
        reader = reader_command(self.root)
        where = (
            f"the index, the write-ahead log and the database file are kept in {self.kept} "
            f"(`{reader} recover` lists what they hold that the database lacks)"
            if self.kept is not None else "they could not be kept aside"
        )
        return (
            f"the search index holds changes the database does not (generation "
            f"{self.indexed} > {self.current}): the database may have lost them (a damaged or "
            f"missing write-ahead log, an older copy put in its place); {where}; "
            f"`{reader} doctor` checks the rest"
        )


@translating
class LossCheck:
    """Looking for evidence of lost writes, and keeping it (``library.loss``)."""

    def __init__(self, library: Library) -> None:
        """A part of ``library``, reached through its connections and its other parts."""
        self._library = library

    def check(self) -> LossEvidence | None:
        """Whether the index holds changes the database does not: evidence of lost writes,
        kept aside at once (the index, the write-ahead log, the database file), before a
        connection closing checkpoints the log away or a catching-up index rebuild
        replaces the index. Remembered in ``loss_evidence``."""
        if self._library.loss_evidence is not None:
            return self._library.loss_evidence
        # The index first: a writer elsewhere commits the database before its index, so the
        # index read first is never ahead of the database read after it. Its record is read
        # without opening it: every start asks, and Whoosh is no part of the first frame.
        indexed = recorded_generation(self._library.paths.index)
        if indexed < 0:
            return None
        with self._library.session() as store:
            current = store.generation()
        if indexed <= current or not self._library.index.usable():
            return None
        kept = self._kept_for(indexed)
        if kept is None and not self._library.read_only:
            kept = self.keep_aside()
        self._library.loss_evidence = LossEvidence(indexed, current, kept, self._library.paths.root)
        return self._library.loss_evidence

    def _kept_for(self, indexed: int) -> Path | None:
        """The newest folder kept already for this same evidence (an index at ``indexed``):
        a second copy of the same index would only hide the first behind it (the doctor and
        ``reader recover`` read the newest). One without a log is copied again only when a
        log has appeared since."""
        name = self._library.paths.database.name + "-wal"
        log_now = self._library.paths.database.with_name(name)
        have_log = log_now.is_file() and log_now.stat().st_size > 0
        for kept in self._library.recovery.kept_folders():
            if not (kept / "index").is_dir() or recorded_generation(kept / "index") != indexed:
                continue
            log = kept / name
            # A copy without a log is worth a second only when there is a log now.
            if (log.is_file() and log.stat().st_size) or not have_log:
                return kept
        return None

    def keep_aside(self) -> Path | None:
        """Copy the index, the write-ahead log and the database file it belongs to into a
        dated folder of the library before a rebuild replaces what may be the only trace of
        lost changes; None when nothing could be copied."""
        folder = self._library.paths.root / "kept" / f"before-rebuild-{stamp()}"
        try:
            folder.mkdir(parents=True)
            # The database file as the log found it (nothing is copied in from the log
            # before the last connection closes): the base its intact frames are applied
            # to when lost changes are recovered (see reader.library.recovery).
            wal = self._library.paths.database.with_name(self._library.paths.database.name + "-wal")
            if wal.is_file():
                shutil.copy2(wal, folder / wal.name)
                database = self._library.paths.database
                shutil.copy2(database, folder / database.name)
            if self._library.paths.index.is_dir():
                shutil.copytree(self._library.paths.index, folder / "index")
        except OSError:
            return None
        return folder
