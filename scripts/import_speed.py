"""Time an import at conference scale: 19,630 OpenReview records until browsable.

Builds the corpus by resampling the shared ICLR 2026 sample (ids and abstracts made unique),
imports it into a new library the way ``reader import`` does, and prints the time until the
papers are in the database (browsable) and until the search index has them.

Run: ``python scripts/import_speed.py [N]``.
"""

from __future__ import annotations

import gzip
import json
import sys
import tempfile
import time
from pathlib import Path

from reader.library import Library

SAMPLE = Path(__file__).resolve().parents[2] / "shared/data/iclr2026/submissions-sample.jsonl.gz"


def build_corpus(path: Path, count: int) -> None:
    """Write ``count`` OpenReview records resampled from the sample."""
    with gzip.open(SAMPLE, "rt", encoding="utf-8") as fh:
        rows = [json.loads(line) for line in fh if line.strip()]
    with path.open("w", encoding="utf-8") as out:
        for i in range(count):
            row = json.loads(json.dumps(rows[i % len(rows)]))
            round_ = i // len(rows)
            if round_:
                row["id"] = f"{row['id']}{round_}"
                content = row["content"]
                for key in ("abstract", "title"):
                    field = content.get(key)
                    if isinstance(field, dict):
                        field["value"] = f"{field.get('value', '')} (resample {round_})"
                    elif isinstance(field, str):
                        content[key] = f"{field} (resample {round_})"
            out.write(json.dumps(row) + "\n")


def main() -> None:
    """Build the corpus, import it, print the figures."""
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 19_630
    with tempfile.TemporaryDirectory() as tmp:
        corpus = Path(tmp) / "submissions.jsonl"
        build_corpus(corpus, count)
        library = Library(Path(tmp) / "library")
        start = time.perf_counter()
        summary = library.import_files([corpus], sync=False)
        browsable = time.perf_counter() - start
        library.sync_index()
        searchable = time.perf_counter() - start
        print(summary)
        print(f"{count:,} records: browsable after {browsable:.2f} s, "
              f"searchable after {searchable:.1f} s")
        library.close()


if __name__ == "__main__":
    main()
