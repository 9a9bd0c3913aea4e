"""Counters are queries: after any sequence of keys, the figures on the status line are
the database's own counts.

A Hypothesis state machine presses ``j``, ``k``, ``space``, ``r``, ``s``, a search (``/``,
words, ``enter``) and ``esc`` in the real app over a copy of the bundled sample, and after
every step compares the status line with SQL. A few short runs in the normal suite;
``READER_THOROUGH=1`` runs many long ones.
"""

from __future__ import annotations

import asyncio
import contextvars
import os
import re
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

import reader.ui.app as app_module
from reader.library import Library
from reader.ui.app import ReaderApp
from tests.conftest import SEEDS
from tests.test_app import SIZE, seen_written, settle
from tests.test_live import figures, status

THOROUGH = os.environ.get("READER_THOROUGH") == "1"
WORDS = ["transport", "learning", "diffusion", "is:starred", "is:unseen", "is:read", "zzzq"]
#: "N matches, M seen"; a view of no papers says "0 matches" alone.
MATCHES = re.compile(r"(\d[\d,]*) match(?:es)?(?:, (\d[\d,]*) seen)?")


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A library of the sample, indexed, to be copied for each run."""
    root = tmp_path_factory.mktemp("counts") / "base"
    library = Library(root)
    library.import_files(SEEDS)
    library.close()
    return root


class KeysAgainstSql(RuleBasedStateMachine):
    """The app driven by keys; the database is the truth."""

    base: Path

    def __init__(self) -> None:
        super().__init__()
        self.dir = Path(tempfile.mkdtemp(prefix="reader-counts-"))
        shutil.copytree(self.base, self.dir / "lib")
        self.library = Library(self.dir / "lib")
        self.app = ReaderApp(self.library)
        self.loop = asyncio.new_event_loop()
        # Every step runs in one context: the app's context variables (the active app) are
        # set when it starts and read by each step after.
        self.context = contextvars.Context()
        self.running = self.app.run_test(size=SIZE)
        self.pilot = self.run(self.running.__aenter__())
        self.run(self.press())

    def run(self, job: Any) -> Any:
        return self.loop.run_until_complete(self.loop.create_task(job, context=self.context))

    async def press(self, *keys: str) -> None:
        await settle(self.app, self.pilot)
        await self.pilot.press(*keys)
        # Papers shown are written down as seen in batches, twice a second: wait for it.
        await seen_written(self.app, self.pilot)

    @rule(keys=st.lists(st.sampled_from(["j", "k", "space", "r", "s", "escape"]),
                        min_size=1, max_size=4))
    def keys(self, keys: list[str]) -> None:
        # Pressed back to back: a paper shown and not yet written down as seen is in play.
        self.run(self.press(*keys))

    @rule(words=st.lists(st.sampled_from(WORDS), min_size=1, max_size=2))
    def search(self, words: list[str]) -> None:
        self.run(self.press("slash", "ctrl+u", *" ".join(words), "enter"))

    @invariant()
    def figures_are_the_databases(self) -> None:
        shown = status(self.app)
        assert figures(self.library) in shown
        ids = self.app.paper_list.ids
        query = self.app.query_one("#search").value  # type: ignore[attr-defined]
        if not query.strip():
            return
        found = MATCHES.search(shown)
        assert found is not None, shown
        seen = self.library.store.marks.flagged_ids("seen")
        said_seen = int(found[2].replace(",", "")) if found[2] is not None else 0
        assert (int(found[1].replace(",", "")), said_seen) == (
            len(ids), sum(1 for i in ids if i in seen)
        ), shown

    def teardown(self) -> None:
        self.run(self.running.__aexit__(None, None, None))
        self.loop.close()
        self.library.close()
        shutil.rmtree(self.dir, ignore_errors=True)


def test_status_line_figures_are_sql_counts(base: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Papers shown are written down as seen ten times as often: each step waits for them.
    monkeypatch.setattr(app_module, "SEEN_FLUSH_SECONDS", 0.05)
    KeysAgainstSql.base = base
    machine = settings(
        max_examples=40 if THOROUGH else 2,
        stateful_step_count=60 if THOROUGH else 6,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        derandomize=not THOROUGH,
    )(KeysAgainstSql)
    machine.TestCase().runTest()
