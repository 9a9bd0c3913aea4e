"""Crash safety: a real reader process killed with SIGKILL at random (seeded) moments.

After each kill the library must open, hold every write the process reported as committed,
hold no half of an import, and have a search index that the next start brings back into
agreement with the database. ``READER_CRASH_KILLS`` sets the kills of each kind (10 by
default, so 20 in all).
"""

from __future__ import annotations

import asyncio
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from textual.widgets import TextArea

from reader.library import Library
from reader.query import Filter, ParsedQuery
from reader.ui.app import ReaderApp
from reader.ui.screens.note import AUTOSAVE_AFTER, NoteScreen
from tests.conftest import SEEDS
from tests.crash_driver import note_text, write_plan

KILLS = int(os.environ.get("READER_CRASH_KILLS", "10"))
ROOT = Path(__file__).resolve().parent.parent
IMPORT_SIZE = 400


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
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line == "ready\n", (line, proc.stderr.read() if proc.stderr else "")
    return proc


def kill_after(proc: subprocess.Popen[str], delay: float) -> list[str]:
    """SIGKILL the process after ``delay`` seconds; the lines it had reported."""
    time.sleep(delay)
    proc.send_signal(signal.SIGKILL)
    out, _err = proc.communicate(timeout=30)
    return out.splitlines()


def kill_after_first_line(proc: subprocess.Popen[str], delay: float) -> list[str]:
    """SIGKILL the process ``delay`` seconds after it reports its first write; the lines it
    had reported. Timed from the first write, not from the start, so that a slow start on a
    busy machine does not leave the kills landing before any work."""
    assert proc.stdout is not None
    first = proc.stdout.readline()
    return [line for line in [first.rstrip("\n"), *kill_after(proc, delay)] if line]


def fresh_copy(base: Path, tmp_path: Path, n: int) -> Path:
    root = tmp_path / f"trial-{n}"
    shutil.copytree(base, root)
    return root


def assert_index_agrees(library: Library) -> None:
    """What the next start does (catch up or rebuild), then the index matches the database."""
    library.sync_index()
    report = library.doctor()
    assert report.ok and report[-1].startswith("search index: ok"), report
    for flag in ("starred", "notes"):
        hits = library.index.search(ParsedQuery("", (Filter(flag),)))
        assert set(hits.ids) == library.store.flagged_ids(flag), flag


def test_import_killed_at_random_moments(base: Path, big_list: Path, tmp_path: Path) -> None:
    # How long a whole import takes here, so the kills spread over all of it.
    root = fresh_copy(base, tmp_path, 0)
    began = time.monotonic()
    proc = start(root, "import", str(big_list))
    out, _ = proc.communicate(timeout=120)
    whole = time.monotonic() - began
    assert out.splitlines() == [f"import {IMPORT_SIZE}"]

    rng = random.Random(20261130)
    outcomes = {"before": 0, "after": 0}
    for n in range(1, KILLS + 1):
        root = fresh_copy(base, tmp_path, n)
        lines = kill_after(start(root, "import", str(big_list)), rng.uniform(0, whole * 1.1))
        library = Library(root)
        try:
            count = library.store.count()
            imports = library.store.conn.execute("SELECT count(*) FROM imports").fetchone()[0]
            items = library.store.conn.execute("SELECT count(*) FROM import_items").fetchone()[0]
            if lines:  # reported as committed: it must all be there
                assert count == 38 + IMPORT_SIZE
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
    reported_total = 0
    for n in range(1, KILLS + 1):
        root = fresh_copy(base, tmp_path, n)
        seed = 100 + n
        proc = start(root, "writes", "5000", str(seed))
        lines = kill_after_first_line(proc, rng.uniform(0.05, 1.5))
        assert "done" not in lines
        reported = len(lines)
        reported_total += reported
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
    assert reported_total > KILLS  # the kills came after real work, not just at start-up


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


async def test_a_note_being_typed_is_stored_within_a_second(base: Path, tmp_path: Path) -> None:
    """While the user types on, what another process can read is never more than about a
    second behind: so a crash loses at most that."""
    root = fresh_copy(base, tmp_path, 0)
    library = Library(root)
    app = ReaderApp(library, load_sample=False)
    outside = sqlite3.connect(root / "library.sqlite")  # as a second process would see it
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await app.workers.wait_for_complete()
            paper_id = app.screen.query_one("PaperList").current_id  # type: ignore[attr-defined]
            await pilot.press("n")
            await pilot.pause()
            assert isinstance(app.screen, NoteScreen)
            app.screen.query_one(TextArea).cursor_blink = False
            typed_at: list[float] = []
            worst = 0.0
            text = "Typed on and on, never saved by hand"
            for char in text:
                await pilot.press("space" if char == " " else char)
                typed_at.append(time.monotonic())
                await asyncio.sleep(0.05)
                row = outside.execute(
                    "SELECT body FROM notes WHERE paper_id = ?", (paper_id,)
                ).fetchone()
                stored = len(row[0]) if row else 0
                assert text.startswith(row[0] if row else "")
                if stored < len(typed_at):
                    # The oldest keystroke not yet readable from outside: how long ago?
                    worst = max(worst, time.monotonic() - typed_at[stored])
            await asyncio.sleep(AUTOSAVE_AFTER + 0.4)
            await app.workers.wait_for_complete()
            # Never pressed esc: the autosave alone has stored all of it.
            row = outside.execute("SELECT body FROM notes WHERE paper_id = ?", (paper_id,))
            assert row.fetchone() == (text,)
            assert worst < 1.0, worst
    finally:
        outside.close()
        library.close()
