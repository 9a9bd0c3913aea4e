"""RIS as each tool writes it: the same records exported by Embase, EndNote, Mendeley,
Rayyan, RefWorks and Zotero land as the same papers, field for field, and the tags a tool
gives a meaning of its own (Ovid's A2, M3 and Y2, EBSCO's L3, Web of Science's C3, Rayyan's
glued lines) are read as that tool means them."""

from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path
from typing import Any

import pytest

from reader.cite.export import export
from reader.cite.formats import render
from reader.library import Library
from reader.models import Paper
from reader.sources import parse_text

TOOLS = Path(__file__).parent / "data" / "ris-tools"
# The tools that exported the same ten records.
SAME_RECORDS = ("embase", "endnote", "mendeley", "rayyan", "refworks", "zotero")


def _fold(value: Any) -> str:
    text = unicodedata.normalize("NFKD", str(value or ""))
    text = "".join(c for c in text if not unicodedata.combining(c)).casefold()
    return " ".join(re.sub(r"[^\w]+", " ", text).split())


def _papers(tmp_path: Path, tool: str) -> list[Paper]:
    library = Library(tmp_path / tool)
    summary = library.imports.write_files([TOOLS / f"{tool}.ris"])
    assert summary.skipped == 0
    papers = library.papers(library.all_ids())
    library.close()
    return papers


def _fields(paper: Paper) -> tuple[Any, ...]:
    """What every tool carries of the shared records (the venue aside: Rayyan and RefWorks
    give some journals only by their short names)."""
    return (
        tuple(_fold(n.get("family")) for n in paper.csl.get("author", [])),
        paper.year,
        paper.csl.get("volume"),
        paper.csl.get("issue"),
        paper.csl.get("page"),
        paper.doi,
        _fold(paper.abstract),
        paper.url,
    )


def test_six_tools_give_the_same_papers(tmp_path: Path) -> None:
    landed = {
        tool: {_fold(p.title): p for p in _papers(tmp_path, tool)} for tool in SAME_RECORDS
    }
    titles = set(landed["embase"])
    assert len(titles) == 10
    for tool, papers in landed.items():
        assert set(papers) == titles, tool
    for title in titles:
        reference = _fields(landed["embase"][title])
        for tool in SAME_RECORDS:
            assert _fields(landed[tool][title]) == reference, (tool, title)
        keywords = {tool: {_fold(k) for k in landed[tool][title].keywords}
                    for tool in SAME_RECORDS}
        assert len({frozenset(k) for k in keywords.values() if k}) <= 1, title
        venues = {_fold(landed[tool][title].venue) for tool in SAME_RECORDS}
        shorts = {_fold(landed[tool][title].csl.get("container-title-short"))
                  for tool in SAME_RECORDS}
        assert venues <= {_fold(landed["embase"][title].venue)} | shorts, title


def test_embase_issues_dated_by_month_and_a_stray_affiliation(tmp_path: Path) -> None:
    zotero = {_fold(p.title)[:20]: p for p in _papers(tmp_path, "zotero")}
    assert zotero["stratigraphic archit"].csl["issue"] == "1"  # "1 January"
    # The month it is dated with is the month it was published in (the year alone is in PY).
    assert zotero["stratigraphic archit"].csl["issued"] == {"date-parts": [[2024, 1]]}
    assert zotero["stratigraphic archit"].date == "2024-01"
    # An affiliation Zotero's file carries in IS is no issue, and is kept as it came.
    specimen = zotero["description of a new"]
    assert "issue" not in specimen.csl
    assert specimen.extra["ris"]["IS"] == [
        "(Boisvert C.) Brigham Young University, Provo, UT, United States"]


def test_a_database_document_type_is_no_genre_in_a_citation(tmp_path: Path) -> None:
    for tool in ("embase", "cinahl", "scopus", "endnote"):
        papers = _papers(tmp_path, tool)
        assert all("genre" not in p.csl for p in papers), tool
        assert "[Article]" not in render(papers, "text", "apa"), tool
        assert any(p.extra["ris"].get("M3") for p in papers), tool  # kept for a RIS export


def test_ebsco_and_ovid_dois_outside_do(tmp_path: Path) -> None:
    cinahl = _papers(tmp_path, "cinahl")
    assert sum(1 for p in cinahl if p.doi) == 9  # EBSCO writes the DOI in L3
    eric = {p.doi for p in _papers(tmp_path, "eric_ovid") if p.doi}
    assert eric == {"10.1080/21548455.2016.1200155", "10.1186/s40594-016-0044-1",
                    "10.1007/s11191-010-9287-2"}  # doi.org links in L1


def test_ovid_y2_and_accession_numbers(tmp_path: Path) -> None:
    papers = _papers(tmp_path, "eric_ovid")
    assert all("accessed" not in p.csl for p in papers)
    assert all(p.extra["ris"]["Y2"] for p in papers)
    # ERIC's accession numbers are kept with the record, not taken for citation keys.
    keys = {p.citekey for p in papers}
    assert "stokes1989creationism" in keys
    assert not any(re.fullmatch(r"E[DJ]\d+", k) for k in keys)
    assert {p.extra["ris"]["ID"][0] for p in papers} >= {"EJ389705", "EJ1251011"}


def test_record_numbers_are_no_keys(tmp_path: Path) -> None:
    for tool in ("endnote", "refworks"):
        keys = {p.citekey for p in _papers(tmp_path, tool)}
        assert "boisvert2024description" in keys, tool
        assert not any(k.isdigit() or k.lower().startswith("refid") for k in keys), tool


def test_rayyan_glued_lines_and_refworks_url_lists(tmp_path: Path) -> None:
    rayyan = {_fold(p.title)[:20]: p for p in _papers(tmp_path, "rayyan")}
    cellular = rayyan["cellular structure o"]
    assert cellular.url == (
        "https://www.embase.com/search/results?subaction=viewrecord&id=L2029880245&from=export")
    assert cellular.extra["ris"]["U2"] == ["L2029880245"]
    assert cellular.extra["ris"]["LK"][0].startswith("https://utrechtuniversity")
    assert cellular.extra["ris"]["CY"][0].startswith("Z. Yang, School of")  # an address
    assert "publisher-place" not in cellular.csl
    refworks = {_fold(p.title)[:20]: p for p in _papers(tmp_path, "refworks")}
    assert refworks["cellular structure o"].url == cellular.url
    # Rayyan's two ISSNs as a JSON list: two numbers, written back as two SN lines (the
    # export wrote `SN  - ["1932-8494",` and `SN  - "1932-8486"]`).
    described = rayyan["description of a new"]
    assert described.csl["ISSN"] == "1932-8494 1932-8486"
    assert [line for line in export([described], "ris").splitlines()
            if line.startswith("SN")] == ["SN  - 1932-8494", "SN  - 1932-8486"]


def test_two_issns_apart_by_a_comma_are_two_sn_lines(tmp_path: Path) -> None:
    # Zotero's and Better BibTeX's "0959-8138, 1756-1833" (print and online) was written
    # `SN  - 0959-8138,` then `SN  - 1756-1833`.
    item = {"id": "t", "type": "article-journal", "title": "Sport and sex",
            "author": [{"family": "Tannenbaum", "given": "Cara"}], "ISSN": "0959-8138, 1756-1833",
            "issued": {"date-parts": [[2019]]}}
    source = tmp_path / "one.csl.json"
    source.write_text(json.dumps([item]), encoding="utf-8")
    library = Library(tmp_path / "lib")
    try:
        library.imports.write_files([source])
        [paper] = library.papers(library.all_ids())
    finally:
        library.close()
    assert [line for line in export([paper], "ris").splitlines()
            if line.startswith("SN")] == ["SN  - 0959-8138", "SN  - 1756-1833"]


def test_web_of_science_organisations_are_no_event(tmp_path: Path) -> None:
    papers = _papers(tmp_path, "webofscience")
    assert all("event" not in p.csl for p in papers)
    assert any(p.extra["ris"].get("C3") for p in papers)


OVID_PSYCINFO = """\
1.
TY  - JOUR
DB  - APA PsycInfo <1806 to December Week 1 2024>
AN  - 2016-12345-001
ID  - 2016-12345-001
T1  - Play fighting in juvenile rats
A1  - Pellis, Sergio M.
A2  - Aldis, O.
  Bekoff, M.
  Burghardt, G. M.
  Fagen, R.
  Panksepp, J.
  Pellis, V. C.
  Power, T. G.
  Smith, P. K.
  Spinka, M.
  Vanderschuren, L. J. M. J.
Y1  - 2016//
Y2  - 2016//
M3  - Social & Instinctive Behavior [2440]
JF  - Behavioural Processes
VL  - 128
SP  - 1
EP  - 10
ER  -
"""


def test_ovid_references_and_classification() -> None:
    [record] = parse_text(OVID_PSYCINFO, "psycinfo.ris", "ris").records
    assert "editor" not in record.csl
    assert "genre" not in record.csl and "accessed" not in record.csl
    assert record.citekey is None
    assert record.extra["ris"]["M3"] == ["Social & Instinctive Behavior [2440]"]
    [references] = record.extra["ris"]["A2"]
    assert references.startswith("Aldis, O. Bekoff, M.") and "Vanderschuren" in references
    paper = Paper(
        id=1, title=record.title, title_derived=False, abstract="", authors=record.authors,
        venue=record.venue, year=record.year, keywords=[], url=None, doi=None,
        citekey="pellis2016play", starred=False, note="", added_at="", csl=record.csl,
        extra=record.extra,
    )
    cited = render([paper], "text", "apa")
    assert "Social & Instinctive" not in cited and "Aldis" not in cited
    assert "M3  - Social & Instinctive Behavior [2440]" in export([paper], "ris")


@pytest.mark.parametrize(
    ("y2", "accessed"),
    [
        ("2016/03/01", [[2016, 3, 1]]),  # a later day, with a link: the day it was read
        ("2014///", None),  # before it was published: another date (Citavi)
        ("2015///", None),  # the publication date again
    ],
)
def test_y2_is_an_access_date_only_when_it_can_be(y2: str, accessed: Any) -> None:
    text = (
        "TY  - JOUR\nTI  - A title\nAU  - Doe, Jane\nPY  - 2015\nUR  - https://example.org/a\n"
        f"Y2  - {y2}\nER  - \n"
    )
    [record] = parse_text(text, "a.ris", "ris").records
    assert record.csl.get("accessed", {}).get("date-parts") == accessed


def test_web_of_science_pu_is_the_publisher(tmp_path: Path) -> None:
    papers = _papers(tmp_path, "webofscience")
    publishers = [p.csl.get("publisher") for p in papers]
    assert all(publishers), publishers  # each record names one under PU, none under PB
    assert not any("PU" in p.extra.get("ris", {}) for p in papers)


OVID_CHAPTER = """\
1.
TY  - CHAP
DB  - APA PsycInfo <1806 to December Week 1 2024>
AU  - Doe, Jane
TI  - Emotion regulation in children
A2  - Gross, James J [Ed]
A2  - Smith, A; Jones, B; Lee, C; Park, D
PY  - 2014
T2  - Handbook of emotion regulation
PB  - Guilford
ER  -
"""


def test_an_ovid_editor_is_exported_once_and_read_back() -> None:
    """Ovid's A2 holds the book's editor (marked "[Ed]") among the references' authors: an
    export names the editor once, under ED, keeps the rest of A2 as it came, and reads
    back with the same editor."""
    [record] = parse_text(OVID_CHAPTER, "psycinfo.ris", "ris").records
    paper = Paper(
        id=1, title=record.title, title_derived=False, abstract="", authors=record.authors,
        venue=record.venue, year=record.year, keywords=[], url=None, doi=None,
        citekey="doe2014emotion", starred=False, note="", added_at="", csl=record.csl,
        extra=record.extra,
    )
    written = export([paper], "ris")
    assert written.count("Gross") == 1 and "ED  - Gross, James J" in written, written
    assert "A2  - Smith, A; Jones, B; Lee, C; Park, D" in written
    [back] = parse_text(written, "again.ris", "ris").records
    assert back.csl["editor"] == record.csl["editor"] == [{"family": "Gross", "given": "James J"}]


def test_an_endnote_edited_book_is_cited_with_its_editors() -> None:
    """EndNote's Edited Book (TY EDBOOK) writes its editors as AU: they are the editors,
    cited "(Eds.)", and a RIS export writes them back so."""
    text = ("TY  - EDBOOK\nAU  - Gross, James J.\nAU  - Thompson, Ross A.\n"
            "TI  - Handbook of Emotion Regulation\nPY  - 2007\nPB  - Guilford Press\nER  - \n")
    [record] = parse_text(text, "endnote.ris", "ris").records
    assert "author" not in record.csl and record.authors == []
    assert [n["family"] for n in record.csl["editor"]] == ["Gross", "Thompson"]
    paper = Paper(
        id=1, title=record.title, title_derived=False, abstract="", authors=record.authors,
        venue=record.venue, year=record.year, keywords=[], url=None, doi=None,
        citekey="gross2007handbook", starred=False, note="", added_at="", csl=record.csl,
        extra=record.extra,
    )
    assert "(Eds.)" in render([paper], "text", "apa")
    written = export([paper], "ris")
    assert "AU  - Gross, James J." in written and "A2" not in written
    [back] = parse_text(written, "again.ris", "ris").records
    assert back.csl["editor"] == record.csl["editor"]


def test_a_lone_initial_is_a_given_name_not_a_suffix() -> None:
    """Web of Science writes "Debaille, V": V was read as a suffix (a numeral)."""
    from reader.sources.ris_names import ris_name

    assert ris_name("Debaille, V") == {"family": "Debaille", "given": "V"}
    assert ris_name("Smith, John, III") == {"family": "Smith", "given": "John", "suffix": "III"}
    assert ris_name("Doe, Jr.") == {"family": "Doe", "suffix": "Jr."}


def test_a_reports_vl_is_its_number() -> None:
    """The RIS types give a report's number in VL (EndNote writes "MSR-TR-2022-15" there):
    cited as a volume, APA printed it as a subtitle and IEEE dropped it."""
    text = ("TY  - RPRT\nAU  - Doe, Jane\nTI  - Benchmarking Federated Learning\nPY  - 2022\n"
            "PB  - Microsoft Research\nVL  - MSR-TR-2022-15\nER  - \n")
    [record] = parse_text(text, "endnote.ris", "ris").records
    assert record.csl["number"] == "MSR-TR-2022-15" and "volume" not in record.csl


def test_embase_names_of_family_and_initials_and_ovids_own_link() -> None:
    # Embase.com's RIS writes "Singhal K." without a comma; Ovid's link to its record says
    # which tool wrote it when the database line does not ("DB  - Embase").
    text = """TY  - JOUR
DB  - Embase
T1  - Large language models encode clinical knowledge.
A1  - Singhal K.
A1  - Müller K.-R.
A1  - World Health Organization
Y1  - 2023//
JF  - Nature
UR  - https://ovidsp.ovid.com/ovidweb.cgi?T=JS&PAGE=reference&D=emexb&AN=2014567890
ER  - 
"""
    [record] = parse_text(text, "embase.ris", "ris").records
    assert record.title == "Large language models encode clinical knowledge"
    assert record.authors == ["K. Singhal", "K.-R. Müller", "World Health Organization"]
    assert record.csl["author"][:2] == [{"family": "Singhal", "given": "K."},
                                        {"family": "Müller", "given": "K.-R."}]
    assert record.csl["author"][2] == {"literal": "World Health Organization"}


def test_a_second_abstract_is_kept_and_written_back(tmp_path: Path) -> None:
    # CINAHL gives the database's copyright notice as a second AB: it went without a word.
    [paper] = [p for p in _papers(tmp_path, "cinahl") if p.title.startswith("Osteohist")]
    assert paper.abstract.startswith("Dinosauria debuted")
    assert "Copyright of PLoS ONE" not in paper.abstract
    assert paper.extra["ris"]["AB"][0].startswith("Copyright of PLoS ONE is the property")
    written = [line for line in export([paper], "ris").splitlines() if line.startswith("AB")]
    assert len(written) == 2 and written[1].startswith("AB  - Copyright of PLoS ONE")


def test_a_journals_abbreviation_beside_its_full_name_is_its_short_name(tmp_path: Path) -> None:
    """Embase writes the journal's full name in JF and its abbreviation in JO: the
    abbreviation was in no field and no export. It is the short name, written as J2."""
    papers = _papers(tmp_path, "embase")
    [paper] = [p for p in papers if p.venue == "Nature Communications"]
    assert paper.csl["container-title-short"] == "Nat. Commun."
    text = ("TY  - JOUR\nTI  - Two\nAU  - Doe, Jane\nT2  - Nature Communications\n"
            "JO  - Nat. Commun.\nPY  - 2021\nER  - \n")
    [record] = parse_text(text, "zotero.ris", "ris").records
    assert record.venue == "Nature Communications"
    assert record.csl["container-title-short"] == "Nat. Commun."
    assert "J2  - Nat. Commun." in export([paper], "ris")
    # A third name (JF, JA and JO all given) is kept as written, and written back.
    text = ("TY  - JOUR\nTI  - Three\nAU  - Doe, J\nJF  - Machine Learning\n"
            "JA  - Mach Learn\nJO  - Mach. Learn.\nPY  - 2020\nER  - \n")
    [three] = parse_text(text, "endnote.ris", "ris").records
    assert three.csl["container-title-short"] == "Mach Learn"
    assert three.extra["ris"]["JO"] == ["Mach. Learn."]


def test_zoteros_tags_written_otherwise_are_named_by_the_import(tmp_path: Path) -> None:
    """Zotero's KW are the user's tags; those written otherwise than as tags are ("animal
    tissue" → animal-tissue) were renamed without a word, as a CSV's are not."""
    library = Library(tmp_path / "zotero")
    summary = library.imports.write_files([TOOLS / "zotero.ris"])
    library.close()
    assert ("animal tissue", "animal-tissue") in summary.tags_rewritten
    assert "animal-tissue" in summary.key_changes()


def test_undoing_an_import_takes_back_the_tags_and_note_it_gave_papers_already_here(
    tmp_path: Path,
) -> None:
    """Zotero's RIS after Embase's: the papers already there had no tags, and took
    Zotero's (its KW). Undoing the Zotero import left them, and said the import was made
    "before reader kept what a merge changes", seconds after it was made."""
    library = Library(tmp_path / "lib")
    library.imports.write_files([TOOLS / "embase.ris"])
    ids = library.all_ids()
    summary = library.imports.write_files([TOOLS / "zotero.ris"])
    assert summary.filled, "the papers already there took Zotero's tags"
    tagged = [p for p in library.papers(ids) if p.tags]
    assert tagged
    result = library.imports.undo_last_import()
    assert result is not None
    assert result.unrecorded == 0
    assert result.reverted >= len(tagged)
    assert not [p.citekey for p in library.papers(ids) if p.tags]
    assert library.search("tag:animal-tissue").ids == []
    library.close()


def test_undo_keeps_a_note_the_import_gave_once_the_user_wrote_in_it(tmp_path: Path) -> None:
    """A note a merge gave a paper that had none goes with the undo; edited since, it is
    the user's: kept, and said, as a column changed since is."""
    entry = ("@article{{smith2020,\n  title = {{Dinosaur Scales and Feathers}},\n"
             "  author = {{Smith, Ann}},\n  year = {{2020}},\n"
             "  doi = {{10.1000/xyz1}},{extra}\n}}\n")
    plain, noted = tmp_path / "plain.bib", tmp_path / "noted.bib"
    plain.write_text(entry.format(extra=""), encoding="utf-8")
    noted.write_text(entry.format(extra="\n  comment = {Read with the group.}"), encoding="utf-8")
    library = Library(tmp_path / "lib")
    library.imports.write_files([plain])
    [paper_id] = library.all_ids()
    for edited in (False, True):
        library.imports.write_files([noted])
        assert library.paper(paper_id).note.strip() == "Read with the group."
        if edited:
            library.save_note(paper_id, "Read with the group. Mine.")
        result = library.imports.undo_last_import()
        assert result is not None and result.unrecorded == 0
        note = library.paper(paper_id).note
        if edited:
            assert note == "Read with the group. Mine."
            assert [left for pid, _, left in result.changed_since if pid == paper_id] == [
                ["note"]]
        else:
            assert not note
    library.close()
