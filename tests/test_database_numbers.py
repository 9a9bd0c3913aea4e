"""The numbers databases write beside a record's own: Scopus's ISSN and ISBN in one ``SN``
line and its series after the volume, PubMed's two ISSNs and its record number as EndNote
writes them, and a conference's days in ``DA``. Each is read as the number it is, and
cited as such."""

from __future__ import annotations

from pathlib import Path

from reader.cite.export import export
from reader.cite.formats import render
from reader.library import Library
from reader.models import Paper
from reader.sources import parse_text

STYLES = ("apa", "chicago-author-date", "mla", "ieee", "nature")

SCOPUS = """TY  - CONF
AU  - Touvron, H.
TI  - DeiT III: Revenge of the ViT
PY  - 2022
T2  - Lecture Notes in Computer Science
VL  - 13684 LNCS
SP  - 516
EP  - 533
SN  - 03029743 (ISSN); 978-303120052-6 (ISBN)
DB  - Scopus
ER  - 
"""

ENDNOTE = """TY  - JOUR
AU  - Topol, E. J.
PY  - 2019
DA  - Jan
TI  - High-performance medicine
T2  - Nat Med
VL  - 25
SN  - 1546-170X (Electronic)
1078-8956 (Linking)
AN  - 30617339
DB  - NLM
ID  - 14
ER  - 

TY  - CONF
AU  - Kingma, Diederik P.
PY  - 2015
TI  - Adam: A method for stochastic optimization
T2  - 3rd International Conference on Learning Representations, ICLR 2015
DA  - May 7-9, 2015
ID  - 16
ER  - 
"""


def _papers(tmp_path: Path, text: str) -> dict[str, Paper]:
    return {p.title.split(":")[0]: p for p in _papers_of(tmp_path, "records.ris", text)}


def test_scopus_numbers_in_one_line_are_an_issn_and_an_isbn(tmp_path: Path) -> None:
    paper = _papers(tmp_path, SCOPUS)["DeiT III"]
    assert paper.csl["ISSN"] == "03029743"
    assert paper.csl["ISBN"] == "978-303120052-6"
    assert "isbn = {978-303120052-6}" in export([paper], "bibtex")
    back = parse_text(export([paper], "ris"), "back.ris", "ris").records[0]
    assert (back.csl["ISSN"], back.csl["ISBN"]) == ("03029743", "978-303120052-6")


def test_the_series_after_a_scopus_volume_is_not_cited(tmp_path: Path) -> None:
    paper = _papers(tmp_path, SCOPUS)["DeiT III"]
    assert paper.csl["volume"] == "13684"
    for style in STYLES:
        assert "LNCS" not in render([paper], "text", style), style


def test_pubmed_numbers_written_by_endnote(tmp_path: Path) -> None:
    paper = _papers(tmp_path, ENDNOTE)["High-performance medicine"]
    assert paper.csl["ISSN"] == "1546-170X"  # (the linking ISSN is the same journal's)
    assert paper.csl["PMID"] == "30617339"


def test_a_conference_s_days_are_not_its_publication_date(tmp_path: Path) -> None:
    paper = _papers(tmp_path, ENDNOTE)["Adam"]
    assert paper.csl["issued"] == {"date-parts": [[2015]]}
    assert "(2015)" in render([paper], "text", "apa")


SCOPUS_CSV = (
    '"Authors","Author full names","Title","Year","Source title","Volume","Page start",'
    '"Page end","DOI","Publisher","ISSN","PubMed ID","Document Type","Source","EID"\n'
    '"Touvron H.","Touvron, Hugo (57200000001)","DeiT III: Revenge of the ViT","2022",'
    '"Lecture Notes in Computer Science","13684 LNCS","516","533",'
    '"10.1007/978-3-031-20053-3_30","Springer","03029743","","Conference paper","Scopus",'
    '"2-s2.0-85142700001"\n'
    '"Wang X.","Wang, Xiaoming (57300000004)","Large language models in medical exams","2024",'
    '"Chinese Journal of Medical Education","44","81","86","10.3760/cma.j.cn115259","CMA",'
    '"16736877","38500001","Article","Scopus","2-s2.0-85190000007"\n'
)


def test_scopus_csv_pubmed_id_and_volume_in_series(tmp_path: Path) -> None:
    papers = {p.title.split(":")[0]: p for p in _papers_of(tmp_path, "scopus.csv", SCOPUS_CSV)}
    assert papers["Large language models in medical exams"].csl["PMID"] == "38500001"
    assert papers["DeiT III"].csl["volume"] == "13684"


def _papers_of(tmp_path: Path, name: str, text: str) -> list[Paper]:
    """The papers a file of ``text`` named ``name`` imports as, in a new library."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    library = Library(tmp_path / "library")
    library.imports.write_files([path])
    found = library.papers(library.all_ids())
    library.close()
    return found


PSYCINFO = """TY  - CHAP
DB  - APA PsycInfo
AN  - 2020-11111-004
T1  - Machine learning in clinical psychology.
A1  - Dwyer, Dominic B.
A2  - Cannon, Tyrone D.
Y1  - 2020//
BT  - Annual review of clinical psychology, Vol. 14.
SP  - 91
EP  - 118
PB  - Annual Reviews
M3  - Chapter
ER  - 
"""


def test_a_volume_written_into_a_book_s_name_is_its_volume(tmp_path: Path) -> None:
    (paper,) = _papers_of(tmp_path, "psycinfo.ris", PSYCINFO)
    assert (paper.venue, paper.csl["volume"]) == ("Annual review of clinical psychology", "14")
    assert "Annual review of clinical psychology (Vol. 14, pp. 91–118)" in render(
        [paper], "text", "apa")
