"""The index on disk: its directory, the sidecar that records the library generation it
reflects (and a build under way, with its progress), opening it, its writer lock, and
closing it. Readers never wait for the writer."""

from __future__ import annotations

import functools
import json
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from whoosh import index as whoosh_index
from whoosh.fields import Schema
from whoosh.filedb.filestore import FileStorage
from whoosh.index import LockError
from whoosh.qparser import (
    MultifieldParser,
)
from whoosh.searching import Searcher

from reader.errors import IndexBusy, IndexDamaged, IndexStopped
from reader.processes import process_alive
from reader.search.build import FastSegmentWriter
from reader.search.meta import GENERATION_FILE, read_meta
from reader.search.parsing import (
    Parser,
)
from reader.search.query import SearchCancelled
from reader.search.schema import FIELD_BOOSTS, SEARCH_FIELDS, make_schema

#: Bump when the schema or what is indexed changes (reader.search.analysis included: a test pins
#: its output to this number): an index of another version is rebuilt.
INDEX_VERSION = 8


_GENERATION_FILE = GENERATION_FILE


_WRITER_TIMEOUT = 10.0
#: The name Whoosh gives an index in its directory (its files and its write lock).
_INDEX_NAME = whoosh_index._DEF_INDEX_NAME


# Memory for each writer's posting pool before it spills a run to disk.
_LIMIT_MB = 128


_T = TypeVar("_T")


def reads_index(method: Callable[..., _T]) -> Callable[..., _T]:
    """Turn any failure to read the index into IndexDamaged (after letting go of the
    broken readers), so callers mend the index instead of showing a traceback."""

    @functools.wraps(method)
    def wrapper(self: IndexBase, *args: Any, **kwargs: Any) -> _T:
        try:
            return method(self, *args, **kwargs)
        except (IndexBusy, IndexDamaged, IndexStopped, SearchCancelled):
            raise
        except Exception as exc:  # noqa: BLE001 - whatever Whoosh meets in a damaged file
            self.forget()
            raise IndexDamaged(describe_damage(exc)) from exc

    return wrapper


def describe_damage(exc: BaseException) -> str:
    """One line naming what failed in an index file."""
    text = " ".join(str(exc).split())[:120]
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


class IndexBase:
    """The index's files, state and locks; writing and searching are mixed in beside it."""

    if TYPE_CHECKING:
        # Provided by the searching half of reader.search.index.SearchIndex.
        def count(self) -> int: ...
        def forget(self) -> None: ...

    #: The fields a query searches, and their boosts; the schema (an index of another kind
    #: of document, such as reader.search.reviews, names its own).
    FIELDS: ClassVar[tuple[str, ...]] = SEARCH_FIELDS
    BOOSTS: ClassVar[dict[str, float]] = FIELD_BOOSTS

    def _make_schema(self) -> Schema:
        return make_schema()

    def __init__(self, path: Path) -> None:
        self.path = path
        self.schema = self._make_schema()
        self._lock = threading.Lock()
        self._ix: whoosh_index.Index | None = None
        self._searcher: Searcher | None = None
        self._searcher_generation = -1
        #: (indexed, total) while this process builds the index in parts.
        self._building: tuple[int, int] | None = None
        self._parser = Parser(self.schema, self.FIELDS, self.BOOSTS)
        # Used when the query cannot be read: its words, all of which must match, as in a
        # query of plain words.
        self._plain_parser = MultifieldParser(
            list(self.FIELDS), self.schema, fieldboosts=self.BOOSTS
        )

    def _read_meta(self) -> dict[str, Any]:
        return read_meta(self.path)

    def _write_meta(
        self, generation: int, building: tuple[int, int] | None = None
    ) -> None:
        data: dict[str, Any] = {"version": INDEX_VERSION, "generation": generation}
        if building is not None:
            data["building"] = {
                "indexed": building[0], "total": building[1], "pid": os.getpid()
            }
        tmp = self.path / f"{_GENERATION_FILE}.{os.getpid()}.tmp"
        tmp.write_text(json.dumps(data))
        os.replace(tmp, self.path / _GENERATION_FILE)

    def partial(self) -> tuple[int, int] | None:
        """(indexed, total) while a build is under way, here or in another live process:
        searches then run over the papers indexed so far."""
        if self._building is not None:
            return self._building
        building = self._read_meta().get("building")
        if building is None or building["pid"] == os.getpid():
            return None
        if not process_alive(building["pid"]):
            return None  # a build that was cut short: the next sync finishes the work
        return building["indexed"], building["total"]

    def _published(self, generation: int, total: int, indexed: int) -> None:
        """A build has made ``indexed`` of ``total`` papers searchable."""
        self._building = (indexed, total)
        self._write_meta(generation, (indexed, total))

    @property
    def generation(self) -> int:
        """The library generation the index reflects, or -1 when unknown."""
        generation: int = self._read_meta()["generation"]
        return generation

    def usable(self) -> bool:
        """Whether an index of this version exists and opens."""
        meta = self._read_meta()
        if meta["version"] != INDEX_VERSION or meta["generation"] < 0:
            return False  # another version, or a build from scratch that never finished
        try:
            # On first opening, a searcher opens every segment: one deleted or cut short fails
            # here, at start, rather than in the middle of a search. Once open, the index is
            # only changed by us, and reopening on every write would cost more than it finds.
            if self._ix is None:
                self.count()
            if set(self._open().schema.names()) != set(self.schema.names()):
                # Built before a field was added (or after one was dropped): its documents
                # lack it, so it is rebuilt as an index of another version is.
                self.close()
                return False
        except Exception:  # noqa: BLE001 - any failure to open means "rebuild"
            try:
                self.close()
            except Exception:  # noqa: BLE001 - a broken index may not even close cleanly
                self._ix = self._searcher = None
            return False
        return True

    def _open(self) -> whoosh_index.Index:
        if self._ix is None:
            self._ix = whoosh_index.open_dir(str(self.path))
        return self._ix

    def written_elsewhere(self) -> bool:
        """Whether another process holds the index's write lock now (building it or
        catching it up): a sync then leaves the work to it instead of waiting."""
        if not self.path.is_dir():
            return False
        lock = FileStorage(str(self.path)).lock(f"{_INDEX_NAME}_WRITELOCK")
        if lock.acquire(blocking=False):
            lock.release()
            return False
        return True

    def _writer(self, stopped: Callable[[], bool] | None = None) -> Any:
        """A writer, waiting for another process's lock rather than failing (IndexStopped
        once ``stopped()`` is true)."""
        deadline = time.monotonic() + _WRITER_TIMEOUT
        while True:
            try:
                with self._lock:
                    return FastSegmentWriter(self._open())
            except LockError as exc:
                if stopped is not None and stopped():
                    raise IndexStopped("stopped while another process held the index") from exc
                if time.monotonic() > deadline:
                    raise IndexBusy(
                        f"the search index is being written by another process ({self.path})"
                    ) from exc
                time.sleep(0.05)

    def _close(self) -> None:
        if self._searcher is not None:
            self._searcher.close()
            self._searcher = None
        if self._ix is not None:
            self._ix.close()
            self._ix = None

    def close(self) -> None:
        """Release the index files."""
        with self._lock:
            self._close()
