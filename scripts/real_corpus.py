"""A corpus of whole real records, resampled: what a real conference list looks like.

The benchmark's own corpus (``benchmark.corpus``) rebuilds abstracts from sentences and keeps
only a title, an abstract and a few keywords. Real OpenReview records carry more, and it
costs more to show and to index: TL;DRs, up to 42 keywords, primary areas, withdrawn flags,
LaTeX and Markdown in titles and abstracts. This corpus keeps every field of every record.

Paper ``i`` is a copy of a record drawn at random (seeded) from the ICLR 2026 sample. The
first copy of a record is the record itself, under a new id; each later copy gets a title
made unique ("Name: the rest of the title", as in the benchmark's corpus) and three words of
its abstract replaced by coined compounds of real words, so that no two papers share an
abstract (reader recognises a paper by it) and the vocabulary keeps growing with the
corpus. Any prefix of a longer corpus is the shorter one.

    python scripts/real_corpus.py 19630 real-19630.jsonl
"""

from __future__ import annotations

import copy
import gzip
import json
import random
import re
import sys
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SAMPLE = REPO.parent / "shared" / "data" / "iclr2026" / "submissions-sample.jsonl.gz"
SEED = 20261
#: The size of the ICLR 2026 submission list.
ICLR_2026 = 19_630

_WORD = re.compile(r"[A-Za-z]{5,}")


def _text(value: object) -> str:
    """A content field in either OpenReview API shape (``x`` or ``{"value": x}``)."""
    if isinstance(value, dict):
        value = value.get("value")
    return value if isinstance(value, str) else ""


def _put(content: dict, key: str, text: str) -> None:
    """Set a content field, keeping the record's API shape."""
    if isinstance(content.get(key), dict):
        content[key] = {**content[key], "value": text}
    else:
        content[key] = text


def load_records(sample: Path = SAMPLE) -> list[dict]:
    """The sample's records that have a title and an abstract, as read."""
    if not sample.exists():
        sys.exit(f"real corpus: the ICLR sample is missing: {sample}")
    records = []
    with gzip.open(sample, "rt", encoding="utf-8") as fh:
        for line in fh:
            if not line.strip():
                continue
            record = json.loads(line)
            content = record.get("content", {})
            if _text(content.get("title")).strip() and _text(content.get("abstract")).strip():
                records.append(record)
    return records


def real_corpus(records: list[dict], count: int, seed: int = SEED) -> Iterator[dict]:
    """``count`` whole records resampled from ``records`` (see the module's docstring)."""
    rng = random.Random(seed)
    words = sorted(
        {w.lower() for r in records for w in _WORD.findall(_text(r["content"].get("abstract")))}
    )
    used: set[int] = set()
    titles: set[str] = set()
    for i in range(count):
        source = rng.randrange(len(records))
        record = copy.deepcopy(records[source])
        content = record.setdefault("content", {})
        record["id"] = f"real{i:07d}"
        record["number"] = i + 1
        title = " ".join(_text(content.get("title")).split())
        if source in used or title in titles:
            while title in titles:
                name = _coin(words, rng).capitalize()
                title = f"{name}: {_text(content['title']).split(': ', 1)[-1].strip()}"
            _put(content, "title", title)
            _put(content, "abstract", _recoin(_text(content.get("abstract")), words, rng))
        used.add(source)
        titles.add(title)
        yield record


def _coin(words: list[str], rng: random.Random) -> str:
    """A made-up word: the start of one real word and the end of another."""
    a, b = rng.choice(words), rng.choice(words)
    return a[: rng.randint(3, 5)] + b[-rng.randint(3, 6):]


def _recoin(abstract: str, words: list[str], rng: random.Random) -> str:
    """The abstract with three of its longer plain words replaced by coined ones (its line
    breaks, LaTeX and Markdown kept)."""
    tokens = abstract.split(" ")
    spots = [t for t, w in enumerate(tokens) if len(w) >= 6 and w.isalpha()]
    for t in rng.sample(spots, min(3, len(spots))):
        tokens[t] = _coin(words, rng)
    out = " ".join(tokens)
    # An abstract without three plain words still differs from its source.
    return out if out != abstract else f"{abstract} ({_coin(words, rng)})"


def write_real_corpus(count: int, directory: Path, sample: Path = SAMPLE) -> Path:
    """Write the corpus as OpenReview JSON lines (kept: a second call reuses the file)."""
    path = directory / f"real-{count}.jsonl"
    if not path.exists():
        tmp = path.with_suffix(".tmp")
        with tmp.open("w", encoding="utf-8") as out:
            for record in real_corpus(load_records(sample), count):
                out.write(json.dumps(record, ensure_ascii=False) + "\n")
        tmp.replace(path)
    return path


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: python scripts/real_corpus.py COUNT OUT.jsonl")
    out = Path(sys.argv[2])
    with out.open("w", encoding="utf-8") as fh:
        for rec in real_corpus(load_records(), int(sys.argv[1])):
            fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
