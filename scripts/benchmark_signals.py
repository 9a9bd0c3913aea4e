"""The conference-signals targets, measured on the path a user takes: a conference with all
its replies (``replies_corpus``) imported by ``reader import`` onto the sample library,
followed from outside; then the library it leaves, asked as the reader asks it.

Each figure is taken through the benchmark's :class:`quiet.Gauge` (the load before it, the
CPU time it cost, and whether it is a result at all). Run alone on a quiet machine:

    python scripts/benchmark_signals.py [--papers 19630] [--workdir DIR] [--presses 200]

The targets (2 cores): papers, ratings and decisions browsable ≤ 5 s; abstracts searchable
≤ 30 s, not delayed by reviews; review text searchable ≤ 120 s; peak RSS ≤ 400 MB; the
database ≤ 1.5× the text it holds; sorting by mean rating ≤ 100 ms; a note saved ≤ 50 ms
without indexing review text; ``j`` p50 ≤ 16 ms of CPU.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmark import (
    _descendants,
    _generation,
    _index_meta,
    _papers_in,
    measure_tui,
    sample_library,
)
from quiet import Gauge, load
from replies_corpus import write_corpus

from reader.library import Library

REVIEWS_MARK = Path("index-reviews") / "reader-replies.json"


def _pss_mb(pid: int) -> float:
    """A process's proportional set now, in MB (0 once it is gone): its resident pages,
    each shared one counted as its share, so that a process tree's sum counts the pages a
    forked worker shares with its parent once."""
    try:
        with open(f"/proc/{pid}/smaps_rollup", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("Pss:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def _signal_rows(database: Path) -> int:
    try:
        conn = sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=0.05)
        try:
            return int(conn.execute("SELECT count(*) FROM paper_signals").fetchone()[0])
        finally:
            conn.close()
    except sqlite3.Error:
        return 0


def _index_current(root: Path) -> bool:
    meta = _index_meta(root)
    if not meta or meta.get("building"):
        return False
    try:
        return int(meta.get("generation", -1)) >= _generation(root / "library.sqlite")
    except (sqlite3.Error, TypeError, ValueError):
        return False


def follow_import(root: Path, path: Path, papers: int) -> dict[str, object]:
    """``reader import`` as a process: when papers with their signals are browsable, when
    the abstracts are searchable, when review text is (the process exits), its CPU time and
    the peak memory of the whole process tree (proportional sets summed, sampled every 50
    ms), beside the largest resident set of any one of its processes."""
    database = root / "library.sqlite"
    argv = [sys.executable, "-m", "reader", "--library", str(root), "import", str(path)]
    started = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    out: dict[str, object] = {}
    peak = 0.0
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        now = time.perf_counter() - started
        if pid:
            break
        tree = [proc.pid, *_descendants(proc.pid)]
        peak = max(peak, sum(_pss_mb(p) for p in tree))
        if "browsable" not in out and _papers_in(database) >= papers:
            if _signal_rows(database) >= papers - 38:
                out["browsable"] = now
        if "browsable" in out and "abstracts_searchable" not in out and _index_current(root):
            out["abstracts_searchable"] = now
        time.sleep(0.05)
    said = proc.stdout.read().decode("utf-8", "replace") if proc.stdout else ""
    out["reviews_searchable"] = now
    out.setdefault("browsable", now)
    out.setdefault("abstracts_searchable", now)
    out["exit"] = os.waitstatus_to_exitcode(status)
    out["cpu_s"] = usage.ru_utime + usage.ru_stime
    out["peak_rss_tree_mb"] = peak
    out["peak_rss_one_mb"] = usage.ru_maxrss / 1024
    out["reviews_index_marked"] = (root / REVIEWS_MARK).exists()
    out["output"] = said.strip().splitlines()[-4:]
    return out


def database_size(root: Path) -> int:
    """The database's bytes once its log is copied in (the index apart)."""
    conn = sqlite3.connect(root / "library.sqlite")
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
    finally:
        conn.close()
    return sum(p.stat().st_size for p in root.glob("library.sqlite*") if p.is_file())


def library_figures(root: Path, gauge: Gauge) -> dict[str, object]:
    """The sort by mean rating, a review search and note saves, as the library answers."""
    out: dict[str, object] = {}
    library = Library(root)
    try:
        def sorts() -> dict[str, object]:
            times = []
            for _ in range(7):
                start = time.perf_counter()
                found = library.search("", order="rating").ids
                times.append(time.perf_counter() - start)
            return {"p50_ms": statistics.median(times) * 1000, "papers": len(found),
                    "first_ms": times[0] * 1000}

        out["sort_rating"] = gauge.figure("sort by mean rating", sorts)

        def reviews() -> dict[str, object]:
            times = []
            for _ in range(5):
                start = time.perf_counter()
                found = library.search('review:"data leakage"').ids
                times.append(time.perf_counter() - start)
            return {"p50_ms": statistics.median(times) * 1000, "papers": len(found)}

        out["review_search"] = gauge.figure('review:"data leakage"', reviews)

        def notes() -> dict[str, object]:
            ids = library.search("", order="rating").ids[:20]
            mark = root / REVIEWS_MARK
            before = mark.stat().st_mtime_ns if mark.exists() else None
            times = []
            for n, paper_id in enumerate(ids):
                start = time.perf_counter()
                library.save_note(paper_id, f"benchmark note {n}")
                times.append(time.perf_counter() - start)
            library.sync_index()
            after = mark.stat().st_mtime_ns if mark.exists() else None
            return {"p50_ms": statistics.median(times) * 1000,
                    "max_ms": max(times) * 1000,
                    "review_index_touched": before != after}

        out["note_save"] = gauge.figure("a note saved", notes)
    finally:
        library.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--papers", type=int, default=19_630)
    parser.add_argument("--workdir", type=Path)
    parser.add_argument("--presses", type=int, default=200, help="j presses (0: no TUI)")
    parser.add_argument("--json", type=Path, default=Path("benchmark-signals.json"))
    parser.add_argument("--settle", type=float, default=180.0)
    args = parser.parse_args()

    def log(message: str) -> None:
        print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)

    gauge = Gauge(log, settle=args.settle)
    log(f"load now {load():.2f}; limit {gauge.limit:.1f}")
    result: dict[str, object] = {"papers": args.papers}
    with contextlib.ExitStack() as stack:
        work = args.workdir or Path(stack.enter_context(tempfile.TemporaryDirectory()))
        work.mkdir(parents=True, exist_ok=True)
        path, replies, text = write_corpus(args.papers, work / f"replies-{args.papers}.jsonl")
        result.update(replies=replies, text_mb=text / 1e6)
        log(f"corpus: {args.papers:,} papers, {replies:,} replies, {text / 1e6:.0f} MB text")
        root = sample_library(work / "library")
        expected = _papers_in(root / "library.sqlite") + args.papers
        result["import"] = imported = gauge.figure(
            "reader import onto the sample", lambda: follow_import(root, path, expected))
        log(f"import: {imported}")
        size = database_size(root)
        result["database_mb"] = size / 1e6
        result["database_vs_text"] = size / text
        result["library"] = library_figures(root, gauge)
        log(f"library: {result['library']}")
        if args.presses:
            result["tui"] = gauge.figure("the reader on it", lambda: measure_tui(
                root, args.presses))
            log(f"tui: {result['tui']}")
    args.json.write_text(json.dumps(result, indent=2, default=str))
    imported = result["import"]  # type: ignore[assignment]
    lib = result["library"]  # type: ignore[assignment]
    rows = [
        ("papers, ratings and decisions browsable", f"{imported['browsable']:.1f} s", "≤ 5 s"),
        ("abstracts searchable", f"{imported['abstracts_searchable']:.1f} s", "≤ 30 s"),
        ("review text searchable", f"{imported['reviews_searchable']:.1f} s", "≤ 120 s"),
        ("import CPU (all processes)", f"{imported['cpu_s']:.0f} s", ""),
        ("peak memory, process tree (PSS)", f"{imported['peak_rss_tree_mb']:.0f} MB", "≤ 400 MB"),
        ("peak RSS, largest process", f"{imported['peak_rss_one_mb']:.0f} MB", ""),
        ("database / text held", f"{result['database_vs_text']:.2f}×", "≤ 1.5×"),
        ("sort by mean rating (p50)", f"{lib['sort_rating']['p50_ms']:.0f} ms", "≤ 100 ms"),
        ("note save (p50)", f"{lib['note_save']['p50_ms']:.0f} ms", "≤ 50 ms"),
        ('review:"data leakage" (p50)', f"{lib['review_search']['p50_ms']:.0f} ms", ""),
    ]
    if "tui" in result:
        tui = result["tui"]  # type: ignore[assignment]
        rows.append(("j CPU p50", f"{tui['j_cpu_ms']['p50']:.1f} ms", "≤ 16 ms"))
    width = max(len(r[0]) for r in rows)
    for name, value, target in rows:
        print(f"{name:<{width}}  {value:>10}  {target}")
    print("\n" + gauge.table())
    if not gauge.all_quiet():
        print("\nSome figures were taken over the load limit: they are not results.")


if __name__ == "__main__":
    main()
