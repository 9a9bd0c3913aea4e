"""A full disk or a read-only database while the reader runs: nothing typed is lost.

The full disk is real as far as SQLite can tell: the process's file-size limit
(RLIMIT_FSIZE) is lowered so that the next write to the database's WAL fails with "database
or disk is full", exactly what a full file system returns, while the small draft file still
fits.
"""

from __future__ import annotations

import asyncio
import errno
import os
import resource
import shlex
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from textual import events
from textual.widgets import TextArea

import reader.store.base as base_module
import reader.ui.features.quitting as quitting
from reader.library import Library
from reader.ui.app import ReaderApp
from reader.ui.screens.note import NoteScreen
from reader.ui.widgets.paper_list import PaperList
from tests.test_app import settle
from tests.waiting import until

SIZE = (100, 30)
ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGXFSZ"), reason="POSIX limits only")


@contextmanager
def disk_full(database: Path, room: int = 2048) -> Iterator[None]:
    """No file of this process may grow past ``room`` bytes: the WAL is emptied first, so
    the next database write runs out of space."""
    conn = sqlite3.connect(database)
    try:
        busy, _, _ = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        assert busy == 0
    finally:
        conn.close()
    previous_handler = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    resource.setrlimit(resource.RLIMIT_FSIZE, (room, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
        signal.signal(signal.SIGXFSZ, previous_handler)


def messages(app: ReaderApp) -> list[str]:
    return [n.message for n in app._notifications]


def stored_note(database: Path, paper_id: int) -> str | None:
    """The note as another process would read it."""
    conn = sqlite3.connect(database)
    try:
        row = conn.execute("SELECT body FROM notes WHERE paper_id = ?", (paper_id,)).fetchone()
        return row[0] if row else None
    finally:
        conn.close()


async def type_text(pilot, text: str) -> None:  # type: ignore[no-untyped-def]
    await pilot.press(*("space" if c == " " else c for c in text))


async def paste(app: ReaderApp, pilot, text: str) -> None:  # type: ignore[no-untyped-def]
    """Paste ``text``, as the terminal driver sends it: one change, so the save that fails
    holds all of it (typed on a busy machine, a save may go out between two keys)."""
    app.post_message(events.Paste(text))
    await pilot.pause()


async def test_disk_full_keeps_the_note_in_the_editor_and_a_draft(library: Library) -> None:
    database = library.paths.database
    before = library.store.stats()
    app = ReaderApp(library, load_sample=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        paper_id = app.query_one(PaperList).current_id
        assert paper_id is not None
        await pilot.press("n")
        await pilot.pause()
        editor = app.screen.query_one(TextArea)
        editor.cursor_blink = False
        await type_text(pilot, "Saved first")
        await until(pilot, lambda: stored_note(database, paper_id) == "Saved first", "saved")
        await settle(app, pilot)

        with disk_full(database):
            await paste(app, pilot, " then the disk filled")
            await until(pilot, lambda: any(m.startswith("Could not save the note")
                                           for m in messages(app)), "the failed save is told")
            await settle(app, pilot)
            # Still editing, with every character, and told where the draft is.
            assert isinstance(app.screen, NoteScreen)
            assert editor.text == "Saved first then the disk filled"
            failure = [m for m in messages(app) if m.startswith("Could not save the note")]
            assert failure and "full" in failure[-1] and "kept a draft in" in failure[-1]
            draft = Path(failure[-1].split("kept a draft in ")[1])
            assert draft.parent == library.paths.drafts
            assert draft.read_text(encoding="utf-8") == editor.text
            status = str(app.screen.query_one("#note-status").render())
            assert "draft" in status

            # esc does not throw the text away while it is only in a draft.
            await pilot.press("escape")
            await settle(app, pilot)
            assert isinstance(app.screen, NoteScreen)
            assert editor.text == "Saved first then the disk filled"
            assert app.is_running

        # Space again: the next change stores the whole note, then esc leaves.
        await type_text(pilot, "!")
        await until(pilot, lambda: stored_note(database, paper_id)
                    == "Saved first then the disk filled!", "the whole note is saved")
        await settle(app, pilot)
        await pilot.press("escape")
        await settle(app, pilot)
        assert not isinstance(app.screen, NoteScreen)

        # A star fails too, and says so; the app runs on, and the star works afterwards.
        with disk_full(database):
            await pilot.press("s")
            await settle(app, pilot)
            assert any(m.startswith("Could not star the paper") for m in messages(app))
            assert app.is_running
        assert library.store.paper(paper_id).starred is False  # type: ignore[union-attr]
        await pilot.press("s")
        await settle(app, pilot)
    conn = sqlite3.connect(database)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        papers, starred = conn.execute("SELECT count(*), sum(starred) FROM papers").fetchone()
    finally:
        conn.close()
    assert papers == before["papers"] and starred == before["starred"] + 1


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0,
                    reason="file permissions do not bind root")
async def test_read_only_database_keeps_the_note_and_tells_where_the_draft_is(
    library: Library,
) -> None:
    database = library.paths.database
    library.close()
    conn = sqlite3.connect(database)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    library = Library(database.parent)
    app = ReaderApp(library, load_sample=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        # The database turns read-only under the running reader (new connections see it).
        library.close()
        database.chmod(0o444)
        database.parent.chmod(0o555)
        try:
            await pilot.press("n")
            await pilot.pause()
            await type_text(pilot, "Read only")
            await until(pilot, lambda: any(m.startswith("Could not save the note")
                                           for m in messages(app)), "the failed save is told")
            await settle(app, pilot)
            assert isinstance(app.screen, NoteScreen)
            assert app.screen.query_one(TextArea).text.endswith("Read only")
            assert any(m.startswith("Could not save the note") for m in messages(app))
            assert app.is_running
        finally:
            database.parent.chmod(0o755)
            database.chmod(0o644)


async def test_a_database_refusing_writes_loses_nothing_typed(
    library: Library, refuse_writes: Callable[[Library], None]
) -> None:
    """A read-only database as SQLite reports it ("attempt to write a readonly database"),
    made with ``PRAGMA query_only`` on the app's connections so it holds for root too."""
    app = ReaderApp(library, load_sample=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        paper_id = app.query_one(PaperList).current_id
        refuse_writes(library)
        await pilot.press("j", "j", "j")  # papers seen: their batch can't be stored
        await until(pilot, lambda: any("as seen" in m for m in messages(app)),
                    "the failed seen marks are told")
        await settle(app, pilot)
        await pilot.press("k", "k", "k", "n")
        await pilot.pause()
        await paste(app, pilot, "Kept anyway")
        await until(pilot, lambda: any(m.startswith("Could not save the note")
                                       for m in messages(app)), "the failed save is told")
        await settle(app, pilot)
        assert isinstance(app.screen, NoteScreen)
        assert app.screen.query_one(TextArea).text == "Kept anyway"
        failures = [m for m in messages(app) if m.startswith("Could not save the note")]
        assert failures and "readonly" in failures[-1]
        draft = Path(failures[-1].split("kept a draft in ")[1])
        assert draft.read_text(encoding="utf-8") == "Kept anyway"
        seen_failures = [m for m in messages(app) if "as seen" in m]
        assert len(seen_failures) == 1  # said once, not on every key
        assert app.is_running
    assert stored_note(library.paths.database, paper_id) is None


async def test_esc_during_a_failing_save_keeps_the_editor_open_with_no_cut_draft(
    library: Library, monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
) -> None:
    """A paste too big for any file this process may write: no draft can hold it, so esc
    keeps the editor open and says that only the screen holds the text; no partial draft
    is left behind anywhere."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    (tmp_path / "tmp").mkdir()
    database = library.paths.database
    big = "pasted words " * 2_000  # 26 KB, far past the limit of 2 KB
    app = ReaderApp(library, load_sample=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        paper_id = app.query_one(PaperList).current_id
        await pilot.press("n")
        await pilot.pause()
        app.screen.query_one(TextArea)
        with disk_full(database):
            app.post_message(events.Paste(big))  # as the terminal driver sends it
            await pilot.pause()
            await pilot.press("x", "escape")  # esc while the save is on its way
            await settle(app, pilot)
            assert isinstance(app.screen, NoteScreen)
            status = str(app.screen.query_one("#note-status").render())
            assert "only this screen" in status
            assert "file-size limit" in status
            await pilot.press("escape")
            await settle(app, pilot)
            assert isinstance(app.screen, NoteScreen)  # still: nothing else holds it
        for place in (library.paths.drafts, tmp_path / "cache", tmp_path / "tmp",
                      tmp_path / "home"):
            assert not [p for p in place.rglob("*") if p.is_file()], place
        await pilot.press("escape")  # room again: stored, then closed
        await settle(app, pilot)
        assert not isinstance(app.screen, NoteScreen)
    assert stored_note(database, paper_id) == big + "x"  # type: ignore[arg-type]


async def test_a_draft_goes_elsewhere_when_the_library_cannot_take_it(
    library: Library, monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
    refuse_writes: Callable[[Library], None],
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    library.paths.drafts.write_text("not a directory")  # the library's drafts are refused
    app = ReaderApp(library, load_sample=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        refuse_writes(library)
        await pilot.press("n")
        await pilot.pause()
        await type_text(pilot, "elsewhere")
        await pilot.press("escape")
        await settle(app, pilot)
        assert isinstance(app.screen, NoteScreen)
        status = str(app.screen.query_one("#note-status").render())
        assert "read-only" in status
        # The draft the editor names holds the whole text (an autosave made while typing
        # may have left an earlier one beside it).
        draft = next(p for p in (tmp_path / "cache").rglob("*.md") if str(p) in status)
        assert draft.read_text(encoding="utf-8") == "elsewhere"
        assert "esc again leaves" in status
        await pilot.press("escape")
        await settle(app, pilot)
        assert not isinstance(app.screen, NoteScreen)


def test_an_import_past_the_file_size_limit_says_so(library: Library, tmp_path: Path) -> None:
    """Before, the failed import's rollback hid the cause: "cannot rollback - no
    transaction is active"."""
    library.close()
    script = (
        "import resource, signal, sys\n"
        "from reader.cli import main\n"
        "signal.signal(signal.SIGXFSZ, signal.SIG_IGN)\n"
        "resource.setrlimit(resource.RLIMIT_FSIZE, (300_000, resource.RLIM_INFINITY))\n"
        "sys.argv = ['reader', *sys.argv[1:]]\n"
        "main()\n"
    )
    sample = ROOT.parent / "shared" / "data" / "iclr2026" / "submissions-sample.jsonl.gz"
    if not sample.exists():
        pytest.skip("the shared sample is not here")
    done = subprocess.run(
        [sys.executable, "-c", script, "--library", str(library.paths.root), "import",
         str(sample)],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False,
    )
    assert done.returncode == 1
    assert "file-size limit" in done.stderr and "rollback" not in done.stderr
    assert "Traceback" not in done.stderr


def test_a_full_disk_after_the_papers_says_what_was_written(tmp_path: Path) -> None:
    """Room for the 400 papers and not for their 1,666 replies: the error names the
    replies as what failed and the papers as written, not "nothing was changed" alone;
    importing the file again, with room, completes it."""
    script = (
        "import resource, signal, sys\n"
        "from reader.cli import main\n"
        "signal.signal(signal.SIGXFSZ, signal.SIG_IGN)\n"
        "resource.setrlimit(resource.RLIMIT_FSIZE, (3_072_000, resource.RLIM_INFINITY))\n"
        "sys.argv = ['reader', *sys.argv[1:]]\n"
        "main()\n"
    )
    sample = ROOT.parent / "shared" / "data" / "openreview" / "iclr2026-with-reviews-400.jsonl.gz"
    if not sample.exists():
        pytest.skip("the shared sample is not here")
    sample = sample.resolve()  # as the import's history names it (through any link)
    root = tmp_path / "lib"
    done = subprocess.run(
        [sys.executable, "-c", script, "--library", str(root), "import", str(sample)],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False,
    )
    assert done.returncode == 1
    error = done.stderr.strip().splitlines()[-1]
    assert error.startswith(f"Error: the replies of {sample.name}: the file-size limit"), error
    assert "written before it: 400 new and 0 merged papers" in error
    library = Library(root)
    assert library.store.count() == 400
    # The doctor says the import is not over, and how to finish it.
    report = library.upkeep.doctor()
    assert not report.ok
    assert any(line.startswith(f"import: {sample} (begun ") and "stopped part way" in line
               for line in report), report
    library.close()
    again = subprocess.run(
        [sys.executable, "-m", "reader", "--library", str(root), "import", str(sample)],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False,
    )
    assert again.returncode == 0, again.stderr
    assert "1,643 new replies" in again.stdout
    library = Library(root)
    try:
        assert not [line for line in library.upkeep.doctor() if line.startswith("import:")]
    finally:
        library.close()


@contextmanager
def unwritable(folder: Path) -> Iterator[None]:
    """``folder`` made unwritable even to root (its immutable flag), or the test skipped
    where the system cannot do that."""
    made = subprocess.run(["chattr", "+i", str(folder)], capture_output=True, check=False)
    if made.returncode != 0 or os.access(folder, os.W_OK):
        subprocess.run(["chattr", "-i", str(folder)], capture_output=True, check=False)
        pytest.skip("cannot make a directory unwritable here")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(folder)], check=True)


def test_a_library_in_an_unwritable_directory_says_why_it_cannot_open(
    library: Library,
) -> None:
    """SQLite needs to write its working files beside the database even to read it: such a
    library opens read-only (as a file nothing changes), and a write says the directory is
    the trouble, not only "unable to open database file"."""
    root = library.paths.root
    library.close()
    for name in ("library.sqlite-wal", "library.sqlite-shm"):
        (root / name).unlink(missing_ok=True)
    with unwritable(root):
        read = subprocess.run(
            [sys.executable, "-m", "reader", "--library", str(root), "stats"],
            capture_output=True, text=True, cwd=ROOT, timeout=60,
        )
        result = subprocess.run(
            [sys.executable, "-m", "reader", "--library", str(root), "star", "1"],
            capture_output=True, text=True, cwd=ROOT, timeout=60,
        )
    assert read.returncode == 0 and read.stdout.strip().endswith("with notes"), read.stderr
    assert result.returncode == 1
    assert f"its directory {root} cannot be written to" in result.stderr, result.stderr
    assert "Traceback" not in result.stderr


async def test_a_draft_the_note_holds_now_is_not_said_to_wait(library: Library) -> None:
    """A draft whose text a later save stored (or the user pasted in) was said at every
    start, and in the paper's editor, to wait to be restored: homework for nothing. Only a
    draft whose text the note lacks is said."""
    from reader.library import draft_dirs, draft_paper, waiting_drafts, write_draft

    places = draft_dirs(library.paths.drafts)
    kept_id, lost_id = library.store.all_ids()[:2]
    library.save_note(kept_id, "Typed under lock.\nAnd a line after it.")
    kept = write_draft("Typed under lock.", f"note-key2026-{kept_id}", places)
    lost = write_draft("Only here.", f"note-other2026-{lost_id}", places)
    assert kept.path is not None and lost.path is not None
    assert draft_paper(kept.path) == kept_id and draft_paper(lost.path) == lost_id
    assert draft_paper(Path("note-7.md")) == 7 and draft_paper(Path("notes.md")) is None
    assert set(waiting_drafts(places)) == {kept.path, lost.path}
    assert waiting_drafts(places, held=lambda i: library.note(i).text) == [lost.path]
    app = ReaderApp(library, load_sample=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        said = " ".join(messages(app))
        assert str(lost.path) in said and str(kept.path) not in said and "more" not in said
    # And the doctor names it to a user of the command line.
    [line] = [line for line in library.upkeep.doctor() if line.startswith("note drafts")]
    command = f"reader --library {library.paths.root} note {lost_id} < {lost.path}"
    assert line == (
        "note drafts: 1 waits to be restored (saves that failed; the command beside a draft "
        "makes it the note, whose text stays a version; or paste what you want to keep into "
        f"the note; then delete the draft): {lost.path} (`{command}`)")
    # The command it gives restores it (run as this Python runs the reader).
    python = shlex.quote(sys.executable)
    done = subprocess.run(command.replace("reader ", f"{python} -m reader ", 1), shell=True,
                          cwd=ROOT, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert library.note(lost_id).text.rstrip("\n") == "Only here."
    assert library.upkeep.doctor().ok


def test_a_draft_left_in_the_cache_is_offered_only_in_its_own_library(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
) -> None:
    """A draft that could not go in its library's folder goes to the user's cache, in a
    folder of that library's own: another library, where the paper's number is another
    paper, never offers it."""
    from reader.library import draft_dirs, waiting_drafts
    from reader.store.drafts import write_draft

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    one, other = Library(tmp_path / "one"), Library(tmp_path / "other")
    try:
        one.paths.drafts.write_text("not a directory")  # the library refuses drafts
        draft = write_draft("words for paper 7", "note-key2026-7", draft_dirs(one.paths.drafts))
        assert draft.path is not None and (tmp_path / "cache") in draft.path.parents
        assert waiting_drafts(draft_dirs(one.paths.drafts)) == [draft.path]
        assert waiting_drafts(draft_dirs(other.paths.drafts)) == []
    finally:
        one.close()
        other.close()


def test_a_disk_io_error_on_a_full_disk_says_the_disk_is_full(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SQLite says "disk I/O error" when it cannot make its working files on a full disk,
    even to read: the message names the cause, in the words of a write that found no room
    (a full disk, ENOSPC, is "the disk is full" there too), and what to do."""
    import shutil
    import sqlite3

    from reader import errors

    failed = sqlite3.OperationalError("disk I/O error")
    # With room on the disk and no limit, "disk I/O error" is not called a full disk.
    assert errors.describe_no_room(failed, tmp_path) is None
    usage = shutil.disk_usage(tmp_path)
    monkeypatch.setattr(errors.shutil, "disk_usage", lambda _path: usage._replace(free=0))
    assert errors.describe_no_room(failed, tmp_path) == (
        "the disk is full (SQLite: disk I/O error); nothing was changed; "
        "free some space and try again"
    )
    full = OSError(errno.ENOSPC, "No space left on device")
    assert errors.describe_write_error(full) == "the disk is full"


async def test_a_read_that_fails_otherwise_than_by_damage_is_said_as_it_is(
    library: Library,
) -> None:
    """A paper that cannot be read because the library is busy is not called damage (with
    advice to run the doctor): the failure is said in its own words; damage still is."""
    from reader.errors import Busy, Damaged

    app = ReaderApp(library, load_sample=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        app.damaged(Busy("database is locked", message="the library is busy in another process"))
        await pilot.pause()
        assert messages(app)[-1] == "the library is busy in another process"
        app.damaged(Damaged("file is not a database"))
        await pilot.pause()
        assert messages(app)[-1].startswith("The library database is damaged")


def test_an_export_the_disk_refuses_is_a_reader_error(library: Library, tmp_path: Path) -> None:
    """The exporters reached through the library's door raise what the disk answers as
    the ReaderError it stands for, as the library's own methods do: the window and the
    command line catch that one kind."""
    from reader.errors import ReaderError
    from reader.library import export

    folder = tmp_path / "out"
    folder.mkdir()
    papers = library.papers(library.all_ids()[:2])
    with unwritable(folder):
        with pytest.raises(ReaderError) as raised:
            export(papers, "csv", folder / "papers.csv")
    assert "papers.csv" in raised.value.line()
    assert isinstance(raised.value.__cause__, OSError)


def test_an_export_writes_through_a_symbolic_link_and_into_a_pipe(tmp_path: Path) -> None:
    """`-o refs.bib` where refs.bib links into a synced folder replaced the link with a
    file (the folder's copy went stale); `-o /dev/stdout` replaced the device's link."""
    import os

    from reader.cite.export import write_atomic

    target = tmp_path / "synced" / "refs.bib"
    target.parent.mkdir()
    target.write_text("old", encoding="utf-8")
    link = tmp_path / "refs.bib"
    link.symlink_to(target)
    write_atomic(link, "@misc{a,}\n")
    assert link.is_symlink() and target.read_text(encoding="utf-8") == "@misc{a,}\n"
    read, write = os.pipe()
    fifo = Path(f"/proc/self/fd/{write}")
    write_atomic(fifo, "through the pipe\n")
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        assert pipe.read() == b"through the pipe\n"


async def test_quitting_just_after_typing_stores_the_note_first(library: Library) -> None:
    """ctrl+q within the autosave's wait quit with the words typed in it."""
    database = library.paths.database
    app = ReaderApp(library, load_sample=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        paper_id = app.query_one(PaperList).current_id
        await pilot.press("n")
        await pilot.pause()
        await type_text(pilot, "last words")
        await pilot.press("ctrl+q")  # at once: the autosave waits 0.6 s
        await until(pilot, lambda: not app.is_running, "the window closes")
    assert stored_note(database, paper_id) == "last words"  # type: ignore[arg-type]


async def test_typing_after_ctrl_q_is_not_taken_while_the_save_waits(
    library: Library, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """ctrl+q while another process held the library: the editor took the letters typed
    during the wait for the lock, showed them, and the window quit with the text of the
    ctrl+q moment. Now the editor takes no more typing once the quit begins, and says so:
    what it shows is what is stored."""
    monkeypatch.setattr(quitting, "_SAVE_WAIT", 0.3)  # how long ctrl+q holds the keys
    database = library.paths.database
    app = ReaderApp(library, load_sample=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        paper_id = app.query_one(PaperList).current_id
        await pilot.press("n")
        await pilot.pause()
        await type_text(pilot, "first words")
        blocker = Library(library.paths.root)
        blocker.store.conn.execute("BEGIN IMMEDIATE")  # another process writing
        try:
            await pilot.press("ctrl+q")
            await type_text(pilot, " and more")
            await pilot.pause()
            assert isinstance(app.screen, NoteScreen)
            assert app.screen.text == "first words"
            status = str(app.screen.query_one("#note-status").render())
            assert status.startswith("Quitting once this note is stored: typing is not taken")
        finally:
            blocker.store.conn.execute("ROLLBACK")
            blocker.close()
        await until(pilot, lambda: not app.is_running, "the window closes")
    assert stored_note(database, paper_id) == "first words"  # type: ignore[arg-type]


async def test_a_star_that_a_busy_library_outlasts_is_stored_once_it_is_free(
    library: Library, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A star pressed while another process held the library longer than a write waits
    was given up ("Could not star the paper: database is locked") and lost, the stars
    after it stored. It is tried again until the library is free."""
    monkeypatch.setattr(base_module, "BUSY_TIMEOUT_MS", 200)
    app = ReaderApp(library, load_sample=False)
    blocker = Library(library.paths.root)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            first = app.query_one(PaperList).current_id
            blocker.store.conn.execute("BEGIN IMMEDIATE")
            await pilot.press("s", "j", "s")
            second = app.query_one(PaperList).current_id
            await pilot.pause(0.8)  # past a few of the writes' waits
            # Said, once: the star shown was stored nowhere yet, without a word.
            assert [m for m in messages(app) if m.startswith("Another process is writing")
                    ] == ["Another process is writing to the library: your change waits, and "
                          "is stored once the library is free."]
            blocker.store.conn.execute("ROLLBACK")
            await settle(app, pilot)
            assert not any(m.startswith("Could not star") for m in messages(app))
    finally:
        if blocker.store.conn.in_transaction:
            blocker.store.conn.execute("ROLLBACK")
        blocker.close()
    stars = {p.id for p in library.store.papers(library.store.all_ids()) if p.starred}
    assert stars == {first, second}


async def test_the_text_is_in_a_draft_as_a_second_ctrl_q_closes_the_window(
    library: Library, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The window closed by a second ctrl+q while a save waited: the text was in no file
    until the save ended (ctrl+c in the terminal meanwhile lost it). It is in its draft as
    the window closes; stored later, the draft is deleted, and the terminal says so."""
    from reader.ui.start import after_close

    monkeypatch.setattr(base_module, "BUSY_TIMEOUT_MS", 5_000)
    monkeypatch.setattr(quitting, "_SAVE_WAIT", 0.3)
    database = library.paths.database
    app = ReaderApp(library, load_sample=False)
    blocker = Library(library.paths.root)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            paper_id = app.query_one(PaperList).current_id
            await pilot.press("n")
            await pilot.pause()
            await type_text(pilot, "held")
            blocker.store.conn.execute("BEGIN IMMEDIATE")
            await type_text(pilot, " text")
            await pilot.press("ctrl+q", "ctrl+q")
            await until(pilot, lambda: not app.is_running, "the second ctrl+q closes")
        [draft] = library.paths.drafts.glob("*.md")
        assert draft.read_text(encoding="utf-8") == "held text"
        blocker.store.conn.execute("ROLLBACK")
        app.writes.finish()
    finally:
        if blocker.store.conn.in_transaction:
            blocker.store.conn.execute("ROLLBACK")
        blocker.close()
    assert stored_note(database, paper_id) == "held text"  # type: ignore[arg-type]
    assert list(library.paths.drafts.glob("*.md")) == []
    lines = after_close(*app.notes.after_close(), app.writes.failed_after_close())
    assert lines == [f"The note of paper {paper_id} is stored."]


async def test_text_typed_behind_a_waiting_save_is_stored_once_the_window_closed(
    library: Library, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A save waits on another process's lock while typing goes on, and the window closes
    at once (a second ctrl+q, SIGTERM): the text typed after the save went out is stored
    on top of it once the lock is let go (it was left in the draft alone, the note a
    letter short, and the terminal said "stored")."""
    from reader.ui.start import after_close

    monkeypatch.setattr(base_module, "BUSY_TIMEOUT_MS", 5_000)
    database = library.paths.database
    app = ReaderApp(library, load_sample=False)
    blocker = Library(library.paths.root)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            paper_id = app.query_one(PaperList).current_id
            await pilot.press("n")
            await pilot.pause()
            assert isinstance(app.screen, NoteScreen)
            app.seen.flush()  # no other write ahead of the save: it is the one that waits
            await until(pilot, lambda: not app.writes.unfinished(), "the papers seen stored")
            blocker.store.conn.execute("BEGIN IMMEDIATE")
            await type_text(pilot, "held tex")
            await until(pilot, lambda: app.writes.unfinished() > 0, "the save sent")
            await pilot.press("t")
            await pilot.pause()
            # As a second ctrl+q does, and SIGTERM: the window closes at once.
            app.quitting.terminate()
            await until(pilot, lambda: not app.is_running, "the window closed")
        [draft] = library.paths.drafts.glob("*.md")
        assert draft.read_text(encoding="utf-8") == "held text"
        blocker.store.conn.execute("ROLLBACK")
        app.writes.finish()
    finally:
        if blocker.store.conn.in_transaction:
            blocker.store.conn.execute("ROLLBACK")
        blocker.close()
    assert stored_note(database, paper_id) == "held text"  # type: ignore[arg-type]
    assert list(library.paths.drafts.glob("*.md")) == []
    lines = after_close(*app.notes.after_close(), app.writes.failed_after_close())
    assert lines == [f"The note of paper {paper_id} is stored."]


async def test_a_save_that_meets_a_busy_library_while_quitting_is_tried_again(
    library: Library, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """ctrl+q while another process held the library longer than a save waits: the save
    failed (the text went to a draft) and the window closed once the other let go,
    without storing the note then. Now the quit tries it again until it is stored."""
    monkeypatch.setattr(base_module, "BUSY_TIMEOUT_MS", 200)
    monkeypatch.setattr(quitting, "_SAVE_WAIT", 0.3)
    database = library.paths.database
    app = ReaderApp(library, load_sample=False)
    blocker = Library(library.paths.root)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            paper_id = app.query_one(PaperList).current_id
            await pilot.press("n")
            await pilot.pause()
            await type_text(pilot, "kept")
            blocker.store.conn.execute("BEGIN IMMEDIATE")
            await type_text(pilot, " words")  # typed under the lock: the autosave waits
            await pilot.press("ctrl+q")
            await pilot.pause(0.6)  # past a few of the save's waits
            assert app.is_running
            blocker.store.conn.execute("ROLLBACK")
            await until(pilot, lambda: not app.is_running, "the window closes once stored")
    finally:
        if blocker.store.conn.in_transaction:
            blocker.store.conn.execute("ROLLBACK")
        blocker.close()
    assert stored_note(database, paper_id) == "kept words"  # type: ignore[arg-type]


async def test_a_save_cancelled_while_quitting_ends_no_quit_with_a_traceback(
    library: Library, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A write cancelled while ctrl+q waited for the writes (a save waiting on another
    process's lock, replaced by a newer one): the wait for them all raised WorkerCancelled
    out of the quit, and the window closed with a traceback and status 1."""
    monkeypatch.setattr(quitting, "_SAVE_WAIT", 0.3)
    database = library.paths.database
    app = ReaderApp(library, load_sample=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        paper_id = app.query_one(PaperList).current_id
        await pilot.press("n")
        await pilot.pause()
        await type_text(pilot, "kept words")
        waiting = app.run_worker(asyncio.sleep(30), group="writes", exit_on_error=False)
        await pilot.press("ctrl+q")
        await pilot.pause()
        waiting.cancel()
        await until(pilot, lambda: not app.is_running, "the window closes")
    assert app.return_code in (0, None)
    assert stored_note(database, paper_id) == "kept words"  # type: ignore[arg-type]


async def test_quitting_with_a_note_stored_nowhere_asks_first(
    library: Library, monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
) -> None:
    """No room for the note in the library nor for any draft: the first ctrl+q keeps the
    window and says why; the second quits without the text, as it said."""
    for name, place in (("XDG_CACHE_HOME", "cache"), ("TMPDIR", "tmp"), ("HOME", "home")):
        monkeypatch.setenv(name, str(tmp_path / place))
    (tmp_path / "tmp").mkdir()
    database = library.paths.database
    app = ReaderApp(library, load_sample=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("n")
        await pilot.pause()
        with disk_full(database):
            await paste(app, pilot, "pasted words " * 2_000)  # past any file's room
            await pilot.press("ctrl+q")
            await settle(app, pilot)
            assert app.is_running and isinstance(app.screen, NoteScreen)
            status = str(app.screen.query_one("#note-status").render())
            assert status.startswith("Only this screen holds the text: ctrl+q again quits")
            # The reason once, however many places refused the draft for it too.
            assert "4 places tried, for the same reason" in status
            assert status.count("file-size limit") == 1
            await type_text(pilot, "!")  # the window stays, and so does the typing
            assert app.screen.text.endswith("pasted words !")
            await pilot.press("ctrl+q")
            await until(pilot, lambda: not app.is_running, "the second ctrl+q quits")
    # No folder was left behind for a draft that did not fit in it.
    assert not library.paths.drafts.exists()
    assert [p for p in tmp_path.rglob("*") if "drafts" in p.name] == []


def test_a_new_library_with_no_room_says_so_and_leaves_nothing(tmp_path: Path) -> None:
    """A library begun where no file may grow (the file-size limit of this process):
    opening said "… is not a reader library: disk I/O error" and left a stub behind, and
    the folders made to reach it stayed."""
    script = (
        "import resource, signal, sys\n"
        "from reader.cli import main\n"
        "signal.signal(signal.SIGXFSZ, signal.SIG_IGN)\n"
        "resource.setrlimit(resource.RLIMIT_FSIZE, (8192, resource.RLIM_INFINITY))\n"
        "sys.argv = ['reader', *sys.argv[1:]]\n"
        "main()\n"
    )
    table = tmp_path / "papers.csv"
    table.write_text("title,abstract\nA Paper,What it says.\n", encoding="utf-8")
    root = tmp_path / "new" / "deep" / "lib"
    done = subprocess.run(
        [sys.executable, "-c", script, "--library", str(root), "import", str(table)],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False,
    )
    assert done.returncode == 1
    assert "file-size limit of this process" in done.stderr, done.stderr
    assert "raise the file-size limit (ulimit -f) and try again" in done.stderr
    assert "not a reader library" not in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "new").exists()


def test_the_doctor_names_an_import_whose_process_is_gone_unfinished(library: Library) -> None:
    """An import killed part way leaves its row unfinished, its process gone: the doctor
    says so (it said "ok" while the replies of its papers were missing)."""
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)
    with library.store.transaction() as conn:
        conn.execute("UPDATE imports SET finished_at = NULL, pid = ? WHERE id = "
                     "(SELECT max(id) FROM imports)", (int(dead.stdout),))
    report = library.upkeep.doctor()
    assert not report.ok
    [line] = [line for line in report if line.startswith("import:")]
    assert line.endswith("stopped part way; importing the file again finishes it")
