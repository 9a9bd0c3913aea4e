"""What a failed write means, said in words: a full disk, a file-size limit, a read-only
file, rather than the library's internal wording."""

from __future__ import annotations

import errno
import sqlite3


class IndexDamaged(Exception):
    """A file of the search index could not be read (emptied, cut short, garbled): the
    index is rebuilt from the database. The message says what failed, in one line."""


class IndexBusy(Exception):
    """Another process holds the index's writer lock (it is building the index or catching
    it up); a database write that wanted indexing is stored, and the index catches up on a
    later sync."""


class IndexStopped(Exception):
    """An index build was asked to stop (its process is quitting): what it published so
    far is kept, and the next sync, in whichever process runs next, indexes the rest."""


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


def describe_os_error(exc: OSError) -> str:
    """An OSError as a person would say it."""
    if exc.errno in (errno.ENOSPC, errno.EFBIG):
        return _full()
    if exc.errno == errno.EDQUOT:
        return "the disk quota is used up"
    if exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        return f"read-only ({exc.strerror})"
    return exc.strerror or str(exc)


def describe_write_error(exc: BaseException) -> str:
    """Why a write to the library failed, naming a full disk or a file-size limit, a
    read-only library, or a busy one."""
    if isinstance(exc, OSError):
        return describe_os_error(exc)
    text = str(exc)
    if isinstance(exc, sqlite3.DatabaseError):
        code = (getattr(exc, "sqlite_errorcode", None) or 0) & 0xFF
        if code == sqlite3.SQLITE_FULL or "disk is full" in text:
            return f"{_full()} (SQLite: database or disk is full); nothing was changed"
        if code == sqlite3.SQLITE_IOERR:
            limit = file_size_limit()
            if limit is not None:
                return f"{_full()} (SQLite: {text}); nothing was changed"
            return f"writing to the disk failed (SQLite: {text}): is it full? Nothing was changed"
        if code == sqlite3.SQLITE_READONLY or "readonly" in text:
            return f"the library is read-only ({text})"
        if "locked" in text or "busy" in text:
            return f"the library is busy in another process ({text})"
    return text
