"""The library's own RIS and CSL-JSON export imported again: their abstracts and titles are
plain text, so a paper's TeX comes back rendered, which is no news. Every paper is
unchanged, keeps its TeX, and is not indexed again; a real change still shows."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from reader.cite.export import export
from reader.library import Library

# OpenReview records as the API gives them: TeX math and markup in abstracts and titles,
# keywords, and a withdrawn submission.
RECORDS = [
    {
        "id": f"tex{n:04d}",
        "cdate": 1758000000000,
        "content": {
            "title": {"value": f"Bounds for $k$-Sparse Attention, Part {n}"},
            "abstract": {
                "value": f"We prove $\\mathcal{{O}}(n^{n % 3 + 1})$ bounds and \\emph{{tight}} "
                f"limits for {n} heads; a C:\\temp path and 50% of cases.\n\n"
                "A second paragraph with $\\alpha_1$ math."
            },
            "authors": {"value": ["Ada Lovelace", f"Author Number{n}"]},
            "keywords": {"value": ["attention", f"topic {n}"]},
            "venue": {
                "value": "ICLR 2026 Conference Withdrawn Submission"
                if n % 4 == 0 else "ICLR 2026 Conference Submission"
            },
            "venueid": {
                "value": "ICLR.cc/2026/Conference/Withdrawn_Submission"
                if n % 4 == 0 else "ICLR.cc/2026/Conference/Submission"
            },
        },
    }
    for n in range(12)
]
FORMATS = [("ris", ".ris"), ("csljson", ".csl.json")]
COLUMNS = (
    "id, title, title_derived, abstract, abstract_key, authors, keywords, withdrawn, kind, "
    "csl, extra, date, venue, year, url, doi, arxiv_id, openreview_id, citekey, generation, "
    "updated_at"
)


def _rows(library: Library) -> list[tuple[object, ...]]:
    with sqlite3.connect(library.paths.database) as conn:
        return conn.execute(f"SELECT {COLUMNS} FROM papers ORDER BY id").fetchall()


def _write(library: Library, fmt: str, path: Path) -> Path:
    path.write_text(export(list(library.store.iter_papers()), fmt), encoding="utf-8")
    return path


@pytest.fixture
def tex_library(library: Library, tmp_path: Path) -> Library:
    """The bundled abstracts (plain text, no ids) and the OpenReview records above."""
    source = tmp_path / "submissions.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in RECORDS), encoding="utf-8")
    library.import_files([source])
    papers = list(library.store.iter_papers())
    assert sum("\\emph{tight}" in p.abstract for p in papers) == len(RECORDS)
    assert sum(p.withdrawn for p in papers) == 3
    return library


@pytest.mark.parametrize(("fmt", "suffix"), FORMATS)
def test_the_libraries_own_export_imported_again_changes_nothing(
    tex_library: Library, tmp_path: Path, fmt: str, suffix: str
) -> None:
    before = _rows(tex_library)
    path = _write(tex_library, fmt, tmp_path / f"again{suffix}")
    assert "\\emph" not in path.read_text(encoding="utf-8")  # the export is plain text

    summary = tex_library.imports.write_files([path])

    assert (summary.new, summary.merged, summary.unchanged) == (0, 0, len(before))
    assert (summary.revised, summary.retitled, summary.withdrawn) == (0, 0, 0)
    # Nothing written (TeX abstracts byte for byte, no generation moved): nothing to index.
    assert _rows(tex_library) == before
    assert tex_library.sync_index() == 0


@pytest.mark.parametrize(("fmt", "suffix"), FORMATS)
def test_a_real_change_in_the_export_still_shows(
    tex_library: Library, tmp_path: Path, fmt: str, suffix: str
) -> None:
    path = _write(tex_library, fmt, tmp_path / f"again{suffix}")
    text = path.read_text(encoding="utf-8")
    edited = text.replace("limits for 5 heads", "limits for 5 heads, now with proofs")
    assert edited.count("now with proofs") == 1
    path.write_text(edited, encoding="utf-8")

    summary = tex_library.imports.write_files([path])

    assert (summary.new, summary.merged, summary.revised) == (0, 1, 1)
    assert summary.unchanged == summary.read - 1
    papers = {p.openreview_id: p for p in tex_library.store.iter_papers()}
    assert "now with proofs" in papers["tex0005"].abstract
    assert "\\emph{tight}" in papers["tex0004"].abstract
