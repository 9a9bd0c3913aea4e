"""Records from the bibliographic databases (Scopus's and Ovid's RIS, Web of Science's
plain text) read as the databases mean them, cited so, and written back by the library's
RIS export: an article's number, a title's acronyms and run-together initials, the full
stop Ovid ends its titles with."""

from __future__ import annotations

from pathlib import Path

from reader.cite.export import export
from reader.cite.formats import render
from reader.library import Library
from reader.models import Paper
from reader.sources import parse_text

SCOPUS = """TY  - JOUR
AU  - García-López, M.
AU  - Chen, X.
TI  - Federated learning for hospital readmission prediction
PY  - 2023
T2  - Journal of Biomedical Informatics
VL  - 139
C7  - 104301
DO  - 10.1016/j.jbi.2023.104301
UR  - https://www.scopus.com/inward/record.uri?eid=2-s2.0-1&partnerID=40&md5=1
DB  - Scopus
ER  -
"""


def _library(root: Path, name: str, text: str) -> Library:
    path = root / name
    path.write_text(text, encoding="utf-8")
    library = Library(root / f"lib-{name}")
    library.imports.write_files([path])
    return library


def _only(library: Library) -> Paper:
    [paper] = library.papers(library.all_ids())
    return paper


def test_an_article_number_in_c7_is_cited_and_written_back(tmp_path: Path) -> None:
    library = _library(tmp_path, "scopus.ris", SCOPUS)
    try:
        paper = _only(library)
        assert paper.csl["number"] == "104301"
        assert "C7" not in paper.extra.get("ris", {})
        assert "Journal of Biomedical Informatics, 139, Article 104301." in render(
            [paper], "text", "apa")
        written = export([paper], "ris")
        assert "C7  - 104301\n" in written and "M1  -" not in written
        [back] = parse_text(written, "again.ris", "ris").records
        assert back.csl["number"] == "104301"
    finally:
        library.close()


def test_c7_of_another_type_is_kept_as_written() -> None:
    """C7 is an article's number; what a tool writes there for a book is kept."""
    text = SCOPUS.replace("TY  - JOUR", "TY  - BOOK")
    [record] = parse_text(text, "book.ris", "ris").records
    assert "number" not in record.csl and record.extra["ris"]["C7"] == ["104301"]


WOS = """FN Clarivate Analytics Web of Science
VR 1.0
PT C
AU Vaswani, A
   Shazeer, N
AF Vaswani, Ashish
   Shazeer, Noam
BE Guyon, I
   Luxburg, UV
TI Attention Is All You Need
SO ADVANCES IN NEURAL INFORMATION PROCESSING SYSTEMS 30 (NIPS 2017)
DT Proceedings Paper
PU NEURAL INFORMATION PROCESSING SYSTEMS (NIPS)
PI LA JOLLA
PY 2017
VL 30
BP 5998
EP 6008
UT WOS:000452649406008
ER

PT J
AU Lee, SD
TI Sensor drift
SO IEEE TRANSACTIONS ON SIGNAL PROCESSING, PART II
PY 2020
VL 68
ER

EF
"""


def test_web_of_science_capitals_keep_their_acronyms_and_initials_are_letters() -> None:
    """Upper-case venues are title-cased, but for acronyms (in parentheses, a known one, a
    Roman numeral); AU and BE run initials together ("UV" is U. V.), AF names are whole."""
    proceedings, article = parse_text(WOS, "savedrecs.txt", "wos").records
    assert proceedings.venue == "Advances in Neural Information Processing Systems 30 (NIPS 2017)"
    assert proceedings.csl["publisher"] == "Neural Information Processing Systems (NIPS)"
    assert proceedings.csl["publisher-place"] == "La Jolla"
    assert article.venue == "IEEE Transactions on Signal Processing, Part II"
    assert proceedings.csl["editor"][1] == {"family": "Luxburg", "given": "U. V."}
    assert proceedings.csl["author"][0] == {"family": "Vaswani", "given": "Ashish"}
    assert article.csl["author"] == [{"family": "Lee", "given": "S. D."}]
    paper = Paper(
        id=1, title=proceedings.title, title_derived=False, abstract="",
        authors=proceedings.authors, venue=proceedings.venue, year=proceedings.year,
        keywords=[], url=None, doi=None, citekey="vaswani2017attention", starred=False,
        note="", added_at="", csl=proceedings.csl, extra=proceedings.extra,
    )
    assert "U. V. Luxburg" in render([paper], "text", "apa")
    assert "U. V. Luxburg" in render([paper], "text", "chicago-author-date")


OVID = """1. 
TY  - CHAP
DB  - APA PsycInfo <1806 to December Week 1 2024>
ID  - 2019-08765-004
T1  - Attention and the aging brain.
A1  - Grady, Cheryl L.
A2  - Park, Denise C. [Ed]
Y1  - 2019//
T2  - Cognitive aging: A primer (3rd ed.).
SP  - 55
EP  - 78
CY  - New York, NY
PB  - Psychology Press
ER  - 

2. 
TY  - JOUR
DB  - APA PsycInfo <1806 to December Week 1 2024>
ID  - 2021-45678-001
T1  - Does sleep help memory?
A1  - Okafor, Ngozi A.
Y1  - 2021//
JF  - Psychological Bulletin
ER  - 

3. 
TY  - JOUR
DB  - APA PsycInfo <1806 to December Week 1 2024>
ID  - 2021-45679-001
T1  - Replication of Smith et al.
A1  - Lindqvist, Per
Y1  - 2021//
JF  - Journal of Memory and Language in the U.S.
ER  - 
"""


def test_ovid_full_stops_end_no_title(tmp_path: Path) -> None:
    """Ovid ends every title with a full stop: not the title's, and cited twice ("(3rd
    ed.).,"); a question mark, an abbreviation's stop ("et al.", "U.S.") stay."""
    library = _library(tmp_path, "ovid.ris", OVID)
    try:
        papers = {p.authors[0]: p for p in library.papers(library.all_ids())}
        chapter = papers["Cheryl L. Grady"]
        assert chapter.title == "Attention and the aging brain"
        assert chapter.venue == "Cognitive aging: A primer (3rd ed.)"
        assert "primer (3rd ed.)," in render([chapter], "text", "ieee")
        assert papers["Ngozi A. Okafor"].title == "Does sleep help memory?"
        replication = papers["Per Lindqvist"]
        assert replication.title == "Replication of Smith et al."
        assert replication.venue == "Journal of Memory and Language in the U.S."
    finally:
        library.close()


WOS_TAB_HEADER = "PT\tAU\tBE\tAF\tTI\tSO\tDE\tPU\tPI\tPY\tVL\tIS\tBP\tEP\tDI\tPM\tUT\t"
WOS_TAB = "\ufeff" + WOS_TAB_HEADER + "\n" + "\n".join([
    "J\tSilver, D; Huang, A; Maddison, CJ\t\tSilver, David; Huang, Aja; Maddison, Chris J."
    "\tMastering the game of Go\tNATURE\treinforcement learning; tree search\t"
    "NATURE PORTFOLIO\tBERLIN\t2016\t529\t7587\t484\t489\t10.1038/nature16961\t26819042"
    "\tWOS:000368666300043\t",
    "C\tVaswani, A\tGuyon, I; Luxburg, UV\tVaswani, Ashish\tAttention Is All You Need\t"
    "ADVANCES IN NEURAL INFORMATION PROCESSING SYSTEMS 30 (NIPS 2017)\t\t\t\t2017\t30\t\t"
    "5998\t6008\t\t\tWOS:000452649406008\t",
]) + "\n"


def test_web_of_science_tab_delimited_is_read_as_its_plain_text(tmp_path: Path) -> None:
    """Web of Science's tab-delimited export was read as a generic CSV: its DOI and pages
    were lost, names cut to one initial, capitals kept, a proceedings paper an article."""
    path = tmp_path / "savedrecs.txt"
    path.write_text(WOS_TAB, encoding="utf-8")
    library = Library(tmp_path / "lib")
    try:
        library.import_files([path])
        papers = {p.title: p for p in library.papers(library.all_ids())}
    finally:
        library.close()
    go, attention = papers["Mastering the game of Go"], papers["Attention Is All You Need"]
    assert go.doi == "10.1038/nature16961"
    assert go.authors == ["David Silver", "Aja Huang", "Chris J. Maddison"]
    assert go.keywords == ["reinforcement learning", "tree search"]
    assert render([go], "text", style="apa").startswith(
        "Silver, D., Huang, A., & Maddison, C. J. (2016). Mastering the game of Go. Nature, "
        "529(7587), 484–489."
    )
    assert attention.csl["type"] == "paper-conference"
    assert attention.csl["editor"][1] == {"family": "Luxburg", "given": "U. V."}
    assert attention.venue == "Advances in Neural Information Processing Systems 30 (NIPS 2017)"
