"""The check of every page of the database, begun as the window's process starts, and the
verdict that spares it while the file is as a check found it.

Damage in a database is found only where it is read, so the window checks the file before
it opens (a damaged library is then one clear line, not a window that fails later): every
page of every table and index read, and its structure checked (SQLite's quick check; a walk
through the papers' rows alone missed damage in the replies and the indexes). Begun as the
process starts, on a connection of its own (SQLite lets go of the interpreter while it
reads), it runs beside the interface's imports. So this module imports nothing of the
reader: it runs before the rest is loaded.

Even beside the interface, reading a 500 MB file slowed the imports by a fifth (two cores,
and its page faults), and the check takes 250 ms there. So a check that finds the file sound
leaves a verdict (``cache/checked``): the file's identity, size and times of change. A start
that finds the file as the verdict describes it reads no page; a start that finds it
changed in any way (written by anything, copied, replaced, restored) checks it. The window,
closing, checks the file as it leaves it (the terminal given back already), so that the
next start is spared; what was written meanwhile, by it or by anything else, is checked
then.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
from pathlib import Path
from urllib.parse import quote

#: The most of the database file mapped into memory while every page (the check) or every
#: row (the walk, ``reader stats``) is read: reading its pages one system call each took
#: twice as long (150 ms at 200,000 papers, against 80). Only for these: a mapped file that
#: another process cut short would end this one, and the library never shrinks its file
#: (no VACUUM) while it is read.
_MAP_BYTES = 1 << 34

_WALK = (
    "SELECT count(*), coalesce(sum(starred), 0), "
    "(SELECT count(*) FROM notes WHERE trim(body) != '') FROM papers"
)


def walk(conn: sqlite3.Connection) -> dict[str, int]:
    """Counts of papers, stars and notes, read through every row of the papers."""
    conn.execute(f"PRAGMA mmap_size = {_MAP_BYTES}")
    try:
        row = conn.execute(_WALK).fetchone()
    finally:
        conn.execute("PRAGMA mmap_size = 0")
    return {"papers": row[0], "starred": row[1], "with_notes": row[2]}


def check(conn: sqlite3.Connection) -> str | None:
    """Every page of the database read and its structure checked (SQLite's quick check:
    every table, the replies' too, every index, the order of the rows), the file mapped as
    for the walk; None when sound, else SQLite's first finding. Raises what SQLite raises
    for a file it cannot read at all (not a database, cut short before its schema)."""
    conn.execute(f"PRAGMA mmap_size = {_MAP_BYTES}")
    try:
        found = [row[0] for row in conn.execute("PRAGMA quick_check(1)")]
    finally:
        conn.execute("PRAGMA mmap_size = 0")
    return None if found == ["ok"] else finding(found[0])


def finding(text: str) -> str:
    """One of SQLite's check findings on one line ("*** in database main ***" opens it)."""
    return "; ".join(line for line in text.splitlines() if not line.startswith("***"))


def fingerprint(database: Path) -> str | None:
    """The database file and its write-ahead log as the file system describes them: device,
    inode, size, and the times of the last change (the ctime too, which no tool sets
    back); None when there is no database file."""
    parts = []
    for path in (database, database.with_name(database.name + "-wal")):
        try:
            st = path.stat()
        except FileNotFoundError:
            st = None
        except OSError:
            return None
        if st is None or (path != database and st.st_size == 0):
            if path == database:
                return None
            parts.append("-")  # no log, or an empty one (a reader opening the file makes one)
            continue
        parts.append(f"{st.st_dev}:{st.st_ino}:{st.st_size}:{st.st_mtime_ns}:{st.st_ctime_ns}")
    return " ".join(parts)


def _verdict(database: Path) -> Path:
    return database.parent / "cache" / "checked"


def checked_as(database: Path) -> str | None:
    """The file as the last check found it sound, if recorded."""
    try:
        return _verdict(database).read_text(encoding="ascii").strip() or None
    except (OSError, UnicodeDecodeError):
        return None


def spared(database: Path) -> bool:
    """Whether the file is as the verdict describes it: no page need be read."""
    now = fingerprint(database)
    return now is not None and now == checked_as(database)


def remember(database: Path, sound: str | None) -> None:
    """Record ``sound`` (a fingerprint taken before a check that found the file sound) as
    the verdict. A verdict that cannot be written only costs the next start a check."""
    if sound is None:
        return
    verdict = _verdict(database)
    part = verdict.with_name(f"checked.{os.getpid()}")
    with contextlib.suppress(OSError):
        verdict.parent.mkdir(exist_ok=True)
        part.write_text(sound + "\n", encoding="ascii")
        part.replace(verdict)  # whole or not at all: a torn verdict would match nothing
    with contextlib.suppress(OSError):
        part.unlink(missing_ok=True)


def read_only(database: Path) -> sqlite3.Connection:
    """A connection that only reads and waits for no lock (timeout 0: a writer holding the
    file makes the usual check wait, not this one as well); mode=ro never makes a
    database where there was none."""
    return sqlite3.connect(f"file:{quote(str(database.resolve()))}?mode=ro",
                           uri=True, timeout=0, check_same_thread=False)


def check_unless_spared(database: Path, conn: sqlite3.Connection) -> str | None:
    """:func:`check` on ``conn`` (a connection to ``database``), unless the file is as its
    verdict describes it; the verdict recorded where the check finds the file sound,
    dropped where it does not. SQLite's first finding, or None."""
    before = fingerprint(database)
    if before is not None and before == checked_as(database):
        return None
    problem = check(conn)
    if problem is None:
        remember(database, before)
    else:
        forget(database)
    return problem


def checked(database: Path) -> bool:
    """Whether the file is sound: as its verdict describes it, or checked now on a
    connection of its own. False also where no check could be made (no database, a lock):
    the next start checks."""
    now = fingerprint(database)
    if now is None:
        return False
    if now == checked_as(database):
        return True  # no connection opened: this is every usual start's whole work
    try:
        conn = read_only(database)
        try:
            return check_unless_spared(database, conn) is None
        finally:
            conn.close()
    except sqlite3.OperationalError:
        return False  # locked, or gone: nothing learnt either way
    except sqlite3.DatabaseError:
        forget(database)  # not a database at all
        return False


def forget(database: Path) -> None:
    """Drop the verdict (damage found): the next start checks."""
    with contextlib.suppress(OSError):
        _verdict(database).unlink(missing_ok=True)


class EarlyCheck:
    """The check of the database at ``database``, begun on a thread as it is made, on a
    read-only connection of its own that waits for no lock; spared where the file is as
    its verdict describes it.

    It only ever spares the usual check: whatever stops it (no database yet, damage, a
    lock) leaves :meth:`sound` False, and the library's own check, made then, says what
    is wrong the usual way.
    """

    def __init__(self, database: Path) -> None:
        self._database = database
        self._sound = False
        self._thread = threading.Thread(target=self._run, name="reader-check", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            self._sound = checked(self._database)
        except Exception:  # noqa: BLE001 (what stopped it, the usual check meets and says)
            self._sound = False

    def sound(self) -> bool:
        """Whether the file was found sound (checked, or as its verdict describes it), once
        the check has ended; False when it could not be made (the usual check must be)."""
        self._thread.join()
        return self._sound
