"""Measure how similar revised and distinct abstracts are, to justify the merge threshold.

Compares each seed abstract with every abstract of the OpenReview sample (rapidfuzz ratio on
normalised abstracts): the best match of a seed paper is its own record (revised or not); the
second best is a distinct paper. Run: ``python scripts/measure_merge_threshold.py``.
"""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path

from rapidfuzz import fuzz, process

from reader.sources.seed import records
from reader.text.sanitize import clean_imported, normalize_for_identity

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"


def value(field: object) -> str:
    """A content field in either OpenReview API shape."""
    if isinstance(field, dict):
        field = field.get("value")
    return field if isinstance(field, str) else ""


def main() -> None:
    """Print best and second-best similarities of each seed abstract."""
    seeds = []
    for path in sorted((DATA / "seeds").glob("*.txt")):
        seeds += [r.abstract for r in records(path.read_text(encoding="utf-8"), path.name)]
    with gzip.open(DATA / "iclr2026" / "submissions-sample.jsonl.gz", "rt") as fh:
        submissions = [json.loads(line) for line in fh if line.strip()]
    corpus = [normalize_for_identity(clean_imported(value(r["content"].get("abstract"))))
              for r in submissions]
    best, second = [], []
    for abstract in seeds:
        query = normalize_for_identity(abstract)
        top = process.extract(query, corpus, scorer=fuzz.ratio, limit=2)
        best.append(top[0][1])
        second.append(top[1][1])
    matched = [b for b in best if b >= 80]
    print(f"seed papers with a record in the sample: {len(matched)} of {len(seeds)}")
    print(f"their similarity: min {min(matched):.1f}, max {max(matched):.1f}")
    print(f"best distinct paper, any seed: max {max(second):.1f}")
    # Distinct papers of the sample against each other: the closest non-identical pair.
    sample = corpus[:600]
    closest = 0.0
    for i, text in enumerate(sample):
        hits = process.extract(text, sample[i + 1 :], scorer=fuzz.ratio, limit=1)
        if hits and hits[0][1] < 100:
            closest = max(closest, hits[0][1])
    print(f"closest pair of distinct sample abstracts (first 600): {closest:.1f}")
    sys.exit(0)


if __name__ == "__main__":
    main()
