"""A live library: an open reader follows writes made by other processes (the CLI,
another reader) within a second: new papers, stars, notes, read marks, and the counts."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from textual.widgets import Static

import reader.ui.live as live_module
from reader.library import Library
from reader.search import index_base
from reader.ui.app import ReaderApp
from tests.test_app import SIZE, settle
from tests.test_index_build import write_openreview
from tests.waiting import until, wait_for

ROOT = Path(__file__).resolve().parent.parent


def status(app: ReaderApp) -> str:
    """The status line as shown."""
    return str(app.query_one("#status", Static).content)


def cli(root: Path, *args: str) -> str:
    """Run the reader command in a process of its own."""
    done = subprocess.run(
        [sys.executable, "-m", "reader", "--library", str(root), *args],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


BIBTEX = """
@article{wombat2026,
  title = {Wombats Dig Square Burrows},
  author = {Doe, Jane},
  year = {2026},
  abstract = {Wombat burrows are studied with ground radar.},
}
@article{quokka2026,
  title = {Quokkas Smile at Nothing},
  author = {Roe, Rick},
  year = {2026},
  abstract = {Quokka faces are measured in the wild.},
}
"""


async def test_stars_and_notes_from_the_cli_show_in_an_open_reader(library: Library) -> None:
    ids = library.store.all_ids()
    key = library.store.paper(ids[3]).citekey  # type: ignore[union-attr]
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert "0 starred" in status(app)
        cli(library.paths.root, "star", key)
        cli(library.paths.root, "note", key, "--text", "read this one twice")
        await until(pilot, lambda: "1 starred" in status(app) and "1 with notes" in status(app),
                    "the status line counts the CLI's star and note")
        row = app.paper_list._row(3)
        assert row is not None and row.starred and row.has_note


async def test_papers_imported_elsewhere_join_the_list_and_the_search(
    library: Library, tmp_path: Path
) -> None:
    source = tmp_path / "more.bib"
    source.write_text(BIBTEX, encoding="utf-8")
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert len(app.paper_list.ids) == 38
        cli(library.paths.root, "import", str(source))
        await until(pilot, lambda: len(app.paper_list.ids) == 40, "the new papers are listed")
        assert "/ 40 seen" in status(app)
        await pilot.press("slash", *"wombat", "enter")
        await settle(app, pilot)
        assert [library.store.paper(i).title for i in app.paper_list.ids] == [  # type: ignore[union-attr]
            "Wombats Dig Square Burrows"
        ]


async def test_read_marks_and_stars_of_another_reader_follow(library: Library) -> None:
    other = Library(library.paths.root)
    ids = library.store.all_ids()
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        other.marks.set_read(ids[5], True)
        other.set_starred(ids[6], True)
        await until(pilot, lambda: "1 read" in status(app) and "1 starred" in status(app),
                    "the other reader's marks are counted")
        await until(pilot, lambda: app.paper_list._row(5).read,  # type: ignore[union-attr]
                    "the row shows the read mark")
        # A view selecting on stars follows too.
        await pilot.press("slash", *"is:starred", "enter")
        await settle(app, pilot)
        assert app.paper_list.ids == [ids[6]]
        other.set_starred(ids[7], True)
        await until(pilot, lambda: app.paper_list.ids == [ids[6], ids[7]],
                    "the starred view gains the paper starred elsewhere")
    other.close()


def figures(library: Library) -> str:
    """The library's figures as the status line words them, counted by SQL."""
    c = library.store.marks.triage_counts()
    return (
        f"{c['seen']:,} / {c['papers']:,} seen · {c['starred']:,} starred · "
        f"{c['read']:,} read · {c['with_notes']:,} with notes"
    )


def stored(library: Library, paper_id: int) -> tuple[bool, bool]:
    """A paper's star and read mark as stored."""
    paper = library.store.paper(paper_id)
    assert paper is not None
    return paper.starred, paper.read


async def test_quick_presses_each_count_while_the_database_is_busy(library: Library) -> None:
    """Each press states a result from what the window shows, so presses made while
    earlier writes wait on another process's lock are not lost."""
    paper_id = library.store.all_ids()[0]
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        blocker = Library(library.paths.root)
        blocker.store.conn.execute("BEGIN IMMEDIATE")  # another process writing
        await pilot.press("s", "s", "s", "s", "r", "r", "r")
        row = app.paper_list._row(0)
        assert row is not None and not row.starred and row.read  # shown as asked, at once
        blocker.store.conn.execute("ROLLBACK")
        await settle(app, pilot)
        assert stored(library, paper_id) == (False, True)
        await until(pilot, lambda: figures(library) in status(app), "the figures agree")
        blocker.close()


async def test_two_readers_and_the_cli_lose_no_press(library: Library) -> None:
    """Two windows on one library and the CLI, presses interleaved: every press lands as
    the window showed it, and both windows count what the database counts."""
    ids = library.store.all_ids()
    root = library.paths.root
    other = Library(root)
    a, b = ReaderApp(library), ReaderApp(other)
    async with a.run_test(size=SIZE) as pa, b.run_test(size=SIZE) as pb:
        await settle(a, pa)
        await settle(b, pb)

        def shows(app: ReaderApp, index: int, starred: bool) -> Callable[[], bool]:
            def check() -> bool:
                row = app.paper_list._row(index)
                return row is not None and row.starred == starred
            return check

        await pa.press("s")  # A stars the first paper
        await until(pb, shows(b, 0, True), "B shows A's star")
        await pb.press("s")  # B, seeing it starred, unstars it
        await until(pa, shows(a, 0, False), "A shows B's unstar")
        cli(root, "star", str(ids[0]))
        await until(pa, shows(a, 0, True), "A shows the CLI's star")
        await until(pb, shows(b, 0, True), "B shows the CLI's star")
        await pa.press("s", "s", "s")  # a quick burst: unstar, star, unstar
        await until(pb, shows(b, 0, False), "B shows the end of A's burst")
        # Both at once, on different papers, while a third process holds the write lock:
        # B stars and reads the second, A the third.
        blocker = Library(root)
        blocker.store.conn.execute("BEGIN IMMEDIATE")
        await pb.press("j", "s", "r")
        await pa.press("j", "j", "s")
        await pb.press("s", "s")
        await pa.press("r", "r", "r")
        blocker.store.conn.execute("ROLLBACK")
        blocker.close()
        for app, pilot in ((a, pa), (b, pb)):
            await settle(app, pilot)
        assert stored(library, ids[0]) == (False, False)
        assert stored(library, ids[1]) == (True, True)
        assert stored(library, ids[2]) == (True, True)
        for app, pilot in ((a, pa), (b, pb)):
            await until(pilot, lambda app=app: figures(library) in status(app),  # type: ignore[misc]
                        "the window's figures are the database's")
            for index in range(3):
                # The rows follow on the next change notice, as the counts did: wait for it.
                await until(pilot, lambda app=app, index=index: (  # type: ignore[misc]
                    (row := app.paper_list._row(index)) is not None
                    and (row.starred, row.read) == stored(library, ids[index])
                ), f"row {index} shows what is stored")
    other.close()


#: A process that takes the index's writer lock and says it is building, as a reader window
#: catching up on another process's import does, until it is killed.
HOLD_INDEX = """
import sys
from reader.library import Library
from pathlib import Path
library = Library(Path(sys.argv[1]))
writer = library.index._writer()
library.index._published(library.index.generation, 1_000, 10)
print("building", flush=True)
sys.stdin.read()
"""


def test_an_import_finishes_the_index_that_a_window_killed_mid_build_left(
    library: Library, tmp_path: Path
) -> None:
    """`reader import` while a window indexes: the import waits for the window rather than
    leave it the indexing, and takes over when the window dies mid-build."""
    root = str(library.paths.root)
    source = write_openreview(tmp_path / "more.jsonl", 50)
    window = subprocess.Popen(
        [sys.executable, "-c", HOLD_INDEX, root], cwd=ROOT, text=True,
        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
    )
    try:
        assert window.stdout is not None and window.stdout.readline().strip() == "building"
        said = tmp_path / "stderr.txt"
        with said.open("w") as stderr:
            importing = subprocess.Popen(
                [sys.executable, "-m", "reader", "--library", root, "import", str(source)],
                cwd=ROOT, stdout=subprocess.DEVNULL, stderr=stderr,
            )
        wait_for(lambda: "waiting" in said.read_text() or importing.poll() is not None,
                 "the import finds the index busy")
        assert importing.poll() is None, said.read_text()
    finally:
        window.kill()
        window.wait()
    assert importing.wait(timeout=120) == 0, said.read_text()
    assert library.index_state() == "ok"
    assert library.search("number 49").ids


async def test_a_window_finishes_the_index_that_an_import_killed_mid_build_left(
    library: Library, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The other order: the process indexing another's import dies mid-build while a
    window is open; the window, which left the build to it, finishes the index."""
    # A window that waits for the index lock gives up soon (else the kill below would
    # come while it still waits).
    monkeypatch.setattr(index_base, "_WRITER_TIMEOUT", 0.5)
    root = str(library.paths.root)
    source = write_openreview(tmp_path / "more.jsonl", 50)
    importing = subprocess.Popen(
        [sys.executable, "-c", HOLD_INDEX, root], cwd=ROOT, text=True,
        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
    )
    app = ReaderApp(library)
    try:
        assert importing.stdout is not None
        assert importing.stdout.readline().strip() == "building"
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            other = Library(library.paths.root)
            try:
                other.imports.write_files([source])
            finally:
                other.close()
            await until(pilot, lambda: len(app.paper_list.ids) == 88, "the new papers are listed")
            await until(pilot, lambda: not any(
                w.group == "index" and w.is_running for w in app.workers
            ), "the window leaves the index to the process building it")
            assert library.index_state() == "stale"
            importing.kill()
            importing.wait()
            await until(pilot, lambda: library.index_state() == "ok", "the window indexes them")
            await pilot.press("slash", *"number 49")
            await until(pilot, lambda: len(app.paper_list.ids) >= 1
                        and app.search.outcome is not None
                        and app.search.outcome.query == "number 49", "the search finds them")
    finally:
        importing.kill()
        importing.wait()


async def test_a_window_redraws_its_own_imports_batches_less_often(
    library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Drawing each batch takes CPU from the import beside it: while the window's own
    import runs, it reads the library at most every IMPORTING_SECONDS; otherwise at every
    look that finds a commit."""
    monkeypatch.setattr(live_module, "POLL_SECONDS", 0.02)
    monkeypatch.setattr(live_module, "IMPORTING_SECONDS", 0.5)
    app = ReaderApp(library, load_sample=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        reads: list[float] = []
        live = app.live
        read = live._read

        def counted() -> None:
            reads.append(asyncio.get_running_loop().time())
            read()

        monkeypatch.setattr(live, "_read", counted)
        assert live._watch is not None
        monkeypatch.setattr(live._watch, "changed", lambda: True)  # a commit at every look
        await pilot.pause(0.5)
        alone = len(reads)
        app.imports._worker = object()  # type: ignore[assignment]
        try:
            reads.clear()
            await pilot.pause(1.2)
            importing = len(reads)
        finally:
            app.imports._worker = None
    assert alone >= 5
    assert 1 <= importing <= 3
