"""What OpenReview says of a submission beyond its record (withdrawn, turned down or under
review, its TL;DR, its primary area, the venue a withdrawn or rejected one was submitted to)
survives an export to .bib, .ris and
.csl.json and an import of that file: into a fresh library, and into the library it came
from, where the papers are unchanged."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from reader.cite.csl import bibliography
from reader.cite.export import export
from reader.cite.left_out import left_out
from reader.library import Library
from reader.models import Paper
from reader.text.render import to_plain

TLDR = "A 50% cut in $\\mathcal{O}(n^2)$ cost & a C:\\temp path."
AREA = "alignment, fairness, safety, privacy, and societal considerations"
# As the OpenReview API gives them: a withdrawn submission, one under review and one rejected.
RECORDS = [
    {
        "id": "wdrn0001",
        "cdate": 1758000000000,
        "content": {
            "title": {"value": "Withdrawn Before Review: Sparse Attention at Scale"},
            "abstract": {"value": "We study sparse attention and its $k$-sparse limits."},
            "authors": {"value": ["Ada Lovelace", "Alan Turing"]},
            "TLDR": {"value": TLDR},
            "primary_area": {"value": AREA},
            "venue": {"value": "ICLR 2026 Conference Withdrawn Submission"},
            "venueid": {"value": "ICLR.cc/2026/Conference/Withdrawn_Submission"},
        },
    },
    {
        "id": "kept0002",
        "cdate": 1758000000000,
        "content": {
            "title": {"value": "Dense Retrieval Without Negatives"},
            "abstract": {"value": "Retrieval trained on positives only."},
            "TLDR": {"value": "Negatives are not needed."},
            "primary_area": {"value": "applications to robotics"},
            "venue": {"value": "ICLR 2026 Conference Submission"},
            "venueid": {"value": "ICLR.cc/2026/Conference/Submission"},
        },
    },
    {
        "id": "rjct0003",
        "cdate": 1758000000000,
        "content": {
            "title": {"value": "Turned Down: Reasoning as Representation"},
            "abstract": {"value": "Reasoning models as representation learners."},
            "authors": {"value": ["Grace Hopper"]},
            "venue": {"value": "ICLR 2026 Conference Rejected Submission"},
            "venueid": {"value": "ICLR.cc/2026/Conference/Rejected_Submission"},
        },
    },
]
FORMATS = [("bibtex", ".bib"), ("biblatex", ".bltx.bib"), ("ris", ".ris"),
           ("csljson", ".csl.json")]


@pytest.fixture
def openreview_library(tmp_path: Path) -> Iterator[Library]:
    """A library of the two OpenReview records (no sample papers: small and quick)."""
    source = tmp_path / "submissions.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in RECORDS), encoding="utf-8")
    library = Library(tmp_path / "openreview")
    library.import_files([source])
    yield library
    library.close()


def _papers(library: Library) -> dict[str, Paper]:
    return {p.title: p for p in library.store.iter_papers()}


def _field_lines(text: str) -> list[str]:
    """The lines of an export that carry the withdrawn flag, the TL;DR or the area."""
    return [line for line in text.splitlines() if any(
        word in line for word in ("withdrawn", "tldr", "primaryarea", "eventtitle")
    )]


def _write(library: Library, fmt: str, path: Path) -> Path:
    path.write_text(export(list(library.store.iter_papers()), fmt), encoding="utf-8")
    return path


@pytest.mark.parametrize(("fmt", "suffix"), FORMATS)
def test_an_export_imported_into_a_fresh_library_keeps_what_openreview_said(
    openreview_library: Library, tmp_path: Path, fmt: str, suffix: str
) -> None:
    before = _papers(openreview_library)
    assert [p.title for p in before.values() if p.withdrawn] == [
        "Withdrawn Before Review: Sparse Attention at Scale"
    ]
    path = _write(openreview_library, fmt, tmp_path / f"export{suffix}")

    fresh = Library(tmp_path / "fresh")
    try:
        fresh.import_files([path])
        after = _papers(fresh)
        assert after.keys() == before.keys()
        for title, paper in after.items():
            assert paper.withdrawn == before[title].withdrawn, title
            # The TL;DR may come back as the TeX an export wrote it in: it reads the same.
            assert to_plain(paper.tldr or "") == to_plain(before[title].tldr or ""), title
            assert paper.primary_area == before[title].primary_area, title
            # Where it was submitted, and what was decided there, as the library held them
            # (a rejected paper named no venue in a BibTeX export, and was then cited in
            # CSL-JSON as a paper of the conference).
            assert paper.venue == before[title].venue, title
            # A withdrawal's decision too, beside the withdrawn mark: a fresh library had
            # none, and decision:withdrawn found nothing.
            assert paper.decision == before[title].decision, title
            assert bibliography([paper]) == bibliography([before[title]]), title
        # Nothing is said not to come back: no decision, withdrawn, rejected nor pending.
        papers = list(openreview_library.store.iter_papers())
        said = left_out(papers, fmt, openreview_library.signals([p.id for p in papers]))
        assert "ratings or decisions" not in said, said
        withdrawn = after["Withdrawn Before Review: Sparse Attention at Scale"]
        assert fresh.search("is:withdrawn").ids == [withdrawn.id]
        assert fresh.search("decision:withdrawn").ids == [withdrawn.id]
        assert withdrawn.venue == "ICLR"
        # Back with its venue, and cited as before: a withdrawn submission, not a paper
        # that appeared there (the export's entry type is not taken for one of its own).
        assert (withdrawn.kind, withdrawn.csl.get("type")) == (None, None)
        cited = before["Withdrawn Before Review: Sparse Attention at Scale"]
        assert bibliography([withdrawn]) == bibliography([cited])
        # The fresh library's export says it again, in the same words.
        again = _write(fresh, fmt, tmp_path / f"again{suffix}").read_text()
        assert _field_lines(again) == _field_lines(path.read_text())
    finally:
        fresh.close()


@pytest.mark.parametrize(("fmt", "suffix"), FORMATS)
def test_an_export_imported_into_its_own_library_is_no_news(
    openreview_library: Library, tmp_path: Path, fmt: str, suffix: str
) -> None:
    """The three come back as they were written: not a withdrawal, not a source field or
    variable the paper lacked. (RIS and CSL-JSON bring the record's type, names and date,
    which a paper read from OpenReview's JSON lacks, the first time; BibTeX's own entry is
    known as such.)"""
    path = _write(openreview_library, fmt, tmp_path / f"export{suffix}")
    ids = [p.id for p in openreview_library.store.iter_papers()]
    signals = openreview_library.signals(ids)

    first = openreview_library.imports.write_files([path])

    # The decision's own words stay: BibTeX's "Under review" is the export's word for a
    # decision pending, not news of one ("ICLR 2026 Conference Submission" was rewritten).
    assert openreview_library.signals(ids) == signals

    assert (first.new, first.withdrawn) == (0, 0)
    if fmt == "bibtex":
        assert (first.merged, first.unchanged) == (0, len(RECORDS))
    for paper in openreview_library.store.iter_papers():
        assert "status" not in paper.csl
        assert not any({"tldr", "primaryarea", "pubstate"} & set(fields)
                       for fields in paper.extra.values())
    again = openreview_library.imports.write_files([path])
    assert (again.new, again.merged, again.unchanged) == (0, 0, len(RECORDS))


# A paperlists record: its own link a proceedings page, its forum only under ``oa``; and a
# table's row whose forum link has no scheme.
ELSEWHERE = [{
    "id": "Xy12AbCdEf", "title": "Position: Scaling Is Not All You Need", "status": "Oral",
    "site": "https://icml.cc/virtual/2024/poster/10001", "author": "Aiko Tanaka;Zhang Wei",
    "abstract": "We argue that scaling alone will not yield robust reasoning.",
    "oa": "https://openreview.net/forum?id=Xy12AbCdEf",
}]
TABLE = ("title,authors,openreview_url\n"
         "Are Emergent Abilities a Mirage?,Rylan Schaeffer,openreview.net/forum?id=ITw9edRDlD\n")


@pytest.mark.parametrize(("fmt", "suffix"), FORMATS)
def test_an_openreview_id_beside_another_link_comes_back_from_every_export(
    tmp_path: Path, fmt: str, suffix: str
) -> None:
    """The forum id is how a paper meets its reviews: a fresh library from the export has
    it, and the link without a scheme, and the library it came from finds nothing new."""
    (tmp_path / "icml2024.json").write_text(json.dumps(ELSEWHERE), encoding="utf-8")
    (tmp_path / "neurips2023.csv").write_text(TABLE, encoding="utf-8")
    library = Library(tmp_path / "lib")
    fresh = Library(tmp_path / "fresh")
    try:
        library.import_files([tmp_path / "icml2024.json", tmp_path / "neurips2023.csv"])
        before = {p.title: (p.openreview_id, p.url) for p in library.store.iter_papers()}
        assert before["Position: Scaling Is Not All You Need"] == (
            "Xy12AbCdEf", "https://icml.cc/virtual/2024/poster/10001")
        path = _write(library, fmt, tmp_path / f"export{suffix}")
        fresh.import_files([path])
        assert {p.title: (p.openreview_id, p.url) for p in fresh.store.iter_papers()} == before
        if fmt == "csljson":
            # Its source fields too (paperlists' "oa", "status"), which CSL-JSON keeps in
            # custom, as its "Not in" line promises by naming none lost.
            extra = {p.title: p.extra for p in library.store.iter_papers()}
            assert extra["Position: Scaling Is Not All You Need"]["paperlists"]
            assert {p.title: p.extra for p in fresh.store.iter_papers()} == extra
        again = library.imports.write_files([path])
        assert (again.new, again.merged, again.unchanged) == (0, 0, 2)
    finally:
        fresh.close()
        library.close()


@pytest.mark.parametrize(("fmt", "suffix"), FORMATS)
def test_a_withdrawn_paper_of_no_date_is_cited_as_before_after_an_export(
    tmp_path: Path, fmt: str, suffix: str
) -> None:
    """Read back with the export's type (a @misc, a manuscript), a withdrawn paper of no
    date was cited "(withdrawn)" in APA, its state in the date's place, not "(n.d.) …
    [Withdrawn submission]"."""
    table = tmp_path / "decisions.csv"
    table.write_text("title,authors,decision,openreview_url\nWithdrawn Paper on Scaling,"
                     "Frank Green,Withdrawn,https://openreview.net/forum?id=StUvWx3456\n",
                     encoding="utf-8")
    first, fresh = Library(tmp_path / "first"), Library(tmp_path / "fresh")
    try:
        first.import_files([table])
        fresh.import_files([_write(first, fmt, tmp_path / f"export{suffix}")])
        [before], [after] = list(first.store.iter_papers()), list(fresh.store.iter_papers())
        assert after.withdrawn and (after.kind, after.csl.get("type")) == (None, None)
        [cited] = bibliography([after], "apa")
        assert [cited] == bibliography([before], "apa") and "(n.d.)" in cited, cited
    finally:
        first.close()
        fresh.close()
