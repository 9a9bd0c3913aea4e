"""Evidence of lost writes: the search index holding changes the database does not."""

from __future__ import annotations

from pathlib import Path

from msgspec import Struct

from reader.locations import reader_command


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
