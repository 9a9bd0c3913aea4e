"""Fixtures: real libraries (SQLite file and Whoosh index) in a temporary directory."""

from __future__ import annotations

import os
import shutil
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import reader.store.base as store_base
from reader.library import Library
from reader.resources import sample_files

SEEDS = sample_files()


@pytest.fixture(autouse=True)
def _no_display(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Tests never touch the real clipboard, the user's library, the user's config or the
    drafts in the user's cache."""
    for name in ("DISPLAY", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("READER_HOME", str(tmp_path / "default-home"))
    # A draft written there by one test would be named at the start of every later window.
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    # A config file that does not exist: every test starts on the defaults.
    monkeypatch.setenv("READER_CONFIG", str(tmp_path / "no-config" / "config.toml"))


@pytest.fixture
def empty_library(tmp_path: Path) -> Iterator[Library]:
    """A new, empty library."""
    library = Library(tmp_path / "lib")
    yield library
    library.close()


@pytest.fixture(scope="session")
def sample_library_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The 38 bundled abstracts imported and indexed once (per test process), to be copied:
    never opened by a test itself."""
    root = tmp_path_factory.mktemp("template") / "lib"
    library = Library(root)
    library.import_files(SEEDS)
    library.close()
    return root


@pytest.fixture
def library(sample_library_template: Path, tmp_path: Path) -> Iterator[Library]:
    """A library holding the 38 bundled ICLR 2026 abstracts, fully indexed: a copy of the
    template, which costs a fraction of importing and indexing them again."""
    root = tmp_path / "lib"
    shutil.copytree(sample_library_template, root)
    library = Library(root)
    yield library
    library.close()


@pytest.fixture
def refuse_writes(monkeypatch: pytest.MonkeyPatch) -> Callable[[Library], None]:
    """Make a library's database refuse every write from here on, as SQLite reports a
    read-only file ("attempt to write a readonly database"): ``PRAGMA query_only`` on its
    connections, which holds for root too, and on each one opened later (a worker that
    finds the pool's connections lent opens its own, and would write)."""

    def refuse(library: Library) -> None:
        for store in library._stores:
            store.conn.execute("PRAGMA query_only = ON")
        opened = store_base.connect

        def refusing(path: Path, read_only: bool) -> sqlite3.Connection:
            conn = opened(path, read_only)
            conn.execute("PRAGMA query_only = ON")
            return conn

        monkeypatch.setattr(store_base, "connect", refusing)

    return refuse


def paper_id_with(library: Library, word: str) -> int:
    """The id of the one paper whose abstract contains ``word``."""
    ids = [p.id for p in library.store.iter_papers() if word in p.abstract]
    assert len(ids) == 1, (word, ids)
    return ids[0]


os.environ.setdefault("TEXTUAL_ANIMATIONS", "none")
