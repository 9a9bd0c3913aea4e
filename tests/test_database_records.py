"""What databases and reference managers write beside a record's fields, read as what it
is: EndNote's epub date in an article's ET, a catalogue's extent in a book's SP ("xvii,
1115 pages"), a binding after an ISBN, a note of many lines; PsycInfo's copyright line at
the end of every abstract."""

from __future__ import annotations

from pathlib import Path

from reader.cite.export import export
from reader.cite.formats import render
from reader.library import Library
from reader.models import Paper

ENDNOTE_RIS = """TY  - JOUR
AU  - Esteva, Andre
TI  - Dermatologist-level classification of skin cancer with deep neural networks
T2  - Nature
SP  - 115-118
VL  - 542
PY  - 2017
ET  - 2017/01/25
SN  - 0028-0836
N1  - 1476-4687
Esteva, Andre
Journal Article
ID  - 1032
ER  - 

TY  - BOOK
AU  - Russell, Stuart J.
TI  - Artificial intelligence : a modern approach
ET  - Fourth edition
PY  - 2021
PB  - Pearson
SN  - 9780134610993 (hardcover)
SP  - xvii, 1115 pages
ID  - 1035
ER  - 
"""

PSYCINFO_RIS = """TY  - JOUR
T1  - Large language models and cognitive science.
A1  - Frank, Michael C.
Y1  - 2023
N2  - Large language models raise questions for cognitive science. """ + (
    "(PsycInfo Database Record (c) 2023 APA, all rights reserved)") + """
JF  - Nature Reviews Psychology
DB  - APA PsycInfo <1806 to December Week 1 2024>
ER  - 
"""


def _papers(tmp_path: Path, name: str, text: str) -> dict[str, Paper]:
    """The papers a library makes of ``text``, by CSL type."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    library = Library(tmp_path / f"lib-{name}")
    try:
        library.import_files([path])
        return {str(p.csl["type"]): p for p in library.papers(library.all_ids())}
    finally:
        library.close()


def test_endnotes_epub_date_extent_binding_and_long_note(tmp_path: Path) -> None:
    papers = _papers(tmp_path, "endnote.ris", ENDNOTE_RIS)
    article, book = papers["article-journal"], papers["book"]
    assert "edition" not in article.csl
    assert article.extra["ris"]["ET"] == ["2017/01/25"]  # kept as written
    assert article.csl["note"] == "1476-4687 Esteva, Andre Journal Article"
    assert "N1" not in article.extra["ris"]
    assert "page" not in book.csl and book.csl["number-of-pages"] == "1115"
    assert book.csl["ISBN"] == "9780134610993"
    apa = render([book], "text", "apa")
    assert "1115 pages" not in apa and "hardcover" not in apa, apa
    again = _papers(tmp_path, "again.ris", export(list(papers.values()), "ris"))
    for kind, paper in papers.items():
        assert again[kind].csl == paper.csl, kind


def test_psycinfos_copyright_line_is_no_part_of_the_abstract(tmp_path: Path) -> None:
    [paper] = _papers(tmp_path, "ovid.ris", PSYCINFO_RIS).values()
    assert paper.abstract == "Large language models raise questions for cognitive science."



EBSCO_RIS = """TY  - JOUR
AU  - Myhrvold, Nathan P.
T1  - Diving dinosaurs? Caveats on the use of bone compactness for inferring lifestyle.
JO  - PLoS ONE
Y1  - 2024/03/06/
AB  - These findings have implications for uses of bone compactness. [ABSTRACT FROM AUTHOR]
L3  - 10.1371/journal.pone.0298957
DP  - EBSCOhost
DB  - aph
ER  - 
"""

SCOPUS_COPYRIGHT = "© 2024 Public Library of Science. All rights reserved."
SCOPUS_RIS = f"""TY  - JOUR
AU  - Myhrvold, N.P.
TI  - Diving dinosaurs? Caveats on the use of bone compactness for inferring lifestyle
T2  - PLoS ONE
PY  - 2024
DO  - 10.1371/journal.pone.0298957
AB  - These findings have implications for uses of bone compactness. {SCOPUS_COPYRIGHT}
DB  - Scopus
ER  - 
"""


def test_ebsco_and_scopus_end_no_title_or_abstract_with_their_marks(tmp_path: Path) -> None:
    """EBSCO ends a title with a full stop and an abstract with "[ABSTRACT FROM AUTHOR]",
    Scopus an abstract with its copyright (kept apart): read as the paper's own, one tool's
    copy of a paper replaced another's text on each import."""
    [ebsco] = _papers(tmp_path, "cinahl.ris", EBSCO_RIS).values()
    [scopus] = _papers(tmp_path, "scopus.ris", SCOPUS_RIS).values()
    assert (ebsco.title, ebsco.abstract) == (scopus.title, scopus.abstract)
    assert not ebsco.title.endswith(".") and "ABSTRACT FROM" not in ebsco.abstract
    assert scopus.extra["ris"]["@copyright"] == SCOPUS_COPYRIGHT
    # Written back where Scopus wrote it: an export keeps what the file had.
    assert f"compactness. {SCOPUS_COPYRIGHT}" in export([scopus], "ris")
    library = Library(tmp_path / "both")
    try:
        for name, text in (("scopus.ris", SCOPUS_RIS), ("cinahl.ris", EBSCO_RIS)):
            (tmp_path / name).write_text(text, encoding="utf-8")
        library.imports.write_files([tmp_path / "scopus.ris"])
        summary = library.imports.write_files([tmp_path / "cinahl.ris"])
        assert summary.merged == 1 and summary.revisions_kept == 0
    finally:
        library.close()


def test_a_copyright_notice_is_set_apart_only_at_an_abstracts_end() -> None:
    from reader.sources.stand_ins import copyright_apart

    for notice in ("© 2022, The Author(s).", "Copyright © 2021 Elsevier B.V.",
                   "Copyright 2023 Barker et al.", "(c) 2020 Wiley"):
        assert copyright_apart(f"We find things. {notice}") == ("We find things.", notice)
    for text in ("We ran (c) experiments.", "In 2023 copyright law changed.",
                 "We discuss the copyright 2023 debate."):
        assert copyright_apart(text) == (text, None)
