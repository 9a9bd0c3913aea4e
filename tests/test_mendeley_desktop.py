"""Mendeley Desktop's BibTeX read as Mendeley means it: a url field holding the arXiv page
and the proceedings' page gives the paper the proceedings' (the arXiv id links to the
other), and a journal whose name starts in lower case is cited as the journal writes it."""

from __future__ import annotations

from pathlib import Path

from reader.cite.export import export
from reader.cite.formats import render
from reader.library import Library
from reader.models import Paper
from reader.sources import parse_text

MENDELEY = r"""@article{Lewis2020,
author = {Lewis, Patrick and Perez, Ethan},
arxivId = {2005.11401},
journal = {Advances in Neural Information Processing Systems},
pages = {9459--9474},
title = {{Retrieval-Augmented Generation for Knowledge-Intensive NLP Tasks}},
url = {http://arxiv.org/abs/2005.11401 https://proceedings.neurips.cc/paper/2020/hash/6b4-Abstract.html},
volume = {33},
year = {2020}
}
@article{Rajkomar2018,
author = {Rajkomar, Alvin and Oren, Eyal},
doi = {10.1038/s41746-018-0029-1},
journal = {npj Digital Medicine},
number = {1},
pages = {18},
title = {{Scalable and accurate deep learning with electronic health records}},
volume = {1},
year = {2018}
}
"""
PROCEEDINGS = "https://proceedings.neurips.cc/paper/2020/hash/6b4-Abstract.html"


def _papers(tmp_path: Path) -> dict[str, Paper]:
    path = tmp_path / "mendeley.bib"
    path.write_text(MENDELEY, encoding="utf-8")
    library = Library(tmp_path / "lib")
    try:
        library.imports.write_files([path])
        return {p.citekey or "": p for p in library.papers(library.all_ids())}
    finally:
        library.close()


def test_the_second_of_two_urls_is_the_papers_link_beside_its_arxiv_id(tmp_path: Path) -> None:
    paper = _papers(tmp_path)["Lewis2020"]
    assert paper.arxiv_id == "2005.11401" and paper.url == PROCEEDINGS
    assert render([paper], "text", "apa").rstrip().endswith(PROCEEDINGS)
    written = export([paper], "bibtex")
    assert f"http://arxiv.org/abs/2005.11401 {PROCEEDINGS}" in written  # (as it came)
    [back] = parse_text(written, "again.bib", "bibtex").records
    assert back.url == PROCEEDINGS


def test_a_journal_named_in_lower_case_first_is_cited_so(tmp_path: Path) -> None:
    paper = _papers(tmp_path)["Rajkomar2018"]
    for style in ("apa", "chicago-author-date", "mla", "ieee"):
        text = render([paper], "text", style)
        assert "npj Digital Medicine" in text and "Npj" not in text, style
