"""Benchmark reader side by side with what a user could pick instead, at 1k, 20k and 200k.

Run from the repository root::

    python scripts/benchmark.py                     # 1k, 20k, 200k; prints a table, writes JSON
    python scripts/benchmark.py --sizes 1k,20k --skip-cobib --json bench.json

What it measures, on the same papers for every engine:

* **import**: until the papers are browsable and until they are fully searchable, for reader
  (``Library.import_files`` then the index build) and, from the same file, for plain
  ``sqlite3`` ``executemany``, a bare Whoosh writer with reader's schema (``procs=1`` and
  ``procs=2``, ``limitmb=128``, one commit) and SQLite FTS5;
* **query**: p50 and p95 over a fixed query set (single terms, several terms, phrases,
  prefixes, fuzzy, a field query, a filter, boolean) for reader's search path
  (``Library.search``: query parsing, filters, highlight terms), for bare Whoosh on the same
  (stemmed) index (a ``MultifieldParser`` with reader's fields and boosts) and for FTS5
  (``MATCH … ORDER BY bm25``; FTS5 has no fuzzy matching, so that query is left out of its
  figures). Every query asks for all its matches, as the reader's list shows them all;
* **TUI**, as a real process on a pseudo-terminal (``python -m reader --library DIR``):
  first paint (from start until the first paper's title is on screen: the first start after
  the import, and the median of fifteen more, as a library is usually opened with its files
  in the page cache, each followed by a start of a trivial Textual app; the ratio is the
  median of each such pair's); ``j`` (200 presses:
  the CPU time the app's threads spend per key, read from ``/proc/PID/task/*/schedstat``,
  which is the app's own work from the key event to the refreshed list and detail pane);
  search-as-you-type (typing a query at 60 ms a key: the time from the last key until the
  status line shows its match count) and the echo of every key typed while searches run;
* **memory**: the app's peak RSS (``VmHWM``) over all of the above.
* **the machine**: before each figure the one-minute load is read; over 1.5 per core the
  run waits (``--settle``, 180 s at most) for it to fall. Each figure's wall time is kept
  with its CPU time and the load before and after it (``scripts/quiet.py``), and a figure
  taken over the limit is printed as "not a result", never as a figure.
* **onto the sample** (``--onto-sample 19.6k``): the path a user takes. A library as a first
  start leaves it (the bundled sample, indexed), then the 19,630 whole real records of
  ``scripts/real_corpus.py`` imported onto it: by ``reader import`` as a process, followed
  from outside (when its papers are in the database, when the index has published its
  first searchable segment, when it exits with the index complete; its peak RSS), and in
  the reader with ``i`` on a pseudo-terminal while a search is typed a key every 0.25 s
  (when the list shows the papers, when the search first shows results, when the index is
  complete, and the echo of every key). Then the same file imported again, and the same
  papers as the BibTeX ``reader export`` writes (time and peak RSS); bare Whoosh
  (``procs=2``) and FTS5 are given the same records.

coBib is given ``add -b corpus.bib`` (its own import path) and its TUI is timed to first
paint and per ``j`` in the same way; its search is not timed here.

The default run (1k, 20k, 200k, with coBib at 1k and 20k) takes about 15 minutes on two
cores, most of it building Whoosh indexes: the bare Whoosh builds run up to 20k unless
``--whoosh-max 200k`` (another ~15 minutes). ``--sizes 1k,20k --skip-cobib`` takes ~5.

coBib (another Textual bibliography manager) is measured the same way when a ``cobib``
executable is given with ``--cobib PATH`` or found on ``PATH``; install it in a virtual
environment of its own (``pip install cobib``). The corpus is handed to it as BibTeX.

The corpora are deterministic (seeded) and built from the ICLR 2026 sample in
``../shared/data/iclr2026/submissions-sample.jsonl.gz`` (3,019 real submissions). Paper
``i`` takes the sentence count of a random real abstract and fills it with sentences drawn
from the pool of all real sentences, a title (below) and 2–5 real keywords. So that the
vocabulary keeps growing with the corpus as in real abstracts (Heaps' law, V ≈ K·n^β with
β ≈ 0.5) rather than stopping at the sample's, three words of each abstract (and often the
title's lead, as in "Name: what it does") are replaced by coined terms, drawn uniformly from
the first 300·√(i+1) of an endless deterministic list of compounds of real words
("Flowmamba", "sparsiformer"). The 1k corpus is a prefix of the 20k one, which is a prefix
of the 200k one.
"""

from __future__ import annotations

import argparse
import compileall
import contextlib
import gzip
import json
import math
import os
import platform
import pty
import random
import re
import select
import shutil
import signal
import sqlite3
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from fcntl import ioctl
from pathlib import Path

from quiet import Gauge, load
from real_corpus import ICLR_2026, write_real_corpus
from whoosh import index as whoosh_index
from whoosh.qparser import FuzzyTermPlugin, MultifieldParser
from whoosh.query import And, Term

from reader.library import Library
from reader.search.schema import FIELD_BOOSTS, SEARCH_FIELDS, make_schema

REPO = Path(__file__).resolve().parents[1]
SAMPLE = REPO.parent / "shared" / "data" / "iclr2026" / "submissions-sample.jsonl.gz"
SEED = 20260
SIZES = {"1k": 1_000, "20k": 20_000, "200k": 200_000, "real": ICLR_2026}
#: Sizes of the real-record corpus imported onto the sample library (--onto-sample).
ONTO_SAMPLE = {"1k": 1_000, "19.6k": ICLR_2026}
#: Sizes whose corpus is whole real records (scripts/real_corpus.py), not rebuilt abstracts.
REAL = {"real"}
SCREEN = (120, 40)  # columns, rows

#: (what kind, reader's query, FTS5 query or None when FTS5 can't express it)
QUERIES: list[tuple[str, str, str | None]] = [
    ("term", "transformer", "transformer"),
    ("term", "unlearning", "unlearning"),
    ("terms", "graph neural network", "graph neural network"),
    ("terms", "language model reasoning benchmark", "language model reasoning benchmark"),
    ("phrase", '"optimal transport"', '"optimal transport"'),
    ("phrase", '"reinforcement learning"', '"reinforcement learning"'),
    ("prefix", "spars*", "spars*"),
    ("prefix", "diffus*", "diffus*"),
    ("fuzzy", "benchmrak~", None),
    ("field", "title:diffusion", "title:diffusion"),
    ("filter", "transformer is:starred", "transformer"),
    ("boolean", "unlearning OR forgetting", "unlearning OR forgetting"),
]
#: Typed into the TUI's search box, one key at a time.
TYPED_QUERY = "optimal transport"


# -- corpus ----------------------------------------------------------------------------------


def _value(field: object) -> str:
    """A content field in either OpenReview API shape."""
    if isinstance(field, dict):
        field = field.get("value")
    return field if isinstance(field, str) else ""


@dataclass
class Pools:
    """What the corpus is resampled from: real sentences, titles, keywords, words."""

    sentence_counts: list[int]
    sentences: list[str]
    titles: list[str]
    keywords: list[str]
    areas: list[str]
    words: list[str]


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z(])")
_WORD = re.compile(r"[A-Za-z]{5,}")


def load_pools(sample: Path) -> Pools:
    """Read the real sample into pools of sentences, titles, keywords and words."""
    if not sample.exists():
        sys.exit(f"benchmark: the ICLR sample is missing: {sample} (see the README)")
    counts, sentences, titles, keywords, areas, words = [], [], [], [], [], set()
    with gzip.open(sample, "rt", encoding="utf-8") as fh:
        for line in fh:
            if not line.strip():
                continue
            content = json.loads(line).get("content", {})
            abstract = " ".join(_value(content.get("abstract")).split())
            title = " ".join(_value(content.get("title")).split())
            if not abstract or not title:
                continue
            parts = [s for s in _SENTENCE_END.split(abstract) if len(s) > 20]
            counts.append(max(1, len(parts)))
            sentences.extend(parts)
            titles.append(title)
            kw = content.get("keywords")
            kw = kw.get("value") if isinstance(kw, dict) else kw
            keywords.extend(k for k in (kw or []) if isinstance(k, str))
            area = _value(content.get("primary_area"))
            if area:
                areas.append(area)
            words.update(w.lower() for w in _WORD.findall(abstract))
    return Pools(counts, sentences, titles, keywords, areas or ["other"], sorted(words))


def coined(pools: Pools, j: int) -> str:
    """The j-th coined term: a compound of two real words, deterministic in ``j``."""
    words = pools.words
    a = words[(j * 7_919 + 13) % len(words)]
    b = words[(j * 104_729 + 7) % len(words)]
    cut_a = 3 + j % 3
    cut_b = 3 + (j // 3) % 4
    term = a[:cut_a] + b[-cut_b:]
    # About a third look like model names ("Flowmamba"), the rest like coined words.
    return term.capitalize() if j % 3 == 0 else term


def corpus(pools: Pools, count: int, seed: int = SEED) -> Iterator[dict]:
    """``count`` OpenReview records; any prefix of a longer corpus is the shorter one."""
    rng = random.Random(seed)
    # Titles are unique, as in a real conference (reader recognises a paper by its title).
    seen: set[str] = set()
    for i in range(count):
        bound = max(1, int(300 * math.sqrt(i + 1)))
        n = rng.choice(pools.sentence_counts)
        sentences = [rng.choice(pools.sentences) for _ in range(n)]
        for _ in range(3):
            k = rng.randrange(len(sentences))
            tokens = sentences[k].split(" ")
            spots = [t for t, w in enumerate(tokens) if len(w) >= 6 and w.isalpha()]
            if spots:
                tokens[rng.choice(spots)] = coined(pools, rng.randrange(bound))
                sentences[k] = " ".join(tokens)
        title = rng.choice(pools.titles)
        while title in seen:
            rest = rng.choice(pools.titles).split(": ", 1)[-1]
            title = f"{coined(pools, rng.randrange(bound)).capitalize()}: {rest}"
        seen.add(title)
        keywords = rng.sample(pools.keywords, rng.randint(2, 5))
        yield {
            "id": f"bench{i:07d}",
            "number": i + 1,
            "cdate": 1_756_728_000_000 + i * 1_000,
            "mdate": 1_756_728_000_000 + i * 1_000,
            "content": {
                "title": title,
                "abstract": " ".join(sentences),
                "keywords": keywords,
                "primary_area": rng.choice(pools.areas),
                "venue": "ICLR 2026 Conference Submission",
            },
        }


def write_corpus(pools: Pools, count: int, directory: Path) -> Path:
    """Write the corpus as OpenReview JSON lines (what reader imports)."""
    path = directory / f"corpus-{count}.jsonl"
    if not path.exists():
        tmp = path.with_suffix(".tmp")
        with tmp.open("w", encoding="utf-8") as out:
            for record in corpus(pools, count):
                out.write(json.dumps(record) + "\n")
        tmp.replace(path)
    return path


def _keywords(content: dict) -> list[str]:
    value = content.get("keywords")
    value = value.get("value") if isinstance(value, dict) else value
    return [k for k in (value or []) if isinstance(k, str)]


def rows_of(path: Path) -> Iterator[dict[str, object]]:
    """The fields every engine indexes, read from the corpus file (either API shape)."""
    with path.open(encoding="utf-8") as fh:
        for n, line in enumerate(fh):
            content = json.loads(line)["content"]
            yield {
                "id": str(n + 1),
                "title": _value(content.get("title")),
                "abstract": _value(content.get("abstract")),
                "keywords": " ".join(_keywords(content)),
                "authors": "",
                "notes": "",
                "flags": "starred" if (n + 1) % 100 == 0 else "",
                "venue": "ICLR",
                "year": 2026,
            }


def write_bibtex(path: Path, out: Path) -> Path:
    """The corpus as BibTeX, for engines that import nothing else."""
    if out.exists():
        return out

    def esc(text: str) -> str:
        return text.replace("\\", " ").replace("{", "(").replace("}", ")")

    with out.open("w", encoding="utf-8") as fh:
        for row in rows_of(path):
            fh.write(
                f"@inproceedings{{bench{row['id']},\n"
                f"  title = {{{esc(str(row['title']))}}},\n"
                f"  abstract = {{{esc(str(row['abstract']))}}},\n"
                f"  keywords = {{{esc(str(row['keywords']))}}},\n"
                f"  author = {{Anonymous}},\n"
                f"  booktitle = {{ICLR}},\n  year = {{2026}}\n}}\n\n"
            )
    return out


# -- import ----------------------------------------------------------------------------------


def timed(job: Callable[[], object]) -> float:
    """Seconds ``job`` takes."""
    start = time.perf_counter()
    job()
    return time.perf_counter() - start


def import_reader(path: Path, root: Path) -> dict[str, float]:
    """reader: import (browsable), then the index build (fully searchable)."""
    library = Library(root)
    start = time.perf_counter()
    library.imports.write_files([path])
    browsable = time.perf_counter() - start
    # Some starred papers, for the filter query; stamped before the index is built.
    with library.store.transaction() as conn:
        conn.execute("UPDATE papers SET starred = 1 WHERE id % 100 = 0")
    library.sync_index()
    searchable = time.perf_counter() - start
    library.close()
    return {"browsable": browsable, "searchable": searchable}


def import_sqlite(path: Path, db: Path) -> float:
    """Plain sqlite3: one table, one executemany, one transaction."""

    def run() -> None:
        conn = sqlite3.connect(db)
        conn.execute(
            "CREATE TABLE papers (id INTEGER PRIMARY KEY, title TEXT, abstract TEXT, "
            "keywords TEXT, venue TEXT, year INTEGER)"
        )
        with conn:
            conn.executemany(
                "INSERT INTO papers VALUES (?, ?, ?, ?, ?, ?)",
                (
                    (int(str(r["id"])), r["title"], r["abstract"], r["keywords"], r["venue"],
                     r["year"])
                    for r in rows_of(path)
                ),
            )
        conn.close()

    return timed(run)


def import_fts5(path: Path, db: Path) -> float:
    """SQLite FTS5 over the same fields, one transaction."""

    def run() -> None:
        conn = sqlite3.connect(db)
        conn.execute(
            "CREATE VIRTUAL TABLE papers USING fts5(title, abstract, keywords, authors, notes, "
            "starred UNINDEXED)"
        )
        with conn:
            conn.executemany(
                "INSERT INTO papers (rowid, title, abstract, keywords, authors, notes, starred) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    (int(str(r["id"])), r["title"], r["abstract"], r["keywords"], r["authors"],
                     r["notes"], int(r["flags"] == "starred"))
                    for r in rows_of(path)
                ),
            )
        conn.close()

    return timed(run)


def import_whoosh(path: Path, directory: Path, procs: int) -> float:
    """A bare Whoosh writer with reader's schema: one writer, one commit."""

    def run() -> None:
        directory.mkdir(parents=True, exist_ok=True)
        ix = whoosh_index.create_in(str(directory), make_schema())
        writer = ix.writer(procs=procs, limitmb=128) if procs > 1 else ix.writer(limitmb=128)
        for row in rows_of(path):
            writer.add_document(**row)
        writer.commit()
        ix.close()

    return timed(run)


# -- the real-shaped corpus onto the sample library, as a user would ----------------------


def _papers_in(database: Path) -> int:
    """How many papers a library holds, read as another process would (0 if unreadable)."""
    try:
        conn = sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=0.05)
        try:
            return int(conn.execute("SELECT count(*) FROM papers").fetchone()[0])
        finally:
            conn.close()
    except sqlite3.Error:
        return 0


def _index_meta(root: Path) -> dict:
    """The index's sidecar file (its generation, and a build's progress), or {}."""
    try:
        return json.loads((root / "index" / "reader-generation.json").read_text())
    except (OSError, ValueError):
        return {}


def _generation(database: Path) -> int:
    conn = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    try:
        return int(conn.execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()[0])
    finally:
        conn.close()


def sample_library(root: Path) -> Path:
    """A library as a first start leaves it: the bundled sample, indexed."""
    shutil.rmtree(root, ignore_errors=True)
    library = Library(root)
    library.imports.import_sample_if_empty()
    library.close()
    return root


def cli_import(root: Path, path: Path, expected: int, *,
               browsable_only: bool = False) -> dict[str, object]:
    """``reader import FILE`` as a process, followed from outside as another reader would:
    when its papers are in the database (browsable), when a search first answers over
    part of them (the index has published its first segment), when it exits with the index
    complete (searchable); and its peak RSS. ``browsable_only``: stopped once browsable
    (the library is thrown away)."""
    argv = [sys.executable, "-m", "reader", "--library", str(root), "import", str(path)]
    database = root / "library.sqlite"
    started = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    out: dict[str, object] = {}
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        now = time.perf_counter() - started
        if pid:
            break
        if "browsable" not in out and _papers_in(database) >= expected:
            out["browsable"] = now
            if browsable_only:
                _kill_with_descendants(proc.pid)
                proc.wait()
                return out
        if "first_results" not in out and _index_meta(root).get("building", {}).get("indexed"):
            out["first_results"] = now
        time.sleep(0.02)
    proc.returncode = os.waitstatus_to_exitcode(status)
    out["searchable"] = now
    out.setdefault("browsable", now)
    out.setdefault("first_results", now)
    out["peak_rss_mb"] = usage.ru_maxrss / 1024
    out["exit"] = proc.returncode
    return out


def peak_rss_of(argv: list[str]) -> tuple[float, float, str]:
    """Run a command; its wall time, its peak RSS in MB and its output."""
    started = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    assert proc.stdout is not None
    output = proc.stdout.read()
    _, _, usage = os.wait4(proc.pid, 0)
    return (time.perf_counter() - started, usage.ru_maxrss / 1024,
            output.decode("utf-8", "replace").strip())


def _descendants(pid: int) -> list[int]:
    """The processes a process started, and theirs (Linux /proc)."""
    found: list[int] = []
    with contextlib.suppress(OSError):
        for task in os.listdir(f"/proc/{pid}/task"):
            with contextlib.suppress(OSError), open(f"/proc/{pid}/task/{task}/children") as fh:
                for child in map(int, fh.read().split()):
                    found += [child, *_descendants(child)]
    return found


def _kill_with_descendants(pid: int) -> None:
    """Stop a process and every process it started (an import's own processes would
    otherwise go on indexing, beside the next measurement)."""
    for each in [*_descendants(pid), pid]:
        with contextlib.suppress(OSError):
            os.kill(each, signal.SIGKILL)


def _hwm_mb(pid: int) -> float:
    """A process's peak resident set so far, in MB (0 once it is gone)."""
    with contextlib.suppress(OSError), open(f"/proc/{pid}/status") as fh:
        for line in fh:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return 0.0


#: A search's results over a partial index, as the status line shows them.
_PARTIAL_RESULTS = re.compile(
    r"[1-9][\d,]* match(?:es)?, [\d,]+ seen +· +partial: (?P<indexed>[\d,]+) of"
)


def tui_import(root: Path, path: Path, total: int, *,
               browsable_only: bool = False) -> dict[str, object]:
    """The import as a user does it in the reader: ``i``, the file's path, enter; then a
    search typed a key every 0.25 s while the import and the indexing run. When the list
    shows the new papers (the library count on the status line), when the search first
    shows results, when the index is complete (its sidecar file, read from outside), and
    the echo of every key typed meanwhile."""
    argv, env = reader_argv(root)
    term = Terminal(argv, env)
    # A whole word first: its results can show as soon as the index has published new
    # papers. (Starting "transformer model …", the first results waited for "model" to be
    # typed, about 4.9 s after enter at a key every 0.25 s, however early the index was.)
    typed = "model transformer for language reasoning with graph diffusion and memory"
    out: dict[str, object] = {}
    try:
        term.wait_for("seen", timeout=60.0)
        term.settle(quiet=0.5, timeout=30.0)
        term.send("i")
        term.settle(quiet=0.3)
        term.send(str(path))
        term.settle(quiet=0.3)
        database = root / "library.sqlite"
        papers_before = _papers_in(database)
        shown = f"/ {total:,} seen"
        mark = len(term.text)

        def observe() -> None:
            """The list showing every paper; the index's first part published; a search's
            first results over some of the new papers (a partial index holding more than
            the library had before)."""
            now = time.perf_counter()
            if "first_published" not in out and _index_meta(root).get("building", {}).get(
                "indexed"
            ):
                out["first_published"] = now - started
            if "browsable" not in out and term.text.find(shown, mark) >= 0:
                out["browsable"] = now - started
            if "first_results" not in out:
                for found in _PARTIAL_RESULTS.finditer(term.text[-3000:]):
                    if int(found.group("indexed").replace(",", "")) > papers_before:
                        out["first_results"] = now - started
                        break

        started = term.send("\r")
        # The prompt closes before the search box is opened (else "/" goes to the prompt).
        term.settle(quiet=0.15, timeout=2.0, watch=observe)
        term.send("/")
        term.settle(quiet=0.1, timeout=1.0, watch=observe)
        echoes: list[float] = []
        #: Peak RSS of each process the reader started (its import, that import's indexers).
        helpers: dict[int, float] = {}
        target = None
        for n in range(1, len(typed) + 1):
            if browsable_only and "browsable" in out:
                _kill_with_descendants(term.proc.pid)
                return out
            before = len(term.text)
            sent = term.send(typed[n - 1])
            echoed = term.wait_for(typed[:n].rstrip()[-10:], timeout=5.0, since=before)
            if echoed is not None:
                echoes.append(echoed - sent)
            observe()
            now = time.perf_counter()
            meta = _index_meta(root)
            if target is None and _papers_in(database) >= total:
                target = _generation(database)
            if "searchable" not in out and target is not None and not meta.get(
                "building"
            ) and meta.get("generation", -1) >= target:
                out["searchable"] = now - started
            for pid in _descendants(term.proc.pid):
                helpers[pid] = max(helpers.get(pid, 0.0), _hwm_mb(pid))
            rest = 0.25 - (time.perf_counter() - sent)
            if rest > 0:
                term.settle(quiet=rest, timeout=rest, watch=observe)
        deadline = time.perf_counter() + 600
        while "searchable" not in out and time.perf_counter() < deadline:
            if browsable_only and "browsable" in out:
                _kill_with_descendants(term.proc.pid)
                return out
            term.pump(0.05)
            for pid in _descendants(term.proc.pid):
                helpers[pid] = max(helpers.get(pid, 0.0), _hwm_mb(pid))
            now = time.perf_counter()
            observe()
            if target is None and _papers_in(database) >= total:
                target = _generation(database)
            meta = _index_meta(root)
            if target is not None and not meta.get("building") and meta.get(
                "generation", -1
            ) >= target:
                out["searchable"] = now - started
        out["echo_p50_ms"] = statistics.median(echoes) * 1000 if echoes else float("nan")
        out["echo_max_ms"] = max(echoes) * 1000 if echoes else float("nan")
        out["echoes"] = len(echoes)
        out["peak_rss_mb"] = term.peak_rss_mb()
        out["peak_rss_helper_mb"] = max(helpers.values(), default=float("nan"))
    finally:
        term.close()
    return out


def _fresh_copy(base: Path, root: Path) -> Path:
    shutil.rmtree(root, ignore_errors=True)
    shutil.copytree(base, root)
    return root


def _repeat_browsable(
    first: dict[str, object],
    repeats: int,
    fresh: Callable[[], Path],
    measure: Callable[[Path], dict[str, object]],
) -> None:
    """Measure an import's browsable time ``repeats`` times in all (``first`` is one, with
    every other figure): the time on a machine shared with others varies by a fifth or
    more from one run to the next, so the median is kept, and every run beside it."""
    runs = [float(first["browsable"])]  # type: ignore[arg-type]
    quiet = [_quiet(first)]
    for _ in range(repeats - 1):
        again = measure(fresh())
        runs.append(float(again["browsable"]))  # type: ignore[arg-type]
        quiet.append(_quiet(again))
    # The median is a result only when every run it is taken from was.
    if isinstance(first.get("conditions"), dict):
        first["conditions"]["quiet"] = all(quiet)  # type: ignore[index]
    first["browsable_runs"] = runs
    first["browsable_first"] = runs[0]
    first["browsable"] = statistics.median(runs)
    first["browsable_range"] = (
        f"{min(runs):.2f}–{max(runs):.2f} s ({len(runs)} runs)" if len(runs) > 1 else None
    )


def run_real(label: str, count: int, work: Path, log: Callable[[str], None],
             gauge: Gauge, repeats: int = 3) -> dict[str, object]:
    """The real-shaped corpus imported onto the sample library (CLI and TUI), imported
    again (the same file, then the same papers as BibTeX, RIS and CSL-JSON), beside bare
    Whoosh (procs=2) and FTS5 given the same records."""
    out: dict[str, object] = {"papers": count}
    path = write_real_corpus(count, work)
    log(f"{label}: real corpus written ({path.stat().st_size / 1e6:.0f} MB)")
    base = sample_library(work / f"sample-{label}")
    expected = _papers_in(base / "library.sqlite")
    root = work / f"reader-real-{label}"
    shutil.rmtree(root, ignore_errors=True)
    shutil.copytree(base, root)
    out["cli"] = cli = gauge.figure(
        f"{label}: reader import onto the sample", lambda: cli_import(root, path, expected + 1))
    total = _papers_in(root / "library.sqlite")
    cli["papers_after"] = total
    _repeat_browsable(cli, repeats, lambda: _fresh_copy(base, work / "again"),
                      lambda again: gauge.figure(
                          f"{label}: reader import onto the sample, to browsable",
                          lambda: cli_import(again, path, total, browsable_only=True)))
    log(f"{label}: CLI import onto the sample {out['cli']}")
    (again, rss, said), conditions = gauge.take(
        f"{label}: the same file again", lambda: peak_rss_of(
            [sys.executable, "-m", "reader", "--library", str(root), "import", str(path)]))
    out["reimport_same"] = {"seconds": again, "peak_rss_mb": rss, "output": said,
                            "conditions": asdict(conditions)}
    log(f"{label}: the same file again {out['reimport_same']}")
    for fmt, suffix, name in (("bibtex", "bib", "BibTeX"), ("ris", "ris", "RIS"),
                              ("csljson", "csl.json", "CSL-JSON")):
        exported = work / f"real-{count}.{suffix}"
        # --force: a kept work directory holds the last run's file, which export keeps.
        subprocess.run([sys.executable, "-m", "reader", "--library", str(root), "export",
                        "--format", fmt, "-o", str(exported), "--force"], check=True,
                       capture_output=True)
        (again, rss, said), conditions = gauge.take(
            f"{label}: the same papers as {name}", lambda exported=exported: peak_rss_of(
                [sys.executable, "-m", "reader", "--library", str(root), "import",
                 str(exported)]))
        out[f"reimport_{fmt}"] = {"seconds": again, "peak_rss_mb": rss, "output": said,
                                  "conditions": asdict(conditions)}
        log(f"{label}: the same papers as {name} {out[f'reimport_{fmt}']}")
    tui_root = work / f"reader-real-tui-{label}"
    shutil.rmtree(tui_root, ignore_errors=True)
    shutil.copytree(base, tui_root)
    out["tui"] = tui = gauge.figure(f"{label}: `i` onto the sample",
                                    lambda: tui_import(tui_root, path, total))
    _repeat_browsable(tui, repeats, lambda: _fresh_copy(base, work / "again"),
                      lambda again: gauge.figure(
                          f"{label}: `i` onto the sample, to browsable",
                          lambda: tui_import(again, path, total, browsable_only=True)))
    log(f"{label}: TUI import onto the sample {out['tui']}")
    directory = work / f"whoosh2-real-{label}"
    shutil.rmtree(directory, ignore_errors=True)
    out["whoosh_procs2"] = gauge.figure(
        f"{label}: bare Whoosh procs=2",
        lambda: {"searchable": import_whoosh(path, directory, 2)})
    shutil.rmtree(directory, ignore_errors=True)
    fts_db = work / f"fts5-real-{label}.db"
    fts_db.unlink(missing_ok=True)
    fts, conditions = gauge.take(f"{label}: SQLite FTS5", lambda: import_fts5(path, fts_db))
    out["fts5"] = {"browsable": fts, "searchable": fts, "conditions": asdict(conditions)}
    log(f"{label}: whoosh procs=2 {out['whoosh_procs2']}, fts5 {out['fts5']}")
    return out


# -- queries ---------------------------------------------------------------------------------


def percentiles(samples: list[float]) -> dict[str, float]:
    """p50 and p95 in milliseconds."""
    if not samples:
        return {}
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1)]
    return {"p50": statistics.median(ordered) * 1000, "p95": p95 * 1000, "n": len(ordered)}


def query_times(root: Path, fts_db: Path, repeats: int = 5) -> dict[str, dict]:
    """Each query ``repeats`` times (after one warm-up) on each search path."""
    library = Library(root)
    ix = whoosh_index.open_dir(str(library.paths.index))
    searcher = ix.searcher()
    parser = MultifieldParser(list(SEARCH_FIELDS), ix.schema, fieldboosts=FIELD_BOOSTS)
    parser.add_plugin(FuzzyTermPlugin())
    conn = sqlite3.connect(fts_db)
    times: dict[str, list[float]] = {"reader": [], "whoosh": [], "fts5": []}
    counts = {}

    def bare(text: str, parser: MultifieldParser = parser) -> list[int]:
        query = parser.parse(text.replace(" is:starred", ""))
        if "is:starred" in text:
            query = And([query, Term("flags", "starred")])
        return [int(hit["id"]) for hit in searcher.search(query, limit=None)]

    def fts(text: str, starred: bool) -> list[int]:
        sql = (
            "SELECT rowid FROM papers WHERE papers MATCH ? "
            + ("AND starred = 1 " if starred else "")
            + "ORDER BY bm25(papers, 3.0, 1.0, 1.5, 1.2, 1.0)"
        )
        return [r[0] for r in conn.execute(sql, (text,))]

    for kind, text, fts_text in QUERIES:
        jobs: list[tuple[str, Callable[[], object]]] = [
            ("reader", lambda t=text: library.search(t).ids),
            ("whoosh", lambda t=text: bare(t)),
        ]
        if fts_text is not None:
            jobs.append(("fts5", lambda t=fts_text, k=kind: fts(t, k == "filter")))
        for name, job in jobs:
            found = job()  # warm-up
            counts.setdefault(text, {})[name] = len(found)  # type: ignore[arg-type]
            for _ in range(repeats):
                times[name].append(timed(job))
    searcher.close()
    ix.close()
    library.close()
    conn.close()
    return {"latency": {k: percentiles(v) for k, v in times.items()}, "matches": counts}


# -- the TUI on a pseudo-terminal ------------------------------------------------------------

_ESCAPES = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[PX^_][^\x1b]*\x1b\\|\x1b."
)


class Terminal:
    """A program on a pseudo-terminal, with the text it has written (escapes removed)."""

    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        self.master, slave = pty.openpty()
        ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", SCREEN[1], SCREEN[0], 0, 0))
        self.started = time.perf_counter()
        self.proc = subprocess.Popen(
            argv, stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True,
            close_fds=True,
        )
        os.close(slave)
        self.text = ""
        self._tail = b""

    def pump(self, timeout: float) -> bool:
        """Read what the program wrote within ``timeout`` seconds; False if nothing."""
        ready, _, _ = select.select([self.master], [], [], timeout)
        if not ready:
            return False
        try:
            data = os.read(self.master, 1 << 16)
        except OSError:
            return False
        raw = self._tail + data
        # Keep an unfinished escape sequence for the next read.
        cut = raw.rfind(b"\x1b")
        if cut != -1 and len(raw) - cut < 64 and not re.search(rb"[@-~]", raw[cut + 2:]):
            raw, self._tail = raw[:cut], raw[cut:]
        else:
            self._tail = b""
        self.text += _ESCAPES.sub("", raw.decode("utf-8", "replace"))
        return True

    def wait_for(self, needle: str, timeout: float, since: int = 0) -> float | None:
        """Seconds (perf_counter) at which ``needle`` appeared after offset ``since``."""
        deadline = time.perf_counter() + timeout
        while time.perf_counter() < deadline:
            if needle in self.text[since:]:
                return time.perf_counter()
            self.pump(0.005)
        return time.perf_counter() if needle in self.text[since:] else None

    def settle(self, quiet: float = 0.15, timeout: float = 10.0,
               watch: Callable[[], object] | None = None) -> None:
        """Wait until the program has written nothing for ``quiet`` seconds; ``watch`` is
        called after each read (a screen that keeps changing is watched while waited on)."""
        deadline = time.perf_counter() + timeout
        last = time.perf_counter()
        while time.perf_counter() < deadline:
            if self.pump(0.01):
                last = time.perf_counter()
                if watch is not None:
                    watch()
            elif time.perf_counter() - last >= quiet:
                return

    def send(self, keys: str) -> float:
        """Type ``keys``; returns when."""
        os.write(self.master, keys.encode("utf-8"))
        return time.perf_counter()

    def cpu_seconds(self) -> float:
        """CPU time of all the program's threads so far (nanosecond schedstat counters)."""
        total = 0
        with contextlib.suppress(FileNotFoundError):
            for task in os.listdir(f"/proc/{self.proc.pid}/task"):
                with contextlib.suppress(OSError):
                    with open(f"/proc/{self.proc.pid}/task/{task}/schedstat") as fh:
                        total += int(fh.read().split()[0])
        return total / 1e9

    def peak_rss_mb(self) -> float:
        """The program's peak resident set so far (file pages mapped count too)."""
        return self._status_mb("VmHWM:")

    def anon_rss_mb(self) -> float:
        """The program's own memory now: its resident set less the file pages mapped (the
        start-up check maps the database for its walk, which the peak counts)."""
        return self._status_mb("RssAnon:")

    def _status_mb(self, key: str) -> float:
        with open(f"/proc/{self.proc.pid}/status") as fh:
            for line in fh:
                if line.startswith(key):
                    return int(line.split()[1]) / 1024
        return float("nan")

    def close(self) -> None:
        """Stop the program."""
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        os.close(self.master)


def cpu_per_key(term: Terminal, key: str, presses: int) -> list[float]:
    """CPU seconds the program spends on each of ``presses`` presses of ``key``."""
    out = []
    for _ in range(presses):
        term.settle(quiet=0.03, timeout=2.0)
        before = term.cpu_seconds()
        term.send(key)
        term.pump(0.05)
        term.settle(quiet=0.03, timeout=2.0)
        out.append(term.cpu_seconds() - before)
    return out


def type_and_watch(
    term: Terminal, text: str, gap: float, done: str, first: str
) -> dict[str, float]:
    """Type ``text`` a key every ``gap`` seconds; echo latency of each key, the time from
    the last key until ``first`` (the top result) is drawn, and until ``done`` is on screen."""
    echoes = []
    mark = len(term.text)
    for n in range(1, len(text) + 1):
        mark = len(term.text)
        sent = term.send(text[n - 1])
        # The box shows what was typed so far (the space shows as part of the next word).
        echoed = term.wait_for(text[:n].rstrip()[-12:], timeout=5.0, since=mark)
        if echoed is not None:
            echoes.append(echoed - sent)
        rest = gap - (time.perf_counter() - sent)
        if rest > 0:
            term.settle(quiet=rest, timeout=rest)
    last = sent
    # Drawn after the last key was sent: a row already on screen before doesn't count.
    top = term.wait_for(first, timeout=120.0, since=mark)
    shown = term.wait_for(done, timeout=120.0, since=0)
    return {
        "echo_p50_ms": statistics.median(echoes) * 1000 if echoes else float("nan"),
        "echo_max_ms": max(echoes) * 1000 if echoes else float("nan"),
        "first_screen_ms": (top - last) * 1000 if top is not None else float("nan"),
        "results_ms": (shown - last) * 1000 if shown is not None else float("nan"),
    }


#: What the installed ``reader`` command runs: its entry point, called from a script as the
#: trivial app is, not through ``python -m`` (whose runpy the command never loads).
_COMMAND = "import sys; from reader.entry import main; sys.exit(main())"


def reader_argv(root: Path) -> tuple[list[str], dict[str, str]]:
    """How to start the reader on a library: as the ``reader`` command does."""
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": str(SCREEN[0]),
           "LINES": str(SCREEN[1]), "TEXTUAL_ANIMATIONS": "none"}
    return [sys.executable, "-c", _COMMAND, "--library", str(root)], env


_MARKUP = re.compile(r"[$\\{}^_*`]")


def needle(title: str) -> str:
    """A piece of a title that is on screen as stored: its first 24 characters, or where
    LaTeX or Markdown comes early (and is drawn otherwise), the longest plain run of the
    first 40 (a list row shows about that much)."""
    head = " ".join(title.split())[:40]
    if not _MARKUP.search(head[:24]):
        return head[:24]
    return max(_MARKUP.split(head), key=len).strip()[:24]


def first_titles(root: Path, count: int) -> list[str]:
    """The titles of the first papers in browsing order."""
    library = Library(root)
    try:
        ids = library.store.all_ids()[:count]
        return [p.title for p in library.store.papers(ids)]
    finally:
        library.close()


def open_on_the_library(root: Path) -> None:
    """Leave the library as its import does: a start then opens on all of it, at the top.
    The window opens where the last one left (the query typed, the paper the cursor ended
    on): after a run of this benchmark, on the query its typing left, and a start timed
    then timed a search too."""
    from reader.ui.features.views import PAPER_KEY, QUERY_KEY, SORT_KEY

    library = Library(root)
    try:
        for key in (QUERY_KEY, PAPER_KEY, SORT_KEY):
            library.queries.set_meta(key, "")
    finally:
        library.close()


#: Starts timed to first paint after the first one (which follows the import), and as
#: many of the trivial app's. Twenty-five: the machine's speed swings by half within a
#: minute here; seven rounds gave a ratio anywhere from 1.2 to 1.7 for the same code, and
#: fifteen 1.19 and 1.34 at 1,000 papers, minutes apart.
PAINT_STARTS = 25

#: The least a Textual app costs to start: first paint is compared with it, in the same run.
TRIVIAL_APP = """\
from textual.app import App
from textual.widgets import Static


class Trivial(App):
    def compose(self):
        yield Static("a trivial Textual app")


Trivial().run()
"""


def first_paints(argv: list[str], env: dict[str, str], title: str, starts: int) -> list[float]:
    """Seconds from start until ``title`` is on screen, for ``starts`` starts in a row. The
    first follows the import and the index build, which have pushed much of the library out
    of the page cache; the others are how a library is usually opened, its files cached."""
    out = []
    for _ in range(starts):
        term = Terminal(argv, env)
        try:
            painted = term.wait_for(title, timeout=60.0)
            out.append((painted - term.started) if painted else float("nan"))
            term.settle(quiet=0.3, timeout=10.0)
        finally:
            term.close()
    return out


def trivial_paints(work: Path, starts: int) -> list[float]:
    """First paint of a trivial Textual app, started as the reader is."""
    script = work / "trivial_app.py"
    script.write_text(TRIVIAL_APP, encoding="utf-8")
    _, env = reader_argv(work)
    return first_paints([sys.executable, str(script)], env, "a trivial Textual app", starts)


def measure_tui(root: Path, presses: int) -> dict[str, object]:
    """First paint, j, search-as-you-type and peak RSS of reader on a library."""
    # Compiled as `pip install .` compiles it: a checkout run where Python may not write
    # bytecode (PYTHONDONTWRITEBYTECODE) would otherwise compile reader on every start,
    # while Textual, installed, starts compiled.
    compileall.compile_dir(REPO / "reader", quiet=1)
    open_on_the_library(root)
    titles = first_titles(root, 1)
    argv, env = reader_argv(root)
    # The first start, then the reader and the trivial app in turn: the machine's speed
    # drifts within minutes here, and each pair sees the same machine. The ratio is the
    # median of each pair's: a slow minute slows both of a pair, not one of two medians.
    paints = first_paints(argv, env, needle(titles[0]), 1)
    trivial: list[float] = []
    for _ in range(PAINT_STARTS):
        paints += first_paints(argv, env, needle(titles[0]), 1)
        trivial += trivial_paints(root.parent, 1)
    pairs = [ours / theirs for ours, theirs in zip(paints[1:], trivial, strict=True)]
    term = Terminal(argv, env)
    try:
        term.wait_for(needle(titles[0]), timeout=60.0)
        term.settle(quiet=0.5, timeout=30.0)
        idle_before = term.cpu_seconds()
        time.sleep(1.0)
        idle_cpu = term.cpu_seconds() - idle_before
        keys = cpu_per_key(term, "j", presses)
        term.send("/")
        term.settle(quiet=0.2)
        library = Library(root)
        found = library.search(TYPED_QUERY).ids
        expected = len(found)
        top = needle(library.store.papers(found[:1])[0].title)
        library.close()
        noun = "match" if expected == 1 else "matches"
        typing = type_and_watch(term, TYPED_QUERY, 0.06, f"{expected:,} {noun}", top)
        term.settle(quiet=0.3)
        rss, anon = term.peak_rss_mb(), term.anon_rss_mb()
    finally:
        term.close()
    return {
        "first_paint_s": paints[0],
        "first_paint_median_s": statistics.median(paints[1:]),
        "first_paints_s": paints,
        "trivial_first_paint_median_s": statistics.median(trivial),
        "trivial_first_paints_s": trivial,
        "first_paint_vs_trivial": statistics.median(pairs),
        "first_paint_vs_trivial_pairs": pairs,
        "idle_cpu_ms_per_s": idle_cpu * 1000,
        "j_cpu_ms": {"p50": statistics.median(keys) * 1000,
                     "p95": sorted(keys)[math.ceil(0.95 * len(keys)) - 1] * 1000,
                     "n": len(keys)},
        "search_as_you_type": typing,
        "peak_rss_mb": rss,
        "anon_rss_mb": anon,
    }


# -- coBib -----------------------------------------------------------------------------------


def measure_cobib(cobib: str, bib: Path, home: Path, presses: int) -> dict[str, object]:
    """coBib: add the BibTeX (its import path), then first paint, j and RSS of its TUI."""
    home.mkdir(parents=True, exist_ok=True)
    config = home / "config.py"
    database = home / "literature.yaml"
    database.write_text("")
    config.write_text(
        "from cobib.config import config\n"
        f"config.database.file = {str(database)!r}\n"
        "config.database.git = False\n"
    )
    env = {**os.environ, "HOME": str(home), "TERM": "xterm-256color",
           "COLUMNS": str(SCREEN[0]), "LINES": str(SCREEN[1])}
    base = [cobib, "-c", str(config)]
    start = time.perf_counter()
    added = subprocess.run(
        [*base, "add", "-b", str(bib)], env=env, capture_output=True, text=True, timeout=3600
    )
    imported = time.perf_counter() - start
    if added.returncode != 0:
        return {"error": (added.stderr.strip().splitlines() or ["add failed"])[-1]}
    term = Terminal(base, env)
    try:
        painted = term.wait_for("bench1", timeout=600.0)
        first_paint = (painted - term.started) if painted else float("nan")
        term.settle(quiet=0.5, timeout=120.0)
        keys = cpu_per_key(term, "j", presses)
        rss = term.peak_rss_mb()
    finally:
        term.close()
    return {
        "import_s": imported,
        "first_paint_s": first_paint,
        "j_cpu_ms": {"p50": statistics.median(keys) * 1000,
                     "p95": sorted(keys)[math.ceil(0.95 * len(keys)) - 1] * 1000,
                     "n": len(keys)},
        "peak_rss_mb": rss,
    }


# -- the run ---------------------------------------------------------------------------------


@dataclass
class Run:
    """Every figure of one run, by size."""

    sizes: dict[str, dict[str, object]] = field(default_factory=dict)
    #: The real-shaped corpus imported onto the sample library, by size.
    real: dict[str, dict[str, object]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def run_size(label: str, count: int, pools: Pools, work: Path, args: argparse.Namespace,
             log: Callable[[str], None], gauge: Gauge) -> dict[str, object]:
    """All the measurements at one library size."""
    out: dict[str, object] = {"papers": count, "real": label in REAL}
    if label in REAL:
        path = write_real_corpus(count, work)
    else:
        path = write_corpus(pools, count, work)
    log(f"{label}: corpus written ({path.stat().st_size / 1e6:.0f} MB)")
    root = work / f"reader-{label}"
    shutil.rmtree(root, ignore_errors=True)
    out["reader"] = gauge.figure(f"{label}: reader import", lambda: import_reader(path, root))
    log(f"{label}: reader {out['reader']}")
    if args.tui_only:
        out["tui"] = gauge.figure(f"{label}: TUI", lambda: measure_tui(root, args.presses))
        log(f"{label}: tui {out['tui']}")
        return out
    db = work / f"sqlite-{label}.db"
    db.unlink(missing_ok=True)
    out["sqlite"] = gauge.figure(f"{label}: sqlite3 executemany",
                                 lambda: {"browsable": import_sqlite(path, db)})
    fts_db = work / f"fts5-{label}.db"
    fts_db.unlink(missing_ok=True)
    fts, conditions = gauge.take(f"{label}: SQLite FTS5", lambda: import_fts5(path, fts_db))
    out["fts5"] = {"browsable": fts, "searchable": fts, "conditions": asdict(conditions)}
    log(f"{label}: sqlite {out['sqlite']}, fts5 {out['fts5']}")
    if count <= SIZES[args.whoosh_max]:
        for procs in (1, 2):
            directory = work / f"whoosh{procs}-{label}"
            shutil.rmtree(directory, ignore_errors=True)
            out[f"whoosh_procs{procs}"] = gauge.figure(
                f"{label}: bare Whoosh procs={procs}",
                lambda directory=directory, procs=procs: {
                    "searchable": import_whoosh(path, directory, procs)})
            shutil.rmtree(directory, ignore_errors=True)
            log(f"{label}: whoosh procs={procs} {out[f'whoosh_procs{procs}']}")
    out["queries"] = gauge.figure(f"{label}: queries", lambda: query_times(root, fts_db))
    log(f"{label}: queries {out['queries']['latency']}")
    out["tui"] = gauge.figure(f"{label}: TUI", lambda: measure_tui(root, args.presses))
    log(f"{label}: tui {out['tui']}")
    if not args.skip_cobib and count <= SIZES[args.cobib_max]:
        cobib = args.cobib or shutil.which("cobib")
        if cobib is None:
            out["cobib"] = {"error": "no cobib executable (--cobib PATH)"}
        else:
            bib = write_bibtex(path, work / f"corpus-{count}.bib")
            home = work / f"cobib-{label}"
            shutil.rmtree(home, ignore_errors=True)
            try:
                out["cobib"] = gauge.figure(
                    f"{label}: coBib",
                    lambda: measure_cobib(cobib, bib, home, min(args.presses, 50)))
            except Exception as exc:  # noqa: BLE001 - a peer that fails is reported, not fatal
                out["cobib"] = {"error": f"{type(exc).__name__}: {exc}"}
        log(f"{label}: cobib {out['cobib']}")
    return out


def _quiet(data: object) -> bool:
    """Whether a figure's dict was taken under the load limit (a figure with no
    conditions, such as a ratio, is judged by the figures it is made of)."""
    conditions = data.get("conditions") if isinstance(data, dict) else None
    return not isinstance(conditions, dict) or bool(conditions.get("quiet", True))


def _cell(data: dict, keys: tuple[str, ...], unit: str) -> str:
    """A table cell: the figure, or why it is not a result."""
    value = _get(data, *keys)
    if value is not None and not _quiet(data.get(keys[0])):
        seen = _get(data, keys[0], "conditions", "load_before")
        return f"not a result (load {seen:.1f})" if isinstance(seen, float) else "not a result"
    return _fmt(value, unit)


def _fmt(value: object, unit: str = "") -> str:
    if isinstance(value, float):
        if math.isnan(value):
            return "—"
        if unit == "s":
            return f"{value:.2f} s" if value < 100 else f"{value:.0f} s"
        if unit == "ms":
            return f"{value:.1f} ms" if value < 100 else f"{value:.0f} ms"
        if unit == "MB":
            return f"{value:.0f} MB"
        if unit == "x":
            return f"{value:.2f}×"
    return "—" if value is None else str(value)


def _get(data: dict, *keys: str) -> object:
    for key in keys:
        if not isinstance(data, dict) or key not in data:
            return None
        data = data[key]
    return data


def table(run: Run) -> str:
    """The figures as one Markdown table, a row per measurement and a column per size."""
    labels = list(run.sizes)
    rows: list[tuple[str, tuple[str, ...], str]] = [
        ("import → browsable · reader", ("reader", "browsable"), "s"),
        ("import → browsable · sqlite3 executemany", ("sqlite", "browsable"), "s"),
        ("import → searchable · reader", ("reader", "searchable"), "s"),
        ("import → searchable · bare Whoosh procs=1", ("whoosh_procs1", "searchable"), "s"),
        ("import → searchable · bare Whoosh procs=2", ("whoosh_procs2", "searchable"), "s"),
        ("import → searchable · SQLite FTS5", ("fts5", "searchable"), "s"),
        ("import → searchable · reader ÷ Whoosh procs=2", ("ratio", "searchable"), "x"),
        ("query p50 · reader", ("queries", "latency", "reader", "p50"), "ms"),
        ("query p95 · reader", ("queries", "latency", "reader", "p95"), "ms"),
        ("query p50 · bare Whoosh, same index", ("queries", "latency", "whoosh", "p50"), "ms"),
        ("query p95 · bare Whoosh, same index", ("queries", "latency", "whoosh", "p95"), "ms"),
        ("query p50 · FTS5", ("queries", "latency", "fts5", "p50"), "ms"),
        ("query p95 · FTS5", ("queries", "latency", "fts5", "p95"), "ms"),
        ("query p95 · reader ÷ bare Whoosh", ("ratio", "query_p95"), "x"),
        ("TUI first paint, first start after the import · reader",
         ("tui", "first_paint_s"), "s"),
        (f"TUI first paint, median of the next {PAINT_STARTS} starts · reader",
         ("tui", "first_paint_median_s"), "s"),
        ("TUI first paint, median of as many starts · a trivial Textual app",
         ("tui", "trivial_first_paint_median_s"), "s"),
        ("TUI first paint · reader ÷ trivial Textual app, median of each pair's",
         ("tui", "first_paint_vs_trivial"), "x"),
        ("TUI `j` CPU per key p50 · reader", ("tui", "j_cpu_ms", "p50"), "ms"),
        ("TUI `j` CPU per key p95 · reader", ("tui", "j_cpu_ms", "p95"), "ms"),
        ("TUI last key → first screen of results · reader",
         ("tui", "search_as_you_type", "first_screen_ms"), "ms"),
        ("TUI last key → results and their count · reader",
         ("tui", "search_as_you_type", "results_ms"), "ms"),
        ("TUI key echo while searching p50 · reader",
         ("tui", "search_as_you_type", "echo_p50_ms"), "ms"),
        ("TUI key echo while searching max · reader",
         ("tui", "search_as_you_type", "echo_max_ms"), "ms"),
        ("peak RSS of the app · reader", ("tui", "peak_rss_mb"), "MB"),
        ("its own memory after the search (RssAnon) · reader", ("tui", "anon_rss_mb"), "MB"),
        ("import · coBib", ("cobib", "import_s"), "s"),
        ("TUI first paint · coBib", ("cobib", "first_paint_s"), "s"),
        ("TUI `j` CPU per key p50 · coBib", ("cobib", "j_cpu_ms", "p50"), "ms"),
        ("peak RSS · coBib", ("cobib", "peak_rss_mb"), "MB"),
    ]
    header = "| measurement | " + " | ".join(
        f"{run.sizes[label]['papers']:,}" + (" real" if run.sizes[label].get("real") else "")
        for label in labels
    ) + " |"
    lines = [header, "|---|" + "---:|" * len(labels)]
    for name, keys, unit in rows:
        cells = [_cell(run.sizes[label], keys, unit) for label in labels]
        if all(c == "—" for c in cells):
            continue
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def table_real(run: Run) -> str:
    """The real-shaped corpus's figures, a row per measurement and a column per size."""
    labels = list(run.real)
    rows: list[tuple[str, tuple[str, ...], str]] = [
        ("import onto the sample → browsable (median) · `reader import`",
         ("cli", "browsable"), "s"),
        ("import onto the sample → browsable, every run · `reader import`",
         ("cli", "browsable_range"), ""),
        ("import onto the sample → first results · `reader import`",
         ("cli", "first_results"), "s"),
        ("import onto the sample → searchable · `reader import`", ("cli", "searchable"), "s"),
        ("peak RSS · `reader import`", ("cli", "peak_rss_mb"), "MB"),
        ("import onto the sample → browsable (median) · reader (`i`)",
         ("tui", "browsable"), "s"),
        ("import onto the sample → browsable, every run · reader (`i`)",
         ("tui", "browsable_range"), ""),
        ("import onto the sample → first results · reader (`i`)",
         ("tui", "first_results"), "s"),
        ("import onto the sample → the index's first part published · reader (`i`)",
         ("tui", "first_published"), "s"),
        ("import onto the sample → searchable · reader (`i`)", ("tui", "searchable"), "s"),
        ("key echo during the import p50 · reader (`i`)", ("tui", "echo_p50_ms"), "ms"),
        ("key echo during the import max · reader (`i`)", ("tui", "echo_max_ms"), "ms"),
        ("peak RSS of the app · reader (`i`)", ("tui", "peak_rss_mb"), "MB"),
        ("peak RSS of the import process · reader (`i`)", ("tui", "peak_rss_helper_mb"), "MB"),
        ("the same file again · `reader import`", ("reimport_same", "seconds"), "s"),
        ("peak RSS · the same file again", ("reimport_same", "peak_rss_mb"), "MB"),
        ("the same papers as BibTeX · `reader import`", ("reimport_bibtex", "seconds"), "s"),
        ("peak RSS · the same papers as BibTeX", ("reimport_bibtex", "peak_rss_mb"), "MB"),
        ("the same papers as RIS · `reader import`", ("reimport_ris", "seconds"), "s"),
        ("peak RSS · the same papers as RIS", ("reimport_ris", "peak_rss_mb"), "MB"),
        ("the same papers as CSL-JSON · `reader import`", ("reimport_csljson", "seconds"), "s"),
        ("peak RSS · the same papers as CSL-JSON", ("reimport_csljson", "peak_rss_mb"), "MB"),
        ("searchable · bare Whoosh procs=2 (into an empty index)",
         ("whoosh_procs2", "searchable"), "s"),
        ("searchable · SQLite FTS5 (into an empty table)", ("fts5", "searchable"), "s"),
    ]
    header = "| real-shaped records | " + " | ".join(
        f"{run.real[label]['papers']:,}" for label in labels
    ) + " |"
    lines = [header, "|---|" + "---:|" * len(labels)]
    for name, keys, unit in rows:
        cells = [_cell(run.real[label], keys, unit) for label in labels]
        if all(c == "—" for c in cells):
            continue
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def add_ratios(data: dict) -> None:
    """The ratios the targets are stated in."""
    ratio: dict[str, float] = {}
    whoosh2 = _get(data, "whoosh_procs2", "searchable")
    if isinstance(whoosh2, float):
        ratio["searchable"] = data["reader"]["searchable"] / whoosh2
    reader_p95 = _get(data, "queries", "latency", "reader", "p95")
    bare_p95 = _get(data, "queries", "latency", "whoosh", "p95")
    if isinstance(reader_p95, float) and isinstance(bare_p95, float):
        ratio["query_p95"] = reader_p95 / bare_p95
    data["ratio"] = ratio


def main() -> None:
    """Parse the options, run every size, print the table and write the JSON."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1k,20k,200k",
                        help="of 1k, 20k, 200k, and real (19,630 whole real records)")
    parser.add_argument("--json", type=Path, default=Path("benchmark.json"))
    parser.add_argument("--workdir", type=Path, help="keep corpora and libraries here")
    parser.add_argument("--presses", type=int, default=200, help="j presses per size")
    parser.add_argument("--whoosh-max", default="20k", choices=list(SIZES),
                        help="largest size for the bare Whoosh builds (200k takes ~10 min)")
    parser.add_argument("--onto-sample", default="19.6k",
                        help="sizes of the real-record corpus imported onto the sample "
                        "library, again, and as BibTeX: 1k, 19.6k ('' for none)")
    parser.add_argument("--repeats", type=int, default=3,
                        help="runs of each import onto the sample to the browsable mark "
                        "(the median is shown)")
    parser.add_argument("--skip-cobib", action="store_true")
    parser.add_argument("--settle", type=float, default=180.0,
                        help="seconds to wait, at most, for the load to fall under 1.5 per "
                        "core before each figure")
    parser.add_argument("--tui-only", action="store_true",
                        help="import with reader, then measure its TUI only")
    parser.add_argument("--cobib", help="the cobib executable (default: on PATH)")
    parser.add_argument("--cobib-max", default="20k", choices=list(SIZES),
                        help="largest size to try coBib at")
    args = parser.parse_args()
    labels = [s.strip() for s in args.sizes.split(",") if s.strip()]
    onto = [s.strip() for s in args.onto_sample.split(",") if s.strip()]
    unknown = [s for s in labels if s not in SIZES] + [s for s in onto if s not in ONTO_SAMPLE]
    if unknown:
        parser.error(f"unknown size {', '.join(unknown)} (known: {', '.join(SIZES)})")

    def log(message: str) -> None:
        print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)

    pools = load_pools(SAMPLE)
    gauge = Gauge(log, settle=args.settle)
    log(f"{gauge.limit:.1f} is the load limit ({os.cpu_count()} cores); load now {load():.2f}")
    run = Run()
    began = time.perf_counter()
    with contextlib.ExitStack() as stack:
        work = args.workdir or Path(stack.enter_context(tempfile.TemporaryDirectory()))
        work.mkdir(parents=True, exist_ok=True)
        for label in onto:
            run.real[label] = run_real(label, ONTO_SAMPLE[label], work, log, gauge,
                                       args.repeats)
        for label in labels:
            data = run_size(label, SIZES[label], pools, work, args, log, gauge)
            add_ratios(data)
            run.sizes[label] = data
    after = os.getloadavg()
    result = {
        "machine": {"cores": os.cpu_count(), "python": platform.python_version(),
                    "sqlite": sqlite3.sqlite_version, "platform": platform.platform(),
                    "load_average_after": after, "load_limit": gauge.limit},
        "figures": [asdict(each) for each in gauge.taken],
        "total_seconds": time.perf_counter() - began,
        "sizes": run.sizes,
        "onto_sample": run.real,
    }
    args.json.write_text(json.dumps(result, indent=2, default=str))
    if run.real:
        print(table_real(run) + "\n")
    if run.sizes:
        print(table(run))
    print("\n" + gauge.table())
    if not gauge.all_quiet():
        print("\nSome figures were taken over the load limit: they are not results. "
              "Run again on a quiet machine.")
    print(
        f"\n{os.cpu_count()} cores · load average after the run {after[0]:.2f} · "
        f"{result['total_seconds'] / 60:.1f} min · JSON in {args.json}"
    )


if __name__ == "__main__":
    main()
