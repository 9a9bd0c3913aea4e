"""A long file's records parsed in a second process while the first one writes them.

Parsing (decoding JSON, cleaning text, building records) and what can be worked out of a
record alone (:mod:`reader.intake.prepare`) are more than half of an import's work, and the
writing cannot start a record before they are done; on a machine with two cores, a child
process reads ahead and hands the prepared records over in chunks through a pipe, so that
the two halves of the import run side by side. The pipe's buffer bounds how far the
child runs ahead: a long list is still never held whole.

Which process prepares a record is settled as they go: the child prepares the records it
has parsed only while the writer is busy, and the moment the writer waits for records, the
child hands over what it has, prepared or not, and the writer prepares the rest itself.
Parsing alone is about as much work as preparing and writing together, so a fixed split
would leave one process idle on some files and the other on others.

The child is forked from the importing process, so it goes on with the very iterator the
parent opened (the file read, its format found, nothing parsed yet) instead of reading the
file again. Forking a process that runs other threads is not safe (a lock held by one of
them stays held forever in the child), so a file is read ahead only from a process with
one thread: ``reader import``, and the process a reader window starts for its imports.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
from collections.abc import Generator, Iterator
from contextlib import contextmanager
from dataclasses import fields
from multiprocessing.connection import Connection
from operator import attrgetter
from typing import Any

from reader.intake.prepare import Prepared, prepare
from reader.models import PaperRecord
from reader.processes import end_with_parent
from reader.sources import ImportFormatError, StreamedFile

#: Files with fewer records are parsed in the importing process: a child is not worth it.
MIN_RECORDS = 2_000
#: Records per message through the pipe: large enough that pickling is done in bulk, small
#: enough that the writer starts soon.
CHUNK = 250
#: The pipe's buffer asked for: about two chunks of OpenReview records.
PIPE_BYTES = 1 << 20


@contextmanager
def read_ahead(
    item: StreamedFile,
    min_records: int | None = None,
    versions_only: bool = False,
    sketches: bool = True,
) -> Iterator[Iterator[PaperRecord | Prepared]]:
    """The file's records, parsed and prepared by a child process when the file has at
    least ``min_records`` (default :data:`MIN_RECORDS`; 0: never) and this process may
    fork; otherwise its records as they are. Either way ``item.problems`` grows as they
    are read. The child is stopped on leaving, if the import ended before the file did.

    With ``versions_only``, a record whose replies the writer needs only for their ids and
    dates (a first reading: the replies come again with their text) crosses from the child
    with those alone (:attr:`PaperRecord.replies_to_come`): handing 80,000 replies over
    cost the two processes more than reading them. ``sketches``: as :func:`prepare` says
    (false when the library was empty as the file's import began)."""
    wanted = MIN_RECORDS if min_records is None else min_records
    if not wanted or item.count < wanted or not _may_fork():
        yield item.records
        return
    records = _records_from_child(item, versions_only, sketches)
    try:
        yield records
    finally:
        records.close()


#: Threads that may run while a child is forked: each only waits on a stream the child
#: never touches (the window's pipe to its import process), so no lock it may hold is one
#: the child could need. With its watch of the window running, the import process a window
#: starts read no file ahead, and `i` took 8.7 s to show 19,630 papers instead of 3.2.
FORK_SAFE_THREADS = frozenset({"reader-watch"})


def _may_fork() -> bool:
    if "fork" not in multiprocessing.get_all_start_methods():
        return False
    return all(
        thread is threading.main_thread() or thread.name in FORK_SAFE_THREADS
        for thread in threading.enumerate()
    )


def _records_from_child(
    item: StreamedFile, versions_only: bool, sketches: bool
) -> Generator[Prepared, None, None]:
    """Start the child at the first record asked for; yield what it sends (preparing what
    it left unprepared), and take in the bad records it met (``item.problems`` grows as
    the records are read, as in-process)."""
    context = multiprocessing.get_context("fork")
    receiving, sending = context.Pipe(duplex=False)
    _widen(sending)
    # Set while this process waits for records: a flag in shared memory the child reads
    # between two records.
    waiting = context.RawValue("b", 0)
    child = context.Process(
        target=_parse,
        args=(item, sending, waiting, receiving, os.getpid(), versions_only, sketches),
        daemon=True,
    )
    child.start()
    sending.close()  # the child's end: its closing tells the parent the child is gone
    finished = False
    try:
        while True:
            try:
                if receiving.poll():
                    kind, payload, problems, orphans = receiving.recv()
                else:
                    waiting.value = 1
                    try:
                        kind, payload, problems, orphans = receiving.recv()
                    finally:
                        waiting.value = 0
            except EOFError:
                raise ImportFormatError(
                    f"{item.path}: the process reading the file stopped before its end"
                ) from None
            item.problems.extend(problems)
            item.orphans.extend(orphans)
            if kind == "error":
                raise ImportFormatError(payload)
            ready, unprepared = payload
            for wire in ready:
                yield _from_wire(wire)
            for fields_ in unprepared:
                yield prepare(PaperRecord(*fields_), item.reply_texts, item.papers, sketches)
            if kind == "end":
                finished = True
                return
    finally:
        receiving.close()
        if not finished:
            child.terminate()  # the import stopped early: the rest is not wanted
        child.join()


def _widen(pipe: Connection) -> None:
    """Give the pipe room for a few chunks where the system allows it (Linux: up to 1 MiB
    without privileges). A chunk is several times the usual 64 KiB, so the child otherwise
    sat blocked in its send until the writer had finished the chunk before, and the writer
    then waited for the next one to be parsed: each process idled a sixth of the time."""
    try:
        import fcntl

        fcntl.fcntl(pipe.fileno(), fcntl.F_SETPIPE_SZ, PIPE_BYTES)
    except (ImportError, AttributeError, OSError):
        pass  # another system, or a lower limit: the usual buffer does, only slower


def _parse(
    item: StreamedFile, out: Connection, waiting: Any, parents_end: Connection, parent: int,
    versions_only: bool, sketches: bool,
) -> None:
    """The child: parse the file's records and send them in chunks, each with the bad
    records met since the last one; prepare each chunk's records until the writer waits.
    It ends with its parent, however that ends."""
    end_with_parent(parent)
    # Forked, it holds the parent's end of the pipe too: closed, so that a send once the
    # parent is gone fails at once instead of blocking for ever on a pipe nobody reads.
    parents_end.close()
    # Ctrl-C (and a terminal's hang-up) reach the whole process group: the parent stops
    # the import, and this child with it, with one message instead of a second traceback
    # from here.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    sent = sent_orphans = 0

    def send(kind: str, payload: Any) -> None:
        # With each chunk, the bad records and the replies without their paper met since
        # the last one.
        nonlocal sent, sent_orphans
        problems = item.problems[sent:]
        sent += len(problems)
        orphans = item.orphans[sent_orphans:]
        sent_orphans += len(orphans)
        out.send((kind, payload, problems, orphans))

    try:
        chunk: list[PaperRecord] = []
        forms, papers = item.reply_texts, item.papers
        for record in item.records:
            if versions_only and record.replies:
                record.replies_to_come = tuple((r.id, r.modified) for r in record.replies)
                record.replies = []
            chunk.append(record)
            if len(chunk) == CHUNK:
                send("records", hand_over(chunk, waiting, forms, papers, sketches))
                chunk = []
        send("end", hand_over(chunk, waiting, forms, papers, sketches))
    except BrokenPipeError:
        pass  # the parent stopped reading: nothing left to do
    except Exception as exc:  # noqa: BLE001 - reported to the parent, which raises it
        # A refusal names the file already; anything else is said of it here.
        said = str(exc) or type(exc).__name__
        send("error", said if isinstance(exc, ImportFormatError) else f"{item.path}: {said}")
    finally:
        out.close()


def hand_over(
    records: list[PaperRecord],
    waiting: Any,
    forms: bool = True,
    papers: bool = True,
    sketches: bool = True,
) -> tuple[list[Any], list[Any]]:
    """A chunk as sent: its records prepared (``forms``, ``papers``, ``sketches``: as
    :func:`prepare` says), one by one, until ``waiting.value`` is set (the writer has
    nothing left to write), and the rest as they were parsed."""
    ready: list[Any] = []
    for n, record in enumerate(records):
        if waiting.value:
            return ready, [_record_fields(r) for r in records[n:]]
        prepared = prepare(record, forms, papers, sketches)
        for form in prepared.reply_forms:
            form.packed()  # here, on the core the writer leaves free
        ready.append(_to_wire(prepared))
    return ready, []


# Records cross the pipe as tuples of plain values, which pickle writes and reads in C: a
# Prepared, a dataclass with slots, is rebuilt field by field in Python (it doubled the time
# the writing process spent taking records in). (A PaperRecord, a Struct, pickles in C as
# it is; it goes as its values beside the Prepared's.)
_RECORD_FIELDS = PaperRecord.__struct_fields__
_PREPARED_FIELDS = tuple(f.name for f in fields(Prepared) if f.name != "record")


_record_fields = attrgetter(*_RECORD_FIELDS)


def _to_wire(prepared: Prepared) -> tuple[Any, ...]:
    return (
        _record_fields(prepared.record),
        *(getattr(prepared, name) for name in _PREPARED_FIELDS),
    )


def _from_wire(wire: tuple[Any, ...]) -> Prepared:
    return Prepared(PaperRecord(*wire[0]), *wire[1:])
