"""The door owns the consequences of a write: no public method of the library or its
parts takes a flag saying whether the index should follow, and no front end passes one."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path
from typing import Any

from reader.library import Library

ROOT = Path(__file__).resolve().parent.parent
FLAGS = {"sync", "reindex"}


def _parts(library: Library) -> list[object]:
    return [library, *(value for value in vars(library).values()
                       if type(value).__module__.startswith("reader.library."))]


def test_no_method_of_the_door_takes_an_indexing_flag(library: Library) -> None:
    for part in _parts(library):
        for name, method in inspect.getmembers(part, inspect.ismethod):
            if name.startswith("_"):
                continue
            taken = FLAGS & set(inspect.signature(method).parameters)
            assert not taken, f"{type(part).__name__}.{name} takes {taken}"


def test_no_front_end_says_whether_the_index_follows() -> None:
    for folder in ("cli", "ui"):
        for path in sorted((ROOT / "reader" / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Call):
                    passed = FLAGS & {k.arg for k in node.keywords if k.arg}
                    assert not passed, f"{path.name}:{node.lineno} passes {passed}"


def test_an_import_says_what_it_wrote_before_the_index_follows(tmp_path: Path) -> None:
    """The summary is handed over once the papers are written, before the index catches
    up on them (the command line prints it then, not after the review text's index)."""
    from reader.resources import sample_files

    library = Library(tmp_path / "lib")
    seen: list[tuple[int, int]] = []

    def written(summary: Any) -> None:
        seen.append((summary.new, library.index.generation))

    library.import_files(sample_files()[:1], written=written)
    [(new, indexed_then)] = seen
    assert new > 0
    assert indexed_then < library.store.generation() == library.index.generation
    library.close()
