"""Building a large index on several cores: the papers planned into parts, each part
written as a segment by a worker process and published as it finishes, so searches run
over what is indexed so far; the resource tracker started where the reader's stderr has
no descriptor."""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import queue
import sys
from collections.abc import Callable, Sequence
from multiprocessing import forkserver
from pathlib import Path
from typing import Any

from whoosh import index as whoosh_index
from whoosh.index import TOC
from whoosh.writing import SegmentWriter

from reader.errors import IndexStopped
from reader.processes import end_with_parent
from reader.search.build import PROGRESS_EVERY, FastSegmentWriter
from reader.search.renderings import Renderings

# The first segment a worker writes is small, so a search can start soon; each next one is
# twice as large, so a large build ends with few segments (searches cost per segment).
FIRST_SEGMENT = 200
# A segment also ends at this many postings (about 150 an abstract), which bounds a worker's
# memory: gathered by term, a posting takes about 20 bytes.
SEGMENT_POSTINGS = 3_000_000
#: The postings all workers of a build hold at once, shared among them: each worker's
#: segments end at its share (at most SEGMENT_POSTINGS), so that more workers do not hold
#: more postings (two workers indexing a conference's review text took 162 MB apiece at 3
#: million postings each, and 132 MB at 1.5 million: an import of it then peaked at 420 MB
#: for all its processes together, and now at 360 MB).
POSTINGS_AT_ONCE = 3_000_000
#: Seconds between two looks at whether the build was asked to stop, while no worker reports.
STOP_LOOK = 0.1
#: The workers' niceness: below the window that may have started them.
WORKER_NICENESS = 5


def _build_part(
    path: str,
    part: int,
    source: Any,
    report: Any,
    limitmb: int,
    first: int,
    known: dict[int, str],
    most: int,
    to_document: Any = None,
    parent: int | None = None,
) -> None:
    """Index one share of the papers (in a worker process) into segments of growing size,
    reporting each segment as it is written; progress and errors travel on the same queue.
    A paper whose document is what the index holds (``known``: id → digest) is kept as it
    is, and reported so when the part is done. A segment ends at ``most`` postings, whatever
    its size. The worker ends with its parent (``parent``: its pid, when it is the process
    that asked for the worker), however that ends."""
    end_with_parent(parent)
    from reader.search.schema import document  # the worker imports what the parent has
    from reader.text.render import to_plain

    renderings = Renderings.in_index(Path(path))
    try:
        ix = whoosh_index.open_dir(path)
        writer = None
        kept: list[int] = []
        size, count, in_segment, seq, seen_kept = first, 0, 0, 0, 0
        # No cancel() on failure: it would remove the temporary directory the other workers
        # share. The parent cancels the build and its writer removes that directory.
        for paper in source():
            count += 1
            if count % PROGRESS_EVERY == 0:
                report.put(("progress", PROGRESS_EVERY))
            if to_document is not None:  # an item other than a paper (see Writing.DOCUMENT)
                doc = to_document(paper)
            else:
                plain = to_plain(paper.abstract)  # rendered once, for the index and the memo
                doc = document(paper, plain)
                renderings.note(paper.abstract, plain)
            if known and known.get(paper.id) == doc["digest"]:
                kept.append(paper.id)
                continue
            if writer is None:
                # Not locked: the parent holds the index while its workers write segments,
                # as Whoosh's own multiprocessing writer does.
                writer = FastSegmentWriter(ix, _lk=False, limitmb=limitmb, compound=False)
            writer.add_document(**doc)
            in_segment += 1
            if in_segment >= size or writer.postings >= most:
                # Papers kept since the last segment count as searchable with this one.
                done = in_segment + len(kept) - seen_kept
                report.put(("segment", (part, seq, writer._finalize_segment(), done)))
                writer, in_segment, seq, size = None, 0, seq + 1, size * 2
                seen_kept = len(kept)
        if writer is not None:
            done = in_segment + len(kept) - seen_kept
            report.put(("segment", (part, seq, writer._finalize_segment(), done)))
        report.put(("progress", count % PROGRESS_EVERY))
        renderings.save()
        report.put(("done", (part, kept)))
    except BaseException as exc:  # noqa: BLE001 - handed to the parent, which raises it
        report.put(("error", f"{type(exc).__name__}: {exc}"))
    finally:
        renderings.close()


def _start_resource_tracker() -> None:
    """Start multiprocessing's resource tracker, giving it a real stderr.

    The tracker is handed ``sys.stderr``'s descriptor. Inside a running Textual app
    ``sys.stderr`` is the app's print capture, whose descriptor is -1, and starting the
    tracker fails with "bad value(s) in fds_to_keep": no build in processes could start
    from the reader. The real stderr is put back for that moment only.
    """
    from multiprocessing import resource_tracker

    try:
        usable = sys.stderr is not None and sys.stderr.fileno() >= 0
    except (AttributeError, OSError, ValueError):
        usable = False
    if usable:
        resource_tracker.ensure_running()
        return
    captured = sys.stderr
    real = sys.__stderr__
    sink = None
    if real is None:
        sink = real = open(os.devnull, "w")  # noqa: SIM115 - closed below
    sys.stderr = real
    try:
        resource_tracker.ensure_running()
    finally:
        sys.stderr = captured
        if sink is not None:
            sink.close()


# What an indexing worker runs on, loaded once in the process workers are forked from.
_WORKER_MODULES = ["__main__", __name__, "reader.search.schema", "reader.store.reading"]
_warm: Any = None


def warm_up() -> None:
    """Start the process that indexing workers are then forked from, with what they run on
    loaded: a build started later begins at once, instead of each worker starting Python
    and importing Whoosh (a second of a short build). For a process that waits for its
    work, such as the reader's import process; it never forks itself, so a threaded caller
    is safe."""
    global _warm
    if _warm is not None or "forkserver" not in multiprocessing.get_all_start_methods():
        return
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(_WORKER_MODULES)
    _start_resource_tracker()
    forkserver.ensure_running()
    _warm = context


def _yield_processor(pid: int | None) -> None:
    """Give a worker less of the processor than the process that started it, whose keys
    and drawing come first when it is a window (a reader beside another's import indexed
    each batch with workers as busy as itself, and echoed keys in 50-300 ms). On an idle
    machine it changes nothing."""
    if pid is None:
        return
    with contextlib.suppress(OSError, AttributeError):  # no priorities on this system
        own = os.getpriority(os.PRIO_PROCESS, 0)
        os.setpriority(os.PRIO_PROCESS, pid, max(own, WORKER_NICENESS))


def build_in_processes(
    writer: SegmentWriter,
    parts: Sequence[Any],
    progress: Callable[[int], None] | None = None,
    published: Callable[[int], None] | None = None,
    *,
    limitmb: int = 128,
    known: dict[int, str] | None = None,
    before_commit: Callable[[set[int]], None] | None = None,
    stopped: Callable[[], bool] | None = None,
    to_document: Callable[[Any], dict[str, object]] | None = None,
) -> int:
    """Index each part (a picklable callable yielding papers) in a process of its own and
    commit their segments with ``writer``'s, which holds the index lock throughout.

    Each segment is published as it arrives (a new table of contents with the segments so
    far, ``writer``'s own deletions included), so searches see the papers indexed so far;
    ``published(n)`` is called with how many that is. Papers whose document is what the
    index holds (``known``: id → digest) are not indexed again; ``before_commit`` is given
    their ids, to delete the old versions of the others. Returns how many were indexed.

    With ``to_document``, the parts yield items other than papers, each made a document
    by it (a module-level function, handed to the workers).

    Once ``stopped()`` is true (looked at every message, and every STOP_LOOK seconds) the
    workers are ended and IndexStopped is raised: the segments published so far stay in
    the index, as after a build whose process was killed, and the next catch-up keeps
    them and indexes the rest.
    """
    storage = writer.storage
    schema = writer.schema
    _start_resource_tracker()
    # spawn, not fork: the caller may be a threaded UI, and a forked child would inherit
    # locks held by other threads (a warmed-up fork server is a process of its own).
    context = _warm or multiprocessing.get_context("spawn")
    report = context.Queue()
    # A warmed-up worker's parent is the fork server (which ends with this process), not
    # this process.
    parent = None if context is _warm else os.getpid()
    most = min(SEGMENT_POSTINGS, POSTINGS_AT_ONCE // max(1, len(parts)))
    # Daemons: quitting the app mid-build ends the workers instead of waiting for them.
    workers = [
        context.Process(
            target=_build_part,
            args=(storage.folder, n, source, report, limitmb, FIRST_SEGMENT, known or {},
                  most, to_document, parent),
            daemon=True,
        )
        for n, source in enumerate(parts)
    ]
    base = list(writer.segments)
    generation = writer.generation
    segments: dict[tuple[int, int], Any] = {}
    kept: set[int] = set()
    try:
        for worker in workers:
            worker.start()
            _yield_processor(worker.pid)
        done = count = indexed = 0
        while done < len(workers):
            if stopped is not None and stopped():
                raise IndexStopped(f"stopped at {indexed:,} of the papers")
            try:
                kind, value = report.get(timeout=STOP_LOOK)
            except queue.Empty:
                if any(w.exitcode not in (None, 0) for w in workers):
                    raise RuntimeError("an indexing process died") from None
                continue
            if kind == "error":
                raise RuntimeError(f"indexing failed: {value}")
            if kind == "progress":
                count += value
                if progress is not None and value:
                    progress(count)
            elif kind == "segment":
                part, seq, segment, size = value
                segments[part, seq] = segment
                indexed += size
                # In (part, seq) order, so documents are numbered in id order whichever
                # worker is ahead (ties in score rank as in a build in one process).
                TOC(schema, [*base, *(segments[k] for k in sorted(segments))],
                    generation).write(storage, writer.indexname)
                generation += 1
                if published is not None:
                    published(indexed)
                if progress is not None:
                    # Also after each publication, so that a search shown over the papers
                    # indexed so far can run again at once.
                    progress(max(count, indexed))
            else:
                kept.update(value[1])
                done += 1
        for worker in workers:
            worker.join()
        if before_commit is not None:
            before_commit(kept)
    except BaseException:
        for worker in workers:
            if worker.is_alive():
                worker.terminate()
        for worker in workers:
            if worker.pid is not None:
                worker.join(timeout=5.0)
        writer.cancel()
        raise
    ordered = [segments[k] for k in sorted(segments)]
    # The final commit takes the next generation, and its clean-up removes the tables of
    # contents published on the way.
    writer.generation = generation
    writer.commit(mergetype=lambda _writer, existing: [*existing, *ordered])
    return count - len(kept)
