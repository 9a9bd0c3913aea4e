"""Export → import → export of our own files: what one format writes, its importer reads back."""

from __future__ import annotations

from pathlib import Path

import pytest

from reader.cite.export import export
from reader.cite.formats import render
from reader.cite.left_out import left_out
from reader.library import Library
from reader.models import Paper
from reader.text.render import plain_line


def _library_from(text: str, name: str, root: Path) -> Library:
    source = root / name
    source.write_text(text, encoding="utf-8")
    library = Library(root / f"lib-{name}")
    library.imports.write_files([source])
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


XAMPL_PARTS = r"""@STRING{gaj = "G-Animal's Journal"}
@BOOK{whole-set,
  author = "Donald E. Knuth",
  publisher = "Addison-Wesley",
  title = "The Art of Computer Programming",
  series = "Four volumes",
  year = "1973",
}
@INBOOK{inbook-crossref,
  crossref = "whole-set",
  title = "Fundamental Algorithms",
  volume = 1,
  chapter = "1.2",
  edition = "Second",
  year = "1973",
}
@ARTICLE{whole-journal,
  key = "GAJ",
  journal = gaj,
  volume = 13,
  number = 2,
  month = feb,
  year = 1986,
}
@MISC{misc-minimal,
  key = "Missilany",
  note = "This is a minimal MISC entry",
}
@TECHREPORT{techreport-minimal,
  author = "Tom Terrific",
  title = "An {$O(n \log n / \! \log\log n)$} Sorting Algorithm",
  institution = "Fanstord University",
  year = 1988,
}
"""


ARXIV_PREPRINT = r"""@article{fawzi14,
  title = {Quantum conditional mutual information},
  author = {Fawzi, Omar},
  year = {2014},
  eprint = {1410.0664},
  archivePrefix = {arXiv},
  arxivId = {1410.0664},
}
@article{chung14,
  title = {Cyclic quantum codes},
  author = {Chung, Hye},
  journal = {Phys. Rev. A},
  year = {2014},
  eprint = {1310.3793},
  archivePrefix = {arXiv},
  url = {https://journals.aps.org/pra/abstract/x},
}
"""


def _papers_by_key(library: Library) -> dict[str, Paper]:
    return {p.citekey: p for p in library.store.iter_papers()}


def test_csljson_export_import_keeps_entries_without_title_and_bibtex_types(
    tmp_path: Path,
) -> None:
    source = _library_from(XAMPL_PARTS + ARXIV_PREPRINT, "a.bib", tmp_path)
    first = _papers_by_key(source)
    text = export(list(first.values()), "csljson")
    back = _papers_by_key(_library_from(text, "b.csl.json", tmp_path))
    assert sorted(back) == sorted(first)
    for key, paper in first.items():
        again = back[key]
        assert (again.title, again.title_derived, again.venue, again.kind, again.csl) == (
            paper.title, paper.title_derived, paper.venue, paper.kind, paper.csl
        ), key
        assert (again.arxiv_id, again.url) == (paper.arxiv_id, paper.url), key
        assert export([again], "bibtex") == export([paper], "bibtex"), key
    assert export([back["inbook-crossref"]], "bibtex").startswith("@inbook{inbook-crossref,")
    assert "crossref = {whole-set}" in export([back["inbook-crossref"]], "bibtex")


PARAGRAPHS = r"""@article{paragraphs,
  title = {Two paragraphs},
  author = {Tan, Vincent},
  year = {2014},
  abstract = {The first paragraph
  wraps over two lines.

  The second paragraph, at 50\% of $n$.}
}
"""


def test_bibtex_export_keeps_abstract_paragraphs(tmp_path: Path) -> None:
    first = _bibtex_of(_library_from(PARAGRAPHS, "a.bib", tmp_path))
    assert (
        "abstract = {The first paragraph wraps over two lines.\n\n"
        r"The second paragraph, at 50\% of $n$.}"
    ) in first
    library = _library_from(first, "b.bib", tmp_path)
    [paper] = library.store.iter_papers()
    # Its only TeX besides math is an escaped "%": the plain text it is, written again as it
    # came.
    assert paper.abstract == (
        "The first paragraph wraps over two lines.\n\nThe second paragraph, at 50% of $n$."
    )
    assert _bibtex_of(library) == first


CROSSREF = r"""@book{set,
  title = {The Art of Computer Programming},
  author = {Knuth, Donald E.},
  publisher = {Addison-Wesley},
  year = {1968}
}

@book{volume,
  title = {Seminumerical Algorithms},
  volume = {2},
  crossref = {set},
  year = {1981}
}
"""


def test_bibtex_export_leaves_inherited_fields_to_the_crossref_parent(tmp_path: Path) -> None:
    library = _library_from(CROSSREF, "a.bib", tmp_path)
    volume = library.store.paper(library.store.id_for_key("volume") or 0)
    assert volume is not None and volume.authors == ["Donald E. Knuth"]
    first = _bibtex_of(library)
    # The child as its source wrote it: its own fields and the crossref, nothing inherited.
    assert (
        "@book{volume,\n  title = {Seminumerical Algorithms},\n  volume = {2},\n"
        "  year = {1981},\n  crossref = {set}\n}"
    ) in first
    second = _bibtex_of(_library_from(first, "b.bib", tmp_path))
    assert second == first


SHORT_DOI = """[{"id": "brittain2004", "type": "article-journal",
  "title": "Perceptions of disability",
  "author": [{"family": "Brittain", "given": "Ian"}], "issued": {"date-parts": [[2004]]},
  "DOI": "10/fqd6hj", "URL": "https://doi.org/10.1177/0193723504268729"}]
"""


def test_a_short_doi_comes_back_as_written(tmp_path: Path) -> None:
    import json

    library = _library_from(SHORT_DOI, "a.csl.json", tmp_path)
    [paper] = library.store.iter_papers()
    [item] = json.loads(export([paper], "csljson"))
    assert item["DOI"] == "10/fqd6hj"
    assert "doi = {10/fqd6hj}" in _bibtex_of(library)
    assert "DO  - 10/fqd6hj" in export([paper], "ris")
    # The paper is still recognised by the full DOI its doi.org URL names.
    full = tmp_path / "full.bib"
    full.write_text(
        "@article{b, title={Perceptions of disability}, author={Brittain, Ian}, year=2004,"
        " doi={10.1177/0193723504268729}}\n",
        encoding="utf-8",
    )
    library.imports.write_files([full])
    assert len(list(library.store.iter_papers())) == 1


def test_a_doi_keeps_its_case_through_bibtex(tmp_path: Path) -> None:
    bib = (
        "@article{a, title={Entanglement}, author={Tan, V.}, year=2003,"
        " doi={10.1103/PhysRevA.67.042105}}\n"
    )
    first = _bibtex_of(_library_from(bib, "a.bib", tmp_path))
    assert "doi = {10.1103/PhysRevA.67.042105}" in first
    assert _bibtex_of(_library_from(first, "b.bib", tmp_path)) == first


XAMPL = Path(__file__).parent / "data" / "xampl.bib"
ARXIV_WITH_FILE = r"""@article{chung14,
  title = {Cyclic quantum codes},
  author = {Chung, Hye},
  journal = {Phys. Rev. A},
  year = {2014},
  eprint = {1310.3793},
  archivePrefix = {arXiv},
  primaryClass = {quant-ph},
  arxivId = {1310.3793},
  url = {https://doi.org/10.1103/x},
  file = {:home/a/chung14.pdf:pdf},
}
"""


def test_ris_export_import_gives_back_bibtex_types_and_fields(tmp_path: Path) -> None:
    source = _library_from(XAMPL.read_text(encoding="utf-8") + ARXIV_WITH_FILE, "a.bib", tmp_path)
    first = _papers_by_key(source)
    ris = export(list(first.values()), "ris")
    back = _papers_by_key(_library_from(ris, "b.ris", tmp_path))
    assert sorted(back) == sorted(first)
    for key, paper in first.items():
        again = back[key]
        assert (again.title, again.title_derived, again.venue, again.kind, again.csl) == (
            paper.title, paper.title_derived, paper.venue, paper.kind, paper.csl
        ), key
        assert (again.arxiv_id, again.url, again.doi) == (paper.arxiv_id, paper.url, paper.doi)
        assert export([again], "bibtex") == export([paper], "bibtex"), key
    # RIS's own tags where it has them: a thesis type, a chapter, a series number, a file.
    assert "TY  - THES\nID  - mastersthesis-full\n" in ris
    assert "M3  - Master's project\n" in ris
    assert "TY  - CHAP\nID  - inbook-full\n" in ris and "SE  - 1.2\n" in ris
    assert "SV  - 23\n" in ris and "L1  - :home/a/chung14.pdf:pdf\n" in ris
    # A RIS file of our own, exported again, is the same file.
    assert export(list(back.values()), "ris") == ris


DATA = Path(__file__).parent / "data"


@pytest.mark.parametrize("name", ["xampl.bib", "random-229-first30.bib", "cyrillic.bib"])
def test_bibtex_import_export_twice_is_the_same_file(tmp_path: Path, name: str) -> None:
    first = _bibtex_of(_library_from((DATA / name).read_text("utf-8"), "a.bib", tmp_path))
    second = _bibtex_of(_library_from(first, "b.bib", tmp_path))
    assert second == first
    # Titles go out as their source wrote them: math, commands and protective braces.
    if name == "xampl.bib":
        assert r"title = {An {$O(n \log n / \! \log\log n)$} Sorting Algorithm}" in first


def test_a_title_keeps_its_tex_through_bibtex_and_shows_rendered(tmp_path: Path) -> None:
    jsonl = (
        '{"id": "abc123XYZ", "content": {"title": "Sparse $\\\\ell_1$ recovery in'
        ' $\\\\mathcal{O}(n)$", "abstract": "We recover sparse signals."}}\n'
    )
    source = _library_from(jsonl, "a.jsonl", tmp_path)
    first = _bibtex_of(source)
    assert r"title = {Sparse {$\ell_1$} recovery in {$\mathcal{O}(n)$}}" in first
    again = _library_from(first, "b.bib", tmp_path)
    [paper] = again.store.iter_papers()
    # Stored as the TeX it was (not with the braces the export protected its math with);
    # rendered where it is shown or cited.
    assert paper.title == r"Sparse $\ell_1$ recovery in $\mathcal{O}(n)$"
    assert plain_line(paper.title) == "Sparse ℓ₁ recovery in 𝒪(n)"
    assert "Sparse ℓ₁ recovery in 𝒪(n)" in render([paper], "text", "apa")
    assert _bibtex_of(again) == first
    # Searched by its words, as any title.
    assert again.search("title:recovery").ids == [paper.id]


def test_a_tex_title_is_searched_compared_and_sorted_by_its_words(tmp_path: Path) -> None:
    bib = (
        "@article{a, title={{On R{\\'e}nyi Measures of {LLMs}}}, author={Tan, V.}, year=2014}\n"
        "@article{b, title={Zebra title, later}, author={Doe, J.}, year=2014}\n"
    )
    library = _library_from(bib, "a.bib", tmp_path)
    library.sync_index()
    renyi = library.store.id_for_key("a")
    assert library.search("title:renyi").ids == [renyi]
    assert library.store.sort_ids(library.store.all_ids(), "title")[0] == renyi
    # The same paper, its title written in plain text elsewhere, is recognised by it.
    plain = tmp_path / "plain.bib"
    plain.write_text("@misc{c, title={On Rényi measures of LLMs}, author={Vincent Tan},"
                     " year=2014}\n", encoding="utf-8")
    summary = library.imports.write_files([plain])
    assert (summary.new, summary.merged + summary.unchanged) == (0, 1)


def test_ris_export_keeps_abstract_paragraphs(tmp_path: Path) -> None:
    ris = (
        "TY  - JOUR\nTI  - Structured\nAU  - Doe, Jane\nPY  - 2017\n"
        "AB  - Background: we looked.\n\nMethods: we counted the things twice.\n"
        "ER  - \n"
    )
    library = _library_from(ris, "a.ris", tmp_path)
    [paper] = library.store.iter_papers()
    assert paper.abstract == "Background: we looked.\n\nMethods: we counted the things twice."
    again = _library_from(export([paper], "ris"), "b.ris", tmp_path)
    [back] = again.store.iter_papers()
    assert back.abstract == paper.abstract


def test_ris_keeps_a_doi_as_written(tmp_path: Path) -> None:
    ris = (
        "TY  - JOUR\nTI  - Perceptions of disability\nAU  - Brittain, Ian\nPY  - 2004\n"
        "DO  - 10/fqd6hj\nUR  - https://doi.org/10.1177/0193723504268729\nER  - \n\n"
        "TY  - JOUR\nTI  - Entanglement\nAU  - Tan, V.\nPY  - 2003\n"
        "DO  - 10.1103/PhysRevA.67.042105\nER  - \n"
    )
    first = export(list(_library_from(ris, "a.ris", tmp_path).store.iter_papers()), "ris")
    assert "DO  - 10/fqd6hj\n" in first and "DO  - 10.1103/PhysRevA.67.042105\n" in first
    library = _library_from(first, "b.ris", tmp_path)
    assert sorted(p.doi or "" for p in library.store.iter_papers()) == [
        "10.1103/physreva.67.042105", "10.1177/0193723504268729"
    ]
    assert export(list(library.store.iter_papers()), "ris") == first


TEX_ABSTRACT = r"""@article{tex,
  title = {R{\'e}nyi measures},
  author = {Tan, Vincent},
  journal = {IEEE Trans.},
  year = {2014},
  pages = {120--120},
  abstract = {The R$\backslash$'enyi measures of states
  {\$}\backslashtilde{\{}\backslashPhi{\}}{\$}, at 50\% of $n$.

  A second paragraph with $\ell_1$.}
}

@article{plain,
  title = {Plain},
  author = {Doe, Jane},
  year = {2014},
  pages = {3--9},
  abstract = {Nothing to render here.}
}
"""


@pytest.mark.parametrize("fmt,name", [("ris", "b.ris"), ("csljson", "b.csl.json")])
def test_a_tex_abstract_comes_back_as_stored(
    tmp_path: Path, fmt: str, name: str
) -> None:
    first = _papers_by_key(_library_from(TEX_ABSTRACT, "a.bib", tmp_path))
    text = export(list(first.values()), fmt)
    # Written as TeX beside the plain text only where the two differ.
    assert text.count("tex.abstract" if fmt == "ris" else '"abstract"') == (
        1 if fmt == "ris" else 3
    )
    back = _papers_by_key(_library_from(text, name, tmp_path))
    for key, paper in first.items():
        assert back[key].abstract == paper.abstract, key
    assert "\n\n" in back["tex"].abstract
    assert export(list(back.values()), fmt) == text


PLAIN_CSV = """title,authors,year,abstract
Dashes,Ann Smith,2021,"We compare A -- B, say ''quoted'' and ``this'' over 5--10 runs."
Marked,Bob Ray,2022,"Background -- 50% of *all* runs & more -- see <https://x.org>."
"""


@pytest.mark.parametrize("fmt,name", [("ris", "b.ris"), ("csljson", "b.csl.json")])
def test_a_plain_abstract_keeps_its_dashes_and_quotes(
    tmp_path: Path, fmt: str, name: str
) -> None:
    # A CSV's abstract is not TeX: its two hyphens are two hyphens, not an en dash.
    first = _papers_by_key(_library_from(PLAIN_CSV, "a.csv", tmp_path))
    text = export(list(first.values()), fmt)
    assert "A -- B, say ''quoted'' and ``this'' over 5--10 runs." in text
    # Beside Markdown (rendered), as typed too.
    assert "Background -- 50% of all runs & more -- see" in text
    back = _papers_by_key(_library_from(text, name, tmp_path))
    assert [p.abstract for p in back.values()][:1] == [p.abstract for p in first.values()][:1]


def test_ris_keeps_a_bibtex_range_of_one_page_as_written(tmp_path: Path) -> None:
    first = _papers_by_key(_library_from(TEX_ABSTRACT, "a.bib", tmp_path))
    ris = export(list(first.values()), "ris")
    back = _papers_by_key(_library_from(ris, "b.ris", tmp_path))
    assert [back[k].csl["page"] for k in ("tex", "plain")] == ["120-120", "3-9"]
    assert export(list(back.values()), "ris") == ris
    assert "pages = {120--120}" in export([back["tex"]], "bibtex")


def test_a_bibtex_url_comes_back_as_written(tmp_path: Path) -> None:
    # Mendeley's two URLs joined by "$\backslash$n" (random-229.bib), and an escaped "%".
    urls = [
        r"http://arxiv.org/abs/1210.6367$\backslash$nhttp://dl.acm.org/citation.cfm?doid=2488608",
        r"https://example.org/a\%20b_c",
    ]
    bib = "".join(
        f"@misc{{k{i},\n  title = {{Paper {i}}},\n  url = {{{url}}},\n  year = {{2013}}\n}}\n"
        for i, url in enumerate(urls)
    )
    first = _bibtex_of(_library_from(bib, "a.bib", tmp_path))
    again = _library_from(first, "b.bib", tmp_path)
    for url in urls:
        assert f"url = {{{url}}}" in first
    assert _bibtex_of(again) == first
    assert sorted(p.url or "" for p in again.store.iter_papers()) == [
        "http://arxiv.org/abs/1210.6367$\\backslash$nhttp://dl.acm.org/citation.cfm?doid=2488608",
        "https://example.org/a%20b_c",
    ]


def test_bibtex_keeps_short_titles_pmid_and_web_pages_of_csljson(tmp_path: Path) -> None:
    source = _library_from((DATA / "items-26.csl.json").read_text("utf-8"), "a.json", tmp_path)
    first = _papers_by_key(source)
    back = _papers_by_key(_library_from(_bibtex_of(source), "b.bib", tmp_path))
    variables = ("type", "title-short", "container-title-short", "PMID")
    for key, paper in first.items():
        assert [back[key].csl.get(v) for v in variables] == [
            paper.csl.get(v) for v in variables], key
    assert sum(p.csl.get("type") == "webpage" for p in back.values()) == 5
    assert back["tannenbaum2019"].csl["PMID"] == "30894351"


def test_a_short_title_in_tex_goes_back_out_as_written(tmp_path: Path) -> None:
    bib = (
        "@article{short,\n  title = {{BERT}: Pre-training},\n  journal = {J. of Tests},\n"
        "  shorttitle = {{BERT}},\n  shortjournal = {J. {T}ests},\n  pmid = {123},\n"
        "  year = {2019}\n}\n"
    )
    library = _library_from(bib, "a.bib", tmp_path)
    [paper] = library.store.iter_papers()
    assert (paper.csl["title-short"], paper.csl["container-title-short"]) == (
        "BERT", "J. Tests")
    out = _bibtex_of(library)
    for field in ("shorttitle = {{BERT}}", "shortjournal = {J. {T}ests}", "pmid = {123}"):
        assert out.count(field) == 1, field
    assert _bibtex_of(_library_from(out, "b.bib", tmp_path)) == out


MERGED_KEYS = r"""
@article{wooters07,
  title = {Entanglement of formation},
  author = {Wootters, William K.},
  year = {2007},
  doi = {10.1000/eof},
  ids = {wkw07}
}

@article{wootters07,
  title = {Entanglement of formation},
  author = {Wootters, William K.},
  year = {2007},
  doi = {10.1000/eof}
}

@article{plain,
  title = {Plain},
  author = {Doe, Jane},
  year = {2014}
}
"""


@pytest.mark.parametrize("fmt,name", [("ris", "b.ris"), ("csljson", "b.csl.json")])
def test_key_aliases_come_back_from_our_export(tmp_path: Path, fmt: str, name: str) -> None:
    first = _papers_by_key(_library_from(MERGED_KEYS, "a.bib", tmp_path))
    assert first["wooters07"].aliases == ["wkw07", "wootters07"]
    text = export(list(first.values()), fmt)
    again = _library_from(text, name, tmp_path)
    back = _papers_by_key(again)
    assert sorted(back) == ["plain", "wooters07"]
    assert back["wooters07"].aliases == ["wkw07", "wootters07"]
    assert back["plain"].aliases == []
    assert again.store.id_for_key("wootters07") == back["wooters07"].id
    # The aliases are no note of the paper's, and the file comes out the same again.
    assert "ids" not in (back["wooters07"].csl.get("note") or "")
    assert export(list(back.values()), fmt) == text


ARXIV_LINE = (
    '{"id": "0704.0001", "submitter": "Pavel Nadolsky", "authors": "C. Bal\\u00e1zs, E. L.'
    ' Berger", "title": "Calculation of prompt diphoton production cross sections",'
    ' "journal-ref": "Phys.Rev.D76:013009,2007", "doi": "10.1103/PhysRevD.76.013009",'
    ' "categories": "hep-ph", "abstract": "A fully differential calculation.",'
    ' "versions": [{"version": "v1", "created": "Mon, 2 Apr 2007 19:18:42 GMT"}],'
    ' "update_date": "2008-11-13"}\n'
)


@pytest.mark.parametrize("fmt,name", [("ris", "b.ris"), ("csljson", "b.csl.json")])
def test_an_arxiv_day_comes_back_as_the_papers_date_not_a_day_of_publication(
    tmp_path: Path, fmt: str, name: str
) -> None:
    # arXiv's day is the submission's: cited as the year, before and after the round trip.
    first = _papers_by_key(_library_from(ARXIV_LINE, "a.jsonl", tmp_path))
    back = _papers_by_key(_library_from(export(list(first.values()), fmt), name, tmp_path))
    for key, paper in first.items():
        assert (back[key].date, back[key].year) == (paper.date, paper.year) == ("2007-04-02", 2007)
        for style in ("chicago-author-date", "mla", "ieee"):
            assert render([back[key]], "text", style=style) == render([paper], "text", style=style)


RIS_MONTH = """TY  - JOUR
AU  - Smith, Ann
TI  - A monthly paper
T2  - Journal of Tests
PY  - 2020
DA  - 2020/03/15/
VL  - 4
ER  - 
"""


def test_a_day_of_publication_comes_back_from_our_csv(tmp_path: Path) -> None:
    first = _papers_by_key(_library_from(RIS_MONTH, "a.ris", tmp_path))
    csv_text = export(list(first.values()), "csv")
    back = _papers_by_key(_library_from(csv_text, "b.csv", tmp_path))
    [paper] = back.values()
    assert paper.csl["issued"] == {"date-parts": [[2020, 3, 15]]}
    assert "(March)" in render([paper], "text", style="chicago-author-date")


def test_a_keywords_two_hyphens_come_back_from_bibtex(tmp_path: Path) -> None:
    ris = "TY  - BOOK\nTI  - Digital methods\nAU  - Rogers, Richard\nPY  - 2013\n" \
        "KW  - Social sciences -- Data processing\nER  - \n"
    first = _papers_by_key(_library_from(ris, "a.ris", tmp_path))
    bib = export(list(first.values()), "bibtex")
    assert "Social sciences -{}- Data processing" in bib
    back = _papers_by_key(_library_from(bib, "b.bib", tmp_path))
    assert [p.keywords for p in back.values()] == [["Social sciences -- Data processing"]]


ZOTERO_DATES = """Key,Item Type,Publication Year,Author,Title,Publication Title,Date
K1,journalArticle,2021,"Lee, Ann",Dated by day,Journal A,15 March 2021
K2,journalArticle,2023,"Ray, Bob",Dated by month,Journal B,2023-07
"""


@pytest.mark.parametrize("fmt,name", [("ris", "b.ris"), ("csljson", "b.csl.json")])
def test_another_tools_date_is_a_day_of_publication_and_comes_back(
    tmp_path: Path, fmt: str, name: str
) -> None:
    first = _papers_by_key(_library_from(ZOTERO_DATES, "a.csv", tmp_path))
    assert {k: p.date for k, p in first.items()} == {
        "lee2021dated": "2021-03-15", "ray2023dated": "2023-07"}
    text = export(list(first.values()), fmt)
    assert "submitted" not in text
    back = _papers_by_key(_library_from(text, name, tmp_path))
    for key, paper in first.items():
        assert (back[key].date, back[key].csl["issued"]) == (paper.date, paper.csl["issued"])
    assert "March 15" in render([back["lee2021dated"]], "text", style="chicago-author-date")


def test_a_bib_titles_braces_stay_out_of_our_csv(tmp_path: Path) -> None:
    bib = "@book{berry2017digital,\n  title = {Digital {{Humanities}}: {{Knowledge}} and " \
        "{{Critique}}},\n  author = {Berry, David M.},\n  year = {2017}\n}\n"
    first = _library_from(bib, "a.bib", tmp_path)
    table = export(list(first.store.iter_papers()), "csv")
    assert "Digital Humanities: Knowledge and Critique" in table and "{" not in table
    # The same library reads it back unchanged; another has the title's text, not braces.
    assert first.imports.write_files([_write(tmp_path / "same.csv", table)]).unchanged == 1
    [paper] = _papers_by_key(_library_from(table, "b.csv", tmp_path)).values()
    assert paper.title == "Digital Humanities: Knowledge and Critique"


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_a_biblatex_online_arxiv_entry_is_a_preprint(tmp_path: Path) -> None:
    bib = ("@online{jiang2023mistral,\n  title = {Mistral {{7B}}},\n"
           "  author = {Jiang, Albert Q.},\n  date = {2023-10-10},\n  eprint = {2310.06825},\n"
           "  eprinttype = {arXiv},\n  url = {http://arxiv.org/abs/2310.06825}\n}\n")
    [paper] = _papers_by_key(_library_from(bib, "a.bib", tmp_path)).values()
    # Better BibLaTeX's preprint: no web page, cited with its archive and number.
    assert paper.csl["type"] == "article"
    assert "(arXiv:2310.06825). arXiv." in render([paper], "text", style="apa")


def test_a_family_name_of_two_words_comes_back_from_csv_as_one(tmp_path: Path) -> None:
    ris = """TY  - CHAP
AU  - García Márquez, Ana
AU  - van der Berg, Jan
A2  - Martínez Cámara, Eugenio
TI  - Sentiment analysis for Spanish tweets
T2  - Proceedings of SEPLN
PY  - 2023
ER  - 
"""
    first = _library_from(ris, "spanish.ris", tmp_path)
    [paper] = list(first.store.iter_papers())
    table = export([paper], "csv")
    assert '"García Márquez, Ana; van der Berg, Jan"' in table
    second = _library_from(table, "spanish.csv", tmp_path)
    [back] = list(second.store.iter_papers())
    assert back.authors == ["Ana García Márquez", "Jan van der Berg"]
    assert back.csl["author"][0] == {"family": "García Márquez", "given": "Ana"}
    assert back.csl["editor"] == [{"family": "Martínez Cámara", "given": "Eugenio"}]
    assert render([back], "text", style="apa").startswith(
        "García Márquez, A., & van der Berg, J. (2023)."
    )


def test_a_bib_arxiv_preprint_is_cited_alike_from_our_csv(tmp_path: Path) -> None:
    bib = ("@misc{vaswani2017attention,\n  title = {Attention Is All You Need},\n"
           "  author = {Vaswani, Ashish},\n  year = {2017},\n  eprint = {1706.03762},\n"
           "  archivePrefix = {arXiv},\n  note = {Preprint}\n}\n")
    [paper] = list(_library_from(bib, "a.bib", tmp_path).store.iter_papers())
    table = export([paper], "csv")
    [back] = list(_library_from(table, "b.csv", tmp_path).store.iter_papers())
    for style in ("apa", "ieee"):
        assert render([back], "text", style=style) == render([paper], "text", style=style)
    assert "(arXiv:1706.03762). arXiv." in render([back], "text", style="apa")
    # Its @misc is no CSL type: the table says so, rather than a citation's change.
    assert left_out([paper], "csv").startswith("Not in csv: item types (1 paper)")


@pytest.mark.parametrize(("title", "written"), [
    ("SAIL: Self-Amplified Learning of LLMs", "{SAIL}: {Self-Amplified} Learning of {LLMs}"),
    # With math (an OpenReview title's), which came back braced: {M{$^3$}E}: … {Vision-…}.
    (r"M$^3$E: Vision-and-Language at 50% of $\ell_{0}$",
     r"{M{$^3$}E}: {Vision-and-Language} at 50\% of {$\ell_{0}$}"),
])
def test_a_plain_title_comes_back_from_our_bibtex_without_the_braces_it_added(
    tmp_path: Path, title: str, written: str
) -> None:
    ris = f"TY  - CPAPER\nTI  - {title}\nAU  - Doe, Jane\nPY  - 2026\nER  - \n"
    [paper] = list(_library_from(ris, "a.ris", tmp_path).store.iter_papers())
    entry = _bibtex_of(_library_from(ris, "b.ris", tmp_path))
    assert f"title = {{{written}}}" in entry
    fresh = _library_from(entry, "c.bib", tmp_path)
    [back] = list(fresh.store.iter_papers())
    assert back.title == paper.title == title
    # Written again, the same entry; another's braces in a .bib title stay its TeX.
    assert _bibtex_of(fresh) == entry
    bib = "@book{b,\n  title = {Digital {{Humanities}}},\n  author = {Berry, D.},\n}\n"
    [theirs] = list(_library_from(bib, "d.bib", tmp_path).store.iter_papers())
    assert theirs.title == "Digital {{Humanities}}"


def test_a_caret_and_a_tilde_come_back_from_our_bibtex_as_typed(tmp_path: Path) -> None:
    """The export escapes ``^`` and ``~`` as ``\\textasciicircum{}`` and
    ``\\textasciitilde{}``: read back, they are those characters, not the modifier letters
    ˆ and ˜ (which changed the title and its citations)."""
    ris = "TY  - CPAPER\nTI  - M^3 Agent: Needs of ~10 Users\nAU  - Doe, Jane\n" \
        "PY  - 2026\nER  - \n"
    [paper] = list(_library_from(ris, "a.ris", tmp_path).store.iter_papers())
    entry = _bibtex_of(_library_from(ris, "b.ris", tmp_path))
    assert r"\textasciicircum{}" in entry and r"\textasciitilde{}" in entry
    [back] = list(_library_from(entry, "c.bib", tmp_path).store.iter_papers())
    assert back.title == paper.title == "M^3 Agent: Needs of ~10 Users"
    for style in ("apa", "ieee"):
        assert render([back], "text", style=style) == render([paper], "text", style=style)


@pytest.mark.parametrize("url", ["", "https://arxiv.org/abs/2503.01234"])
def test_a_bib_arxiv_preprint_keeps_its_link_through_our_csljson(
    tmp_path: Path, url: str
) -> None:
    """Through CSL-JSON as through RIS: a link of the paper's own to its arXiv page comes
    back (it was read as the export's link for its id), and none is invented."""
    bib = ("@misc{m3e2025,\n  title = {{M$^3$E}: Continual Learning},\n  author = {Doe, Jane},"
           "\n  year = {2025},\n  eprint = {2503.01234},\n  archivePrefix = {arXiv},\n"
           f"  url = {{{url}}},\n}}\n")
    [paper] = list(_library_from(bib, "a.bib", tmp_path).store.iter_papers())
    [back] = list(_library_from(export([paper], "csljson"), "b.json", tmp_path)
                  .store.iter_papers())
    assert (back.url, back.arxiv_id) == (paper.url, paper.arxiv_id) == (url or None, "2503.01234")


@pytest.mark.parametrize("url", ["", "https://arxiv.org/abs/2302.13971"])
def test_a_bib_arxiv_preprint_is_cited_alike_from_our_ris(tmp_path: Path, url: str) -> None:
    """A .bib's @misc preprint (its eprint on arXiv) goes out as a RIS UNPB with its BibTeX
    fields in notes: read back, it is the preprint it was, not a manuscript, with the link
    it had: none (the export's link to its arXiv page is not taken for its own), or its
    arXiv page (which was lost, read as the export's link)."""
    bib = ("@misc{touvron2023llama,\n  title = {LLaMA: Open and Efficient Foundation Language"
           " Models},\n  author = {Touvron, Hugo and Lavril, Thibaut},\n  year = {2023},\n"
           "  eprint = {2302.13971},\n  archivePrefix = {arXiv},\n  publisher = {arXiv},\n"
           f"  url = {{{url}}},\n}}\n")
    [paper] = list(_library_from(bib, "a.bib", tmp_path).store.iter_papers())
    ris = export([paper], "ris")
    assert "TY  - UNPB" in ris
    [back] = list(_library_from(ris, "b.ris", tmp_path).store.iter_papers())
    assert back.csl.get("type") == paper.csl.get("type") == "article"
    assert (back.url, back.arxiv_id) == (paper.url, paper.arxiv_id) == (url or None, "2302.13971")
    for style in ("apa", "ieee"):
        assert render([back], "text", style=style) == render([paper], "text", style=style)
