"""A DOI as its source wrote it: a short DOI beside its full form names one paper, and a
DOI's case comes back out as written while papers are compared case-insensitively."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from reader.cite.export import export
from reader.library import Library

DATA = Path(__file__).resolve().parent / "data"

# Better BibTeX's Zotero JSON: a short DOI, the full one only in the doi.org link.
ZOTERO = {
    "config": {},
    "items": [
        {
            "itemType": "journalArticle",
            "title": "Women in sport",
            "creators": [{"creatorType": "author", "firstName": "Gertrud",
                          "lastName": "Pfister"}],
            "date": "2010",
            "DOI": "10/dkntrs",
            "url": "https://doi.org/10.1080/17430430903522954",
            "citationKey": "pfister2010women",
        },
        {
            "itemType": "journalArticle",
            "title": "Women in sport",
            "creators": [{"creatorType": "author", "firstName": "Gertrud",
                          "lastName": "Pfister"}],
            "date": "2010",
            "DOI": "10/f6h4b4",
            "url": "https://doi.org/10.1007/s11199-014-0385-5",
            "citationKey": "pfister2010womenb",
        },
    ],
}


def _column(library: Library, sql: str) -> list[object]:
    with sqlite3.connect(library.paths.database) as conn:
        return [row[0] for row in conn.execute(sql)]


def _export(library: Library, path: Path) -> Path:
    path.write_text(export(list(library.store.iter_papers()), "bibtex"), encoding="utf-8")
    return path


def test_a_short_doi_exported_as_bibtex_and_imported_again_is_the_same_paper(
    empty_library: Library, tmp_path: Path
) -> None:
    source = tmp_path / "zotero.json"
    source.write_text(json.dumps(ZOTERO), encoding="utf-8")
    empty_library.imports.write_files([source])
    bib = _export(empty_library, tmp_path / "again.bib")
    assert "doi = {10/dkntrs}" in bib.read_text(encoding="utf-8")

    summary = empty_library.imports.write_files([bib])

    assert (summary.new, summary.unchanged) == (0, 2)
    assert _column(empty_library, "SELECT doi FROM papers ORDER BY id") == [
        "10.1080/17430430903522954", "10.1007/s11199-014-0385-5"
    ]
    assert "doi = {10/dkntrs}" in _export(empty_library, tmp_path / "b.bib").read_text("utf-8")


def test_a_bibtex_short_doi_with_its_link_meets_the_full_doi(
    empty_library: Library, tmp_path: Path
) -> None:
    full = tmp_path / "full.bib"
    full.write_text("@article{a,\n  title = {Women in sport},\n"
                    "  doi = {10.1080/17430430903522954}\n}\n", encoding="utf-8")
    short = tmp_path / "short.bib"
    short.write_text("@article{b,\n  title = {Sport and women},\n  doi = {10/dkntrs},\n"
                     "  url = {https://doi.org/10.1080/17430430903522954}\n}\n",
                     encoding="utf-8")
    empty_library.imports.write_files([full])

    summary = empty_library.imports.write_files([short])

    assert summary.new == 0
    assert _column(empty_library, "SELECT count(*) FROM papers") == [1]


def test_a_doi_comes_back_out_in_its_sources_case(empty_library: Library, tmp_path: Path) -> None:
    empty_library.imports.write_files([DATA / "arxiv-kaggle-30.jsonl"])
    text = _export(empty_library, tmp_path / "arxiv.bib").read_text(encoding="utf-8")
    assert "doi = {10.1103/PhysRevD.76.013009}" in text
    assert _column(
        empty_library, "SELECT count(*) FROM papers WHERE doi = '10.1103/physrevd.76.013009'"
    ) == [1]

    # The same paper with its DOI in another case is still the same paper.
    bib = tmp_path / "lower.bib"
    bib.write_text(text.replace("PhysRevD", "physrevd"), encoding="utf-8")
    assert empty_library.imports.write_files([bib]).new == 0


def test_the_same_bib_file_imported_again_is_unchanged(
    empty_library: Library, tmp_path: Path
) -> None:
    source = tmp_path / "xampl.bib"
    source.write_text((DATA / "xampl.bib").read_text(encoding="utf-8"), encoding="utf-8")
    first = empty_library.imports.write_files([source])
    for _ in range(2):
        again = empty_library.imports.write_files([source])
        assert (again.new, again.merged, again.unchanged) == (0, 0, first.new)
    assert _column(empty_library, "SELECT count(*) FROM papers") == [first.new]
