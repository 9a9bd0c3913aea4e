"""What an index records beside itself, in a small file of its directory: the index version,
the library generation it reflects, and a build under way with its progress. Read without
opening the index or importing Whoosh: the reader's start asks for the generation before
its first frame (is the index ahead of the database?), and Whoosh waits until after it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

#: The file, in the index's directory.
GENERATION_FILE = "reader-generation.json"


def read_meta(path: Path) -> dict[str, Any]:
    """The version and generation recorded for the index in the directory ``path`` (both
    -1 when there is no readable record), and ``building`` while a build is recorded."""
    try:
        data = json.loads((path / GENERATION_FILE).read_text(encoding="utf-8"))
        meta: dict[str, Any] = {
            "version": int(data["version"]), "generation": int(data["generation"])
        }
        building = data.get("building")
        if isinstance(building, dict):
            meta["building"] = {k: int(building[k]) for k in ("indexed", "total", "pid")}
        return meta
    except (OSError, ValueError, KeyError, TypeError):
        return {"version": -1, "generation": -1}


def recorded_generation(path: Path) -> int:
    """The library generation the index in ``path`` reflects, or -1 when unknown."""
    generation: int = read_meta(path)["generation"]
    return generation


def cut_short(path: Path) -> bool:
    """Whether the index in ``path`` is a build from scratch stopped before its end (its
    process gone): what it indexed is no index of the library, which papers it lacks being
    unknown, and the index is built again."""
    from reader.processes import process_alive  # here: the start reads this module

    if not (path / GENERATION_FILE).is_file():
        return False  # written by a build as it starts: an index lost has none
    meta = read_meta(path)
    building = meta.get("building")
    if meta["generation"] >= 0 or (building is not None and process_alive(building["pid"])):
        return False
    return any(path.glob("_MAIN_*.toc"))  # Whoosh's table of the segments written
