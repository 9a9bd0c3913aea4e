"""What a table's header says, and what an import says of it: the columns it read as no
field of a paper are named (as other formats name the fields they do not keep), and a
"Paper Name" is the paper's title; Excel's "sep=;" line names the delimiter, and a German,
French or Spanish sheet's title, authors, year and abstract are read."""

from __future__ import annotations

from pathlib import Path

import pytest

from reader.library import Library
from reader.sources import ImportFormatError, csv_table, stream_file
from tests.parsing import parse_file


def test_a_paper_name_column_is_the_title() -> None:
    [record] = csv_table.parse("Paper Name;Summary;Year\nA title;An abstract;2020\n",
                               "semicolon.csv").records
    assert (record.title, record.title_derived, record.abstract, record.year) == (
        "A title", False, "An abstract", 2020)


def test_a_column_read_as_nothing_is_named_in_the_import_summary(tmp_path: Path) -> None:
    """A "Name" may be a person's (a table of people): not taken for the title, but the
    summary names it, and says the title was derived for want of one."""
    path = tmp_path / "name.csv"
    path.write_text("Name,Abstract\nMy Named Title,Other abstract text\n", encoding="utf-8")
    library = Library(tmp_path / "lib")
    try:
        summary = library.imports.write_files([path])
        [paper] = library.store.iter_papers()
    finally:
        library.close()
    assert (paper.title, paper.title_derived) == ("Other abstract text", True)
    assert paper.extra == {"table": {"Name": "My Named Title"}}
    [warning] = summary.warnings
    assert "'Name'" in warning and "1 title derived from the abstract" in warning


def test_a_table_whose_columns_are_all_read_says_nothing_more() -> None:
    result = csv_table.parse("Title,Abstract,Authors\nA,B,Doe J\n", "t.csv")
    assert result.warnings == []
    # A column of no field beside a title: named, and no word of derived titles.
    result = csv_table.parse("Title,Abstract,Room\nA,B,Hall 2\n", "t.csv")
    assert result.warnings == ["t.csv: columns read as no field of a paper, kept as written "
                               "among its source fields: 'Room'"]


def test_a_csv_whose_header_names_no_column_known_is_refused_as_a_table(tmp_path: Path) -> None:
    """Its own refusal (the columns found, a title or abstract column wanted), not the
    abstract list's, whose advice would read its rows as abstracts; an abstract list
    named .csv is still read as one."""
    for name, text in (("typo.csv", "titl,abstrct\nX,Y\n"), ("header.csv", "foo;bar\n")):
        (tmp_path / name).write_text(text, encoding="utf-8")
        with pytest.raises(ImportFormatError) as caught:
            stream_file(tmp_path / name)
        message = str(caught.value)
        assert "not a paper table: no title or abstract column" in message, message
        assert "--format seed" not in message
    assert "'titl', 'abstrct'" in str(pytest.raises(
        ImportFormatError, stream_file, tmp_path / "typo.csv").value)
    listed = tmp_path / "list.csv"
    listed.write_text("ICLR 2026\n\nAn abstract, with a comma.\n\nAnother, too.\n",
                      encoding="utf-8")
    assert stream_file(listed).format == "seed"


def test_a_column_of_links_to_the_paper_is_read_and_not_named_unread() -> None:
    # "openreview_url" gives the paper's forum, as an id column would: it is read.
    result = csv_table.parse(
        "title,openreview_url,track\n"
        "A paper,https://openreview.net/forum?id=Yacmpz84TH,Main\n", "accepted.csv")
    [record] = result.records
    assert record.openreview_id == "Yacmpz84TH"
    [warning] = result.warnings
    assert "'track'" in warning and "openreview_url" not in warning


def test_a_second_title_column_saying_something_else_is_named_unread() -> None:
    result = csv_table.parse("Paper Name,Paper Title,Abstract\n"
                             "SAIL,SAIL: Self-Amplified Iterative Learning,An abstract\n", "t.csv")
    [record] = result.records
    assert record.title == "SAIL"
    [warning] = result.warnings
    assert "'Paper Title'" in warning and "'Paper Name'" not in warning


def test_excels_sep_line_names_the_delimiter(tmp_path: Path) -> None:
    path = tmp_path / "excel.csv"
    path.write_text("sep=;\r\nTitle;Authors;Year\r\nA sep line paper;Doe, J.;2020\r\n",
                    encoding="utf-8")
    for fmt in (None, "csv"):  # detected, and named
        [record] = parse_file(path, fmt).records
        assert (record.title, record.authors, record.year) == ("A sep line paper", ["J. Doe"],
                                                               2020)


@pytest.mark.parametrize("header", ["Titel,Autoren,Jahr,Zusammenfassung",
                                    "Titre,Auteurs,Année,Résumé",
                                    "Título,Autores,Año,Resumen"])
def test_a_german_french_or_spanish_header_is_read(header: str) -> None:
    [record] = csv_table.parse(f"{header}\nEin Titel,Max Muster,2021,Ein Abstract.\n",
                               "sheet.csv").records
    assert (record.title, record.authors, record.year, record.abstract) == (
        "Ein Titel", ["Max Muster"], 2021, "Ein Abstract.")


def test_scopus_language_and_zoteros_access_date_are_read() -> None:
    [record] = csv_table.parse("Title,Language of Original Document,Access Date\n"
                               "A page,German,2024-03-05 10:00:00\n", "t.csv").records
    assert record.csl["language"] == "German"
    assert record.csl["accessed"] == {"date-parts": [[2024, 3, 5]]}
    assert not record.extra
