"""Backups of the library database with SQLite's online backup API.

A backup taken while another process writes is still a consistent snapshot, so it is safe
to run next to an open reader. A restore never loses the current database: it is backed up
first.
"""

from __future__ import annotations

import sqlite3
from datetime import datetime
from pathlib import Path
from urllib.parse import quote

from reader.errors import BadInput, is_damage
from reader.store.walk import check

#: Automatic backups (before a migration or a restore) kept per kind.
KEEP_AUTOMATIC = 3


class BackupError(BadInput):
    """A backup or restore that could not be done, in one line."""


def stamp() -> str:
    """A file-name-safe local timestamp."""
    return datetime.now().strftime("%Y%m%d-%H%M%S-%f")


def copy_database(source: Path, dest: Path) -> Path:
    """Copy a SQLite database consistently (online backup API) to ``dest``."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = dest.with_name(dest.name + ".part")
    try:
        src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
        try:
            out = sqlite3.connect(tmp)
            try:
                src.backup(out)
                _mark_origin(out, source)
                # A copy is a file at rest: kept in WAL mode (the library's), every reader
                # of it (a restore, the damaged library's advice) left -wal and -shm files
                # beside it.
                out.execute("PRAGMA journal_mode = DELETE")
            finally:
                out.close()
        finally:
            src.close()
        tmp.replace(dest)
    except (sqlite3.Error, OSError) as exc:
        tmp.unlink(missing_ok=True)
        raise BackupError(f"could not copy {source} to {dest}: {exc}") from exc
    return dest


#: The key in a copy's ``meta`` table naming the library directory it was copied from.
_ORIGIN = "backup_of"


def _mark_origin(copy: sqlite3.Connection, source: Path) -> None:
    """Name in ``copy`` the library it was taken from, so that a damaged library is never
    offered another's backup lying beside it (``library_backups``)."""
    try:
        copy.execute(
            "INSERT INTO meta (key, value) VALUES (?, ?) "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (_ORIGIN, str(source.resolve().parent)),
        )
        copy.commit()
    except sqlite3.OperationalError:
        pass  # no meta table: not a library's database, nothing to name


def _origin(path: Path) -> str | None:
    """The library directory a copy names as its origin (None for one made before copies
    named it, or unreadable)."""
    try:
        conn = sqlite3.connect(f"file:{quote(str(path))}?mode=ro&immutable=1", uri=True)
        try:
            row = conn.execute("SELECT value FROM meta WHERE key = ?", (_ORIGIN,)).fetchone()
        finally:
            conn.close()
    except sqlite3.Error:
        return None
    return str(row[0]) if row else None


def library_backups(root: Path) -> list[Path]:
    """The backups of the library at ``root`` that could be restored, oldest first: its
    ``backups`` folder's, and the library files put beside it (in its directory or next to
    it, where `reader backup FILE` writes them) that are not another library's: not a copy
    naming another as its origin, nor another library's own database."""
    root = root.resolve()  # `--library .` has no parent to look in otherwise
    # Its own folder's, whatever they name: a library moved elsewhere keeps its backups.
    found = [p for p in (root / "backups").glob("*.sqlite") if not p.name.startswith("damaged-")]
    ours = str(root)
    for place in (root, root.parent):
        # Only a reader library: any other SQLite file there (a browser's, another
        # tool's) named as "the newest backup" would send the user to restore it.
        found += [p for p in place.glob("*.sqlite") if p.name != "library.sqlite"
                  and looks_like_library(p) and _origin(p) in (None, ours)]
    return sorted(set(found), key=lambda p: p.stat().st_mtime)


def newest_sound_backup(root: Path) -> Path | None:
    """The newest of :func:`library_backups` whose every page reads back sound (a copy made
    of a damaged library is damaged too, and restoring it would be refused)."""
    return next((p for p in reversed(library_backups(root)) if copy_problem(p) is None), None)


def copy_problem(path: Path) -> str | None:
    """What the window's check of every page (:func:`reader.store.walk.check`) finds amiss
    in a copy; None when sound."""
    try:
        conn = sqlite3.connect(f"file:{quote(str(path))}?mode=ro&immutable=1", uri=True)
        try:
            return check(conn)
        finally:
            conn.close()
    except sqlite3.Error as exc:
        return str(exc)


def automatic_backup(database: Path, backups: Path, kind: str) -> Path | None:
    """Back up before something risky (``kind``: pre-migration, pre-restore), keeping the
    last few of that kind; None when there is no database yet."""
    if not database.exists() or database.stat().st_size == 0:
        return None
    dest = copy_database(database, backups / f"{kind}-{stamp()}.sqlite")
    for old in sorted(backups.glob(f"{kind}-*.sqlite"))[:-KEEP_AUTOMATIC]:
        old.unlink(missing_ok=True)
    return dest


def check_library_file(path: Path, newest_schema: int) -> int:
    """The schema version of a library file, after checking it is whole and ours."""
    if not path.is_file():
        raise BackupError(f"{path}: no such file")
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            result = conn.execute("PRAGMA integrity_check").fetchone()[0]
            version = int(conn.execute("PRAGMA user_version").fetchone()[0])
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
        finally:
            conn.close()
    except sqlite3.Error as exc:
        said = "damaged" if is_damage(exc) and "not a database" not in str(exc) else (
            "not a reader library")
        raise BackupError(f"{path}: {said} ({exc})") from exc
    if result != "ok":
        raise BackupError(f"{path}: damaged ({result})")
    if "papers" not in tables or version < 1:
        raise BackupError(f"{path}: not a reader library (no papers table)")
    if version > newest_schema:
        raise BackupError(f"{path}: written by a newer reader (schema {version})")
    return version


def looks_like_library(path: Path) -> bool:
    """Whether a file is a reader library at a glance: an SQLite file whose schema has our
    ``papers`` table. Cheap (no integrity check), for picking candidates to offer; a file
    offered is checked whole by :func:`check_library_file` before it is used."""
    try:
        with open(path, "rb") as handle:
            if handle.read(16) != b"SQLite format 3\x00":
                return False
        # immutable: a glance leaves no -wal and -shm beside someone's file.
        conn = sqlite3.connect(f"file:{quote(str(path))}?mode=ro&immutable=1", uri=True)
        try:
            version = int(conn.execute("PRAGMA user_version").fetchone()[0])
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
        finally:
            conn.close()
    except (OSError, sqlite3.Error):
        return False
    return version >= 1 and "papers" in tables


#: What a library directory holds besides its database, each a sign that one was here.
_TRACES = ("index", "backups", "drafts")


def lost_database(database: Path) -> str | None:
    """Why a database that SQLite would take for a new one is not: it is missing, empty
    (0 bytes) or not a file, while its directory holds what a library leaves (an index,
    backups, drafts, a write-ahead log). None when it is not so: a library is new only
    when its directory holds nothing of one."""
    try:
        info = database.stat()
    except FileNotFoundError:
        state = "is missing"
    except OSError as exc:
        return f"{database} cannot be read ({exc.strerror or exc})"
    else:
        if not database.is_file():
            return f"{database} is not a file"
        if info.st_size:
            return None  # SQLite judges what is in it
        state = "is empty (0 bytes)"
    folder = database.parent
    found = [f"{name}/" for name in _TRACES if _holds_anything(folder / name)]
    wal = database.with_name(database.name + "-wal")
    if wal.is_file() and wal.stat().st_size:
        found.append(wal.name)
    if not found:
        return None
    return (
        f"{database} {state}, though its directory holds a library ({', '.join(found)}): "
        "the database was lost or emptied, and is not made a new one over what is left"
    )


def _holds_anything(folder: Path) -> bool:
    """Whether ``folder`` is a directory with anything in it."""
    try:
        return folder.is_dir() and any(folder.iterdir())
    except OSError:
        return True  # there, but unreadable: still a trace


def is_damaged(database: Path) -> bool:
    """Whether SQLite finds a database file damaged, or it is lost beside what a library
    leaves (:func:`lost_database`); a missing file alone is not."""
    if lost_database(database) is not None:
        return True
    if not database.exists():
        return False
    wal = database.with_name(database.name + "-wal")
    # Without a log to read, opened immutable: a read-only look at a file in WAL mode
    # otherwise leaves an empty log and shared memory beside it (moved aside with it).
    still = "&immutable=1" if not wal.exists() or wal.stat().st_size == 0 else ""
    try:
        conn = sqlite3.connect(f"file:{quote(str(database))}?mode=ro{still}", uri=True)
        try:
            return check(conn) is not None
        finally:
            conn.close()
    except sqlite3.OperationalError:
        return False  # locked or unreadable, not damaged: the caller's open will say why
    except sqlite3.DatabaseError:
        return True


def set_aside(database: Path, backups: Path) -> Path:
    """Move a damaged database (and its WAL) into ``backups`` untouched, so a restore can
    take its place; it is never deleted, as a recovery tool may still save some of it."""
    backups.mkdir(parents=True, exist_ok=True)
    dest = backups / f"damaged-{stamp()}.sqlite"
    for suffix in ("", "-wal", "-shm"):
        part = database.with_name(database.name + suffix)
        if part.exists():
            part.replace(dest.with_name(dest.name + suffix))
    return dest
