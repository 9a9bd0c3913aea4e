"""Export → import → export of our own files: what one format writes, its importer reads back."""

from __future__ import annotations

from pathlib import Path

from reader.export import export
from reader.formats import render
from reader.library import Library
from reader.models import Paper


def _library_from(text: str, name: str, root: Path) -> Library:
    source = root / name
    source.write_text(text, encoding="utf-8")
    library = Library(root / f"lib-{name}")
    library.import_files([source], sync=False)
    return library


def _bibtex_of(library: Library) -> str:
    return export(list(library.store.iter_papers()), "bibtex")


def _paper(title: str, abstract: str = "") -> Paper:
    return Paper(
        id=1, title=title, title_derived=False, abstract=abstract, authors=["Ada Lovelace"],
        venue=None, year=2026, keywords=[], url=None, doi=None, citekey="differential2026a",
        starred=False, note="", added_at="",
    )


def test_bibtex_writes_tex_titles_as_tex() -> None:
    entry = render(
        [_paper(r"On Differential Private $\ell_1$, in $\mathcal{O}(n)$ for 50% of LLMs")],
        "bibtex",
    )
    # Math as written, braced so that BibTeX does not recase it; plain text still escaped.
    assert (
        r"title = {On Differential Private {$\ell_1$}, in {$\mathcal{O}(n)$} for 50\% of {LLMs}}"
        in entry
    )


BIB = r"""@article{renyi,
  title = {R{\'e}nyi measures},
  author = {Tan, Vincent},
  journal = {IEEE Trans.},
  year = {2014},
  abstract = {The R$\backslash$'enyi measures of states
  {\$}\backslashtilde{\{}\backslashPhi{\}}{\$}, at 50\% of $n$ with a\_b.}
}
"""


def test_bibtex_export_import_export_is_a_fixed_point(tmp_path: Path) -> None:
    first = _bibtex_of(_library_from(BIB, "a.bib", tmp_path))
    assert (
        r"abstract = {The R$\backslash$'enyi measures of states"
        r" {\$}\backslashtilde{\{}\backslashPhi{\}}{\$}, at 50\% of $n$ with a\_b.}"
    ) in first
    second = _bibtex_of(_library_from(first, "b.bib", tmp_path))
    assert second == first


def test_ris_keeps_an_issn_and_an_isbn_apart(tmp_path: Path) -> None:
    ris = (
        "TY  - CPAPER\nTI  - Fast joins\nAU  - Doe, Jane\nPY  - 2013\n"
        "SN  - 07378017\nSN  - 9781450320290\nER  - \n"
    )
    library = _library_from(ris, "a.ris", tmp_path)
    [paper] = library.store.iter_papers()
    assert (paper.csl.get("ISSN"), paper.csl.get("ISBN")) == ("07378017", "9781450320290")
    entry = _bibtex_of(library)
    assert "issn = {07378017}" in entry and "isbn = {9781450320290}" in entry
