"""One error tree: what the store and the index raise leaves the library as the ReaderError
kind a user can act on, with the words the front ends have always shown.

Each failure is real: a second connection holding the write lock, a library whose
connections refuse writes, the process's file-size limit reached, a database file
garbled on disk.
"""

from __future__ import annotations

import errno
import inspect
import random
import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from reader.errors import (
    DATABASE,
    BadInput,
    Busy,
    Damaged,
    DiskFull,
    IndexBusy,
    IndexDamaged,
    NetworkError,
    NotFound,
    ReaderError,
    ReadOnly,
    translate,
)
from reader.library import (
    BackupError,
    CitationError,
    FetchError,
    ImportFormatError,
    IndexStopped,
    Library,
    SearchCancelled,
    StoreError,
)
from reader.locations import NotALibraryDirectory
from reader.models import IndexState
from reader.parts import Part
from reader.store.base import DatabaseLost, PaperNotFound, ReadOnlyLibrary, StoreDamaged


@pytest.fixture
def copied(sample_library_template: Path, tmp_path: Path) -> Path:
    """A closed copy of the sample library, to be opened as each test needs."""
    root = tmp_path / "lib"
    shutil.copytree(sample_library_template, root)
    return root


def _first_id(library: Library) -> int:
    return library.all_ids()[0]


def test_a_locked_database_is_busy(copied: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Waited on for 50 ms rather than the library's 10 s: the lock is never let go here.
    monkeypatch.setattr("reader.store.base.BUSY_TIMEOUT_MS", 50)
    library = Library(copied)
    paper_id = _first_id(library)
    other = sqlite3.connect(copied / "library.sqlite", isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(Busy) as caught:
            library.set_starred(paper_id, True)
    finally:
        other.execute("ROLLBACK")
        other.close()
        library.close()
    error = caught.value
    assert str(error) == "database is locked"
    assert error.message == "the library is busy in another process (database is locked)"
    assert error.title == "Library busy"
    assert error.line() == f"{DATABASE}: {error.message}"
    assert isinstance(error.__cause__, sqlite3.OperationalError)


def test_the_parts_of_the_door_translate_too(
    copied: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What a part of the library (``library.marks``, ``library.queries``, ...) raises
    leaves it translated as the door's own methods' errors do."""
    monkeypatch.setattr("reader.store.base.BUSY_TIMEOUT_MS", 50)
    library = Library(copied)
    paper_id = _first_id(library)
    other = sqlite3.connect(copied / "library.sqlite", isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(Busy) as read:
            library.marks.set_read(paper_id, True)
        with pytest.raises(Busy) as meta:
            library.queries.set_meta("a-choice", "x")
    finally:
        other.execute("ROLLBACK")
        other.close()
        library.close()
    for caught in (read, meta):
        assert isinstance(caught.value.__cause__, sqlite3.OperationalError)


def test_every_public_method_of_the_door_and_its_parts_is_translated(
    empty_library: Library,
) -> None:
    """The door's methods and those of every part it is composed of are wrapped to
    translate (door.py ``translating``): none is reachable from a front end untranslated."""
    # The parts made on first use are made here, as a front end's first call would.
    for name, member in vars(type(empty_library)).items():
        if isinstance(member, Part):
            getattr(empty_library, name)
    parts = [
        value for value in vars(empty_library).values()
        if type(value).__module__.startswith("reader.library.")
    ]
    assert len(parts) >= 10, parts
    bare = []
    for owner in [empty_library, *parts]:
        for name in dir(type(owner)):
            if name.startswith("_") or name in {"store", "index", "session", "paths"}:
                continue
            member = inspect.getattr_static(type(owner), name)
            if inspect.isfunction(member) and not hasattr(member, "__wrapped__"):
                bare.append(f"{type(owner).__name__}.{name}")
    assert not bare, bare


def test_a_read_only_library_is_read_only(library: Library) -> None:
    # As SQLite reports a read-only file ("attempt to write a readonly database"); made so
    # with query_only on the library's connections, which holds for root too.
    paper_id = _first_id(library)
    with library.session() as store:
        store.conn.execute("PRAGMA query_only = ON")
    library.store.conn.execute("PRAGMA query_only = ON")
    with pytest.raises(ReadOnly) as caught:
        library.save_note(paper_id, "never stored")
    error = caught.value
    assert str(error) == "attempt to write a readonly database"
    assert error.message == "the library is read-only (attempt to write a readonly database)"
    assert error.title == "Read-only"


@pytest.fixture
def immutable(copied: Path) -> Iterator[Path]:
    """The library's database file made unwritable even to root (its immutable flag), or
    the test skipped where the system cannot do that."""
    database = copied / "library.sqlite"
    made = subprocess.run(["chattr", "+i", str(database)], capture_output=True, check=False)
    if made.returncode != 0:
        pytest.skip("cannot make a file unwritable here")
    try:
        yield copied
    finally:
        subprocess.run(["chattr", "-i", str(database)], check=True)


def test_a_read_only_library_file_is_read_only(immutable: Path) -> None:
    library = Library(immutable)
    try:
        with pytest.raises(ReadOnly) as caught:
            library.set_starred(_first_id(library), True)
    finally:
        library.close()
    # The library found it read-only as it opened, and says so in its own words.
    assert isinstance(caught.value, ReadOnlyLibrary)
    assert f"the library in {immutable} is read-only (library.sqlite cannot be written to)" in (
        caught.value.message
    )
    assert caught.value.title == "Read-only"


def test_a_full_disk_is_disk_full(library: Library) -> None:
    from tests.test_write_failures import disk_full

    paper_id = _first_id(library)
    with disk_full(library.paths.database), pytest.raises(DiskFull) as caught:
        library.save_note(paper_id, "x" * 20_000)
    error = caught.value
    assert error.message.startswith("the file-size limit of this process (2,048 bytes")
    assert error.message.endswith("nothing was changed")
    assert error.title == "Disk full"
    assert library.note(paper_id).text != "x" * 20_000  # nothing was changed, as it says


def test_opening_past_the_file_size_limit_says_so_and_what_to_do(copied: Path) -> None:
    """SQLite makes its working files even to read: past the limit it says "disk I/O
    error", and opening said only that. Now the failure is worded as a failed write's is,
    with the way out, in the command's line as in the library's error."""
    from click.testing import CliRunner

    from reader.cli import cli
    from tests.test_write_failures import disk_full

    with disk_full(copied / "library.sqlite", room=8192):
        with pytest.raises(DiskFull) as caught:
            Library(copied)
        result = CliRunner().invoke(cli, ["--library", str(copied), "stats"], obj={})
    said = caught.value.line()
    assert said.startswith(f"cannot open the library database {copied / 'library.sqlite'}")
    assert "the file-size limit of this process (8,192 bytes, ulimit -f) was reached" in said
    assert "(SQLite: disk I/O error)" in said
    assert said.endswith("raise the file-size limit (ulimit -f) and try again")
    assert caught.value.title == "Disk full"
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert result.output.strip() == f"Error: {said}"


def _garble_pages(root: Path) -> None:
    """The schema kept, so the file opens; the pages holding the abstracts are garbage."""
    database = root / "library.sqlite"
    data = bytearray(database.read_bytes())
    rng = random.Random(2)
    for page in {data.find(word) // 4096 for word in (b"faithfulness", b"transport")}:
        data[page * 4096 + 8 : page * 4096 + 4000] = rng.randbytes(3992)
    database.write_bytes(bytes(data))


def test_a_garbled_database_is_damaged(copied: Path) -> None:
    _garble_pages(copied)
    library = Library(copied)
    try:
        with pytest.raises(Damaged) as caught:
            library.queries.stats()
    finally:
        library.close()
    error = caught.value
    assert str(error) == "database disk image is malformed"
    assert error.title == "Library damaged"
    assert not isinstance(error, IndexDamaged)


def test_a_garbage_file_is_damaged_at_open(copied: Path) -> None:
    database = copied / "library.sqlite"
    database.write_bytes(random.Random(1).randbytes(database.stat().st_size))
    for name in ("library.sqlite-wal", "library.sqlite-shm"):
        (copied / name).unlink(missing_ok=True)
    with pytest.raises(Damaged) as caught:
        Library(copied)
    # Of its kind only, never also a refused change (one tree, one parent each).
    assert isinstance(caught.value, StoreDamaged) and not isinstance(caught.value, StoreError)
    assert caught.value.title == "Library damaged"
    assert str(caught.value) == (
        f"cannot open the library database {database}: file is not a database"
    )


def test_a_paper_that_is_not_there_is_not_found(library: Library) -> None:
    with pytest.raises(NotFound, match="no paper with id 99999"):
        library.set_starred(99_999, True)


def test_os_errors_are_translated_with_their_words(tmp_path: Path) -> None:
    full = translate(OSError(errno.ENOSPC, "No space left on device", str(tmp_path / "x")))
    assert isinstance(full, DiskFull) and full.line().endswith(": the disk is full")
    quota = translate(OSError(errno.EDQUOT, "Disk quota exceeded"))
    assert isinstance(quota, DiskFull) and quota.line() == "the disk quota is used up"
    refused = translate(PermissionError(errno.EACCES, "Permission denied", "f.txt"))
    assert isinstance(refused, ReadOnly)
    assert refused.line() == "f.txt: read-only (Permission denied)"
    missing = translate(FileNotFoundError(errno.ENOENT, "No such file or directory", "a.bib"))
    assert isinstance(missing, BadInput) and missing.line() == "a.bib: No such file or directory"
    assert translate(ValueError("not ours")) is None
    assert translate(StoreError("already one")) is None  # a ReaderError needs none


def test_whoosh_errors_are_translated() -> None:
    from whoosh.index import EmptyIndexError, LockError

    busy = translate(LockError("held"))
    assert isinstance(busy, IndexBusy) and busy.message == "the search index: held"
    damaged = translate(EmptyIndexError("no index"))
    assert isinstance(damaged, IndexDamaged)


def test_the_index_state_is_a_type_and_still_reads_as_its_word(library: Library) -> None:
    state = library.index_state()
    assert state is IndexState.OK and state == "ok"


def test_every_error_a_user_sees_is_a_kind_and_control_flow_is_not() -> None:
    assert issubclass(ImportFormatError, BadInput)
    assert issubclass(CitationError, BadInput)
    assert issubclass(BackupError, BadInput)
    assert issubclass(StoreError, BadInput)
    assert issubclass(NotALibraryDirectory, BadInput)
    assert issubclass(ReadOnlyLibrary, ReadOnly) and issubclass(DatabaseLost, Damaged)
    assert issubclass(FetchError, NetworkError)
    assert issubclass(IndexDamaged, Damaged) and issubclass(IndexBusy, Busy)
    for kind in (Damaged, Busy, DiskFull, ReadOnly, BadInput, NotFound, NetworkError):
        assert issubclass(kind, ReaderError) and kind.title != ReaderError.title
    assert not issubclass(SearchCancelled, ReaderError)
    assert not issubclass(IndexStopped, ReaderError)


def test_every_error_has_one_parent_in_the_tree() -> None:
    """One tree: a kind a front end catches is never also another kind (a damaged database
    caught as a refused change, a missing paper as bad input)."""
    def walk(kind: type[ReaderError]) -> list[type[ReaderError]]:
        return [kind, *(k for sub in kind.__subclasses__() for k in walk(sub))]

    kinds = walk(ReaderError)
    assert {StoreDamaged, PaperNotFound, ReadOnlyLibrary, DatabaseLost} <= set(kinds)
    for kind in kinds[1:]:
        parents = [base for base in kind.__bases__ if issubclass(base, ReaderError)]
        assert len(parents) == 1, (kind, parents)
