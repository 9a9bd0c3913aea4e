"""A Zotero / Better BibTeX library lands as its author meant: tags are the library's tags,
the lines of ``extra`` are the fields they name (and go back out as those fields), every
creator reaches BibTeX, and a book with editors only is keyed by its editors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from reader.cite.formats import render
from reader.library import Library
from reader.models import Paper
from reader.sources import parse_text


def _item(**fields: Any) -> dict[str, Any]:
    item: dict[str, Any] = {"itemType": "book", "title": "Mapping the Field", "date": "1986"}
    item.update(fields)
    return item


EDITED_BOOK = _item(
    creators=[
        {"creatorType": "editor", "firstName": "Anna", "lastName": "Smith"},
        {"creatorType": "contributor", "firstName": "Bo", "lastName": "Lee"},
        {"creatorType": "seriesEditor", "firstName": "Cy", "lastName": "Dunn"},
        {"creatorType": "translator", "firstName": "Di", "lastName": "Eve"},
    ],
    publisher="Sage",
    tags=[{"tag": "vigtig"}, {"tag": "To Read"}, {"tag": "Sport sociology", "type": 1}],
)
CHAPTER = {
    "itemType": "bookSection", "title": "Sport and the body", "date": "2004",
    "bookTitle": "Sport Matters",
    "creators": [
        {"creatorType": "author", "firstName": "Ian", "lastName": "Brittain"},
        {"creatorType": "bookAuthor", "firstName": "Jo", "lastName": "Grant"},
    ],
    "extra": "\n".join([
        "Citation Key: brittain2004sport",
        "tex.options= usetranslator=false",
        "tex.howpublished: print",
        "original-date: 1950",
        "Original Title: Le sport et le corps",
        "DOI: 10.1234/sport.2004",
        "Read the second half first",
    ]),
}


def _write(tmp_path: Path, *items: dict[str, Any]) -> Path:
    path = tmp_path / "library.json"
    path.write_text(json.dumps({"config": {"label": "BetterBibTeX JSON"}, "items": list(items)}))
    return path


def _by_title(library: Library) -> dict[str, Paper]:
    return {p.title: p for p in library.papers(library.all_ids())}


def test_manual_tags_are_tags_and_automatic_ones_keywords(
    empty_library: Library, tmp_path: Path
) -> None:
    empty_library.import_files([_write(tmp_path, EDITED_BOOK)])
    paper = _by_title(empty_library)["Mapping the Field"]
    assert paper.tags == ["to-read", "vigtig"]
    assert paper.keywords == ["Sport sociology"]
    assert empty_library.search("tag:vigtig").ids == [paper.id]
    assert not empty_library.search("keywords:vigtig").ids


def test_a_second_import_leaves_the_tags_the_user_set(
    empty_library: Library, tmp_path: Path
) -> None:
    path = _write(tmp_path, EDITED_BOOK)
    empty_library.import_files([path])
    paper = _by_title(empty_library)["Mapping the Field"]
    empty_library.set_tags(paper.id, ["done"])
    empty_library.import_files([path])
    assert _by_title(empty_library)["Mapping the Field"].tags == ["done"]


def test_extra_lines_become_the_fields_they_name() -> None:
    text = json.dumps({"config": {}, "items": [CHAPTER]})
    [record] = parse_text(text, "z.json", "zotero").records
    assert record.citekey == "brittain2004sport"
    assert record.doi == "10.1234/sport.2004"
    assert record.extra["bibtex"] == {"options": "usetranslator=false", "howpublished": "print"}
    assert record.csl["original-date"] == {"date-parts": [[1950]]}
    assert record.csl["original-title"] == "Le sport et le corps"
    assert record.csl["note"] == "Read the second half first"
    assert record.csl["container-author"] == [{"family": "Grant", "given": "Jo"}]


def _fields(paper: Paper) -> tuple[Any, ...]:
    return (
        paper.citekey, paper.doi, paper.csl.get("original-date"),
        paper.csl.get("original-title"), paper.csl.get("note"),
        paper.csl.get("container-author"), paper.extra.get("bibtex", {}).get("options"),
        paper.extra.get("bibtex", {}).get("howpublished"),
    )


def test_extra_fields_go_back_out_and_come_back(tmp_path: Path) -> None:
    first = Library(tmp_path / "first")
    first.imports.write_files([_write(tmp_path, CHAPTER)])
    [paper] = first.papers(first.all_ids())
    bibtex = render([paper], "biblatex")
    assert bibtex.startswith("@incollection{brittain2004sport,")
    for line in ("  options = {usetranslator=false}", "  howpublished = {print}",
                 "  origdate = {1950}", "  bookauthor = {Grant, Jo}",
                 "  doi = {10.1234/sport.2004}"):
        assert line in bibtex
    item = json.loads(render([paper], "csljson"))[0]
    assert (item["id"], item["original-date"], item["DOI"]) == (
        "brittain2004sport", {"date-parts": [[1950]]}, "10.1234/sport.2004")
    assert item["custom"]["bibtex"]["options"] == "usetranslator=false"
    for fmt, text in (("bibtex", bibtex), ("csljson", json.dumps([item]))):
        path = tmp_path / f"again.{fmt}"
        path.write_text(text)
        again = Library(tmp_path / f"again-{fmt}")
        again.imports.write_files([path])
        [back] = again.papers(again.all_ids())
        assert _fields(back)[:6] == _fields(paper)[:6], fmt
        assert back.extra["bibtex"]["options"] == "usetranslator=false", fmt
        again.close()
    first.close()


def test_every_creator_reaches_bibtex(empty_library: Library, tmp_path: Path) -> None:
    empty_library.imports.write_files([_write(tmp_path, EDITED_BOOK)])
    [paper] = empty_library.papers(empty_library.all_ids())
    entry = render([paper], "biblatex")
    for line in ("  editor = {Smith, Anna}", "  translator = {Eve, Di}",
                 "  editora = {Lee, Bo}", "  editoratype = {collaborator}",
                 "  extra = {collection-editor: Dunn || Cy}"):
        assert line in entry
    path = tmp_path / "again.bib"
    path.write_text(entry)
    [record] = parse_text(entry, "again.bib", "bibtex").records
    assert record.csl["contributor"] == [{"family": "Lee", "given": "Bo"}]


def test_an_edited_book_is_keyed_by_its_editors(empty_library: Library, tmp_path: Path) -> None:
    book = _item(creators=[{"creatorType": "editor", "firstName": "Anna", "lastName": "Smith"}])
    empty_library.imports.write_files([_write(tmp_path, book)])
    [paper] = empty_library.papers(empty_library.all_ids())
    assert paper.citekey == "smith1986mapping"
    assert render([paper], "key") == "smith1986mapping"


def test_a_pinned_key_unlike_the_items_key_still_names_the_paper(
    empty_library: Library, tmp_path: Path
) -> None:
    renamed = dict(CHAPTER, citationKey="brittain2004body")
    empty_library.import_files([_write(tmp_path, renamed)])
    paper = empty_library.resolve("brittain2004sport").paper
    assert paper is not None and paper.citekey == "brittain2004body"


def test_an_openreview_link_identifies_the_paper() -> None:
    item = _item(itemType="conferencePaper", url="https://openreview.net/forum?id=EytBpUGB1Z")
    text = json.dumps({"config": {}, "items": [item]})
    [record] = parse_text(text, "z.json", "zotero").records
    # As from CSV, RIS and BibTeX: the OpenReview record of it merges, not a duplicate.
    assert record.openreview_id == "EytBpUGB1Z"


def test_a_zotero_csvs_extra_and_book_columns_reach_the_citation(tmp_path: Path) -> None:
    """Zotero's CSV: Extra lines, a book's number of pages and volumes, a report's series
    title and a paper's conference were kept only as the table's, and cited by none."""
    path = tmp_path / "zotero.csv"
    path.write_text(
        '"Key","Item Type","Publication Year","Author","Title","Publisher","Num Pages",'
        '"Number Of Volumes","Series Title","Conference Name","Extra"\n'
        '"AB12","book","2002","Foucault, Michel","The Order of Things","Routledge","422",'
        '"2","Routledge Classics","","original-date: 1966\nRead in French first"\n'
        '"CD34","conferencePaper","2024","Nguyen, An","Calibrated Uncertainty","","",'
        '"","","ICLR 2024",""\n',
        encoding="utf-8",
    )
    book, paper = parse_text(path.read_text(encoding="utf-8"), "zotero.csv", "csv").records
    assert book.csl["original-date"] == {"date-parts": [[1966]]}
    assert book.csl["note"] == "Read in French first"
    assert (book.csl["number-of-pages"], book.csl["number-of-volumes"]) == ("422", "2")
    assert book.csl["collection-title"] == "Routledge Classics"
    assert paper.csl["event"] == "ICLR 2024"
    assert "Extra" not in book.extra.get("table", {})


def test_a_zotero_csvs_single_field_names_are_institutions() -> None:
    text = (
        '"Key","Item Type","Publication Year","Author","Editor","Title"\n'
        '"K1","report","2020","World Health Organization","","ATC index"\n'
        '"K2","book","2021","Lee, Ann; Eurostat","Statistics Office","Joint report"\n'
    )
    one, two = parse_text(text, "z.csv", "csv").records
    # Zotero writes a two-field name "Family, Given": one without a comma is one name.
    assert one.csl["author"] == [{"literal": "World Health Organization"}]
    assert two.csl["author"] == [{"family": "Lee", "given": "Ann"}, {"literal": "Eurostat"}]
    assert two.csl["editor"] == [{"literal": "Statistics Office"}]
    cited = render([_paper_of(one)], "text", style="apa")
    assert cited.startswith("World Health Organization. (2020)"), cited


def _paper_of(record: Any) -> Paper:
    return Paper(id=1, title=record.title, title_derived=False, abstract="",
                 authors=record.authors, venue=None, year=record.year, keywords=[], url=None,
                 doi=None, citekey="who2020", starred=False, note="", added_at="",
                 csl=record.csl)


def test_a_zotero_7_preprint_keeps_its_archive_and_number() -> None:
    item = _item(itemType="preprint", title="Mistral 7B", date="2023-10-10",
                 repository="arXiv", archiveID="arXiv:2310.06825",
                 url="http://arxiv.org/abs/2310.06825")
    [record] = parse_text(json.dumps({"config": {}, "items": [item]}), "z.json",
                          "zotero").records
    assert record.arxiv_id == "2310.06825"
    assert (record.csl["publisher"], record.csl["number"]) == ("arXiv", "arXiv:2310.06825")


def test_a_doi_in_a_zotero_csvs_extra_is_the_papers_doi(
    empty_library: Library, tmp_path: Path
) -> None:
    """Zotero keeps the DOI of an item type without a DOI field (software) in Extra: it was
    shown, but searching by it found nothing, and the library's own export came back as a
    change."""
    path = tmp_path / "zotero.csv"
    path.write_text(
        '"Key","Item Type","Publication Year","Author","Title","Extra"\n'
        '"PT12","computerProgram","2019","Paszke, Adam","PyTorch",'
        '"DOI: 10.5281/zenodo.3606810"\n',
        encoding="utf-8",
    )
    empty_library.import_files([path])
    [paper] = empty_library.papers(empty_library.all_ids())
    assert paper.doi == "10.5281/zenodo.3606810"
    assert "note" not in paper.csl
    cited = render([paper], "text", style="apa")
    assert cited.count("10.5281/zenodo.3606810") == 1
