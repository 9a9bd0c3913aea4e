"""The library's own export imported again: papers that did not change are unchanged, are
not written again, and are not re-indexed; a real change still shows."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from reader.cite.export import export
from reader.library import Library

# OpenReview records as the site writes them: plain text with TeX math, a backslash,
# ties, carets and braces outside math, hard line breaks, a narrow no-break space.
RECORDS = [
    {
        "id": "rev0001",
        "content": {
            "title": "Revenue Maximization Via The Estimation Of $s$-Concave Demand Functions",
            "abstract": "We show that a C:\\temp path, a tie~here and x^2 survive.\n"
            "A hard line break, 50% of \u202fcases and $\\alpha_1$ math.",
            "keywords": ["pricing", "s-concavity"],
            "venue": "ICLR 2026",
        },
    },
    {
        "id": "megs0002",
        "content": {
            "title": "MEGS^{2}: Memory-Efficient Gaussian Splatting via {Spherical} Gaussians",
            "abstract": "Splatting with a_b and {braces} and \\textit{i.e.} written out.",
            "venue": "ICLR 2026",
        },
    },
]
COLUMNS = (
    "id, title, title_derived, abstract, abstract_key, kind, csl, extra, date, venue, year, "
    "url, openreview_id, generation, updated_at"
)


def _rows(library: Library) -> list[tuple[object, ...]]:
    with sqlite3.connect(library.paths.database) as conn:
        return conn.execute(f"SELECT {COLUMNS} FROM papers ORDER BY id").fetchall()


def _export(library: Library, path: Path) -> Path:
    path.write_text(export(list(library.store.iter_papers()), "bibtex"), encoding="utf-8")
    return path


def _onto_sample(library: Library, tmp_path: Path) -> Library:
    source = tmp_path / "submissions.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in RECORDS), encoding="utf-8")
    library.import_files([source])
    return library


def test_the_libraries_own_bibtex_imported_again_changes_nothing(
    library: Library, tmp_path: Path
) -> None:
    _onto_sample(library, tmp_path)
    before = _rows(library)
    bib = _export(library, tmp_path / "again.bib")

    summary = library.imports.write_files([bib])

    assert (summary.new, summary.merged, summary.unchanged) == (0, 0, len(before))
    assert (summary.revised, summary.retitled) == (0, 0)
    # Nothing written: no row is newer than the index, so nothing is indexed again.
    assert _rows(library) == before
    assert library.sync_index() == 0
    assert _export(library, tmp_path / "third.bib").read_text() == bib.read_text()


def test_a_real_change_in_the_bibtex_still_shows(library: Library, tmp_path: Path) -> None:
    _onto_sample(library, tmp_path)
    bib = _export(library, tmp_path / "again.bib")
    text = bib.read_text(encoding="utf-8")
    edited = text.replace("survive.", "survive, and so do tildes.").replace(
        "Splatting via", "Splatting through"
    )
    assert edited.count("survive, and so do tildes.") == 1
    bib.write_text(edited, encoding="utf-8")

    summary = library.imports.write_files([bib])

    assert (summary.new, summary.revised, summary.retitled) == (0, 1, 1)
    assert summary.merged == 2 and summary.unchanged == summary.read - 2
    papers = {p.openreview_id: p for p in library.store.iter_papers()}
    assert "so do tildes" in papers["rev0001"].abstract
    assert "Splatting through" in papers["megs0002"].title


def test_a_bibtex_openreview_url_gives_the_papers_id(
    empty_library: Library, tmp_path: Path
) -> None:
    bib = tmp_path / "a.bib"
    bib.write_text(
        "@inproceedings{a2026,\n  title = {A},\n"
        "  url = {https://openreview.net/forum?id=Ab-c_12}\n}\n"
        "@misc{b2026,\n  title = {B},\n  url = {https://example.org/forum?id=Ab}\n}\n",
        encoding="utf-8",
    )
    empty_library.imports.write_files([bib])
    ids = {p.title: p.openreview_id for p in empty_library.store.iter_papers()}
    assert ids == {"A": "Ab-c_12", "B": None}


def test_a_paper_without_ids_is_known_by_its_own_entry(
    empty_library: Library, tmp_path: Path
) -> None:
    # A short abstract of the user's own list: no id, a title derived from it, and text
    # whose escaped form is too far from it for approximate matching.
    seed = tmp_path / "mine.txt"
    seed.write_text(
        "ICLR 2026 论文列表\n\nWe cut 50% of C:\\temp~x costs with a^b and_c.\n",
        encoding="utf-8",
    )
    empty_library.imports.write_files([seed], "seed")
    before = _rows(empty_library)
    bib = _export(empty_library, tmp_path / "mine.bib")
    assert r"C:\textbackslash{}temp\textasciitilde{}x" in bib.read_text(encoding="utf-8")

    summary = empty_library.imports.write_files([bib])

    assert (summary.new, summary.merged, summary.unchanged) == (0, 0, 1)
    assert _rows(empty_library) == before


DATA = Path(__file__).resolve().parent / "data"
# Titles an export writes otherwise than their source: a tie and a dash outside braces, a
# subtitle written apart, an acronym the export brace-protects; and two entries sharing a
# title, as xampl.bib's minimal and full ones do.
TITLES = r"""@thesis{geer,
  title = {Earl, Saint, Bishop, Skald~-- and Music},
  subtitle = {The Orkney Earldom},
  author = {de Geer, Ingrid},
  year = {1985}
}
@article{set,
  title = {A carbene ligand for C--C coupling},
  author = {Herrmann, W. A.},
  year = 1999
}
@article{set-full,
  title = {A carbene ligand for C--C coupling},
  author = {Herrmann, W. A.},
  journal = {J. Organomet. Chem.},
  year = 1999
}
"""


@pytest.mark.parametrize("name", ["xampl.bib", "random-229-first30.bib", "titles.bib"])
def test_a_bib_files_papers_exported_and_imported_again_are_unchanged(
    empty_library: Library, tmp_path: Path, name: str
) -> None:
    source = tmp_path / name
    source.write_text(
        TITLES if name == "titles.bib" else (DATA / name).read_text(encoding="utf-8"),
        encoding="utf-8",
    )
    empty_library.imports.write_files([source])
    before = _rows(empty_library)
    bib = _export(empty_library, tmp_path / "again.bib")

    summary = empty_library.imports.write_files([bib])

    assert (summary.new, summary.merged, summary.unchanged) == (0, 0, len(before))
    assert _rows(empty_library) == before


@pytest.mark.parametrize(("fmt", "suffix"), [("ris", ".ris"), ("csljson", ".json")])
def test_an_export_in_another_format_keeps_the_openreview_ids(
    library: Library, tmp_path: Path, fmt: str, suffix: str
) -> None:
    """The forum URL an export writes names the paper's OpenReview id, which an import of
    that file takes back: the papers are found by it, not by their abstracts."""
    from tests.parsing import parse_file

    _onto_sample(library, tmp_path)
    papers = [p for p in library.store.iter_papers() if p.openreview_id]
    path = tmp_path / f"export{suffix}"
    path.write_text(export(papers, fmt), encoding="utf-8")
    read = parse_file(path)
    assert sorted(r.openreview_id or "" for r in read.records) == sorted(
        p.openreview_id or "" for p in papers
    )


def test_an_unchanged_reimport_adds_no_history_rows(library: Library, tmp_path: Path) -> None:
    """What an import did to each paper is kept for is:new, is:changed and undo; a paper it
    left as it was needs no row, or each unchanged re-import of a long list grows the
    library by a row per paper."""
    _onto_sample(library, tmp_path)

    def items() -> int:
        with sqlite3.connect(library.paths.database) as conn:
            return int(conn.execute("SELECT count(*) FROM import_items").fetchone()[0])

    before = items()
    summary = library.import_files([tmp_path / "submissions.jsonl"])
    assert summary.unchanged == len(RECORDS)
    assert items() == before
    with sqlite3.connect(library.paths.database) as conn:
        last = conn.execute("SELECT unchanged FROM imports ORDER BY id DESC LIMIT 1")
        assert last.fetchone() == (len(RECORDS),)
