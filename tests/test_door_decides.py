"""The door owns the consequences of a write: no public method of the library or its
parts takes a flag saying whether the index should follow, and no front end passes one."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

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
