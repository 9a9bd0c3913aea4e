"""One large library built once, and the figures that grow with it measured on it.

The benchmark (scripts/benchmark.py) builds its libraries anew on every run; a change to
the search or the TUI is better judged on one library, measured before and after. This
script builds the benchmark's synthetic corpus at one size and imports it as the benchmark
does, then measures on that library, each figure with its CPU time and the load around it
(scripts/quiet.py)::

    python scripts/scale_library.py build WORKDIR [--size 200k]
    python scripts/scale_library.py queries WORKDIR      # Library.search, in this process
    python scripts/scale_library.py cli WORKDIR          # `reader search` as a process
    python scripts/scale_library.py tui WORKDIR          # first paint and j on a terminal

``build`` keeps the corpus and the library (``WORKDIR/reader-SIZE``) and leaves an existing
library alone; ``--fresh`` imports it again.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from benchmark import (
    PAINT_STARTS,
    QUERIES,
    SAMPLE,
    SIZES,
    Terminal,
    compileall,
    cpu_per_key,
    first_paints,
    first_titles,
    import_reader,
    load_pools,
    needle,
    percentiles,
    reader_argv,
    trivial_paints,
    write_corpus,
)
from quiet import Gauge, load

from reader.library import Library

REPO = Path(__file__).resolve().parents[1]


def log(message: str) -> None:
    """A line on stderr, timed."""
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def library_root(work: Path, size: str) -> Path:
    """Where the library of a size is kept (``size`` "sample": the bundled sample's,
    made on first use)."""
    root = work / f"reader-{size}"
    if size == "sample" and not root.exists():
        library = Library(root)
        library.imports.import_sample_if_empty()
        library.close()
    return root


def build(work: Path, size: str, fresh: bool, gauge: Gauge) -> dict[str, object]:
    """The corpus and the library of ``size``: browsable and searchable, as the benchmark
    times them (unless the library is there already)."""
    work.mkdir(parents=True, exist_ok=True)
    root = library_root(work, size)
    if root.exists() and not fresh:
        log(f"{root} is there already (--fresh builds it again)")
        return {}
    shutil.rmtree(root, ignore_errors=True)
    path = write_corpus(load_pools(SAMPLE), SIZES[size], work)
    log(f"corpus {path} ({path.stat().st_size / 1e6:.0f} MB)")
    return gauge.figure(f"{size}: reader import", lambda: import_reader(path, root))


def _timed(job: Callable[[], object]) -> tuple[float, float]:
    """Wall and CPU seconds of ``job`` (CPU: this process, every thread)."""
    wall, cpu = time.perf_counter(), time.process_time()
    job()
    return time.perf_counter() - wall, time.process_time() - cpu


def queries(work: Path, size: str, repeats: int, limit: int | None) -> dict[str, object]:
    """Each benchmark query through Library.search, ``repeats`` times after a warm-up:
    every match ranked (``limit`` None, as the benchmark asks), or the ``limit`` best and
    the count, as ``reader search`` asks."""
    library = Library(library_root(work, size))
    walls: list[float] = []
    cpus: list[float] = []
    per_query: dict[str, dict[str, float]] = {}
    try:
        for _, text, _ in QUERIES:
            outcome = library.search(text, limit=limit)
            mine_w, mine_c = [], []
            for _ in range(repeats):
                wall, cpu = _timed(lambda t=text: library.search(t, limit=limit))
                mine_w.append(wall)
                mine_c.append(cpu)
            walls += mine_w
            cpus += mine_c
            per_query[text] = {"wall_ms": statistics.median(mine_w) * 1000,
                               "cpu_ms": statistics.median(mine_c) * 1000,
                               "shown": len(outcome.ids)}
    finally:
        library.close()
    return {"wall": percentiles(walls), "cpu": percentiles(cpus), "queries": per_query}


def cli(work: Path, size: str, repeats: int) -> dict[str, object]:
    """``reader search QUERY`` as a process for each benchmark query, ``repeats`` times:
    wall and CPU time (user + system, from the process's own usage)."""
    root = library_root(work, size)
    walls: list[float] = []
    cpus: list[float] = []
    per_query: dict[str, dict[str, object]] = {}
    for _, text, _ in QUERIES:
        argv = [sys.executable, "-m", "reader", "--library", str(root), "search", text]
        mine_w, mine_c = [], []
        out: list[str] = []
        for _ in range(repeats):
            started = time.perf_counter()
            proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            assert proc.stdout is not None and proc.stderr is not None
            stdout, stderr = proc.stdout.read(), proc.stderr.read()
            _, _, usage = os.wait4(proc.pid, 0)
            proc.returncode = 0
            mine_w.append(time.perf_counter() - started)
            mine_c.append(usage.ru_utime + usage.ru_stime)
            out = (stdout.decode().splitlines()[:2] + stderr.decode().splitlines()[-1:])
        walls += mine_w
        cpus += mine_c
        per_query[text] = {"wall_ms": statistics.median(mine_w) * 1000,
                           "cpu_ms": statistics.median(mine_c) * 1000, "out": out}
    return {"wall": percentiles(walls), "cpu": percentiles(cpus), "queries": per_query}


def tui(work: Path, size: str, presses: int, starts: int) -> dict[str, object]:
    """First paint beside a trivial Textual app (in turn, as the benchmark takes them) and
    the CPU time of each ``j``."""
    root = library_root(work, size)
    compileall.compile_dir(REPO / "reader", quiet=1)
    title = needle(first_titles(root, 1)[0])
    argv, env = reader_argv(root)
    paints: list[float] = []
    trivial: list[float] = []
    for _ in range(starts):
        paints += first_paints(argv, env, title, 1)
        trivial += trivial_paints(work, 1)
    out: dict[str, object] = {
        "first_paint_median_s": statistics.median(paints),
        "trivial_median_s": statistics.median(trivial),
        "ratio": statistics.median(paints) / statistics.median(trivial),
        "paints": paints, "trivial": trivial,
    }
    if presses:
        term = Terminal(argv, env)
        try:
            term.wait_for(title, timeout=60.0)
            term.settle(quiet=0.5, timeout=30.0)
            keys = cpu_per_key(term, "j", presses)
        finally:
            term.close()
        ordered = sorted(keys)
        out["j_cpu_ms"] = {"p50": statistics.median(keys) * 1000,
                           "p95": ordered[int(0.95 * (len(ordered) - 1))] * 1000}
    return out


def main() -> None:
    """Parse the command and run it."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=["build", "queries", "cli", "tui"])
    parser.add_argument("work", type=Path)
    parser.add_argument("--size", default="200k", choices=[*SIZES, "sample"],
                        help="sample: the bundled sample (tui only)")
    parser.add_argument("--fresh", action="store_true")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--limit", type=int, default=None,
                        help="queries: the best N and the count (reader search asks 20)")
    parser.add_argument("--presses", type=int, default=100)
    parser.add_argument("--starts", type=int, default=PAINT_STARTS)
    parser.add_argument("--settle", type=float, default=120.0)
    args = parser.parse_args()
    gauge = Gauge(log, settle=args.settle)
    log(f"load {load():.2f}, limit {gauge.limit:.1f}")
    jobs: dict[str, Callable[[], dict[str, object]]] = {
        "build": lambda: build(args.work, args.size, args.fresh, gauge),
        "queries": lambda: queries(args.work, args.size, args.repeats, args.limit),
        "cli": lambda: cli(args.work, args.size, args.repeats),
        "tui": lambda: tui(args.work, args.size, args.presses, args.starts),
    }
    if args.what == "build":
        result = jobs["build"]()
    else:
        result = gauge.figure(f"{args.size}: {args.what}", jobs[args.what])
    print(json.dumps(result, indent=2, default=str))


if __name__ == "__main__":
    main()
