"""A file's sha256, taken on a thread of its own while the file is read for its records.

An import records the checksum of each file it reads (``reader imports`` shows it, and a
run of a file stopped part way is finished by the next run of the same bytes). Hashing a
conference's 360 MB takes 0.6 s, and the records of a file read a line at a time waited
for it: now it is taken beside them, and asked for once the import has written its first
batch (:func:`reader.intake.merge.import_papers`).
"""

from __future__ import annotations

import hashlib
import threading
from pathlib import Path

__all__ = ["CHECKSUM_THREAD", "Checksum"]

#: The name of the thread that takes a checksum. It reads its own file into its own digest
#: and touches nothing else, so a process may be forked while it runs (the child never
#: asks for the checksum): see ``reader.library.read_ahead``.
CHECKSUM_THREAD = "reader-checksum"


class Checksum:
    """The sha256 of a file's bytes as they are on the disk: known, or being taken."""

    def __init__(self, known: str = "") -> None:
        """A checksum known already (``""``: none was taken)."""
        self._digest = known
        self._thread: threading.Thread | None = None
        self._error: OSError | None = None
        self._path: Path | None = None

    @classmethod
    def taking(cls, path: Path, chunk: int) -> Checksum:
        """Start taking the checksum of ``path``, ``chunk`` bytes at a time, on another
        thread (hashing lets go of the interpreter: it runs on another core)."""
        checksum = cls()
        checksum._path = path
        checksum._thread = threading.Thread(
            target=checksum._take, args=(path, chunk), name=CHECKSUM_THREAD, daemon=True
        )
        checksum._thread.start()
        return checksum

    def _take(self, path: Path, chunk: int) -> None:
        digest = hashlib.sha256()
        try:
            with path.open("rb") as raw:
                while data := raw.read(chunk):
                    digest.update(data)
        except OSError as exc:
            self._error = exc
            return
        self._digest = digest.hexdigest()

    def ready(self) -> bool:
        """Whether :meth:`hexdigest` would answer at once."""
        return self._thread is None or not self._thread.is_alive()

    def hexdigest(self) -> str:
        """The checksum, once taken (waiting for it); a file that could not be read whole
        raises :class:`ImportFormatError`."""
        if self._thread is not None:
            self._thread.join()
        if self._error is not None:
            # Here, not at the top: reader.sources, whose error this is, imports this module.
            from reader.sources import ImportFormatError

            error = self._error
            raise ImportFormatError(
                f"{self._path}: cannot read: {error.strerror or error}"
            ) from error
        return self._digest
