"""Peak memory of one ``reader import``, its own and that of every process it starts.

Run from the repository root::

    python scripts/measure_import_memory.py FILE [FILE …]
    python scripts/measure_import_memory.py --bombs DIR      # write the bombs, measure them

The bombs are the hostile files an attack used: gzip files of a few MB that unpack to a
JSON record with a 1 GB abstract, to ``[`` + 1 GB of spaces + ``]``, and to an abstract list
with a 1 GB paragraph; and a .bib of 10,000 nested braces.

Each file is imported into a fresh library in a temporary directory by ``reader import``.
Printed per file: the wall time, the CPU time of the import and every process it started
(reaped), the largest peak of any one of them (the kernel's high-water mark, as
``/usr/bin/time -v`` reports it), the largest sum of the resident memory of the whole tree
seen at any moment (sampled every 50 ms: a short peak between two looks is missed; the
import's own first, then the processes it started), the
load average before and after, and the import's last line of output.
"""

from __future__ import annotations

import gzip
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MB = 1 << 20


def _tree(pid: int) -> list[int]:
    """A process and every process it started, now (Linux /proc)."""
    found = [pid]
    for task in os.listdir(f"/proc/{pid}/task") if os.path.isdir(f"/proc/{pid}/task") else []:
        try:
            with open(f"/proc/{pid}/task/{task}/children") as fh:
                for child in map(int, fh.read().split()):
                    found += _tree(child)
        except OSError:
            continue
    return found


def _rss_mb(pid: int) -> float:
    """A process's resident memory now, in MB (0 once it is gone)."""
    try:
        with open(f"/proc/{pid}/status") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def measure(path: Path) -> None:
    """Import ``path`` into a fresh library and print what it cost."""
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as scratch, open(Path(scratch) / "out", "w+") as out:
        started = time.perf_counter()
        proc = subprocess.Popen(
            [sys.executable, "-m", "reader", "--library", str(Path(scratch) / "lib"),
             "import", str(path)],
            cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, text=True,
        )
        summed, parts = 0.0, ""
        while True:
            # Its rusage once it ends: its own and that of every process it reaped.
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            sizes = [_rss_mb(p) for p in _tree(proc.pid)]
            if sum(sizes) > summed:
                summed, parts = sum(sizes), " + ".join(f"{s:.0f}" for s in sizes)
            time.sleep(0.05)
        proc.returncode = os.waitstatus_to_exitcode(status)
        wall = time.perf_counter() - started
        out.seek(0)
        output = out.read()
    load_after = os.getloadavg()
    last = [line for line in output.splitlines() if "read:" in line or "Error" in line]
    print(f"{path.name}: wall {wall:.1f} s, CPU {usage.ru_utime + usage.ru_stime:.1f} s, "
          f"peak of one process {usage.ru_maxrss / 1024:.0f} MB, peak of all at once "
          f"{summed:.0f} MB ({parts}), load {load_before[0]:.2f} -> {load_after[0]:.2f}; "
          f"exit {proc.returncode}: {last[-1] if last else output.strip()[-200:]}",
          flush=True)


def _gzip_of(path: Path, head: bytes, unit: bytes, size: int, tail: bytes) -> Path:
    """A gzip file of ``head``, ``unit`` repeated to ``size`` bytes, and ``tail``."""
    block = (unit * (MB // len(unit) + 1))[:MB]
    with gzip.open(path, "wb", compresslevel=6) as out:
        out.write(head)
        for _ in range(size // MB):
            out.write(block)
        out.write(tail)
    return path


def make_bombs(folder: Path) -> list[Path]:
    """Write the bombs into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    gb = 1 << 30
    braces = folder / "braces.bib"
    braces.write_text("@article{deep, title = {" + "{" * 10_000 + "x" + "}" * 10_000 + "}}\n")
    return [
        _gzip_of(folder / "abstract.jsonl.gz",
                 b'{"id": "bomb000001", "content": {"title": "t", "abstract": "', b"a", gb,
                 b'"}}\n'),
        _gzip_of(folder / "spaces.json.gz", b"[", b" ", gb, b"]"),
        _gzip_of(folder / "paragraph.txt.gz", b"ICLR 2026\n\n",
                 b"sparse words go on and on without an end\n", gb, b"\n"),
        braces,
    ]


def main() -> None:
    """Measure each file named, or the bombs."""
    names = sys.argv[1:]
    if names[:1] == ["--bombs"]:
        paths = make_bombs(Path(names[1]))
    else:
        paths = [Path(name) for name in names]
    for path in paths:
        measure(path)


if __name__ == "__main__":
    main()
