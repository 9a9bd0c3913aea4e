"""A reader process for the crash and concurrency tests to run and kill.

    python -m tests.crash_driver LIBRARY import FILE [--hold-after=M]
    python -m tests.crash_driver LIBRARY writes COUNT [SEED] [--no-index] [--part=I/N]

It prints ``ready`` once the library is open, then one line after each write has been
committed (``star ID 0|1 K``, ``note ID K``), flushed at once, so whoever reads its output
knows exactly which writes the process had promised when it died. An import says where it
is: ``record K`` as it reads the K-th record inside its transaction, ``committed`` once
the transaction has committed, ``indexed K`` as the index follows, then ``import N``.
``--hold-after=M`` stops after the M-th of those lines (``ready`` not counted) until the
process is killed, so a test can kill it at a point it chose rather than at a time.
Writes go through the same Library calls as the CLI and the app (the index follows each
one unless ``--no-index``). ``--part=I/N`` writes only to every N-th paper from the I-th,
so two writers can share a library and each still know what the other cannot have changed.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from reader.library import Library


def say(line: str) -> None:
    """Report a committed write (unbuffered: the process may die at any moment)."""
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def write_plan(ids: list[int], count: int, seed: int) -> list[tuple[str, int, int]]:
    """The writes to make, in order: (``star``, id, 0/1) or (``note``, id, k)."""
    rng = random.Random(seed)
    return [
        ("star", rng.choice(ids), rng.randint(0, 1)) if rng.random() < 0.5
        else ("note", rng.choice(ids), k)
        for k in range(count)
    ]


def note_text(paper_id: int, k: int, seed: int) -> str:
    """The note the ``k``-th write gives a paper: unique, and searchable by one word."""
    return f"Draft {k} by writer {seed}: remember noteword{seed}x{k} for paper {paper_id}."


def main(argv: list[str]) -> int:
    """Run one mode; see the module docstring."""
    root, mode, *rest = argv
    library = Library(Path(root))
    say("ready")
    if mode == "import":
        hold = next((int(f.removeprefix("--hold-after=")) for f in rest
                     if f.startswith("--hold-after=")), 0)
        lines = 0

        def event(line: str) -> None:
            nonlocal lines
            say(line)
            lines += 1
            if lines == hold:
                sys.stdin.read()  # the test kills the process here

        # As `reader import` does it: the transaction, then the index.
        summary = library.imports.write_files(
            [Path(rest[0])], progress=lambda n, _total: event(f"record {n}")
        )
        event("committed")
        library.sync_index(progress=lambda n, _total: event(f"indexed {n}"))
        event(f"import {summary.new}")
        return 0
    count = int(rest[0])
    seed = int(rest[1]) if len(rest) > 1 and rest[1].isdigit() else 0
    index = "--no-index" not in rest
    ids = library.store.all_ids()
    for flag in rest:
        if flag.startswith("--part="):
            part, parts = map(int, flag.removeprefix("--part=").split("/"))
            ids = ids[part::parts]
    for kind, paper_id, value in write_plan(ids, count, seed):
        # With --no-index, written through the store: the library would index them.
        if kind == "star":
            if index:
                library.set_starred(paper_id, bool(value))
            else:
                library.store.marks.set_starred(paper_id, bool(value))
            say(f"star {paper_id} {value}")
        else:
            text = note_text(paper_id, value, seed)
            if index:
                library.save_note(paper_id, text)
            else:
                library.store.edits.save_note(paper_id, text)
            say(f"note {paper_id} {value}")
    say("done")
    library.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
