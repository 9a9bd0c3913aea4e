"""Crash safety: a real reader process killed with SIGKILL at random (seeded) moments.

After each kill the library must open, hold every write the process reported as committed,
hold no half of an import, and have a search index that the next start brings back into
agreement with the database. ``READER_CRASH_KILLS`` sets the kills of each kind (6 by
default, so 12 in all: every pairing of held or not with before or after the commit).
"""

from __future__ import annotations

import asyncio
import itertools
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from textual.widgets import TextArea

from reader.library import Library
from reader.search.query import Filter, ParsedQuery
from reader.ui.app import ReaderApp
from reader.ui.screens.note import NoteScreen
from tests.conftest import SEEDS
from tests.crash_driver import note_text, write_plan
from tests.waiting import until

KILLS = int(os.environ.get("READER_CRASH_KILLS", "6"))
ROOT = Path(__file__).resolve().parent.parent
IMPORT_SIZE = 60


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The 38 sample papers, indexed: every trial starts from a copy of this."""
    root = tmp_path_factory.mktemp("crash") / "base"
    library = Library(root)
    library.import_files(SEEDS)
    library.close()
    return root


@pytest.fixture(scope="module")
def big_list(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A plain-text list of IMPORT_SIZE distinct abstracts: an import that takes a while."""
    rng = random.Random(11)
    words = [
        "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(3, 10)))
        for _ in range(3000)
    ]
    paragraphs = [
        " ".join(rng.choice(words) for _ in range(rng.randint(60, 120))).capitalize() + "."
        for _ in range(IMPORT_SIZE)
    ]
    path = tmp_path_factory.mktemp("lists") / "big.txt"
    path.write_text("NeurIPS 2025\n\n" + "\n\n".join(paragraphs) + "\n", encoding="utf-8")
    return path


def start(root: Path, *args: str) -> subprocess.Popen[str]:
    """Start the driver on a library and wait until it has opened it."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.crash_driver", str(root), *args],
        cwd=ROOT,
        stdin=subprocess.PIPE,  # a held driver waits on it until it is killed
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line == "ready\n", (line, proc.stderr.read() if proc.stderr else "")
    return proc


def kill_after_lines(proc: subprocess.Popen[str], count: int) -> list[str]:
    """SIGKILL the process as soon as it has reported ``count`` lines after ``ready``; every
    line it had reported by its death (it may have gone on a little)."""
    assert proc.stdout is not None and proc.stderr is not None
    seen = [proc.stdout.readline().rstrip("\n") for _ in range(count)]
    proc.send_signal(signal.SIGKILL)
    # Read on through the same buffered stream: readline may have read ahead lines that
    # communicate(), reading the pipe itself, would never see.
    rest = proc.stdout.read()
    proc.stderr.read()
    proc.wait(timeout=60)
    for stream in (proc.stdin, proc.stdout, proc.stderr):
        if stream is not None:
            stream.close()
    return [line for line in [*seen, *rest.splitlines()] if line]


def fresh_copy(base: Path, tmp_path: Path, n: int) -> Path:
    root = tmp_path / f"trial-{n}"
    shutil.copytree(base, root)
    return root


def assert_index_agrees(library: Library) -> None:
    """What the next start does (catch up or rebuild), then the index matches the database."""
    library.sync_index()
    report = library.upkeep.doctor()
    assert report.ok and report[-1].startswith("search index: ok"), report
    for flag in ("starred", "notes"):
        hits = library.index.search(ParsedQuery("", (Filter(flag),)))
        assert set(hits.ids) == library.store.marks.flagged_ids(flag), flag


def test_import_killed_at_random_moments(base: Path, big_list: Path, tmp_path: Path) -> None:
    # One whole import, for the lines it reports: the kills are placed among them (inside
    # the transaction, at its commit, while the index follows, after), not at times, so
    # they land where they are meant to however busy the machine is.
    root = fresh_copy(base, tmp_path, 0)
    proc = start(root, "import", str(big_list))
    out, _ = proc.communicate(timeout=120)
    events = out.splitlines()
    assert events[-1] == f"import {IMPORT_SIZE}"
    commit = events.index("committed")
    assert events[:commit] == [f"record {k}" for k in range(1, IMPORT_SIZE + 1)]

    rng = random.Random(20261130)
    outcomes = {"before": 0, "after": 0}
    for n in range(1, KILLS + 1):
        # Odd kills before the commit, even ones after it. The first of each two pairs
        # holds the process at its line, so it dies exactly there; the second lets it run
        # on, so it dies somewhere in the work that follows.
        after = n % 2 == 0
        at = rng.randint(commit + 1, len(events)) if after else rng.randint(1, commit)
        held = n % 4 in (1, 2)
        root = fresh_copy(base, tmp_path, n)
        args = ["import", str(big_list)] + ([f"--hold-after={at}"] if held else [])
        lines = kill_after_lines(start(root, *args), at)
        library = Library(root)
        try:
            count = library.store.count()
            imports = library.store.conn.execute("SELECT count(*) FROM imports").fetchone()[0]
            items = library.store.conn.execute("SELECT count(*) FROM import_items").fetchone()[0]
            if "committed" in lines:  # reported as committed: it must all be there
                assert count == 38 + IMPORT_SIZE
            if held:
                assert lines == events[:at]
                assert count == (38 + IMPORT_SIZE if after else 38), (at, count)
            # All of it or none of it, and the import history says the same.
            assert (count, imports, items) in (
                (38, 2, 38),
                (38 + IMPORT_SIZE, 3, 38 + IMPORT_SIZE),
            ), (count, imports, items)
            outcomes["after" if count > 38 else "before"] += 1
            assert library.store.conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            assert_index_agrees(library)
        finally:
            library.close()
    # The kills landed on both sides of the commit.
    assert outcomes["before"] and outcomes["after"], outcomes


def test_writes_killed_at_random_moments(base: Path, tmp_path: Path) -> None:
    rng = random.Random(424242)
    for n in range(1, KILLS + 1):
        root = fresh_copy(base, tmp_path, n)
        seed = 100 + n
        proc = start(root, "writes", "5000", str(seed))
        # Killed after a random number of reported writes: while it goes on writing.
        lines = kill_after_lines(proc, rng.randint(1, 20))
        assert "done" not in lines
        reported = len(lines)
        library = Library(root)
        try:
            plan = write_plan(library.store.all_ids(), 5000, seed)
            stars = {p.id for p in library.store.iter_papers() if p.starred}
            notes = {p.id: p.note for p in library.store.iter_papers() if p.note}
            # Every reported write is there; the one in flight may or may not be.
            assert (stars, notes) in (_state(plan[:reported], seed), _state(plan[: reported + 1],
                                                                            seed))
            assert_index_agrees(library)
            for paper_id, text in notes.items():
                word = text.split("remember ")[1].split()[0]
                assert library.search(word).ids == [paper_id]
        finally:
            library.close()


def _state(plan: list[tuple[str, int, int]], seed: int) -> tuple[set[int], dict[int, str]]:
    """Stars and notes after the writes of ``plan``, from an empty start."""
    stars: set[int] = set()
    notes: dict[int, str] = {}
    for kind, paper_id, value in plan:
        if kind == "star":
            (stars.add if value else stars.discard)(paper_id)
        else:
            notes[paper_id] = note_text(paper_id, value, seed)
    return stars, notes


async def test_a_note_being_typed_is_stored_while_typing_goes_on(
    base: Path, tmp_path: Path
) -> None:
    """While the user types on, what another process can read follows (the save is not put
    off until the typing stops), so a crash loses only the last moments."""
    root = fresh_copy(base, tmp_path, 0)
    library = Library(root)
    app = ReaderApp(library, load_sample=False)
    outside = sqlite3.connect(root / "library.sqlite")  # as a second process would see it

    def stored() -> str:
        row = outside.execute("SELECT body FROM notes WHERE paper_id = ?", (paper_id,))
        return (row.fetchone() or ("",))[0]

    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await app.workers.wait_for_complete()
            paper_id = app.screen.query_one("PaperList").current_id  # type: ignore[attr-defined]
            await pilot.press("n")
            await pilot.pause()
            assert isinstance(app.screen, NoteScreen)
            app.screen.query_one(TextArea).cursor_blink = False
            typed = ""
            words = itertools.cycle("typed on and on never saved by hand".split())
            # A steady typist (a key every 50 ms, never the pause the autosave waits for)
            # until another process can read some of it: at most 400 keys.
            while not stored() and len(typed) < 400:
                for char in next(words) + " ":
                    await pilot.press("space" if char == " " else char)
                    typed += char
                    await asyncio.sleep(0.05)
            seen = stored()
            assert seen, f"nothing readable after {len(typed)} characters of steady typing"
            assert typed.startswith(seen), (seen, typed)
            # Never pressed esc: once the typing stops the autosave stores all of it.
            await until(pilot, lambda: stored() == typed, "the whole note is stored")
    finally:
        outside.close()
        library.close()
