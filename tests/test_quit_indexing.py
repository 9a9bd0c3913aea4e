"""Quitting while the index is built: the build stops at once, and is finished by whoever
runs next, with nothing lost and nothing held twice."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from reader.library import Library, indexing
from reader.search import build_processes

WORDS = [
    "transport", "graph", "neural", "language", "models", "sparse", "benchmark", "learning",
    "diffusion", "reasoning", "memory", "optimal", "agents", "vision", "robust", "causal",
    "kernel", "tokens", "policy", "reward", "privacy", "federated", "quantum", "protein",
]


def write_long_records(path: Path, count: int, words: int, topic: str = "") -> Path:
    """``count`` OpenReview records whose abstracts are ``words`` words long (seeded), so
    that indexing them takes a while; ``topic`` is written into every abstract."""
    with path.open("w", encoding="utf-8") as out:
        for i in range(count):
            rng = random.Random(i)
            text = " ".join(rng.choice(WORDS) for _ in range(words))
            out.write(json.dumps({
                "id": f"long{i:05d}",
                "content": {
                    "title": f"On {rng.choice(WORDS)} number {i}",
                    "abstract": f"In setting {i} {topic} we study {text}.",
                },
            }) + "\n")
    return path


@pytest.fixture
def in_parts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hundreds of changed papers are indexed as thousands are: in worker processes, in
    segments published as they are written (the first after a few papers)."""
    monkeypatch.setattr(indexing, "PARALLEL_MIN", 50)
    monkeypatch.setattr(build_processes, "FIRST_SEGMENT", 5)


def test_a_catch_up_stopped_midway_leaves_no_paper_twice(
    library: Library, tmp_path: Path, in_parts: None
) -> None:
    """Papers re-imported with new abstracts: a catch-up stopped once it has published
    some of their new versions (their old ones still there) is finished by the next sync,
    which leaves each paper once, found by its new words only."""
    total = 120
    library.import_files([write_long_records(tmp_path / "old.jsonl", total, 50, "walrus")])
    assert library.index_state() == "ok"
    count = library.index.count()
    library.import_files(
        [write_long_records(tmp_path / "new.jsonl", total, 50, "narwhal")], sync=False
    )

    def published() -> bool:
        built = library.index.partial()
        return built is not None and built[0] > 0

    library.sync_index(stopped=published)
    assert library.index_state() == "stale"
    assert library.index.check() is None
    assert library.index.count() > count  # new versions beside their old ones
    library.sync_index()
    assert library.index_state() == "ok"
    assert library.index.count() == count
    assert len(library.search("narwhal").ids) == total
    assert library.search("walrus").ids == []
