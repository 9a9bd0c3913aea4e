"""Zotero's RIS, read as Zotero writes it: its translator puts an item type's fields under
tags of its own table (a book's editors in A3, its series in T2 and its number of pages in
SP; a conference paper's conference in T2, its proceedings in C3 and its place in C1), which
were read as the RIS types' (series editors, the book's venue, the pages cited)."""

from __future__ import annotations

from pathlib import Path

from reader.cite.export import export
from reader.cite.formats import render
from reader.library import Library
from reader.models import Paper, PaperRecord
from reader.sources import parse_text

ZOTERO_TYPES = Path(__file__).parent / "data" / "ris-zotero-types.ris"


def _paper(record: PaperRecord) -> Paper:
    return Paper(
        id=1, title=record.title, title_derived=False, abstract="", authors=record.authors,
        venue=record.venue, year=record.year, keywords=[], url=record.url, doi=None,
        citekey=record.citekey or "key", starred=False, note="", added_at="", csl=record.csl,
        extra=record.extra,
    )


def _records() -> dict[str, PaperRecord]:
    text = ZOTERO_TYPES.read_text(encoding="utf-8")
    return {r.csl["type"]: r for r in parse_text(text, "zotero.ris", "ris").records}


def test_a_zotero_book_has_editors_a_series_and_a_number_of_pages() -> None:
    book = _records()["book"]
    assert [n["family"] for n in book.csl["editor"]] == [
        "Engel", "Quan-Haase", "Liu", "Lyberg"]
    assert "collection-editor" not in book.csl
    assert book.csl["collection-title"] == "European Association of Methodology Series"
    assert book.venue is None
    assert book.csl["number-of-pages"] == "412" and "page" not in book.csl
    cited = render([_paper(book)], "text", "apa")
    assert "(Eds.)" in cited and "p. 412" not in cited and "In European" not in cited


def test_a_zotero_thesis_and_report() -> None:
    records = _records()
    thesis, report = records["thesis"], records["report"]
    assert thesis.csl["number-of-pages"] == "287" and "page" not in thesis.csl
    assert "p. 287" not in render([_paper(thesis)], "text", "apa")
    assert report.csl["collection-title"] == "JRC Science for Policy Report"
    assert report.venue is None
    assert report.csl["number"] == "EUR 30220 EN"
    assert report.csl["page"] == "46"  # a report's pages, as Zotero's report has them


def test_a_zotero_conference_paper_is_in_its_proceedings() -> None:
    paper = _records()["paper-conference"]
    assert paper.venue == "The Twelfth International Conference on Learning Representations"
    assert paper.csl["event"] == "ICLR 2024"
    assert paper.csl["publisher-place"] == "Vienna, Austria"
    assert "C1" not in paper.extra.get("ris", {})


def test_our_export_of_a_zotero_record_reads_back_the_same() -> None:
    for record in _records().values():
        [back] = parse_text(export([_paper(record)], "ris"), "again.ris", "ris").records
        for variable in ("editor", "collection-title", "event", "publisher-place",
                         "number-of-pages"):
            assert back.csl.get(variable) == record.csl.get(variable), variable
        assert back.venue == record.venue


def test_a_book_page_count_survives_our_ris_export(tmp_path: Path) -> None:
    """A book's number of pages is written as its extent ("752 pages"), which RIS's book
    holds in SP: read back by any tool, not as the pages cited nor dropped."""
    source = tmp_path / "book.ris"
    source.write_text("TY  - BOOK\nTI  - Gödel, Escher, Bach\nAU  - Hofstadter, Douglas\n"
                      "PY  - 1979\nDA  - 1979///\nSP  - 752\nER  - \n", encoding="utf-8")
    [record] = parse_text(source.read_text(encoding="utf-8"), "book.ris", "ris").records
    assert record.csl["number-of-pages"] == "752"
    written = export([_paper(record)], "ris")
    assert "SP  - 752 pages" in written
    again = tmp_path / "again.ris"
    again.write_text(written, encoding="utf-8")
    [back] = parse_text(again.read_text(encoding="utf-8"), "again.ris", "ris").records
    assert back.csl.get("number-of-pages") == "752" and "page" not in back.csl


def test_the_same_tags_from_another_tool_keep_their_ris_meanings() -> None:
    """Without Zotero's dates ("2021/11/10/") the tags mean what the RIS types say."""
    text = ZOTERO_TYPES.read_text(encoding="utf-8").replace("DA  - ", "Y1  - ")
    records = {r.csl["type"]: r for r in parse_text(text, "other.ris", "ris").records}
    book = records["book"]
    assert "editor" not in book.csl and len(book.csl["collection-editor"]) == 4
    assert book.venue == "European Association of Methodology Series"
    assert book.csl["page"] == "412"
    paper = records["paper-conference"]
    assert paper.venue == "ICLR 2024"
    assert paper.csl["event"] == "The Twelfth International Conference on Learning Representations"


MISTRAL_RIS = """TY  - GEN
TI  - Mistral 7B
AU  - Jiang, Albert Q.
AB  - We introduce Mistral 7B, a 7-billion-parameter language model.
DA  - 2023/10/10/
PY  - 2023
DO  - 10.48550/arXiv.2310.06825
M3  - arXiv:2310.06825
PB  - arXiv
UR  - http://arxiv.org/abs/2310.06825
ER  - 
"""
MISTRAL_CSV = (
    '"Key","Item Type","Publication Year","Author","Title","DOI","Url","Abstract Note",'
    '"Date","Publisher","Number"\n'
    '"IJ90","preprint","2023","Jiang, Albert Q.","Mistral 7B","10.48550/arXiv.2310.06825",'
    '"http://arxiv.org/abs/2310.06825","We introduce Mistral 7B, a 7-billion-parameter '
    'language model.","2023-10-10","arXiv","arXiv:2310.06825"\n'
)


def test_a_zotero_preprints_m3_is_its_number_not_its_genre(tmp_path: Path) -> None:
    """Zotero writes a preprint's archive id in M3: it was read as the genre, cited
    "[ArXiv:2310.06825]", and merged onto the same item from the CSV, "(arXiv:2310.06825
    arXiv:2310.06825)"."""
    [record] = parse_text(MISTRAL_RIS, "zotero.ris", "ris").records
    assert "genre" not in record.csl
    assert record.csl["number"] == "arXiv:2310.06825"
    library = Library(tmp_path / "lib")
    try:
        (tmp_path / "z.csv").write_text(MISTRAL_CSV, encoding="utf-8")
        (tmp_path / "z.ris").write_text(MISTRAL_RIS, encoding="utf-8")
        library.import_files([tmp_path / "z.csv"])
        library.import_files([tmp_path / "z.ris"])
        [paper] = library.papers(library.all_ids())
        cited = render([paper], "text", style="apa")
        assert cited.count("arXiv:2310.06825") == 1, cited
    finally:
        library.close()


def test_zoteros_ris_keywords_are_the_users_tags() -> None:
    """Zotero writes an item's tags as KW: they arrived as keywords only, and `tag:` found
    nothing; another tool's KW (a database's keywords) are no tags of the user's."""
    zotero = MISTRAL_RIS.replace("ER  - ", "KW  - to-read\nKW  - health, digital\nER  - ")
    [record] = parse_text(zotero, "zotero.ris", "ris").records
    assert record.tags == ["to-read", "health-digital"]
    assert record.keywords == ["to-read", "health, digital"]
    other = "TY  - JOUR\nTI  - A title\nAU  - Lee, Ann\nPY  - 2020\nKW  - triage\nER  - \n"
    [record] = parse_text(other, "other.ris", "ris").records
    assert (record.tags, record.keywords) == ([], ["triage"])
