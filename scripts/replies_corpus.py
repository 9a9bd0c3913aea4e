"""A conference with all its replies, at any size: the shared 400-paper OpenReview sample
(ICLR 2026 submissions, each with its reviews, comments and decision notes) resampled.

Paper ``i`` is a copy of sample record ``i mod 400``; copies after the first get new note
ids (the paper's, and every reply's, with ``forum`` and ``replyto`` following them) and a
title marked with the copy's number, so each is a paper of its own to reader. The whole
ICLR 2026 list is 19,630 submissions with 76,816 reviews and 240 MB of review text; this
corpus at that size has the sample's proportions (about 4 replies a paper, edited reviews
included). Any prefix of a longer corpus is the shorter one.

    python scripts/replies_corpus.py 19630 replies-19630.jsonl
    python scripts/replies_corpus.py 20000 reviews.jsonl.gz   # gzipped: about 100 MB

The second is a whole conference's reviews file as a user would download it (the shape
``scripts/measure_import_memory.py`` measures an import's memory on).
"""

from __future__ import annotations

import copy
import gzip
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
SAMPLE = REPO.parent / "shared" / "data" / "openreview" / "iclr2026-with-reviews-400.jsonl.gz"


def load_sample(sample: Path = SAMPLE) -> list[dict[str, Any]]:
    """The sample's records, as read."""
    if not sample.exists():
        sys.exit(f"replies corpus: the OpenReview sample is missing: {sample}")
    with gzip.open(sample, "rt", encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def _renamed(note_id: str, copy_number: int) -> str:
    return f"{note_id}x{copy_number}" if copy_number else note_id


def corpus(records: list[dict[str, Any]], count: int) -> Iterator[dict[str, Any]]:
    """``count`` papers with their replies, copies of ``records`` under new ids."""
    for i in range(count):
        source = records[i % len(records)]
        number = i // len(records)
        if not number:
            yield source
            continue
        record = copy.deepcopy(source)
        replies = record.get("replies") or []
        ids = {note["id"]: _renamed(note["id"], number) for note in [record, *replies]}
        record["id"] = ids[record["id"]]
        if "forum" in record:
            record["forum"] = record["id"]
        for reply in replies:
            reply["id"] = ids[reply["id"]]
            reply["forum"] = record["id"]
            if reply.get("replyto") in ids:
                reply["replyto"] = ids[reply["replyto"]]
        title = record.get("content", {}).get("title")
        if isinstance(title, dict) and isinstance(title.get("value"), str):
            title["value"] = f"{title['value']} (copy {number})"
        yield record


def text_bytes(record: dict[str, Any]) -> int:
    """The UTF-8 bytes of every string a record holds (its content and its replies'): the
    text a library of it stores."""
    total = 0
    stack: list[Any] = [record]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            total += len(item.encode("utf-8"))
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return total


def write_corpus(count: int, out: Path) -> tuple[Path, int, int]:
    """Write the corpus as JSON lines; return the path, the replies and the text bytes."""
    replies = text = 0
    opened = (gzip.open(out, "wt", encoding="utf-8") if out.suffix == ".gz"
              else out.open("w", encoding="utf-8"))
    with opened as fh:
        for record in corpus(load_sample(), count):
            replies += len(record.get("replies") or [])
            text += text_bytes(record)
            fh.write(json.dumps(record, ensure_ascii=False) + "\n")
    return out, replies, text


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    path, replies, text = write_corpus(int(sys.argv[1]), Path(sys.argv[2]))
    print(f"{path}: {int(sys.argv[1]):,} papers, {replies:,} replies, "
          f"{text / 1e6:.0f} MB of text")
