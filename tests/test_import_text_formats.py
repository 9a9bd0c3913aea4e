"""The BibTeX, RIS, arXiv Atom and CSV importers, and telling those formats apart.

Samples in tests/data are copies of the shared real files (../shared/data, see its README):
``random-229-first30.bib`` (the first 30 entries of random-229.bib), ``xampl.bib`` and
``cyrillic.bib`` (pybtex, MIT), ``bibtexparser-*.bib`` (python-bibtexparser fixtures, MIT),
``baseline-20.ris`` (the first 20 records of asreview's baseline-100.ris, CC0) and the two
arXiv API feeds. ``papers-*.csv`` are made up for these tests. When the shared files are
present, they are read whole as well.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

from reader.models import PaperRecord
from reader.record import display_name
from reader.sources import (
    ImportFormatError,
    ParseResult,
    arxiv_atom,
    bibtex,
    bibtex_names,
    csv_table,
    name_cells,
    ris,
    ris_names,
)
from reader.sources.textsniff import detect_text_format
from reader.text.render import plain_line

DATA = Path(__file__).parent / "data"
SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "data"
PARSERS: dict[str, Callable[[str, str], ParseResult]] = {
    "bibtex": bibtex.parse,
    "ris": ris.parse,
    "arxiv-atom": arxiv_atom.parse,
    "csv": csv_table.parse,
}


def text_of(path: Path) -> str:
    """A file's text exactly as stored: BOM and CRLF line ends included."""
    return path.read_bytes().decode("utf-8")


def parse_data(parser: Callable[[str, str], ParseResult], name: str) -> ParseResult:
    return parser(text_of(DATA / name), name)


def shared(relative: str) -> Path:
    path = SHARED / relative
    if not path.exists():
        pytest.skip(f"shared data {relative} not present")
    return path


def by_source(result: ParseResult, line: int) -> PaperRecord:
    """The record that starts on ``line``."""
    [record] = [r for r in result.records if r.source and r.source.endswith(f":{line}")]
    return record


# --- BibTeX ----------------------------------------------------------------------------------


def test_bibtex_real_slice_fields() -> None:
    result = parse_data(bibtex.parse, "random-229-first30.bib")
    assert (len(result.records), result.problems) == (30, [])
    first = result.records[0]
    # The title is kept as TeX ({{…}} protects its case) and shown without the braces;
    # eprint + archivePrefix give the arXiv id.
    assert first.title == (
        "{Operationally-Motivated Uncertainty Relations for Joint Measurability and the"
        " Error-Disturbance Tradeoff}"
    )
    assert plain_line(first.title) == (
        "Operationally-Motivated Uncertainty Relations for Joint Measurability and the"
        " Error-Disturbance Tradeoff"
    )
    assert first.authors == ["Joseph M. Renes", "Volkher B. Scholz"]
    assert (first.year, first.date, first.kind) == (2014, "2014-02", "misc")
    assert first.arxiv_id == "1402.6711"
    assert first.abstract.startswith("We derive new Heisenberg-type uncertainty relations")
    assert first.source == "random-229-first30.bib:1"
    assert not first.title_derived

    dammeier = result.records[1]
    assert dammeier.authors == ["Lars Dammeier", "René Schwonnek", "Reinhard F Werner"]
    assert dammeier.doi == "10.1088/1367-2630/17/9/093046"
    assert dammeier.venue == "New Journal of Physics"
    assert dammeier.source == "random-229-first30.bib:12"

    # "{\_}" in a DOI is an escaped underscore, not part of the identifier.
    assert "10.1007/978-3-662-46803-6_26" in {r.doi for r in result.records}
    shayevitz = result.records[-1]
    assert plain_line(shayevitz.title) == "On Rényi Measures and Hypothesis Testing"
    assert shayevitz.venue == "Proc. IEEE ISIT 2011"
    # Of Mendeley's two URLs, the publisher's: the arXiv id links to the arXiv page.
    assert shayevitz.url == (
        "http://ieeexplore.ieee.org/lpdocs/epic03/wrapper.htm?arnumber=6034266")
    # The abstract keeps its LaTeX; it is rendered when shown.
    assert "R$\\backslash$'enyi" in shayevitz.abstract


def test_bibtex_xampl_strings_crossref_and_months() -> None:
    result = parse_data(bibtex.parse, "xampl.bib")
    # Every entry is kept: one without a title is named by its journal or note, dimmed as
    # a derived title.
    assert len(result.records) == 36
    assert [p.split(': ')[1] for p in result.problems] == [
        "its @preamble is not kept, and an export writes none (fields that use its "
        "macros need them in the document)"]
    stand_ins = {r.citekey: r.title for r in result.records if r.title_derived}
    assert stand_ins == {
        "whole-journal": "G-Animal's Journal",
        "misc-minimal": "This is a minimal MISC entry",
        "random-note-crossref": "Volume 2 is listed under Knuth [book-full]",
    }
    crossref = by_source(result, 34)  # article-crossref → WHOLE-JOURNAL (key case differs)
    assert (crossref.venue, crossref.year, crossref.date) == ("G-Animal's Journal", 1986, "1986-07")
    inbook = by_source(result, 78)  # inbook-crossref → whole-set, a book: its title is the venue
    assert (inbook.venue, inbook.year) == ("The Art of Computer Programming", 1973)
    proceedings = by_source(result, 246)  # booktitle = "Proc. Fifteenth Annual ACM" # STOC
    assert proceedings.venue == "Proc. Fifteenth Annual ACM Symposium on the Theory of Computing"
    assert proceedings.authors == ["Alfred V. Oaho", "Jeffrey D. Ullman", "Mihalis Yannakakis"]
    sorting = by_source(result, 325).title
    assert sorting == r"An {$O(n \log n / \! \log\log n)$} Sorting Algorithm"
    assert plain_line(sorting) == "An O(n log n / log log n) Sorting Algorithm"
    assert by_source(result, 332).authors == ["Tom Térrific"]
    assert by_source(result, 350).authors == ["Ulrich Ünderwood", "Ned Ñet", "Paul P\u0304ot"]
    assert by_source(result, 208).authors == ["Édouard Masterly"]
    kinds = {r.kind for r in result.records}
    assert {"article", "inbook", "book", "booklet", "incollection", "manual"} <= kinds


def test_bibtex_crossref_children_inherit_what_they_lack() -> None:
    records = {r.citekey: r for r in parse_data(bibtex.parse, "xampl.bib").records}
    # A book in a set takes the set's author and publisher; its own title, year and note win.
    book = records["book-crossref"]
    assert (book.title, book.authors, book.year) == (
        "Seminumerical Algorithms", ["Donald E. Knuth"], 1981
    )
    assert book.csl["publisher"] == "Addison-Wesley"
    assert book.csl["note"] == "This is a cross-referencing BOOK entry"
    # A chapter takes the book's title as its book title and the book's author as its own
    # and as the book's author (biblatex).
    inbook = records["inbook-crossref"]
    assert inbook.venue == "The Art of Computer Programming"
    assert inbook.csl["author"] == inbook.csl["container-author"] == [
        {"given": "Donald E.", "family": "Knuth"}
    ]
    # A part of a collection: its editors, publisher, place, series and date.
    part = records["incollection-crossref"]
    assert [n["family"] for n in part.csl["editor"]] == ["Lipcoll", "Lawrie", "Sameh"]
    assert (part.csl["publisher"], part.csl["publisher-place"], part.date) == (
        "Academic Press", "New York", "1977-09"
    )
    # A paper in proceedings: their booktitle, place and year; an empty field of its own
    # (organization = "") is a field it has, so the proceedings' organization stays theirs.
    paper = records["inproceedings-crossref"]
    assert paper.venue == "Proc. Fifteenth Annual ACM Symposium on the Theory of Computing"
    assert (paper.year, paper.csl["publisher-place"]) == (1983, "Boston")
    assert "publisher" not in paper.csl
    # An article takes its journal issue's volume and number.
    article = records["article-crossref"]
    assert (article.csl["volume"], article.csl["issue"]) == ("41", "7")


def test_bibtex_crossref_follows_biblatex_title_mappings() -> None:
    text = (
        "@inproceedings{part, title={Part}, author={Ada Lovelace}, crossref={proc}}\n"
        "@proceedings{proc, title={Proceedings of X}, subtitle={Volume One},"
        " shorttitle={ProcX}, editor={Grace Hopper}, publisher={ACM}, year=2001,"
        " doi={10.1145/1}, abstract={About the proceedings.}}\n"
        "@book{volume, title={Volume Two}, crossref={set}}\n"
        "@mvbook{set, title={The Set}, author={Donald Knuth}, publisher={AW}, year=1997}\n"
        "@book{untitled, crossref={plain}}\n"
        "@book{plain, title={Plain}, subtitle={Sub}, author={A. Author}, year=1990}\n"
    )
    records = {r.citekey: r for r in bibtex.parse(text, "x.bib").records}
    part = records["part"]
    assert (part.title, part.venue, part.year) == ("Part", "Proceedings of X", 2001)
    assert part.csl["editor"] == [{"given": "Grace", "family": "Hopper"}]
    assert part.csl["publisher"] == "ACM"
    # What identifies or describes the proceedings alone is not the paper's.
    assert (part.doi, part.abstract) == (None, "")
    # A multi-volume parent's title is the volume's main title, never its own title.
    volume = records["volume"]
    assert (volume.title, volume.authors, volume.year) == ("Volume Two", ["Donald Knuth"], 1997)
    # A child without a title of its own takes its parent's title fields as they are.
    assert records["untitled"].title == "Plain: Sub"


def test_bibtex_crossref_may_name_its_parent_by_an_alias() -> None:
    text = (
        "@mvbook{ccr1, ids={ccr1alias}, author={Vince Various}, title={Stuff Concerning Varia},"
        " date={1934}}\n"
        "@book{ccr2, title={Misc etc.}, date={1923}, crossref={ccr1alias}}\n"
    )
    records = {r.citekey: r for r in bibtex.parse(text, "aliases.bib").records}
    assert records["ccr1"].aliases == ["ccr1alias"]
    assert records["ccr2"].authors == ["Vince Various"]


def test_bibtex_cyrillic_and_name_forms() -> None:
    result = parse_data(bibtex.parse, "cyrillic.bib")
    assert len(result.records) == 5
    assert [p.split(': ')[1] for p in result.problems] == [
        "its @preamble is not kept, and an export writes none (fields that use its "
        "macros need them in the document)"]
    authors = [r.authors for r in result.records]
    assert authors[0] == ["Hongquin Liu", "Eli Ruckenstein"]
    assert authors[1] == ["Михаил Маркович Викторов"]
    assert authors[2] == ["Péter Jackson"]
    assert authors[4] == ["First Middle de Last Jr."]
    assert result.records[1].title == (
        "Методы вычисления физико-химических величин и прикладные расчёты"
    )
    assert result.records[2].venue == "Some Good Book"
    assert result.records[4].date == "2006-01"


def test_bibtex_fixture_files() -> None:
    strings = parse_data(bibtex.parse, "bibtexparser-features2.bib")
    [record] = strings.records
    assert (record.title, record.authors) == ("Cool Stuff", ["John Doe"])
    assert record.venue == "My International Conference"

    [cesar] = parse_data(bibtex.parse, "bibtexparser-article_with_strings.bib").records
    assert cesar.authors == ["Jean César"]
    assert cesar.venue == "Nice Journal"

    comma_first = parse_data(bibtex.parse, "bibtexparser-article_comma_first.bib")
    assert [r.authors for r in comma_first.records] == [["Jean Cesar"], ["Jean Baltazar"]]

    [bom] = parse_data(bibtex.parse, "bibtexparser-book_bom.bib").records
    assert bom.kind == "book" and bom.year == 1987

    [trap] = parse_data(bibtex.parse, "bibtexparser-traps.bib").records
    assert plain_line(trap.title) == "An amazing title"
    assert trap.keywords == ["keyword1", "keyword2"]
    # The line break inside the abstract is a hard wrap, not a paragraph.
    assert "test multilines... and with a french érudit word" in trap.abstract

    crossref = parse_data(bibtex.parse, "bibtexparser-crossref_entries.bib")
    assert len(crossref.records) == 14
    cr1 = crossref.records[0]
    assert (cr1.title, cr1.venue, cr1.year) == (
        "Great and Good Graphs",
        "Graphs of the Continent",
        1974,
    )


def test_bibtex_wrong_and_cyclic_files_give_problems_not_errors() -> None:
    wrong = parse_data(bibtex.parse, "bibtexparser-wrong.bib")
    assert wrong.records == []
    assert wrong.problems == [
        "bibtexparser-wrong.bib:3: entry 'foo' has neither title nor abstract; skipped",
        "bibtexparser-wrong.bib:7: entry 'bar' has neither title nor abstract; skipped",
    ]
    # A crossref cycle ends (how fast: scripts/benchmark_text.py).
    cycle = parse_data(bibtex.parse, "bibtexparser-crossref_cascading_cycle.bib")
    assert (len(cycle.records), len(cycle.problems)) == (0, 2)


def test_bibtex_crossref_cycle_with_titles_inherits_and_ends() -> None:
    text = (
        "@inproceedings{a, title={Part A}, crossref={b}}\n"
        "@proceedings{b, title={Proc B}, booktitle={Proc B}, year=2001, crossref={c}}\n"
        "@proceedings{c, title={Proc C}, crossref={a}}\n"
    )
    result = bibtex.parse(text, "cycle.bib")
    a = result.records[0]
    assert (a.venue, a.year) == ("Proc B", 2001)
    assert len(result.records) == 3


def test_bibtex_broken_entries_name_file_line_and_key() -> None:
    text = (
        "% a comment line\n"
        '@preamble{ "\\newcommand{\\noop}[1]{}" }\n'
        "@comment{ignored}\n"
        "@article{good1, title = {First good}, year = 2020}\n"
        "\n"
        "@article{smith2020,\n"
        "  title = {Never closed,\n"
        "  year = 2020,\n"
        "\n"
        "@article{good2, title = {Second good}}\n"
        "@article{nokey title = {x}}\n"
        "@article{good3,\n"
        "  title = {Third good},\n"
        "  abstract = {Cut off\n"
    )
    result = bibtex.parse(text, "bad.bib")
    assert [r.title for r in result.records] == ["First good", "Second good"]
    assert result.problems == [
        "bad.bib:2: its @preamble is not kept, and an export writes none (fields that use its "
        "macros need them in the document): \"\\newcommand{\\noop}[1]{}\"",
        "bad.bib:6: entry 'smith2020' has no closing brace (the next entry starts first); skipped",
        "bad.bib:11: entry 'nokey' has no comma after its key; skipped",
        "bad.bib:12: entry 'good3' has no closing brace (the file ends first); skipped",
    ]


def test_bibtex_abstract_only_entry_gets_a_derived_title() -> None:
    text = (
        "@misc{x, abstract = {We introduce GDPval, a benchmark of economically valuable tasks.}}\n"
        "@misc{y, note = {nothing to show}}\n"
        "@misc{z, year = 2020}\n"
    )
    result = bibtex.parse(text, "derived.bib")
    [record, noted] = result.records
    assert record.title_derived
    assert record.title.startswith("GDPval")
    assert (noted.title, noted.title_derived) == ("nothing to show", True)
    assert result.problems == [
        "derived.bib:3: entry 'z' has neither title nor abstract; skipped"
    ]


def test_bibtex_biblatex_fields() -> None:
    text = (
        "@online{k,\n"
        "  title = {A {GDPval} Study},\n"
        "  subtitle = {With a Subtitle},\n"
        "  author = {{World Health Organization} and Doe, Jane and {Barnes and Noble}\n"
        "            and others},\n"
        "  date = {2021-03-04/2021-03-05},\n"
        "  eprinttype = {arxiv}, eprint = {2103.01234v3},\n"
        "  journaltitle = {J.~Stat.},\n"
        "  doi = {https://doi.org/10.1000/ABC.1},\n"
        "  keywords = {alpha; beta, gamma},\n"
        "  howpublished = {\\url{https://example.org/x}},\n"
        "}\n"
    )
    [record] = bibtex.parse(text, "biblatex.bib").records
    assert plain_line(record.title) == "A GDPval Study: With a Subtitle"
    assert record.authors == ["World Health Organization", "Jane Doe", "Barnes and Noble"]
    assert (record.year, record.date) == (2021, "2021-03-04")
    assert record.arxiv_id == "2103.01234"
    assert record.venue == "J. Stat."
    assert record.doi == "10.1000/abc.1"
    assert record.keywords == ["alpha", "beta", "gamma"]
    assert record.url == "https://example.org/x"
    assert record.kind == "online"


def split_names(value: str) -> list[str]:
    """Display names ("Given Family") of a BibTeX name list, as an import shows them."""
    return [display_name(n) for n in bibtex_names.parse_names(value)[0]]


def test_bibtex_split_names() -> None:
    assert split_names("A B AND C D and others") == ["A B", "C D"]
    assert split_names("de la Fontaine, Jean") == ["Jean de la Fontaine"]
    assert split_names('M{\\"u}ller, J{\\"o}rg') == ["Jörg Müller"]
    assert split_names("  and  ") == []


def test_bibtex_deep_nesting_does_not_escape() -> None:
    deep = "@article{deep, title={" + "{" * 5000 + "Deep" + "}" * 5000 + "}}\n"
    [record] = bibtex.parse(deep, "deep.bib").records
    assert record.title == "Deep"
    unclosed = "@article{open, title={" + "{" * 50000 + "x}}\n@article{ok, title={Fine}}\n"
    result = bibtex.parse(unclosed, "open.bib")
    assert [r.title for r in result.records] == ["Fine"]
    assert len(result.problems) == 1


def test_bibtex_not_bibtex_raises_naming_the_file() -> None:
    with pytest.raises(ImportFormatError, match=r"^notes\.txt: not BibTeX"):
        bibtex.parse("Just some notes about papers.\nNo entries here.\n", "notes.txt")
    with pytest.raises(ImportFormatError, match="empty.bib"):
        bibtex.parse("\n", "empty.bib")


def test_bibtex_file_of_comments_and_strings_has_no_records() -> None:
    result = bibtex.parse("@comment{x}\n@string{a = {b}}\n", "c.bib")
    assert (result.records, result.problems) == ([], [])


# --- RIS -------------------------------------------------------------------------------------


def test_ris_real_slice_fields() -> None:
    assert b"\r\n" in (DATA / "baseline-20.ris").read_bytes()
    result = parse_data(ris.parse, "baseline-20.ris")
    assert (len(result.records), result.problems) == (20, [])
    first = result.records[0]
    assert first.title.startswith("The Value of Radiologic Interventions and 18 F-DOPA PET")
    assert first.authors[0] == "Björn A. Blomberg"
    assert len(first.authors) == 5
    assert (first.year, first.date) == (2012, "2012-07-03")
    assert first.doi == "10.1007/s11307-012-0572-0"
    assert first.venue == "Molecular imaging and biology"
    assert first.url == "https://lens.org/000-463-679-101-319"
    assert (first.kind, first.source) == ("article", "baseline-20.ris:1")
    second = result.records[1]
    assert second.keywords == [
        "electrochemotherapy",
        "head and neck cancer",
        "quality of life",
        "systematic review",
    ]
    assert second.authors[:2] == ["Primož Strojan", "Aleš Grošelj"]
    assert all("\r" not in r.abstract for r in result.records)


def test_ris_structured_abstract_keeps_sections() -> None:
    text = (
        "TY  - JOUR\n"
        "TI  - Sections\n"
        "AB  - Background: we looked.\n"
        "Methods: we counted the\n"
        "things twice.\n"
        "Results\n"
        "There were many.\n"
        "A1  - Smith, John, Jr.\n"
        "A1  - Plain Name\n"
        "PY  - 2019///\n"
        "BT  - A Book Title\n"
        "KW  - one; two\n"
        "KW  - three\n"
        "ER  - \n"
    )
    [record] = ris.parse(text, "s.ris").records
    assert record.abstract == (
        "Background: we looked.\n\nMethods: we counted the things twice.\n\nResults\n\n"
        "There were many."
    )
    assert record.authors == ["John Smith Jr.", "Plain Name"]
    assert (record.year, record.date) == (2019, "2019")
    assert record.venue == "A Book Title"
    assert record.keywords == ["one", "two", "three"]


def test_ris_bad_records_are_reported_and_the_rest_kept() -> None:
    text = "\ufeff" + (
        "Provider: Example Export\r\n"
        "\r\n"
        "TY  - JOUR\r\nTI  - One\r\nER  - \r\n"
        "TY  - JOUR\r\nTI  - Lost its end\r\n"
        "TY  - JOUR\r\nTI  - Three\r\nAU - Badly, Spaced\r\nER  - \r\n"
        "TY  - JOUR\r\nTI  - Four\r\nER  - \r\n"
        "AU  - Orphan, Tag\r\nER  - \r\n"
        "TY  - JOUR\r\nN1  - no title, no abstract\r\nER  - \r\n"
        "TY  - JOUR\r\nAB  - Only an abstract here: we propose FooNet.\r\nER  - \r\n"
        "TY  - JOUR\r\nTI  - Truncated"
    )
    result = ris.parse(text, "bad.ris")
    assert [r.title for r in result.records][:2] == ["One", "Four"]
    assert result.records[2].title_derived and result.records[2].title.startswith("FooNet")
    assert result.problems == [
        "bad.ris:6: record has no 'ER  -' line (the next record starts at line 8); skipped",
        "bad.ris:10: malformed tag line 'AU - Badly, Spaced' (expected 'XX  - value') in the"
        " record starting at line 8; skipped",
        "bad.ris:15: tag lines outside a record (no 'TY  - ' line before them); skipped",
        "bad.ris:17: record has neither title nor abstract; skipped",
        "bad.ris:23: record has no 'ER  -' line (the file ends first); skipped",
    ]


def test_ris_not_ris_raises() -> None:
    with pytest.raises(ImportFormatError, match=r"^x\.ris: not RIS"):
        ris.parse("@article{a, title={b}}\n", "x.ris")


def test_ris_display_name() -> None:
    assert ris_names.display_name("Blomberg, Björn A.") == "Björn A. Blomberg"
    assert ris_names.display_name("Smith, Jr., John") == "John Smith Jr."
    assert ris_names.display_name("World Health Organization") == "World Health Organization"
    assert ris_names.display_name(" , ") == ""


# --- arXiv Atom ------------------------------------------------------------------------------


def test_atom_real_feed_fields() -> None:
    result = parse_data(arxiv_atom.parse, "api-atom-10-entries.xml")
    assert (len(result.records), result.problems) == (10, [])
    first = result.records[0]
    assert first.title == "Defining Data Science"
    assert first.authors == ["Yangyong Zhu", "Yun Xiong"]
    assert (first.arxiv_id, first.url) == ("1501.05039", "https://arxiv.org/abs/1501.05039")
    assert (first.year, first.date, first.venue, first.kind) == (
        2015,
        "2015-01-21",
        "arXiv",
        "article",
    )
    assert first.keywords == ["cs.DB", "cs.CY"] and first.primary_area == "cs.DB"
    assert first.abstract.startswith("Data science is gaining more and more")
    assert "\n" not in first.abstract  # arXiv's 80-column wrapping is undone
    assert first.source == "api-atom-10-entries.xml:10"

    second = result.records[1]
    # The title spans three lines in the feed.
    assert second.title == (
        "Report on a Boston University Conference December 7-8, 2012 on 'How Can the History"
        " and Philosophy of Science Contribute to Contemporary U.S. Science Teaching?'"
    )
    assert second.doi == "10.1007/s11191-014-9716-8"
    assert second.authors == ["Peter Garik", "Yann Benétreau-Dupin"]

    old_style = result.records[2]
    assert old_style.arxiv_id == "quant-ph/0210005"
    assert result.records[3].doi == "10.1214/07-STS246B"
    # MSC/ACM classes are listed as categories too, but are not arXiv categories.
    assert result.records[7].keywords == ["cs.LO"]


def test_atom_error_feed_raises_with_arxivs_message() -> None:
    with pytest.raises(ImportFormatError) as caught:
        parse_data(arxiv_atom.parse, "api-atom-error-invalid-id.xml")
    assert str(caught.value) == (
        "api-atom-error-invalid-id.xml: arXiv reported an error: incorrect id format for INVALIDID"
    )


def test_atom_error_entry_among_papers_is_a_problem() -> None:
    feed = text_of(DATA / "api-atom-10-entries.xml")
    error = text_of(DATA / "api-atom-error-invalid-id.xml")
    entry = error[error.index("<entry>") : error.index("</entry>") + len("</entry>")]
    mixed = feed.replace("</feed>", entry + "\n</feed>")
    result = arxiv_atom.parse(mixed, "mixed.xml")
    assert len(result.records) == 10
    assert result.problems == [
        "mixed.xml:251: arXiv reported an error: incorrect id format for INVALIDID"
    ]


def test_atom_names_written_with_tex_accents_are_read_as_letters() -> None:
    feed = text_of(DATA / "api-atom-10-entries.xml")
    start = feed.index("<name>") + len("<name>")
    end = feed.index("</name>", start)
    result = arxiv_atom.parse(feed[:start] + 'J\\"org M\\"uller' + feed[end:], "accents.xml")
    # As the snapshot's importer reads them: searchable and compared as Jörg Müller.
    assert result.records[0].authors[0] == "Jörg Müller"


def test_atom_refuses_dtd_and_entities_before_expanding() -> None:
    laughs = (
        '<?xml version="1.0"?>\n<!DOCTYPE lolz [\n <!ENTITY lol "lol">\n'
        + "".join(
            f' <!ENTITY lol{i} "{("&lol" + str(i - 1) + ";") * 10 if i > 1 else "&lol;" * 10}">\n'
            for i in range(1, 10)
        )
        + ']>\n<feed xmlns="http://www.w3.org/2005/Atom"><title>&lol9;</title></feed>\n'
    )
    # Expanded, &lol9; would be a billion characters: refused before (how fast:
    # scripts/benchmark_text.py).
    with pytest.raises(ImportFormatError, match=r"^laughs\.xml:2: XML with a DTD"):
        arxiv_atom.parse(laughs, "laughs.xml")
    assert detect_text_format(laughs) == "arxiv-atom"  # so the user sees that message


def test_atom_truncated_feed_keeps_the_entries_before_the_cut() -> None:
    feed = text_of(DATA / "api-atom-10-entries.xml")
    cut = feed[: feed.index("<entry>", feed.index("1802.03292"))]
    result = arxiv_atom.parse(cut, "cut.xml")
    assert len(result.records) == 8
    [problem] = result.problems
    assert problem.startswith("cut.xml:") and "entries after this line were not read" in problem
    with pytest.raises(ImportFormatError, match=r"^early\.xml:\d+: not well-formed XML"):
        arxiv_atom.parse(feed[:700], "early.xml")


def test_atom_other_documents_raise() -> None:
    with pytest.raises(ImportFormatError, match=r"not an Atom feed .*<html>"):
        arxiv_atom.parse("<html><body>hi</body></html>", "page.html")
    with pytest.raises(ImportFormatError, match=r"^x\.xml:1: not well-formed XML"):
        arxiv_atom.parse("hello, world", "x.xml")
    with pytest.raises(ImportFormatError, match="empty"):
        arxiv_atom.parse("  \n", "x.xml")
    empty = arxiv_atom.parse('<feed xmlns="http://www.w3.org/2005/Atom"></feed>', "none.xml")
    assert (empty.records, empty.problems) == ([], [])


# --- CSV -------------------------------------------------------------------------------------


def test_csv_bom_crlf_multiline_and_semicolon_authors() -> None:
    raw = (DATA / "papers-bom-crlf.csv").read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf") and b"\r\n" in raw
    result = parse_data(csv_table.parse, "papers-bom-crlf.csv")
    assert len(result.records) == 4
    widgets, cafes, derived, no_abstract = result.records
    assert widgets.title == "Sparse Widgets for Dense Gadgets"
    assert widgets.abstract == (
        "We introduce WidgetNet, a sparse model of dense gadgets.\n\n"
        "A second paragraph explains the gadgets."
    )
    assert widgets.authors == ["Jane Doe", "Richard Roe", "Zoë Müller"]
    assert (widgets.year, widgets.venue) == (2021, "Journal of Widgetry")
    assert widgets.doi == "10.1234/WIDGETS.2021.7"
    assert widgets.url == "https://example.org/widgets"
    assert widgets.keywords == ["widgets", "sparsity", "gadgets"]
    assert widgets.source == "papers-bom-crlf.csv:2"

    assert cafes.title == 'On the Naïve Résumé of "Quoted" Cafés'
    assert cafes.authors == ["Ann Lee", "Bob Ray", "Cy Doe"]
    assert cafes.venue == "Proceedings of the Workshop on Cafés, Vol. 2"
    assert cafes.arxiv_id == "1906.01234"
    assert cafes.keywords == ["cafés", "résumés"]

    assert derived.title_derived and derived.title.startswith("GadgetFormer")
    assert no_abstract.abstract == "" and no_abstract.authors == ["Ann Lee"]
    # The multi-line first row makes the short row start on line 5, not 4.
    assert result.problems == [
        "papers-bom-crlf.csv:5: row has 2 fields but the header has 8; skipped",
        "papers-bom-crlf.csv:9: row has neither title nor abstract; skipped",
    ]


def test_csv_semicolon_delimited() -> None:
    result = parse_data(csv_table.parse, "papers-semicolon.csv")
    [record] = result.records
    assert (record.title, record.abstract) == ("Dense Gadgets", "Gadgets are dense.")
    assert record.authors == ["Jane Doe", "Richard Roe"]
    assert (record.venue, record.year, record.doi) == (
        "Gadget Letters",
        2020,
        "10.1234/gadgets.2020.2",
    )
    assert result.problems == [
        "papers-semicolon.csv:2: row has 8 fields but the header has 7 (a delimiter inside a"
        " value?); skipped"
    ]


def test_csv_tab_delimited_with_date_column() -> None:
    text = "PAPER TITLE\tAbstract\tDate\tTags\nA\tB, c\t2020-05-17\tx,y\n"
    [record] = csv_table.parse(text, "t.tsv").records
    assert (record.title, record.abstract, record.year, record.date) == (
        "A",
        "B, c",
        2020,
        "2020-05-17",
    )
    assert record.keywords == ["x", "y"]


def test_csv_header_without_title_or_abstract_raises_with_the_columns() -> None:
    with pytest.raises(ImportFormatError) as caught:
        csv_table.parse("name,email,score\nAnn,ann@example.org,3\n", "people.csv")
    message = str(caught.value)
    assert message.startswith("people.csv: not a paper table")
    assert "'name', 'email', 'score'" in message
    with pytest.raises(ImportFormatError, match="empty"):
        csv_table.parse("\n\n", "blank.csv")


def test_csv_of_empty_rows_or_none_is_refused_not_read_as_zero_papers() -> None:
    # A header written wrong (a Python list) above rows of empty cells: "0 read" would
    # tell the user the file was empty and fine.
    header = "\"['Key'\",\" 'Title'\",\" 'Abstract Note'\",\" 'Extra']\"\n"
    with pytest.raises(ImportFormatError) as caught:
        csv_table.parse(header + '"","","",""\n' * 3, "junk.csv")
    message = str(caught.value)
    assert message.startswith("junk.csv: no paper to import: its 3 rows below the header are")
    assert "\"['Key'\", \"'Title'\"" in message and "a title or an abstract" in message
    with pytest.raises(ImportFormatError, match="a header and no rows"):
        csv_table.parse("title,abstract\n\n", "bare.csv")


def test_csv_five_megabyte_abstract_cell() -> None:
    abstract = "word " * 1_000_000
    result = csv_table.parse(f'title,abstract\r\nBig,"{abstract}"\r\n', "big.csv")
    [record] = result.records
    assert record.title == "Big" and len(record.abstract) == len(abstract.strip())


def test_csv_unclosed_quote_is_a_problem() -> None:
    result = csv_table.parse('title,abstract\nGood,one\nBad,"never closed\nMore,two\n', "q.csv")
    assert [r.title for r in result.records] == ["Good"]
    assert result.problems == [
        "q.csv:3: a quoted field is never closed (it runs to line 4); skipped"
    ]
    # A quote inside an unquoted cell is literal, not the start of a quoted field.
    [screen] = csv_table.parse('title,abstract\nA 5" screen,x\n', "s.csv").records
    assert screen.title == 'A 5" screen'


@pytest.mark.parametrize(
    ("cell", "names"),
    [
        ("Ann Lee, Bob Ray, and Cy Doe", ["Ann Lee", "Bob Ray", "Cy Doe"]),
        ("Lee, Ann", ["Ann Lee"]),
        ("Smith, J. and Doe, A.", ["J. Smith", "A. Doe"]),
        ("Lee, Ann; Ray, Bob", ["Ann Lee", "Bob Ray"]),
        ("José García, Zoë Müller-Lüdenscheidt", ["José García", "Zoë Müller-Lüdenscheidt"]),
        ("Ann Lee, Jr.", ["Ann Lee Jr."]),
        # Family name, then initials (Scopus, PubMed): the initials are the given names.
        ("Smith J.; Doe A.; et al.", ["J. Smith", "A. Doe"]),
        ("", []),
    ],
)
def test_csv_split_authors(cell: str, names: list[str]) -> None:
    assert name_cells.split_authors(cell) == names


# --- detection -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("random-229-first30.bib", "bibtex"),
        ("xampl.bib", "bibtex"),
        ("cyrillic.bib", "bibtex"),
        ("bibtexparser-wrong.bib", "bibtex"),
        ("bibtexparser-book_bom.bib", "bibtex"),
        ("bibtexparser-crossref_entries.bib", "bibtex"),
        ("baseline-20.ris", "ris"),
        ("api-atom-10-entries.xml", "arxiv-atom"),
        ("api-atom-error-invalid-id.xml", "arxiv-atom"),
        ("papers-bom-crlf.csv", "csv"),
        ("papers-semicolon.csv", "csv"),
    ],
)
def test_detect_test_data(name: str, expected: str) -> None:
    assert detect_text_format(text_of(DATA / name)) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Automatically generated by Mendeley Desktop\n\n@article{a,\n title={x}}\n", "bibtex"),
        ("% comment\n%another\n\n  @Book ( a, title = {x})\n", "bibtex"),
        ("Provider: JSTOR\nDatabase: JSTOR\n\nTY  - JOUR\nTI  - x\nER  - \n", "ris"),
        (
            '<?xml version="1.0"?>\n<!-- c -->\n<a:feed xmlns:a="http://www.w3.org/2005/Atom"/>',
            "arxiv-atom",
        ),
        ('<?xml version="1.0"?>\n<feed xmlns="http://example.org/other"/>', None),
        ("<html><body/></html>", None),
        ("Title\tAuthors\nx\ty\n", "csv"),
        ('"Abstract";"Year"\n"x";"2020"\n', "csv"),
        ("ICLR 2026 papers, with abstract lists\n\nWe study graphs.\n", None),
        ('[{"title": "x", "abstract": "y"}]', None),
        ('{"title": "x"}\n{"title": "y"}\n', None),
        ("", None),
        ("\ufeff\n\n", None),
    ],
)
def test_detect_snippets(text: str, expected: str | None) -> None:
    assert detect_text_format(text) == expected


def test_detect_every_shared_file() -> None:
    if not SHARED.exists():
        pytest.skip("shared data not present")
    expected_by_dir = {"bibtex": "bibtex", "ris": "ris", "arxiv": "arxiv-atom"}
    checked = 0
    for path in sorted(SHARED.rglob("*")):
        if not path.is_file() or path.suffix in (".md", ".gz"):
            continue
        text = path.read_bytes().decode("utf-8")
        kind = path.relative_to(SHARED).parts[0]
        expected = expected_by_dir.get(kind) if path.suffix in (".bib", ".ris", ".xml") else None
        if path.name == "empty.bib":
            expected = None  # a lone newline says nothing about its format
        assert detect_text_format(text) == expected, path
        checked += 1
    assert checked > 60


# --- the whole shared files ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("relative", "parser", "records", "problems"),
    [
        ("bibtex/random-229.bib", "bibtex", 229, 0),
        ("bibtex/xampl.bib", "bibtex", 36, 1),  # its @preamble, said to be left out
        ("bibtex/cyrillic.bib", "bibtex", 5, 1),
        ("bibtex/bibtexparser-fixtures/biber-examples.bib", "bibtex", 100, 18),
        ("ris/baseline-100.ris", "ris", 100, 0),
        ("arxiv/api-atom-10-entries.xml", "arxiv-atom", 10, 0),
    ],
)
def test_shared_file_counts(relative: str, parser: str, records: int, problems: int) -> None:
    path = shared(relative)
    result = PARSERS[parser](text_of(path), path.name)
    assert (len(result.records), len(result.problems)) == (records, problems)
    assert all(
        r.title and r.source and r.source.startswith(f"{path.name}:") for r in result.records
    )


def test_every_shared_bibtex_fixture_parses() -> None:
    folder = shared("bibtex/bibtexparser-fixtures")
    paths = sorted(folder.glob("*.bib"))
    assert len(paths) > 50  # the folder holds what it held, not nothing
    for path in paths:
        text = text_of(path)
        if not text.strip():
            with pytest.raises(ImportFormatError):
                bibtex.parse(text, path.name)
            continue
        result = bibtex.parse(text, path.name)
        assert all(r.title for r in result.records), path


# --- whatever the input ----------------------------------------------------------------------

# Pieces of every format's syntax, plus NUL, CR, BOM and a bidi override, "|"-separated.
_GARBAGE = (
    '@|{|}|"|@article{|@string{x = |TY  - |ER  - |AU - x|<entry>|</feed>|<!-- |\x00|\r|,|;|\t'
    "|\ufeff|#|%|\\| and |$|\u202e|crossref = {a}"
).split("|")


def _mutate(rng: random.Random, text: str) -> str:
    """``text`` truncated, with braces deleted, garbage lines inserted or ``@`` duplicated."""
    for _ in range(rng.randint(1, 4)):
        if not text:
            break
        i = rng.randrange(len(text))
        operation = rng.randrange(6)
        if operation == 0:
            text = text[:i]
        elif operation == 1:
            text = text.replace(rng.choice('{}"<>'), "", rng.randint(1, 5))
        elif operation == 2:
            lines = text.split("\n")
            garbage = "".join(rng.choice(_GARBAGE) for _ in range(rng.randint(1, 6)))
            lines.insert(rng.randrange(len(lines) + 1), garbage)
            text = "\n".join(lines)
        elif operation == 3:
            at = text.find("@", i)
            text = text[:at] + "@" + text[at:] if at >= 0 else text[:i] + "@" + text[i:]
        elif operation == 4:
            text = text[:i] + rng.choice(_GARBAGE) + text[i:]
        else:
            j = rng.randrange(len(text))
            text = text[: min(i, j)] + text[max(i, j) :]
    return text


def test_mutated_inputs_give_results_or_format_errors_only() -> None:
    samples = [
        text_of(DATA / name)
        for name in (
            "xampl.bib",
            "cyrillic.bib",
            "bibtexparser-traps.bib",
            "bibtexparser-features2.bib",
            "bibtexparser-crossref_entries.bib",
            "api-atom-10-entries.xml",
            "api-atom-error-invalid-id.xml",
            "papers-bom-crlf.csv",
            "papers-semicolon.csv",
        )
    ]
    samples.append(text_of(DATA / "random-229-first30.bib")[:6000])
    samples.append(text_of(DATA / "baseline-20.ris")[:12000])
    rng = random.Random(20260115)
    for _ in range(150):
        text = _mutate(rng, rng.choice(samples))
        for name, parser in PARSERS.items():
            try:
                result = parser(text, "mutant")
            except ImportFormatError as exc:
                assert str(exc).startswith("mutant"), (name, exc)
            else:
                assert isinstance(result, ParseResult)
                assert all(r.title for r in result.records)
                assert all(p.startswith("mutant:") for p in result.problems), result.problems
        assert detect_text_format(text) in (None, "bibtex", "ris", "arxiv-atom", "csv")


ZOTERO_CSV = (
    '"Key","Item Type","Publication Year","Author","Title","Abstract Note","Extra","Notes",'
    '"Manual Tags","Automatic Tags"\n'
    '"ABCD1234","journalArticle","2021","Smith, Jane","Sparse transport","We study it.",'
    '"","<p>Read <strong>section 3</strong> first.</p>","to-read; Graph Theory",'
    '"optimal transport; graphs"\n'
)


def test_zotero_csv_manual_tags_and_notes_are_the_users(tmp_path: Path) -> None:
    """Zotero's CSV: its manual tags are the user's tags (its automatic ones the source's
    keywords) and its notes, in HTML, the paper's note, as its JSON gives them."""
    [record] = csv_table.parse(ZOTERO_CSV, "zotero.csv").records
    assert record.tags == ["to-read", "graph-theory"]
    assert record.keywords == ["optimal transport", "graphs"]
    assert record.note == "Read **section 3** first."
    from reader.library import Library

    path = tmp_path / "zotero.csv"
    path.write_text(ZOTERO_CSV, encoding="utf-8")
    library = Library(tmp_path / "lib")
    library.import_files([path])
    [paper_id] = library.store.all_ids()
    paper = library.store.paper(paper_id)
    assert paper is not None and paper.note == "Read **section 3** first."
    assert sorted(paper.tags) == ["graph-theory", "to-read"]
    library.close()


def test_zotero_csv_item_types_and_book_details_are_kept() -> None:
    """Zotero's CSV names its item types (``journalArticle``, ``bookSection``) and a
    chapter's series, edition and place: a journal article is an article, not a paper in
    proceedings, and a chapter keeps what its book says."""
    text = (
        '"Key","Item Type","Publication Year","Author","Title","Publication Title",'
        '"Pages","Volume","Issue","Series","Series Number","Edition","Place","Publisher",'
        '"Short Title","Journal Abbreviation"\n'
        '"A1","journalArticle","2020","Roe, Ann","Fair shifts","Journal of Things","1-45",'
        '"21","3","","","","","","Fair","J. Things"\n'
        '"B2","bookSection","2019","Poe, Bo","Causal practice","Handbook of Causes",'
        '"101-130","","","Adaptive Computation","7","2","Cambridge, MA","MIT Press","",""\n'
    )
    article, chapter = csv_table.parse(text, "zotero.csv").records
    assert article.csl["type"] == "article-journal"
    assert article.csl["title-short"] == "Fair"
    assert article.csl["container-title-short"] == "J. Things"
    assert chapter.csl["type"] == "chapter"
    assert (chapter.csl["collection-title"], chapter.csl["collection-number"]) == (
        "Adaptive Computation", "7")
    assert (chapter.csl["edition"], chapter.csl["publisher-place"]) == ("2", "Cambridge, MA")


def test_a_comments_column_is_the_note_and_plain_text_stays_as_written() -> None:
    text = 'title,abstract,comments\nA paper,An abstract.,"Check <the> proof; it uses x<y."\n'
    [record] = csv_table.parse(text, "t.csv").records
    assert record.note == "Check <the> proof; it uses x<y."
    assert record.tags == []


def test_a_row_shifted_by_a_delimiter_in_a_value_is_skipped_and_said() -> None:
    """"Dupré, Françoise; Müller, Jürgen" in a ;-separated file: the row has one cell more,
    empty at its end, and was read shifted (a second author as the year, the journal lost);
    rows that all end with a delimiter are read as before."""
    shifted = parse_data(csv_table.parse, "csv-delimiter-in-value.csv")
    assert [r.title for r in shifted.records] == ["Die gegenwärtige Situation"]
    assert shifted.problems == [
        "csv-delimiter-in-value.csv:3: row has 6 fields but the header has 5 (a delimiter "
        "inside a value?); skipped"]
    trailing = parse_data(csv_table.parse, "csv-trailing-delimiter.csv")
    assert [(r.title, r.year) for r in trailing.records] == [("A paper", 2020),
                                                             ("Another paper", 2021)]
    assert trailing.problems == []
