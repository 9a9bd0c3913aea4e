"""Every error reader tells a user about, in one tree, and what a failed write means in words.

Each error carries a short ``title`` and a one-line ``message`` for the user; ``str()`` of
an error is its source's own words (what the front ends quote in parentheses), and is the
message itself for an error raised by reader's own code. The kinds are what a user can act
on; each class the core raises is one of them, so a front end catches the kind it can
answer and the root for the rest::

    ReaderError                      anything reader can explain in one line
    ├── Damaged                      a file of the library cannot be read as what it is
    │   ├── StoreDamaged             (store/base.py) the database would not open: damaged
    │   ├── DatabaseLost             (store/base.py) the database gone or emptied beside
    │   │                            what a library leaves
    │   └── IndexDamaged             a search index file: the index is rebuilt
    ├── Busy                         another process holds the library (or its index)
    │   └── IndexBusy                another process writes the index
    ├── DiskFull                     a full disk, a used-up quota, a file-size limit
    ├── ReadOnly                     the library (or a file asked for) cannot be written
    │   └── ReadOnlyLibrary          (store/base.py) a write to a library opened read-only
    ├── BadInput                     a file or a value that cannot be read or used
    │   ├── ImportFormatError        (sources) a file that is not a list of papers
    │   ├── CitationError            (cite) an unknown style or format, a broken style
    │   ├── BackupError              (store/backup.py) a backup that cannot be used
    │   ├── NotALibraryDirectory     (locations.py) a library path that cannot be one
    │   └── StoreError               (store/base.py) a change the library refuses
    ├── NotFound                     no paper matches what was named
    │   └── PaperNotFound            (store/base.py) no paper with that id
    └── NetworkError                 a service could not be reached or answered badly
        ├── FetchError               (sources/remote) the ids asked for, said why
        └── Failure                  (sources/remote/client.py) one request's answer

Raw ``sqlite3``, ``OSError`` and Whoosh errors do not cross the door: ``reader.library``
turns them into these kinds with :func:`translate`, keeping the wording of
:func:`describe_write_error`, so no front end needs to know SQLite.

Outside the tree, on purpose: ``IndexStopped`` (below), ``SearchCancelled``
(search/query.py), search/ranking.py's ``_Unknown`` and intake's ``_DryRun`` are
control flow (a build asked to stop, a query replaced, a scorer to fall back from, a dry
run rolled back), never shown to anyone as an error; the CLI's ``UserError`` is a
ReaderError as the command says it (click's exception, which prints a line and exits).

This module is at the bottom of the core: anyone may import it, and it imports nothing of
reader, nothing costly and nothing of Textual.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import sqlite3
import sys
from typing import ClassVar


class ReaderError(Exception):
    """An error reader explains to its user: a title and a one-line message.

    ``text`` is the source's own words (``str()`` of the error); ``message``, the line for
    the user, is the same unless the error was translated from another (a SQLite error is
    quoted as SQLite says it, and explained by ``message``); ``where`` names what failed
    when it is not the message's subject already (a file, the library database).
    """

    #: A few words saying what kind of problem it is, for a notification's title.
    title: ClassVar[str] = "Something went wrong"

    def __init__(self, text: str = "", *, message: str | None = None,
                 where: str | None = None) -> None:
        super().__init__(text)
        self.message: str = message if message is not None else text
        self.where: str | None = where

    def line(self) -> str:
        """The message with what failed in front (``the library database: …``)."""
        return f"{self.where}: {self.message}" if self.where else self.message


class Damaged(ReaderError):
    """A file of the library cannot be read as what it should be (emptied, cut short,
    garbled): ``reader doctor`` mends the database, the index is rebuilt."""

    title = "Library damaged"


class Busy(ReaderError):
    """Another process holds the library (or its index) locked for longer than reader
    waits: trying again once it is done works."""

    title = "Library busy"


class DiskFull(ReaderError):
    """A write found no room: a full disk, a used-up quota or the process's file-size
    limit (``ulimit -f``). Nothing was changed."""

    title = "Disk full"


class ReadOnly(ReaderError):
    """The library, or a file asked for, cannot be written (a read-only file or file
    system, or no permission)."""

    title = "Read-only"


class BadInput(ReaderError):
    """A file or a value that cannot be read or used; the message names it and says why."""

    title = "Cannot use that"


class NotFound(ReaderError):
    """No paper matches what was named (an id, a citation key, a query)."""

    title = "Not found"


class NetworkError(ReaderError):
    """A service could not be reached, or did not answer usefully."""

    title = "Network"


class IndexDamaged(Damaged):
    """A file of the search index could not be read (emptied, cut short, garbled): the
    index is rebuilt from the database. The message says what failed, in one line."""

    title = "Search index damaged"


class IndexBusy(Busy):
    """Another process holds the index's writer lock (it is building the index or catching
    it up); a database write that wanted indexing is stored, and the index catches up on a
    later sync."""

    title = "Search index busy"


# Not a ReaderError: control flow, never shown as an error. The caller keeps what was
# published and lets the next sync finish the work.
class IndexStopped(Exception):
    """An index build was asked to stop (its process is quitting): what it published so
    far is kept, and the next sync, in whichever process runs next, indexes the rest."""


#: What a translated database error names as what failed.
DATABASE = "the library database"


def file_size_limit() -> int | None:
    """The process's file-size limit in bytes (``ulimit -f``), when one is set."""
    try:
        import resource
    except ImportError:  # not on this platform
        return None
    soft, _ = resource.getrlimit(resource.RLIMIT_FSIZE)
    return None if soft == resource.RLIM_INFINITY else soft


def _full() -> str:
    """A full disk, or the file-size limit when one is set (the usual cause then)."""
    limit = file_size_limit()
    if limit is not None:
        return f"the file-size limit of this process ({limit:,} bytes, ulimit -f) was reached"
    return "the disk is full"


_FULL = (errno.ENOSPC, errno.EFBIG, errno.EDQUOT)
_READ_ONLY = (errno.EROFS, errno.EACCES, errno.EPERM)


def describe_os_error(exc: OSError) -> str:
    """An OSError as a person would say it."""
    if exc.errno in (errno.ENOSPC, errno.EFBIG):
        return _full()
    if exc.errno == errno.EDQUOT:
        return "the disk quota is used up"
    if exc.errno in _READ_ONLY:
        return f"read-only ({exc.strerror})"
    return exc.strerror or str(exc)


def _sqlite_code(exc: sqlite3.Error) -> int:
    """SQLite's primary result code of an error (0 when it carries none)."""
    return (getattr(exc, "sqlite_errorcode", None) or 0) & 0xFF


def is_damage(exc: BaseException | None) -> bool:
    """Whether SQLite found the file itself damaged or not a database (not merely locked
    or read-only: those are OperationalError, a subclass)."""
    if not isinstance(exc, sqlite3.DatabaseError):
        return False
    return type(exc) is sqlite3.DatabaseError or _sqlite_code(exc) in (
        sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB,
    )


def describe_write_error(exc: BaseException, *, disk_full: bool = False) -> str:
    """Why a write to the library failed, naming a full disk or a file-size limit, a
    read-only library, or a busy one. ``disk_full``: the caller found the disk full, which
    SQLite's "disk I/O error" does not tell."""
    if isinstance(exc, ReaderError):
        return exc.message
    if isinstance(exc, OSError):
        return describe_os_error(exc)
    text = str(exc)
    if isinstance(exc, sqlite3.DatabaseError):
        code = _sqlite_code(exc)
        if code == sqlite3.SQLITE_FULL or "disk is full" in text:
            return f"{_full()} (SQLite: database or disk is full); nothing was changed"
        if code == sqlite3.SQLITE_IOERR or "disk I/O error" in text:
            if disk_full or file_size_limit() is not None:
                return f"{_full()} (SQLite: {text}); nothing was changed"
            # SQLite cannot tell a full disk from a file that may no longer be written.
            return (f"writing to the disk failed (SQLite: {text}): is it full, or are the "
                    "library's files no longer writable? Nothing was changed")
        if code == sqlite3.SQLITE_READONLY or "readonly" in text:
            return f"the library is read-only ({text})"
        if "locked" in text or "busy" in text:
            return f"the library is busy in another process ({text})"
    return text


def describe_no_room(exc: BaseException, folder: str | os.PathLike[str]) -> str | None:
    """Why a SQLite write found no room, worded as :func:`describe_write_error` words it,
    and what to do; None when neither SQLite's words nor a file-size limit nor a full disk
    at ``folder`` say that it did (SQLite's "disk I/O error" on making its working files
    can mean either, and other things too)."""
    text = str(exc)
    if "disk I/O error" not in text and "disk is full" not in text:
        return None
    full = False
    with contextlib.suppress(OSError):
        full = shutil.disk_usage(folder).free < 64 * 1024
    limit = file_size_limit()
    if not (full or limit is not None or "disk is full" in text):
        return None
    # The cause said is the limit whenever one is set (see _full): the advice follows it.
    advice = "raise the file-size limit (ulimit -f)" if limit is not None else "free some space"
    return f"{describe_write_error(exc, disk_full=full)}; {advice} and try again"


def no_room_to_open(database: str | os.PathLike[str], exc: BaseException) -> DiskFull | None:
    """The error of a library database that found no room to open in (SQLite makes its
    working files beside it, even to read), or None when that is not what failed."""
    no_room = describe_no_room(exc, os.path.dirname(os.fspath(database)) or ".")
    if no_room is None:
        return None
    return DiskFull(f"cannot open the library database {os.fspath(database)} (SQLite makes "
                    f"working files beside it, even to read): {no_room}")


def _sqlite_kind(exc: sqlite3.Error) -> type[ReaderError]:
    """The kind a SQLite error is, by its result code (its words where it has none)."""
    if is_damage(exc):
        return Damaged
    code, text = _sqlite_code(exc), str(exc)
    if code in (sqlite3.SQLITE_FULL, sqlite3.SQLITE_IOERR) or "disk is full" in text:
        return DiskFull  # an I/O error on write: most often no room (the message asks)
    if code == sqlite3.SQLITE_READONLY or "readonly" in text:
        return ReadOnly
    if code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED) or "locked" in text or (
        "busy" in text
    ):
        return Busy
    return ReaderError


def _os_kind(exc: OSError) -> type[ReaderError]:
    if exc.errno in _FULL:
        return DiskFull
    if exc.errno in _READ_ONLY:
        return ReadOnly
    if exc.errno in (errno.ENOENT, errno.ENOTDIR, errno.EISDIR):
        return BadInput
    return ReaderError


def _whoosh_kind(exc: BaseException) -> type[ReaderError] | None:
    """The kind of a Whoosh error, or None for another error. Whoosh is only looked up
    where it is loaded already: an error of it can only come from there."""
    index = sys.modules.get("whoosh.index")
    if index is None:
        return None
    if isinstance(exc, index.LockError):
        return IndexBusy
    if isinstance(exc, index.IndexError):  # empty, of another version, out of date
        return IndexDamaged
    filestore = sys.modules.get("whoosh.filedb.filestore")
    if filestore is not None and isinstance(exc, getattr(filestore, "ReadOnlyError", ())):
        return ReadOnly
    return None


def translate(exc: BaseException) -> ReaderError | None:
    """The ReaderError a SQLite, OS or Whoosh error stands for (None for any other error,
    and for a ReaderError, which needs none). Its ``str()`` stays the source's words; its
    message is :func:`describe_write_error`'s; its ``__cause__`` is the source."""
    error: ReaderError
    if isinstance(exc, ReaderError):
        return None
    if isinstance(exc, sqlite3.Error):
        error = _sqlite_kind(exc)(str(exc), message=describe_write_error(exc), where=DATABASE)
    elif isinstance(exc, OSError):
        error = _os_kind(exc)(
            str(exc), message=describe_os_error(exc),
            where=str(exc.filename) if exc.filename else None,
        )
    else:
        kind = _whoosh_kind(exc)
        if kind is None:
            return None
        text = str(exc) or type(exc).__name__
        error = kind(text, message=f"the search index: {text}")
    error.__cause__ = exc
    return error
