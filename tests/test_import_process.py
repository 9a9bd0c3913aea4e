"""The reader's own import (`i`) runs in a process of its own: the window takes keys while
it runs, shows each batch's papers as it commits, and learns the summary from the
process's reports."""

from __future__ import annotations

import asyncio
import io
import json
import os
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot

import reader.store.base
import reader.ui.import_session as app_module
import reader.ui.live as live_module
from reader.import_summary import ImportSummary
from reader.library import Library
from reader.library.import_main import EventWriter
from reader.library.import_process import (
    ImportProcess,
    run_import,
    summary_from_json,
    summary_to_json,
)
from reader.ui.app import ReaderApp
from tests.test_index_build import write_openreview


async def until(pilot: Pilot, condition: Callable[[], bool], what: str) -> None:
    """Let the app run until ``condition()`` holds (an import process takes a while to
    start on a busy machine)."""
    for _ in range(3000):
        if condition():
            return
        await pilot.pause(0.02)
    status = str(pilot.app.query_one("#status").render())
    raise AssertionError(f"never happened: {what}; the status line: {status!r}")


def hold_after_first_batch(database: Path, before: int) -> tuple[sqlite3.Connection, int]:
    """Wait for an import's first batch to commit, then take the write lock, so that the
    import waits for it before its next batch; the connection holding it and the papers
    committed by then."""
    conn = sqlite3.connect(database, timeout=0, isolation_level=None, check_same_thread=False)
    while conn.execute("SELECT count(*) FROM papers").fetchone()[0] == before:
        threading.Event().wait(0.02)
    # Tried again at once, never after a busy handler's sleep: the import frees the lock
    # only for the moment between two batches, and a sleeping waiter would miss them all.
    while True:
        try:
            conn.execute("BEGIN IMMEDIATE")
            break
        except sqlite3.OperationalError:
            continue
    return conn, conn.execute("SELECT count(*) FROM papers").fetchone()[0]


async def test_the_reader_imports_in_a_process_of_its_own_and_shows_each_batch(
    tmp_path: Path, library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While an import started with `i` runs, the list shows the papers of the batches
    committed so far, keys move the cursor, and at the end the summary is shown and the
    new papers are found by a search."""
    # Small batches: the import commits hundreds of times, so the lock below is taken
    # long before its last batch.
    monkeypatch.setattr(app_module, "IMPORT_BATCH", 5)
    monkeypatch.setattr(live_module, "POLL_SECONDS", 0.05)
    total = 1_000
    path = write_openreview(tmp_path / "big.jsonl", total)
    before = library.store.count()
    monkeypatch.chdir(tmp_path)  # the file named from here: typed key by key, a long path is slow
    app = ReaderApp(library)
    async with app.run_test(size=(120, 40)) as pilot:
        await app.workers.wait_for_complete()
        held = asyncio.create_task(
            asyncio.to_thread(hold_after_first_batch, library.paths.database, before)
        )
        await pilot.press("i", *path.name, "enter")
        conn, committed = await held
        try:
            assert before < committed < before + total
            # The list follows the batches committed while the import waits for the next.
            await until(pilot, lambda: len(app.paper_list.ids) == committed, "the first batch")
            assert app.imports.running
            assert "Importing big.jsonl" in str(app.query_one("#status").render())
            cursor = app.paper_list.cursor
            await pilot.press("j", "j", "j")
            assert app.paper_list.cursor == cursor + 3
            assert app.imports.running  # the import still waits
        finally:
            conn.execute("ROLLBACK")
            conn.close()
        await until(pilot, lambda: not app.imports.running, "the end of the import")
        await app.workers.wait_for_complete()
        await until(pilot, lambda: len(app.paper_list.ids) == before + total, "every paper")
        messages = " ".join(n.message for n in app._notifications)
        assert f"{total:,} read: {total:,} new" in messages
    assert library.store.count() == before + total
    assert library.index_state() == "ok"
    assert library.search("number 999").ids


async def test_quitting_leaves_the_import_to_finish_in_its_process(
    tmp_path: Path, library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`q` while an import runs quits without waiting for it; the import process goes on
    and writes and indexes every paper."""
    monkeypatch.setattr(app_module, "IMPORT_BATCH", 5)
    total = 1_000
    path = write_openreview(tmp_path / "late.jsonl", total)
    before = library.store.count()
    monkeypatch.chdir(tmp_path)
    app = ReaderApp(library)
    async with app.run_test(size=(120, 40)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.press("i", *path.name, "enter")
        while library.store.count() == before:  # the first batch
            await asyncio.sleep(0.005)
        await pilot.press("q")
        notes: list[str] = []

        def quit_and_note() -> bool:
            if app.is_running:
                notes.append(str(app.query_one("#status").render()))
            return not app.is_running

        await until(pilot, quit_and_note, "the reader quits")
    # Once it says it is quitting, the window says nothing else (no import progress).
    said = [n for n in notes if "Quitting" in n or "Importing" in n]
    quitting = [n for n in said if "Quitting" in n]
    if quitting:
        assert all("Quitting" in n for n in said[said.index(quitting[0]):]), said
    for _ in range(3000):
        if library.store.count() == before + total and library.index_state() == "ok":
            break
        await asyncio.sleep(0.02)
    assert library.store.count() == before + total
    assert library.index_state() == "ok"
    assert library.search("number 999").ids


def test_an_import_process_reports_progress_the_summary_and_failures(
    tmp_path: Path, library: Library
) -> None:
    """run_import yields the import's progress, its summary (as the CLI prints it) and the
    end of indexing; a file that cannot be read is a failure naming it."""
    path = write_openreview(tmp_path / "a.jsonl", 30)
    events = list(run_import(library.paths.root, [path], batch=10))
    kinds = [e.kind for e in events]
    assert kinds[0] == "progress" and kinds[-1] == "indexed"
    summary = next(e.summary for e in events if e.kind == "imported")
    assert summary is not None
    assert str(summary) == "30 read: 30 new, 0 merged, 0 unchanged, 0 skipped"
    assert library.search("number 29").ids
    failed = list(run_import(library.paths.root, [tmp_path / "missing.jsonl"], batch=10))
    assert [e.kind for e in failed] == ["failed"]
    assert "missing.jsonl" in failed[0].message and "cannot read" in failed[0].message


def test_a_batched_import_leaves_the_log_to_one_checkpoint(
    tmp_path: Path, library: Library
) -> None:
    """Batches commit without copying the write-ahead log into the database each time (a
    sixth of an import's writing); one checkpoint copies it in, without waiting for a
    reader reading meanwhile, and the connection checkpoints as usual afterwards."""
    database = library.paths.database
    library.imports.checkpoint()
    before = database.stat().st_size
    library.imports.write_files([write_openreview(tmp_path / "a.jsonl", 60)], batch=10)
    assert database.stat().st_size == before, "the papers are in the log, not yet copied"
    reading = sqlite3.connect(database, isolation_level=None)
    try:
        reading.execute("BEGIN")
        assert reading.execute("SELECT count(*) FROM papers").fetchone()[0] > 60
        library.imports.checkpoint()  # with the reader's transaction open
        reading.execute("COMMIT")
    finally:
        reading.close()
    assert database.stat().st_size > before
    with library.session() as store:
        assert store.conn.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 1000


def test_the_log_an_import_grew_is_cut_back_once_it_starts_over(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An import grows the write-ahead log; once it is copied in and a later write starts
    it over, the file on disk shrinks to the size kept, not the import's for good."""
    monkeypatch.setattr(reader.store.base, "WAL_KEPT_BYTES", 64 << 10)
    library = Library(tmp_path / "lib")
    try:
        library.import_files([write_openreview(tmp_path / "a.jsonl", 300)], batch=100)
        wal = library.paths.database.with_name("library.sqlite-wal")
        assert wal.stat().st_size > 64 << 10
        library.imports.checkpoint()
        library.set_starred(library.store.all_ids()[0], True)
        assert wal.stat().st_size <= 64 << 10
    finally:
        library.close()


def test_the_import_process_runs_this_reader_whatever_the_directory(
    tmp_path: Path, library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A directory holding a package named ``reader`` (a checkout, say) is not where the
    import process's code comes from: it runs the code of the window that started it, and
    relative paths still name what they named."""
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "reader").mkdir(parents=True)
    (elsewhere / "reader" / "__init__.py").write_text("")
    (elsewhere / "reader" / "__main__.py").write_text(
        "open('wrong-reader-ran', 'w').close()\n"
    )
    write_openreview(elsewhere / "a.jsonl", 20)
    monkeypatch.chdir(elsewhere)
    events = list(run_import(Path(os.path.relpath(library.paths.root)), [Path("a.jsonl")],
                             batch=10))
    assert not (elsewhere / "wrong-reader-ran").exists()
    assert [e.kind for e in events][-1] == "indexed"
    assert library.search("number 19").ids


def test_an_import_process_started_before_its_file_is_named(
    tmp_path: Path, library: Library
) -> None:
    """The reader starts its import process as the prompt opens: told the file later, it
    imports as one started with it; let go instead, it exits having written nothing."""
    before = library.store.count()
    let_go = ImportProcess(library.paths.root, batch=10)
    let_go.cancel()
    assert let_go.proc.wait(timeout=60) == 0
    assert library.store.count() == before

    ready = ImportProcess(library.paths.root, batch=10)
    path = write_openreview(tmp_path / "a.jsonl", 30)
    events = list(run_import(library.paths.root, [path], batch=10, started=ready))
    assert [e.kind for e in events][-1] == "indexed"
    assert library.store.count() == before + 30
    assert library.search("number 29").ids

    ready = ImportProcess(library.paths.root, batch=10)
    failed = list(run_import(library.paths.root, [tmp_path / "gone.jsonl"], 10, started=ready))
    assert [e.kind for e in failed] == ["failed"] and "gone.jsonl" in failed[0].message


async def test_an_import_prompt_let_go_leaves_no_process(library: Library) -> None:
    """`i` starts the import process; escape lets it go, and so does closing the window
    with the prompt open."""
    app = ReaderApp(library)
    async with app.run_test(size=(120, 40)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.press("i")
        ready = app.imports.prepared
        assert ready is not None and ready.proc.poll() is None
        await pilot.press("escape")
        assert app.imports.prepared is None
        # Reaped without anyone waiting on it here: no zombie is left behind.
        for _ in range(3000):
            if ready.proc.returncode is not None:
                break
            await pilot.pause(0.02)
        assert ready.proc.returncode == 0
        await pilot.press("i")
        left_open = app.imports.prepared
        assert left_open is not None
    assert left_open.proc.wait(timeout=60) == 0


def test_an_import_summary_survives_its_trip_between_processes() -> None:
    """The summary a reader shows is the one the import process made, every field."""
    part = ImportSummary(read=3, new=1, merged=1, skipped=1, retitled=1, problems=["a:2: bad"],
                         files=["a.bib"], renamed_keys=[("smith20", "smith20a")])
    whole = ImportSummary(
        read=3, new=1, merged=1, skipped=1, retitled=1, reports=[part], warnings=["w"],
        previous="2026-01-01T00:00", tags_rewritten=[("To Read", "to-read")],
        kept_apart=[("A title", "smith20", "id 3")], aliased_keys=[("old20", "smith20")],
        decisions_changed=[("smith20", "oral", "reject")],
        kept_differing=[("smith20", ["journal"])], filled=[("smith20", ["doi"])],
        filled_new=[("jones21", ["pages"])],
    )
    # As the process sends it: JSON, which has no tuples.
    sent = json.loads(json.dumps(summary_to_json(whole)))
    assert summary_from_json(sent) == whole
    assert summary_from_json(sent).key_changes()  # the lines the window shows


def test_the_first_progress_of_a_kind_is_sent_at_once() -> None:
    """The index's first published part is told at once (a search typed meanwhile answers
    from it), then every EVENT_EVERY steps, and the last."""
    out = io.StringIO()
    report = EventWriter(out).progress("indexing")
    for done in (200, 400, 600, 700, 1300, 1400):
        report(done, 1400)
    sent = [json.loads(line)["done"] for line in out.getvalue().splitlines()]
    assert sent == [200, 700, 1300, 1400]


def test_progress_is_sent_as_time_passes_however_few_records() -> None:
    """A file of a few hundred records, slow to look up, moves the window's count: not
    1/404 until the import ends."""
    out = io.StringIO()
    seconds = iter(float(done) / 10 for done in range(1, 405))  # a tenth of a second each
    report = EventWriter(out, clock=lambda: next(seconds)).progress("progress")
    for done in range(1, 405):
        report(done, 404)
    sent = [json.loads(line)["done"] for line in out.getvalue().splitlines()]
    assert sent[:4] == [1, 4, 7, 10] and sent[-1] == 404


async def test_an_import_whose_process_cannot_start_is_said_to_have_failed(
    tmp_path: Path, library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An import process that cannot start (no file descriptor left) is an import that
    failed, said as such, rather than "Importing …" left in the status line for good: the
    library says the OS error as it says any, and the window reports it."""
    import errno

    import reader.library.import_process as process_module

    def no_process(*_args: object, **_kwargs: object) -> None:
        raise OSError(errno.EMFILE, "Too many open files")

    monkeypatch.setattr(process_module.subprocess, "Popen", no_process)
    path = write_openreview(tmp_path / "some.jsonl", 3)
    monkeypatch.chdir(tmp_path)
    app = ReaderApp(library)
    async with app.run_test(size=(120, 40)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.press("i", *path.name, "enter")
        await until(pilot, lambda: any(n.title == "Import failed" for n in app._notifications),
                    "the failure said")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert not app.imports.running
        assert "Importing" not in str(app.query_one("#status").render())


async def test_a_report_handled_after_the_list_went_is_let_go(library: Library) -> None:
    """An import's report handled as the window closed, after its list was gone, ended the
    window with NoMatches (the status line read the list's papers)."""
    from reader.ui.import_session import ImportSession, Source
    from reader.ui.widgets.paper_list import PaperList

    app = ReaderApp(library)
    async with app.run_test() as pilot:
        await pilot.press("slash")  # (the focus stays where it is as the list goes)
        await app.query_one(PaperList).remove()
        app.post_message(ImportSession.Failed(Source.FILES, "a.bib: gone"))
        app.post_message(ImportSession.Progress("a.bib", 1, 2))
        await pilot.pause()
        assert app.return_code is None and app._exception is None
