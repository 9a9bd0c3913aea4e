"""Files written by other tools land as their authors meant: the identifiers, dates,
names and statuses each format gives are read as that format means them, and come back
from the library's own exports."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from reader.cite.export import export
from reader.cite.formats import render
from reader.library import Library
from tests.parsing import parse_file

DATA = Path(__file__).parent / "data"


def _openreview_notes(count: int) -> list[dict[str, Any]]:
    """The first OpenReview notes of the bundled sample that are not withdrawn."""
    notes = [json.loads(line) for line in (DATA / "openreview-40.jsonl").open(encoding="utf-8")]
    return [n for n in notes if not n.get("withdrawn")][:count]


def _wrapped_orals(path: Path, notes: list[dict[str, Any]], **keys: Any) -> Path:
    """A list of orals as a site generator writes it: an object wrapping ``papers``, each
    with the note's ``id`` and ``forum``, the conference site's page, a venue naming the
    status, and a title the camera-ready version reworded."""
    papers = [
        {
            "id": note["id"], "forum": note["id"],
            "title": f"{note['content']['title']} (camera-ready)",
            "authors": ["Ada Lovelace", "Alan Turing"],
            "abstract": note["content"]["abstract"],
            "venue": "ICLR 2026 Oral",
            "keywords": ["Reasoning"],
            "bibtex": "",
            "site": f"https://iclr.cc/virtual/2026/oral/{100 + number}",
            **keys,
        }
        for number, note in enumerate(notes)
    ]
    wrapped = {"generated_at": "2026-01-25T10:00:00Z", "count": len(papers), "papers": papers}
    path.write_text(json.dumps(wrapped), encoding="utf-8")
    return path


def _column(library: Library, sql: str) -> list[tuple[Any, ...]]:
    with sqlite3.connect(library.paths.database) as conn:
        return conn.execute(sql).fetchall()


# --- 1. a wrapped list of orals with OpenReview's ids ---------------------------------------


def test_a_wrapped_list_of_orals_reads_its_forum_venue_year_and_status(tmp_path: Path) -> None:
    notes = _openreview_notes(3)
    [first, *_] = parse_file(_wrapped_orals(tmp_path / "orals.json", notes)).records
    assert first.openreview_id == notes[0]["id"]
    assert (first.venue, first.year) == ("ICLR", 2026)
    assert first.signals is not None and first.signals.decision == "oral"
    # The forum is modelled, not kept a second time beside the paper.
    assert "forum" not in first.extra.get("paperlists", {})


def test_a_wrapped_list_of_orals_merges_into_the_openreview_papers(
    empty_library: Library, tmp_path: Path
) -> None:
    library = empty_library
    library.imports.write_files([DATA / "openreview-40.jsonl"])
    notes = _openreview_notes(3)
    summary = library.imports.write_files([_wrapped_orals(tmp_path / "orals.json", notes)])
    assert (summary.new, summary.merged) == (0, 3)
    assert library.queries.stats()["papers"] == 40
    decided = _column(
        library,
        "SELECT openreview_id FROM papers JOIN paper_signals ON paper_id = papers.id"
        " WHERE decision = 'oral'",
    )
    assert sorted(row[0] for row in decided) == sorted(note["id"] for note in notes)


def test_an_entry_whose_only_openreview_word_is_its_forum_key(tmp_path: Path) -> None:
    notes = _openreview_notes(1)
    path = _wrapped_orals(tmp_path / "orals.json", notes, id="paper-1", site="")
    [record] = parse_file(path).records
    assert record.openreview_id == notes[0]["id"]


def test_a_wrapped_list_of_orals_round_trips(empty_library: Library, tmp_path: Path) -> None:
    library = empty_library
    library.imports.write_files([_wrapped_orals(tmp_path / "orals.json", _openreview_notes(3))])
    papers = list(library.store.iter_papers())
    exported = tmp_path / "again.json"
    signals = library.signals([paper.id for paper in papers])
    exported.write_text(export(papers, "json", signals=signals), encoding="utf-8")
    again = Library(tmp_path / "again")
    try:
        again.imports.write_files([exported])
        fields = "openreview_id, venue, year, decision, decision_raw, title, url, citekey"
        query = (
            f"SELECT {fields} FROM papers LEFT JOIN paper_signals ON paper_id = papers.id"
            " ORDER BY openreview_id"
        )
        assert _column(again, query) == _column(library, query)
    finally:
        again.close()


# --- 2. arXiv's Kaggle metadata: comments, journal reference, the rest kept -----------------


def test_an_arxiv_listing_keeps_its_comments_journal_and_submitter(tmp_path: Path) -> None:
    records = {r.arxiv_id: r for r in parse_file(DATA / "arxiv-kaggle-30.jsonl").records}
    first = records["0704.0001"]
    assert first.csl["note"] == "37 pages, 15 figures; published version"
    assert (first.csl["container-title"], first.csl["volume"], first.csl["page"]) == (
        "Phys.Rev.D", "76", "013009")
    kept = first.extra["arxiv"]
    assert kept["journal-ref"] == "Phys.Rev.D76:013009,2007"  # as written, its year too
    assert (kept["submitter"], kept["report-no"], kept["update_date"]) == (
        "Pavel Nadolsky", "ANL-HEP-PR-07-12", "2008-11-26"
    )
    assert [v["version"] for v in kept["versions"]] == ["v1", "v2"]
    # No journal reference: no journal, and nothing empty kept.
    assert "container-title" not in records["0704.0002"].csl
    assert "report-no" not in records["0704.0002"].extra["arxiv"]


def test_the_import_summary_says_what_no_field_holds(empty_library: Library) -> None:
    summary = empty_library.imports.write_files([DATA / "arxiv-kaggle-30.jsonl"])
    [said] = [w for w in summary.warnings if "arxiv-kaggle-30.jsonl" in w]
    # (Each journal-ref there names a journal, cited with its volume and pages: not lost.)
    assert "submitter, report-no, license, versions and update_date have" in said
    assert "not in BibTeX or RIS" in said


def test_the_bibtex_export_cites_the_journal_a_listing_names(
    empty_library: Library, tmp_path: Path
) -> None:
    library = empty_library
    library.imports.write_files([DATA / "arxiv-kaggle-30.jsonl"])
    papers = {p.arxiv_id: p for p in library.store.iter_papers()}
    entry = export([papers["0704.0001"]], "bibtex")
    assert "journal = {Phys.Rev.D}" in entry
    assert "volume = {76}" in entry and "pages = {013009}" in entry
    assert "journal = {arXiv}" not in entry
    assert "note = {37 pages, 15 figures; published version}" in entry
    assert "journaltitle = {Phys.Rev.D}" in export([papers["0704.0001"]], "biblatex")
    # Without a journal reference, the preprint is still cited as arXiv's.
    assert "journal = {arXiv}" in export([papers["0704.0002"]], "bibtex")
    # Import → export → import: each field comes back.
    bib = tmp_path / "again.bib"
    bib.write_text(export(list(papers.values()), "bibtex"), encoding="utf-8")
    again = Library(tmp_path / "again")
    try:
        again.imports.write_files([bib])
        back = {p.arxiv_id: p for p in again.store.iter_papers()}
        one, two = back["0704.0001"], papers["0704.0001"]
        assert one.venue == "Phys.Rev.D"
        assert (one.csl["volume"], one.csl["page"]) == ("76", "013009")
        assert one.csl["note"] == two.csl["note"]
        assert (one.authors, one.year, one.doi, one.url) == (
            two.authors, two.year, two.doi, two.url
        )
        written = export([one], "bibtex")
        assert "journal = {Phys.Rev.D}" in written
        assert "note = {37 pages, 15 figures; published version}" in written
    finally:
        again.close()


# --- 3. RIS: record numbers, missing names, Web of Science dates, labels, Y2 ----------------


LENS = """TY  - JOUR
AU  - van den Hoven, null
AU  - Smits, Maarten L. J.
DA  - 2014/11/05
ID  - 152-434-819-130-920
PY  - 2014
SN  - 20452322 (ISSN)
SN  - 9780262035613 (ISBN)
TI  - Effect of angiotensin on the tumour to non-tumour ratio
UR  - https://lens.org/152-434-819-130-920
ER  - 
"""

WEB_OF_SCIENCE = """TY  - JOUR
AU  - Sampson, SD
AU  - Loewen, MA
TI  - New horned dinosaurs from Utah
T2  - PLOS ONE
DA  - SEP 22
PY  - 2010
SN  - 1932-6203
AN  - WOS:000282053100002
ER  - 
"""

CITAVI = """TY  - JOUR
AU  - Schmidt, Hans
TI  - Citavi exported article on learning
PY  - 2018
JO  - Journal of Learning
UR  - https://example.org/learning
Y2  - 12.03.2020
ER  - 
"""


def _ris_library(root: Path, name: str, text: str) -> Library:
    path = root / name
    path.write_text(text, encoding="utf-8")
    library = Library(root / f"lib-{name}")
    library.imports.write_files([path])
    return library


def test_a_lens_id_is_no_key_and_a_null_given_name_is_none(tmp_path: Path) -> None:
    library = _ris_library(tmp_path, "lens.ris", LENS)
    try:
        [paper] = library.store.iter_papers()
        assert paper.citekey == "hoven2014effect"
        assert paper.extra["ris"]["ID"] == ["152-434-819-130-920"]
        assert paper.authors == ["van den Hoven", "Maarten L. J. Smits"]
        assert paper.csl["author"][0] == {"family": "van den Hoven"}
        assert "null" not in export([paper], "bibtex")
        # The label says which number it is and is no part of it.
        assert (paper.csl["ISSN"], paper.csl["ISBN"]) == ("20452322", "9780262035613")
    finally:
        library.close()


def test_web_of_science_dates_and_initials(tmp_path: Path) -> None:
    library = _ris_library(tmp_path, "wos.ris", WEB_OF_SCIENCE)
    try:
        [paper] = library.store.iter_papers()
        assert paper.authors == ["S. D. Sampson", "M. A. Loewen"]
        assert paper.csl["author"][0] == {"family": "Sampson", "given": "S. D."}
        assert (paper.date, paper.year) == ("2010-09-22", 2010)
        assert paper.csl["issued"] == {"date-parts": [[2010, 9, 22]]}
    finally:
        library.close()


def test_citavi_y2_is_the_access_date(tmp_path: Path) -> None:
    library = _ris_library(tmp_path, "citavi.ris", CITAVI)
    try:
        [paper] = library.store.iter_papers()
        assert paper.csl["accessed"] == {"date-parts": [[2020, 3, 12]]}
        assert "urldate = {2020-03-12}" in export([paper], "bibtex")
    finally:
        library.close()


def test_ris_fixes_round_trip_field_by_field(tmp_path: Path) -> None:
    """Import → RIS export → import: each field of each record comes back."""
    for name, text in (("lens.ris", LENS), ("wos.ris", WEB_OF_SCIENCE), ("citavi.ris", CITAVI)):
        first = _ris_library(tmp_path, name, text)
        try:
            [paper] = first.store.iter_papers()
            again = _ris_library(tmp_path, f"again-{name}", export([paper], "ris"))
            try:
                [back] = again.store.iter_papers()
                assert (back.citekey, back.title, back.authors, back.date, back.year) == (
                    paper.citekey, paper.title, paper.authors, paper.date, paper.year
                ), name
                for variable in ("author", "issued", "accessed", "ISSN", "ISBN"):
                    assert back.csl.get(variable) == paper.csl.get(variable), (name, variable)
                assert export([back], "ris") == export([paper], "ris"), name
            finally:
                again.close()
        finally:
            first.close()


# --- 4. Better BibTeX / Zotero JSON: a status, organisations as authors ---------------------


ZOTERO_ITEMS = [
    {
        "key": "STAT0001", "itemType": "bookSection", "title": "A chapter in press",
        "creators": [{"creatorType": "author", "firstName": "Hal", "lastName": "Jones"}],
        "bookTitle": "Mapping the Field Again", "date": "1987",
        "extra": "Status: in press",
    },
    {
        "key": "ORGS0001", "itemType": "webpage",
        "title": "Semenya, ASA and IAAF: Planning update",
        "creators": [{"creatorType": "author", "name": "Court of Arbitration for Sport"}],
        "date": "2019-03-21", "url": "https://example.org/cas",
    },
    {
        "key": "ORGS0002", "itemType": "magazineArticle",
        "title": "Caster Semenya: The 100 most influential people of 2019",
        "creators": [{"creatorType": "author", "name": "TIME USA"}], "date": "2019",
    },
    {
        "key": "ORGS0003", "itemType": "webpage", "title": "Caster Semenya: Honours",
        "creators": [{"creatorType": "author", "name": "IAAF"}], "date": "2019",
    },
    {
        # A person and an organisation: the person's family name, as for any paper.
        "key": "ORGS0004", "itemType": "report", "title": "Eligibility regulations",
        "creators": [{"creatorType": "author", "firstName": "Ada", "lastName": "Kim"},
                     {"creatorType": "author", "name": "IAAF"}], "date": "2018",
    },
]


def _zotero_library(root: Path) -> Library:
    path = root / "items.json"
    path.write_text(json.dumps(ZOTERO_ITEMS), encoding="utf-8")
    library = Library(root / "zotero")
    library.imports.write_files([path])
    return library


def test_a_zotero_status_is_biblatex_pubstate(tmp_path: Path) -> None:
    library = _zotero_library(tmp_path)
    try:
        papers = {p.title: p for p in library.store.iter_papers()}
        chapter = papers["A chapter in press"]
        assert chapter.csl["status"] == "in press"
        assert "pubstate = {in press}" in export([chapter], "biblatex")
        [item] = json.loads(export([chapter], "csljson"))
        assert item["status"] == "in press"
    finally:
        library.close()


def test_organisations_as_authors_key_the_paper(tmp_path: Path) -> None:
    library = _zotero_library(tmp_path)
    try:
        keys = {p.title: p.citekey for p in library.store.iter_papers()}
        assert keys["Semenya, ASA and IAAF: Planning update"] == "cas2019semenya"
        assert keys["Caster Semenya: The 100 most influential people of 2019"] == (
            "timeusa2019caster"
        )
        assert keys["Caster Semenya: Honours"] == "iaaf2019caster"
        assert keys["Eligibility regulations"] == "kim2018eligibility"
    finally:
        library.close()


def test_zotero_status_and_organisations_round_trip(tmp_path: Path) -> None:
    """Import → BibTeX and CSL-JSON exports → import: the status and keys come back."""
    library = _zotero_library(tmp_path)
    try:
        papers = sorted(library.store.iter_papers(), key=lambda p: p.citekey)
        for fmt, name in (("biblatex", "again.bib"), ("csljson", "again.json")):
            path = tmp_path / name
            path.write_text(export(papers, fmt), encoding="utf-8")
            again = Library(tmp_path / f"lib-{name}")
            try:
                again.imports.write_files([path])
                back = sorted(again.store.iter_papers(), key=lambda p: p.citekey)
                assert [p.citekey for p in back] == [p.citekey for p in papers], fmt
                assert [p.authors for p in back] == [p.authors for p in papers], fmt
                assert export(back, fmt) == export(papers, fmt), fmt
            finally:
                again.close()
    finally:
        library.close()


def test_a_csv_export_carries_the_bibliographic_details_back(
    empty_library: Library, tmp_path: Path
) -> None:
    """Volume, issue, pages, publisher, ISSN, language, type and the full date of a RIS
    record come back from the library's own CSV, as from its CSL-JSON."""
    library = empty_library
    library.import_files([DATA / "record.ris"])
    exported = tmp_path / "papers.csv"
    exported.write_text(export(library.papers(library.all_ids()), "csv"), encoding="utf-8")
    again = Library(tmp_path / "again")
    try:
        again.import_files([exported])
        wanted = ("volume", "issue", "page", "publisher", "ISSN", "type")
        before = {p.title: ({k: p.csl.get(k) for k in wanted}, p.date)
                  for p in library.papers(library.all_ids())}
        after = {p.title: ({k: p.csl.get(k) for k in wanted}, p.date)
                 for p in again.papers(again.all_ids())}
        assert after == before
        blomberg = before["The value of radiologic interventions in diagnosing focal "
                          "hyperinsulinism"]
        assert blomberg == ({"volume": "15", "issue": "1", "page": "97-105",
                             "publisher": "Springer New York", "ISSN": "1536-1632",
                             "type": "article-journal"}, "2012-07-03")
    finally:
        again.close()


def test_an_iso_date_in_ris_is_the_papers_date(tmp_path: Path) -> None:
    """OpenAlex writes DA as 2024-02-01: the paper's date, not only its PY year."""
    ris = tmp_path / "openalex.ris"
    ris.write_text("TY  - JOUR\nTI  - A dated record\nAB  - Text.\nPY  - 2024\n"
                   "DA  - 2024-02-01\nER  - \n")
    (record,) = parse_file(ris).records
    assert record.csl["issued"] == {"date-parts": [[2024, 2, 1]]}


def test_a_tools_ris_exported_twice_writes_one_id_per_record(tmp_path: Path) -> None:
    """CINAHL's IDs are its own numbers: our key, read back from our export of such a
    record, was kept as one and written a second time by the next export."""
    exports = []
    source = DATA / "ris-tools" / "cinahl.ris"
    for n in range(3):
        library = Library(tmp_path / f"lib{n}")
        try:
            library.import_files([source])
            text = export(library.papers(library.all_ids()), "ris")
        finally:
            library.close()
        source = tmp_path / f"export{n}.ris"
        source.write_text(text, encoding="utf-8")
        exports.append(text)
    records = exports[0].count("ER  -")
    assert [text.count("\nID  - ") + text.startswith("ID  - ") for text in exports] == [
        records] * 3
    assert exports[1] == exports[2] == exports[0]


def test_a_records_number_after_its_key_is_kept(tmp_path: Path) -> None:
    """Our export writes an ERIC or RefWorks number after the key: read back, the key is
    the key and the number stays with the record (it was dropped)."""
    ris = tmp_path / "ours.ris"
    ris.write_text("TY  - JOUR\nID  - milne1983dinosaur\nTI  - Dinosaurs\nAB  - Text.\n"
                   "PY  - 1983\nDB  - ERIC\nID  - EJ278605\nER  - \n")
    (record,) = parse_file(ris).records
    assert record.citekey == "milne1983dinosaur"
    assert record.extra["ris"]["ID"] == ["EJ278605"]


def test_a_y2_that_is_no_date_is_kept_as_written(tmp_path: Path) -> None:
    ris = tmp_path / "y2.ris"
    ris.write_text("TY  - JOUR\nTI  - Dated oddly\nAB  - Text.\nPY  - 1983\n"
                   "Y2  - spring 1983\nER  - \n")
    (record,) = parse_file(ris).records
    assert record.extra["ris"]["Y2"] == ["spring 1983"]
    assert "accessed" not in record.csl


def test_a_da_of_another_year_than_py_leaves_the_paper_dated_by_py(tmp_path: Path) -> None:
    """Our RIS of an OpenReview submission has PY 2026 (the conference) and DA 2025/09/01
    (the submission): read back, it is dated 2026 as before, not September 2025."""
    ris = tmp_path / "or.ris"
    ris.write_text("TY  - CONF\nTI  - A submission\nAB  - Text.\nPY  - 2026\n"
                   "DA  - 2025/09/01/\nER  - \n")
    (record,) = parse_file(ris).records
    assert record.csl["issued"] == {"date-parts": [[2026]]}
    assert record.year == 2026


def test_the_ris_export_names_the_journal_a_listing_gives(tmp_path: Path) -> None:
    """An arXiv listing's journal reference is where the paper was published: the RIS
    export's T2, as the BibTeX export's journal, and it comes back from it."""
    library = Library(tmp_path / "lib")
    try:
        library.import_files([DATA / "arxiv-kaggle-30.jsonl"])
        papers = library.papers(library.all_ids())
        text = export(papers, "ris")
        referenced = [p for p in papers if p.csl.get("container-title")]
        assert referenced
        for paper in referenced:
            assert f"T2  - {paper.csl['container-title']}\n" in text
    finally:
        library.close()


def test_a_journal_reference_names_the_journal_volume_and_pages() -> None:
    from reader.sources.journal_ref import journal_reference

    journal = {"type": "article-journal"}

    def year(y: int) -> dict[str, object]:
        return {"issued": {"date-parts": [[y]]}}

    assert journal_reference("Phys. Rev. Lett. 99, 048301 (2007)") == {
        **journal, "container-title": "Phys. Rev. Lett.", "volume": "99", "page": "048301",
        **year(2007)}
    assert journal_reference("Astrophys.J.663:1149-1173,2007") == {
        **journal, "container-title": "Astrophys.J.", "volume": "663", "page": "1149–1173",
        **year(2007)}
    assert journal_reference("Journal of Applied Physics, vol 104, 073536 (2008)") == {
        **journal, "container-title": "Journal of Applied Physics", "volume": "104",
        "page": "073536", **year(2008)}
    assert journal_reference(
        "Advances in Neural Information Processing Systems 30 (2017) 5998-6008") == {
        **journal, "container-title": "Advances in Neural Information Processing Systems",
        "volume": "30", "page": "5998–6008", **year(2017)}
    assert journal_reference("Illinois J. Math. 52 (2008) no.2, 681-689") == {
        **journal, "container-title": "Illinois J. Math.", "volume": "52", "issue": "2",
        "page": "681–689", **year(2008)}
    # A paper and its reprint: the first is the one cited.
    assert journal_reference(
        "Adv.Theor.Math.Phys.2:231-252,1998; Int.J.Theor.Phys.38:1113-1133,1999") == {
        **journal, "container-title": "Adv.Theor.Math.Phys.", "volume": "2", "page": "231–252",
        **year(1998)}
    # The reference the paper's DOI names (its volume and first page are in it) is cited.
    assert journal_reference(
        "Phys.Lett.B 12:1-5,2006; Phys.Rev.D76:013009,2007", "10.1103/PhysRevD.76.013009") == {
        **journal, "container-title": "Phys.Rev.D", "volume": "76", "page": "013009",
        **year(2007)}
    # A DOI of neither that can be told: both are named, the DOI not given to the first.
    assert journal_reference(
        "Adv.Theor.Math.Phys. 2 (1998) 231-252; Int.J.Theor.Phys. 38 (1999) 1113-1133",
        "10.1023/A:1026654312961") == {
        **journal, "container-title": "Adv.Theor.Math.Phys. 2 (1998) 231-252; "
        "Int.J.Theor.Phys. 38 (1999) 1113-1133", **year(1998)}
    # Text of no common shape is the journal's, whole.
    assert journal_reference("Proceedings of ICML 2019") == {
        "container-title": "Proceedings of ICML 2019"}
    assert journal_reference("  ") == {}


def test_an_arxiv_paper_with_a_journal_reference_is_cited_as_published(
    empty_library: Library, tmp_path: Path
) -> None:
    """APA cited it as a preprint "In arXiv" (or "In Adv.Theor.Math.Phys. (Hep-th/9711200;
    Vol. 2…). arXiv."); its own CSV read back turned it into one."""
    library = empty_library
    library.imports.write_files([DATA / "arxiv-kaggle-30.jsonl"])
    papers = {p.arxiv_id: p for p in library.store.iter_papers()}
    assert render([papers["0704.0001"]], "text", "apa").endswith(
        "Phys.Rev.D, 76, 013009. https://doi.org/10.1103/PhysRevD.76.013009")
    table = tmp_path / "own.csv"
    export(list(papers.values()), "csv", table)
    summary = library.imports.write_files([table])
    assert summary.unchanged == len(papers) and summary.merged == 0
    # Read into another library, the table cites it as published too (it said "In arXiv").
    other = Library(tmp_path / "other")
    try:
        other.imports.write_files([table])
        [again] = [p for p in other.store.iter_papers() if p.arxiv_id == "0704.0001"]
        assert render([again], "text", "apa").endswith(
            "Phys.Rev.D, 76, 013009. https://doi.org/10.1103/PhysRevD.76.013009")
    finally:
        other.close()


def test_an_arxiv_feed_keeps_its_comments_and_journal_references(tmp_path: Path) -> None:
    records = parse_file(DATA / "api-atom-10-entries.xml").records
    with_journal = [r for r in records if r.extra.get("arxiv", {}).get("journal_ref")]
    assert len(with_journal) == 5
    science = with_journal[0]
    assert science.extra["arxiv"]["journal_ref"] == (
        "Science & Education, September 2014, 23(9): 1853-1873")
    # Read as the journal, volume, issue and pages it names; the year it was published is
    # the paper's (its preprint is of 2015).
    assert {k: science.csl[k] for k in ("container-title", "volume", "issue", "page")} == {
        "container-title": "Science & Education", "volume": "23", "issue": "9",
        "page": "1853–1873"}
    assert science.year == 2014
    assert science.csl["note"].startswith("Conference funded by NSF grant REESE-1205273")
    assert sum("note" in r.csl for r in records) == 8


def test_zoteros_csv_gives_editors_translators_and_series_editors(tmp_path: Path) -> None:
    """Zotero's CSV has a column per role: an edited book and a chapter of it, translated."""
    library = Library(tmp_path / "lib")
    try:
        library.imports.write_files([DATA / "zotero-editors.csv"])
        papers = {p.title: p for p in library.store.iter_papers()}
        book, chapter = papers["Handbook of Causal Methods"], papers["Instrumental Variables"]
        editors = [{"family": "Smith", "given": "Jane"}, {"family": "Doe", "given": "John"}]
        assert book.csl["editor"] == chapter.csl["editor"] == editors
        assert chapter.csl["translator"] == [{"family": "Müller", "given": "Jürgen"}]
        assert chapter.csl["collection-editor"] == [{"family": "Roe", "given": "Richard"}]
        assert render([book], "text", "apa").startswith("Smith, J., & Doe, J. (Eds.). (2020).")
        # The library's CSV carries the editors back.
        table = tmp_path / "out.csv"
        export([book, chapter], "csv", table)
        again = Library(tmp_path / "again")
        try:
            again.imports.write_files([table])
            back = {p.title: p for p in again.store.iter_papers()}
            assert back["Handbook of Causal Methods"].csl["editor"] == editors
        finally:
            again.close()
    finally:
        library.close()


def test_ovids_y2_month_dates_the_paper_and_endnotes_m3_type_is_no_genre(
    tmp_path: Path,
) -> None:
    """Ovid's ``Y2 - 2021 Apr`` is the publication date again, with the month PY lacks;
    EndNote's ``M3 - Book`` beside ``TY - BOOK`` names the type again, not a genre to cite
    ("[Book]")."""
    text = (DATA / "ris-endnote-ovid.ris").read_text(encoding="utf-8")
    library = _ris_library(tmp_path, "tools.ris", text)
    try:
        papers = {p.title: p for p in library.store.iter_papers()}
        rodents, book = papers["A study of attention in rodents"], papers["Causality"]
        assert rodents.date == "2021-04"
        assert rodents.csl["issued"] == {"date-parts": [[2021, 4]]}
        assert "accessed" not in rodents.csl
        assert "genre" not in book.csl and book.extra["ris"]["M3"] == ["Book"]
        assert render([book], "text", "apa") == (
            "Pearl, J. (2009). Causality. Cambridge University Press.")
    finally:
        library.close()


def test_jabrefs_groups_read_status_and_comments_are_tags_read_mark_and_note(
    tmp_path: Path,
) -> None:
    library = Library(tmp_path / "lib")
    try:
        summary = library.imports.write_files([DATA / "jabref-marks.bib"])
        [paper] = library.store.iter_papers()
        assert paper.tags == ["to-cite", "transformers"]
        # A group written otherwise than as its tag is named, as a CSV's tags are.
        assert summary.tags_rewritten == [("To cite", "to-cite")]
        # Imported again, the file adds no paper and writes no tag: it says none rewritten.
        again = library.imports.write_files([DATA / "jabref-marks.bib"])
        assert again.unchanged == 1 and again.tags_rewritten == []
        assert paper.read
        assert paper.note == "The paper that started it.\n\nana: Check the warmup schedule."
        # Kept as JabRef wrote them, and written back for it.
        entry = export([paper], "bibtex")
        assert "groups = {Transformers, To cite}" in entry and "readstatus = {read}" in entry
        assert "ranking = {rank5}" in entry
    finally:
        library.close()


def test_ovids_marked_editors_endnotes_degree_and_a_reports_number(tmp_path: Path) -> None:
    """Ovid marks a book's editors in A2 ("Gross, James J [Ed]") among the cited
    references' authors; EndNote's thesis gives its degree in VL; a report's SN is its
    number, no ISBN."""
    ovid = _ris_library(tmp_path, "ovid.ris",
                        (DATA / "ris-ovid-editors.ris").read_text(encoding="utf-8"))
    endnote = _ris_library(tmp_path, "endnote.ris",
                           (DATA / "ris-endnote-thesis-report.ris").read_text(encoding="utf-8"))
    try:
        papers = {p.citekey: p for p in ovid.store.iter_papers()}
        gross = [{"family": "Gross", "given": "James J"}]
        assert papers["gross2014handbook"].csl["editor"] == gross
        assert render([papers["charles2014emotion"]], "text", "apa").startswith(
            "Charles, S. T., & Carstensen, L. L. (2014). Emotion regulation across the life "
            "span. In J. J. Gross (Ed.), Handbook of emotion regulation")
        papers = {p.citekey: p for p in endnote.store.iter_papers()}
        thesis, report = papers["zhang2020learning"], papers["maaten2009dimensionality"]
        assert "volume" not in thesis.csl and thesis.extra["ris"]["VL"] == ["Doctor of Philosophy"]
        assert render([thesis], "text", "apa") == (
            "Zhang, W. (2020). Learning to Reason with Graph Neural Networks [Ph.D., Stanford "
            "University]. https://purl.stanford.edu/xx000yy0000")
        assert report.csl["number"] == "TiCC TR 2009-005" and "ISBN" not in report.csl
        assert "number = {TiCC TR 2009-005}" in export([report], "bibtex")
    finally:
        ovid.close()
        endnote.close()


def test_zoteros_csv_type_and_number_columns_are_the_genre_and_number(tmp_path: Path) -> None:
    """Beside its Item Type, Zotero's CSV has a Type (a thesis's "Master's thesis", a
    report's "Technical Report") and a Number (a report's): they were dropped without a
    word, and a master's thesis went out as @phdthesis."""
    library = Library(tmp_path / "lib")
    try:
        library.imports.write_files([DATA / "zotero-full-header.csv"])
        papers = {p.citekey: p for p in library.store.iter_papers()}
        thesis, report = papers["garciaperez2018estudio"], papers["maaten2009dimensionality"]
        assert thesis.csl["genre"] == "Master's thesis"
        assert export([thesis], "bibtex").startswith("@mastersthesis{garciaperez2018estudio,")
        assert "[Master's thesis]" in render([thesis], "text", "apa")
        assert (report.csl["genre"], report.csl["number"]) == (
            "Technical Report", "TiCC TR 2009-005")
        assert "(Technical Report TiCC TR 2009-005)" in render([report], "text", "apa")
    finally:
        library.close()


def test_mendeleys_folders_tags_and_annote_are_tags_and_the_note(tmp_path: Path) -> None:
    library = Library(tmp_path / "lib")
    try:
        library.imports.write_files([DATA / "mendeley-marks.bib"])
        papers = {p.citekey: p for p in library.store.iter_papers()}
        cat = papers["Schrodinger1935"]
        assert cat.tags == ["cat", "physics/classics"]
        assert cat.note == "Read twice. Key: the cat."
        assert library.search("twice").ids == [cat.id]  # a note is searched
        assert papers["Muller2019"].tags == ["xai"]
    finally:
        library.close()


def test_a_year_cleared_or_changed_by_hand_takes_the_date_with_it(tmp_path: Path) -> None:
    """The edit dialog's Year emptied: the list and BibTeX had no year, APA still "(1935)"
    from the date kept beside it."""
    library = Library(tmp_path / "lib")
    try:
        library.imports.write_files([DATA / "mendeley-marks.bib"])
        [paper] = [p for p in library.store.iter_papers() if p.citekey == "Schrodinger1935"]
        assert (paper.date, paper.csl["issued"]) == ("1935-11", {"date-parts": [[1935, 11]]})
        library.marks.update_metadata(paper.id, {"year": 1936})
        moved = library.paper(paper.id)
        assert moved is not None and moved.date is None and "issued" not in moved.csl
        assert "(1936)" in render([moved], "text", "apa")
        library.marks.update_metadata(paper.id, {"year": None})
        cleared = library.paper(paper.id)
        assert cleared is not None and "(n.d.)" in render([cleared], "text", "apa")
    finally:
        library.close()


def test_a_tables_date_gives_the_bibtex_month(tmp_path: Path) -> None:
    """Zotero's CSV dates "1935-11-29": the BibTeX export wrote the year alone."""
    library = Library(tmp_path / "lib")
    try:
        library.imports.write_files([DATA / "zotero-full-header.csv"])
        [paper] = [p for p in library.store.iter_papers() if p.citekey == "schrodinger1935die"]
        # The day it was published (a table's date is no submission day).
        assert paper.date == "1935-11-29"
        assert paper.csl["issued"] == {"date-parts": [[1935, 11, 29]]}
        entry = export([paper], "bibtex")
        assert "year = {1935}" in entry and "month = nov" in entry
    finally:
        library.close()
