"""Scopus's CSV export read as Scopus means its cells: a translated title's bracketed
original is the original title, an abstract's copyright notice is no part of the abstract,
NeurIPS's "volume" ``2020-December`` is no volume, and a book's source title is its series
(the book cited as a book, not as a chapter in the series)."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from msgspec.structs import replace

from reader.cite.export import export
from reader.cite.formats import render
from reader.library import Library
from reader.models import Paper
from reader.sources import parse_text

HEADER = ["Authors", "Author full names", "Title", "Year", "Source title", "Volume", "Issue",
          "Page start", "Page end", "Page count", "DOI", "Abstract", "Publisher",
          "Language of Original Document", "Document Type", "Source"]
ROWS = [
    ["Ivanov I.I.", "Ivanov, Ivan I. (57201234567)",
     "Neural networks for Russian texts [Нейронные сети для русских текстов]", "2022",
     "Trudy SPIIRAN", "21", "3", "512", "540", "28", "10.15622/ia.21.3.4",
     "We propose a neural model. © 2022 St. Petersburg Federal Research Center. All rights "
     "reserved.", "", "Russian", "Article", "Scopus"],
    ["Brown T.", "Brown, Tom (57219123456)", "Language models are few-shot learners", "2020",
     "Advances in Neural Information Processing Systems", "2020-December", "", "", "", "", "",
     "Recent work has demonstrated gains.", "", "English", "Conference paper", "Scopus"],
    ["Goldberg Y.", "Goldberg, Yoav (35182335100)",
     "Neural Network Methods for Natural Language Processing", "2017",
     "Synthesis Lectures on Human Language Technologies", "10", "1", "1", "311", "311",
     "10.2200/S00762ED1V01Y201703HLT037", "Neural networks are models. © 2017 by Morgan & "
     "Claypool.", "Morgan and Claypool Publishers", "English", "Book", "Scopus"],
]


def _papers(tmp_path: Path) -> dict[str, Paper]:
    out = io.StringIO()
    csv.writer(out, quoting=csv.QUOTE_ALL).writerows([HEADER, *ROWS])
    path = tmp_path / "scopus.csv"
    path.write_text("\ufeff" + out.getvalue(), encoding="utf-8")
    library = Library(tmp_path / "lib")
    try:
        library.imports.write_files([path])
        return {p.citekey: p for p in library.papers(library.all_ids())}
    finally:
        library.close()


def test_a_translated_title_keeps_its_original_apart(tmp_path: Path) -> None:
    paper = _papers(tmp_path)["ivanov2022neural"]
    assert paper.title == "Neural networks for Russian texts"
    assert paper.csl["original-title"] == "Нейронные сети для русских текстов"
    # Cited as the manuals ask: the original, then the translation in brackets (not as a
    # republished work's "Originally published as …").
    for style in ("chicago-author-date", "ieee"):
        cited = render([paper], "text", style).lower()
        assert "нейронные сети для русских текстов [neural networks for russian texts]" in cited
        assert "originally published" not in cited


def test_the_copyright_notice_is_no_part_of_the_abstract(tmp_path: Path) -> None:
    papers = _papers(tmp_path)
    assert papers["ivanov2022neural"].abstract == "We propose a neural model."
    assert papers["goldberg2017neural"].abstract == "Neural networks are models."
    kept = papers["ivanov2022neural"].extra["table"]["Copyright"]
    assert kept.startswith("© 2022 St. Petersburg") and kept.endswith("All rights reserved.")


def test_a_month_given_as_the_volume_is_not_cited(tmp_path: Path) -> None:
    paper = _papers(tmp_path)["brown2020language"]
    assert "volume" not in paper.csl and paper.extra["table"]["Volume"] == "2020-December"
    for style in ("apa", "chicago-author-date", "mla", "ieee"):
        assert "December" not in render([paper], "text", style), style


def test_a_book_in_a_series_is_cited_as_a_book(tmp_path: Path) -> None:
    paper = _papers(tmp_path)["goldberg2017neural"]
    assert paper.csl["collection-title"] == "Synthesis Lectures on Human Language Technologies"
    assert paper.csl["collection-number"] == "10" and paper.csl["number-of-pages"] == "311"
    assert "page" not in paper.csl and paper.venue == paper.csl["collection-title"]
    apa = render([paper], "text", "apa")
    assert apa.startswith("Goldberg, Y. (2017). Neural Network Methods for Natural Language "
                          "Processing. Morgan and Claypool Publishers.")
    for style in ("apa", "chicago-author-date", "mla", "ieee"):
        text = render([paper], "text", style)
        assert "In Synthesis" not in text and "1–311" not in text, style


def test_a_link_with_percent_escapes_round_trips_through_bibtex(tmp_path: Path) -> None:
    """Scopus's links hold "%2f": the BibTeX export writes each "%" as "\\%", and its
    import reads that back as the link, with no copy of the field kept as written."""
    link = "https://www.scopus.com/inward/record.uri?eid=2-s2.0-1&doi=10.15622%2fia.21.3.4"
    paper = _papers(tmp_path)["ivanov2022neural"]
    written = export([replace(paper, url=link)], "bibtex")
    assert "doi=10.15622\\%2fia.21.3.4}" in written
    [back] = parse_text(written, "again.bib", "bibtex").records
    assert back.url == link and "url" not in back.extra.get("bibtex", {})
    assert export([replace(paper, url=back.url)], "bibtex") == written
