"""A newer snapshot of a paper (OpenReview's camera-ready after its blind submission) brings
its TL;DR and keywords along with its title and abstract: each replaces the older one, kept
as a revision, and the summary names it; an older snapshot's stay out."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from click.testing import CliRunner

from reader.cli import cli
from reader.library import Library

FORUM = "HkgEQnRqYQ"
BLIND = {
    "title": "Lottery Tickets in Sparse Networks",
    "abstract": "We find sparse subnetworks that train from scratch to full accuracy.",
    "authors": ["Anonymous"], "keywords": ["pruning", "sparsity"],
    "TL;DR": "Winning tickets exist.",
}
CAMERA_READY = {
    "title": "The Lottery Ticket Hypothesis: Finding Sparse, Trainable Neural Networks",
    "abstract": "A standard pruning technique uncovers subnetworks whose initializations "
                "made them capable of training effectively.",
    "authors": ["Jonathan Frankle", "Michael Carbin"],
    "keywords": ["pruning", "sparsity", "lottery ticket"],
    "TL;DR": "Networks that can be pruned after training could have been pruned before.",
}


def _note(path: Path, content: dict[str, object], mdate: int) -> Path:
    """One OpenReview API v1 note of ICLR 2019, as its snapshots give it."""
    note = {
        "id": FORUM, "forum": FORUM, "number": 1201, "cdate": 1537000000000,
        "tmdate": mdate, "invitation": "ICLR.cc/2019/Conference/-/Blind_Submission",
        "content": content, "signatures": ["ICLR.cc/2019/Conference"],
    }
    path.write_text(json.dumps(note) + "\n", encoding="utf-8")
    return path


def _fields(library: Library) -> tuple[str, list[str]]:
    with sqlite3.connect(library.paths.database) as conn:
        tldr, keywords = conn.execute("SELECT tldr, keywords FROM papers").fetchone()
    return tldr, json.loads(keywords)


def test_a_newer_snapshot_replaces_the_tldr_and_keywords_and_says_so(
    empty_library: Library, tmp_path: Path
) -> None:
    library = empty_library
    library.import_files([_note(tmp_path / "blind.jsonl", BLIND, 1537000000000)])
    summary = library.import_files([_note(tmp_path / "final.jsonl", CAMERA_READY,
                                          1545640000000)])
    assert _fields(library) == (CAMERA_READY["TL;DR"], CAMERA_READY["keywords"])
    assert summary.text_line() == (
        "1 abstract, 1 title, 1 TL;DR and 1 list of keywords replaced by the file's newer "
        "text, the old kept as revisions (reader revisions REF)"
    )
    paper_id = library.queries.stats()["papers"]
    kept = library.queries.text_revisions(paper_id)
    assert [r.field for r in kept] == ["title", "abstract", "tldr", "keywords"]
    assert kept[2].text == BLIND["TL;DR"]

    # Put back from the shell, as a title is.
    runner = CliRunner()
    base = ["--library", str(library.paths.root)]
    listed = runner.invoke(cli, [*base, "revisions", str(paper_id)], obj={})
    assert "tldr" in listed.output and "pruning, sparsity" in listed.output, listed.output
    restored = runner.invoke(cli, [*base, "revisions", str(paper_id), "--restore", "4"], obj={})
    assert restored.exit_code == 0, restored.output
    assert _fields(library) == (CAMERA_READY["TL;DR"], BLIND["keywords"])


def test_an_older_snapshot_leaves_the_newer_tldr_and_keywords(
    empty_library: Library, tmp_path: Path
) -> None:
    library = empty_library
    library.import_files([_note(tmp_path / "final.jsonl", CAMERA_READY, 1545640000000)])
    summary = library.import_files([_note(tmp_path / "blind.jsonl", BLIND, 1537000000000)])
    assert _fields(library) == (CAMERA_READY["TL;DR"], CAMERA_READY["keywords"])
    assert "TL;DR" not in summary.text_line()
