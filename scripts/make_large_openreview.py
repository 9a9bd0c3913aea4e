"""Write a large OpenReview file with replies, of the real shape, from a small real one.

Run from the repository root::

    python scripts/make_large_openreview.py OUT.jsonl.gz [--copies 50] [--source FILE]

Each record of the source (by default the shared ICLR 2026 file of 400 papers with their
1,666 replies) is written ``--copies`` times, each copy a paper of its own: its id, its
replies' ids and the forum and reply-to ids they name are suffixed with the copy's number,
and its title and abstract end with it, so that no copy is taken for another. 50 copies
make about 20,000 papers with 83,000 replies: about 100 MB gzipped, 370 MB unpacked, the
size of a whole conference's reviews. The output is gzipped when its name ends in ``.gz``.
"""

from __future__ import annotations

import argparse
import gzip
import json
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT.parent / "shared" / "data" / "openreview" / "iclr2026-with-reviews-400.jsonl.gz"


def _open(path: Path, mode: str) -> IO[str]:
    if path.suffix == ".gz":
        return gzip.open(path, mode + "t", encoding="utf-8")  # type: ignore[return-value]
    return path.open(mode, encoding="utf-8")


def _suffixed(value: Any, suffix: str) -> Any:
    """An id with the copy's suffix (kept within OpenReview's id length)."""
    return f"{value[:16]}{suffix}" if isinstance(value, str) and value else value


def copy_of(record: dict[str, Any], copy: int) -> dict[str, Any]:
    """The ``copy``-th copy of a paper record, with its replies."""
    suffix = f"x{copy:03d}"
    out = dict(record)
    out["id"] = _suffixed(record.get("id"), suffix)
    if isinstance(record.get("number"), int):
        out["number"] = record["number"] * 1000 + copy
    content = dict(record.get("content") or {})
    for key in ("title", "abstract"):
        value = content.get(key)
        wrapped = isinstance(value, dict)
        text = value.get("value") if wrapped else value
        if isinstance(text, str) and text:
            text = f"{text} (copy {copy})"
            content[key] = {**value, "value": text} if wrapped else text
    out["content"] = content
    replies = []
    for reply in record.get("replies") or []:
        reply = dict(reply)
        for key in ("id", "forum", "replyto"):
            reply[key] = _suffixed(reply.get(key), suffix)
        replies.append(reply)
    out["replies"] = replies
    return out


def main() -> None:
    """Write the file."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--copies", type=int, default=50)
    parser.add_argument("--source", type=Path, default=SOURCE)
    args = parser.parse_args()
    with _open(args.source, "r") as source:
        records = [json.loads(line) for line in source if line.strip()]
    papers = replies = 0
    with _open(args.out, "w") as out:
        for copy in range(args.copies):
            for record in records:
                made = copy_of(record, copy)
                out.write(json.dumps(made, ensure_ascii=False) + "\n")
                papers += 1
                replies += len(made["replies"])
    print(f"{args.out}: {papers:,} papers, {replies:,} replies, "
          f"{args.out.stat().st_size / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
