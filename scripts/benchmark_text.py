"""Time reader's text work against its targets: rendering abstracts, deriving titles, and
refusing files built to be slow.

The tests check that these give the right answer; how fast they give it is measured here,
so that a busy machine never fails a test. From the repository root:

    python scripts/benchmark_text.py            # a table; exit status 1 if a target is missed
    python scripts/benchmark_text.py --json text.json
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from reader.sources import ImportFormatError, arxiv_atom, bibtex  # noqa: E402
from reader.text.render import render  # noqa: E402
from reader.text.titles import derive_title  # noqa: E402

SAMPLES = sorted((ROOT / "reader" / "sample").glob("*.txt"))
CYCLE = ROOT / "tests" / "data" / "bibtexparser-crossref_cascading_cycle.bib"


def abstract_with(needle: str) -> str:
    """The one bundled sample abstract that contains ``needle``."""
    for path in SAMPLES:
        _header, _, body = path.read_text(encoding="utf-8").partition("\n")
        for paragraph in re.split(r"\n\s*\n", body):
            if needle in paragraph:
                return paragraph.strip()
    raise LookupError(needle)


def seconds(job: Callable[[], object]) -> float:
    """Wall time of one call."""
    began = time.perf_counter()
    job()
    return time.perf_counter() - began


def typical_latex_abstract() -> float:
    """Median time to render a 2,000-character abstract full of LaTeX and Markdown."""
    base = abstract_with(r"\tool")
    extra = r" with $\alpha_i^{2}$, \emph{emphasis}, **bold**, 5\% and Schr\"odinger---done."
    source = (base + extra * 4)[:2_000]
    # Distinct strings, so that the cache does not help.
    return statistics.median(seconds(lambda i=i: render(source + f" {i}")) for i in range(30))


def megabyte_abstract() -> float:
    """Time to render a megabyte of abstract text."""
    paragraph = abstract_with(r"\tool")
    big = "\n\n".join([paragraph] * (1_000_000 // len(paragraph) + 1))
    return seconds(lambda: render(big))


def title_from_five_megabytes() -> float:
    """Time to derive titles from two 5 MB abstracts (one of words, one without a space)."""
    huge = "We introduce FooNet, a model for bar. " + "lorem ipsum dolor sit amet " * 200_000
    return seconds(lambda: (derive_title(huge), derive_title("x" * 5_000_000)))


def crossref_cycle() -> float:
    """Time to read a BibTeX file whose crossrefs form a cycle."""
    text = CYCLE.read_text(encoding="utf-8")
    return seconds(lambda: bibtex.parse(text, CYCLE.name))


def billion_laughs() -> float:
    """Time to refuse an Atom feed whose entities would expand to a billion characters."""
    entities = "".join(
        f' <!ENTITY lol{i} "{("&lol" + str(i - 1) + ";") * 10 if i > 1 else "&lol;" * 10}">\n'
        for i in range(1, 10)
    )
    laughs = (
        '<?xml version="1.0"?>\n<!DOCTYPE lolz [\n <!ENTITY lol "lol">\n' + entities
        + ']>\n<feed xmlns="http://www.w3.org/2005/Atom"><title>&lol9;</title></feed>\n'
    )

    def refuse() -> None:
        try:
            arxiv_atom.parse(laughs, "laughs.xml")
        except ImportFormatError:
            return
        raise AssertionError("the feed was read")

    return seconds(refuse)


#: (name, measurement, target in seconds)
MEASUREMENTS: list[tuple[str, Callable[[], float], float]] = [
    ("render a typical LaTeX abstract (median)", typical_latex_abstract, 0.005),
    ("render a 1 MB abstract", megabyte_abstract, 10.0),
    ("derive titles from 5 MB abstracts", title_from_five_megabytes, 2.0),
    ("read a BibTeX crossref cycle", crossref_cycle, 2.0),
    ("refuse a billion-laughs Atom feed", billion_laughs, 1.0),
]


def main() -> None:
    """Measure each, print a table, write JSON if asked; exit 1 if a target is missed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    results = {}
    missed = False
    for name, measure, target in MEASUREMENTS:
        value = measure()
        ok = value <= target
        missed |= not ok
        results[name] = {"seconds": value, "target": target, "ok": ok}
        print(f"{name:<42} {value * 1000:>10.1f} ms   target {target * 1000:>8.0f} ms   "
              f"{'ok' if ok else 'MISSED'}")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    sys.exit(1 if missed else 0)


if __name__ == "__main__":
    main()
