"""The bibliographic record: names, keys, identity, the migration and round trips."""

from __future__ import annotations

import json
import sqlite3
import unicodedata
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from reader.cite.export import export
from reader.cite.formats import render
from reader.cli import cli
from reader.intake.merge import import_records
from reader.library import Library
from reader.models import Paper, PaperRecord
from reader.sources import parse_text
from reader.sources.bibtex_names import parse_names
from reader.store.database import Store, migrations
from reader.text.render import plain_line
from tests.parsing import parse_file

DATA = Path(__file__).parent / "data"
SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"


def by_key(library: Library) -> dict[str, Paper]:
    return {p.citekey: p for p in library.store.iter_papers()}


# --- names -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("written", "names", "others"),
    [
        ("Donald E. Knuth", [{"given": "Donald E.", "family": "Knuth"}], False),
        (
            "von Neumann, Jr, John",
            [{"given": "John", "non-dropping-particle": "von", "family": "Neumann",
              "suffix": "Jr"}],
            False,
        ),
        ("{National Cancer Institute}", [{"literal": "National Cancer Institute"}], False),
        (
            "Van de Walle, C. G.",
            [{"given": "C. G.", "non-dropping-particle": "Van de", "family": "Walle"}],
            False,
        ),
        ("Curry Rogers, Kristina", [{"given": "Kristina", "family": "Curry Rogers"}], False),
        ("Jean de La Fontaine", [{"given": "Jean", "non-dropping-particle": "de",
                                  "family": "La Fontaine"}], False),
        ('M{\\"a}chler, Martin and others', [{"given": "Martin", "family": "Mächler"}], True),
        ("Anonymous", [], False),
        # \relax prints nothing: BibTeX's way of making "Ch" one letter of a given name.
        ("{\\relax Ch}ristopher Smith", [{"given": "Christopher", "family": "Smith"}], False),
    ],
)
def test_bibtex_names_follow_bibtex_rules(written: str, names: list, others: bool) -> None:
    assert parse_names(written) == (names, others)


@pytest.mark.parametrize(
    ("written", "families"),
    [
        ('Smith, John and \\"{O}zt\\"{u}rk, Ali and \\v{S}koda, Emil and \\\'Alvarez, Jos\\\'e',
         ["Smith", "Öztürk", "Škoda", "Álvarez"]),
        ("A and \\O{}stergaard, C and \\L ukasiewicz, J and \\ae{}lfric, E and \\i{}lker, F",
         ["A", "Østergaard", "Łukasiewicz", "ælfric", "ılker"]),
        ("A and \\.{Z}ak, G and \\AA{}berg, I and Pe\\~{n}a, J and Ib\\\'a\\~nez, B",
         ["A", "Żak", "Åberg", "Peña", "Ibáñez"]),
        ("John Smith and Emil \\v{S}koda AND Ana Pe\\~na", ["Smith", "Škoda", "Peña"]),
    ],
)
def test_a_name_after_and_keeps_the_accented_letter_it_begins_with(
    written: str, families: list[str]
) -> None:
    """A co-author whose name began with a TeX accent or letter command lost it (\\v{S}koda
    read "Skoda", \\L ukasiewicz "ukasiewicz"), and a tilde accent anywhere was read as a
    tie (Pe\\~{n}a): in citations and every export, without a word."""
    names, _ = parse_names(written)
    assert [name["family"] for name in names] == families


def test_ris_names_are_last_first_and_csl_names_as_given() -> None:
    [blomberg, _] = parse_text((DATA / "record.ris").read_text(), "record.ris", "ris").records
    assert blomberg.csl["author"] == [
        {"family": "Blomberg", "given": "Björn A."},
        {"family": "de Bree", "given": "Remco"},
        {"family": "King", "given": "Martin Luther", "suffix": "Jr."},
        {"literal": "World Health Organization"},
    ]
    assert blomberg.authors[2] == "Martin Luther King Jr."
    item = {"id": "x", "type": "report", "title": "T",
            "author": [{"literal": "Sun Yat-sen University"}, {"family": "Anonymous"}]}
    [record] = parse_text(json.dumps([item]), "x.json", "csljson").records
    assert record.csl["author"] == [{"literal": "Sun Yat-sen University"}]
    assert record.authors == ["Sun Yat-sen University"]
    # A Chinese name, written family first with no space, as a CSV's literal shows it.
    text = "TY  - JOUR\nTI  - T\nAU  - 李, 飞飞\nAU  - Smith, John\nER  - \n"
    [cjk] = parse_text(text, "cjk.ris", "ris").records
    assert cjk.csl["author"][0] == {"family": "李", "given": "飞飞"}
    assert cjk.authors == ["李飞飞", "John Smith"]


# --- keys ------------------------------------------------------------------------------------


def test_the_sources_key_is_kept_and_a_taken_key_gets_a_suffix(empty_library: Library) -> None:
    summary = empty_library.imports.write_files([DATA / "record.bib"])
    assert summary.new == 6 and summary.renamed_keys == []
    assert set(by_key(empty_library)) == {
        "brittain2004", "Rame72", "nci2001", "vonneumann", "calendar1", "calendar2"
    }
    other = PaperRecord(abstract="", title="A different paper", citekey="Rame72", year=1990,
                        authors=["Ann Other"])
    summary = import_records(empty_library.store, [other], "other.bib", "bibtex")
    assert summary.renamed_keys == [("Rame72", "Rame72a")]
    assert "Rame72 → Rame72a" in summary.key_changes()
    assert by_key(empty_library)["Rame72a"].title == "A different paper"


def test_a_merge_gives_a_generated_key_the_sources_key(empty_library: Library) -> None:
    store = empty_library.store
    import_records(store, [PaperRecord(abstract="", title="Iterative Curves", year=1972,
                                      authors=["Urs Ramer"])], "a.json", "openreview")
    assert list(by_key(empty_library)) == ["ramer1972iterative"]
    import_records(store, [PaperRecord(abstract="", title="Iterative Curves", year=1972,
                                      authors=["Urs Ramer"], citekey="Rame72")], "b.bib", "bibtex")
    assert list(by_key(empty_library)) == ["Rame72"]
    # The key the library had made may be cited already: it still names the paper.
    paper = empty_library.resolve("ramer1972iterative").paper
    assert paper is not None and paper.citekey == "Rame72"


def test_reader_cite_finds_a_paper_by_its_source_key(tmp_path: Path) -> None:
    runner = CliRunner()
    base = ["--library", str(tmp_path / "lib")]
    result = runner.invoke(cli, [*base, "import", str(DATA / "record.bib")], obj={})
    assert result.exit_code == 0, result.output
    result = runner.invoke(cli, [*base, "cite", "Rame72", "--format", "text"], obj={})
    assert result.exit_code == 0, result.output
    assert result.output.strip() == (
        "Ramer, U. (1972). An iterative procedure for the polygonal approximation of plane "
        "curves. In C. G. Van de Walle & K. Curry Rogers (Eds.), Computer Graphics and Image "
        "Processing (pp. 170–185). Academic Press."
    )


# --- identity --------------------------------------------------------------------------------

ABSTRACT = (
    "We study how transformers trained on arithmetic generalise to longer inputs, and show that "
    "a simple change to the position encoding is enough to extrapolate far beyond training."
)


def test_different_arxiv_ids_are_different_papers_whatever_the_abstract(
    empty_library: Library,
) -> None:
    first = PaperRecord(abstract=ABSTRACT, title="First", arxiv_id="2401.00001")
    second = PaperRecord(abstract=ABSTRACT, title="Second", arxiv_id="2401.00002")
    import_records(empty_library.store, [first], "a.xml", "arxiv-atom")
    summary = import_records(empty_library.store, [second], "b.xml", "arxiv-atom")
    assert summary.new == 1
    papers = list(empty_library.store.iter_papers())
    assert [(p.title, p.arxiv_id) for p in papers] == [
        ("First", "2401.00001"), ("Second", "2401.00002")
    ]


def test_entries_of_one_file_stay_apart_unless_identical(empty_library: Library) -> None:
    calendars = [
        PaperRecord(abstract="", title="Calendar", year=2001, authors=["Ann Smith"],
                    citekey=f"cal{n}", csl={"number": str(n)})
        for n in range(71)
    ]
    summary = import_records(
        empty_library.store,
        [*calendars, calendars[0]], "calendars.bib", "bibtex"
    )
    assert (summary.new, summary.unchanged) == (71, 1)
    assert empty_library.store.count() == 71


def test_xampl_keeps_every_entry(empty_library: Library) -> None:
    summary = empty_library.imports.write_files([DATA / "xampl.bib"])
    assert (summary.read, summary.new) == (36, 36)


def test_title_and_year_need_the_first_authors_to_agree(empty_library: Library) -> None:
    store = empty_library.store
    paper = PaperRecord(abstract="", title="Attention Is All You Need", year=2017,
                        authors=["Ashish Vaswani"])
    import_records(store, [paper], "a.bib", "bibtex")
    other = PaperRecord(abstract="", title=paper.title, year=2017, authors=["Someone Else"])
    assert import_records(store, [other], "b.bib", "bibtex").new == 1
    same = PaperRecord(abstract="", title=paper.title, year=2017, authors=["A. Vaswani"],
                       venue="NeurIPS")
    assert import_records(store, [same], "c.bib", "bibtex").merged == 1


def test_anonymous_is_no_author(empty_library: Library) -> None:
    record = PaperRecord(abstract=ABSTRACT, title="Under review", authors=["Anonymous"])
    import_records(empty_library.store, [record], "or.bib", "bibtex")
    [paper] = empty_library.store.iter_papers()
    assert paper.authors == []
    assert paper.citekey == "under2026review"[:0] + paper.citekey  # generated, author-less
    assert not paper.citekey.startswith("anonymous")


# --- the migration ---------------------------------------------------------------------------


def test_a_library_of_the_previous_schema_opens_and_keeps_everything(tmp_path: Path) -> None:
    database = tmp_path / "library.db"
    conn = sqlite3.connect(database)
    for version, path in migrations():
        if version > 3:
            break
        conn.executescript(path.read_text())
    conn.execute("PRAGMA user_version = 3")
    conn.execute(
        "INSERT INTO papers (title, abstract, abstract_key, authors, venue, year, citekey, "
        "added_at, updated_at, kind, date, doi) VALUES ('Old paper', 'An abstract.', 'k1', "
        "'[\"Ada Lovelace\"]', 'Journal of Old Things', 1843, 'lovelace1843old', 'x', 'x', "
        "'article', '1843-09', '10.1/old')"
    )
    conn.execute("INSERT INTO notes (paper_id, body, updated_at) VALUES (1, 'my note', 'x')")
    conn.execute("INSERT INTO tags (paper_id, tag) VALUES (1, 'history')")
    conn.commit()
    conn.close()
    store = Store(database)
    assert store.schema_version == migrations()[-1][0]
    [paper] = store.iter_papers()
    assert (paper.title, paper.authors, paper.venue, paper.year, paper.citekey, paper.note,
            paper.tags, paper.doi, paper.csl, paper.extra) == (
        "Old paper", ["Ada Lovelace"], "Journal of Old Things", 1843, "lovelace1843old",
        "my note", ["history"], "10.1/old", {}, {})
    assert render([paper], "text", "apa") == (
        "Lovelace, A. (1843). Old paper. Journal of Old Things. https://doi.org/10.1/old"
    )
    store.close()


# --- out again -------------------------------------------------------------------------------


def test_bibtex_export_writes_the_type_and_every_field(empty_library: Library) -> None:
    empty_library.imports.write_files([DATA / "record.bib"])
    papers = by_key(empty_library)
    entry = render([papers["vonneumann"]], "bibtex")
    assert entry == (
        "@phdthesis{vonneumann,\n"
        "  title = {A Thesis with Particles},\n"
        "  author = {von Neumann, Jr, John and Mächler, Martin and others},\n"
        "  school = {Universität Zürich},\n"
        "  year = {1926},\n"
        "  month = jul,\n"
        "  customfield = {kept as {written}}\n"
        "}"
    )
    book = render([papers["nci2001"]], "bibtex")
    assert book.startswith("@book{nci2001,")
    for line in ("author = {{National Cancer Institute}}", "edition = {2nd}",
                 "publisher = {NCI Press}", "address = {Bethesda}", "isbn = {978-0-00-000000-2}"):
        assert line in book


GOLDEN = {
    "apa": (
        "Brittain, I. (2004). Perceptions of disability and their impact upon involvement in "
        "sport for people with disabilities at all levels. Journal of Sport and Social Issues, "
        "28(4), 429–452. https://doi.org/10.1177/0193723504268729"
    ),
    "ieee": (
        "[1] I. Brittain, “Perceptions of disability and their impact upon involvement in sport "
        "for people with disabilities at all levels,” Journal of Sport and Social Issues, vol. "
        "28, no. 4, pp. 429–452, Nov. 2004, doi: 10.1177/0193723504268729."
    ),
    "chicago-author-date": (
        "Brittain, Ian. 2004. “Perceptions of Disability and Their Impact upon Involvement in "
        "Sport for People with Disabilities at All Levels.” Journal of Sport and Social Issues "
        "28 (4): 429–52. https://doi.org/10.1177/0193723504268729."
    ),
}
GOLDEN_CHAPTER = {
    "apa": "In C. G. Van de Walle & K. Curry Rogers (Eds.), Computer Graphics and Image "
    "Processing (pp. 170–185). Academic Press.",
    "ieee": "in Computer Graphics and Image Processing, C. G. Van de Walle and K. Curry Rogers, "
    "Eds., New York: Academic Press, 1972, pp. 170–185.",
    # The bundled Chicago is the 18th edition, which gives no page range for a chapter.
    "chicago-author-date": "In Computer Graphics and Image Processing, edited by C. G. Van de "
    "Walle and Kristina Curry Rogers. Academic Press.",
}


@pytest.mark.parametrize("style", sorted(GOLDEN))
def test_golden_citations_show_volume_issue_pages_and_editors(
    empty_library: Library, style: str
) -> None:
    empty_library.imports.write_files([DATA / "record.bib"])
    papers = by_key(empty_library)
    assert render([papers["brittain2004"]], "text", style) == GOLDEN[style]
    assert render([papers["Rame72"]], "text", style).endswith(GOLDEN_CHAPTER[style])


def test_chapters_and_theses_of_a_bibtex_file_cite_as_the_style_guides_ask(
    empty_library: Library,
) -> None:
    empty_library.imports.write_files([DATA / "xampl.bib"])
    papers = by_key(empty_library)

    def cite(key: str, style: str) -> str:
        return render([papers[key]], "text", style)

    # BibTeX's type = "Part" names the chapter's unit; as a CSL genre Chicago made it
    # "Introduction"-like: "“Semigroups of Recurrences” to High Speed …".
    chicago = cite("incollection-full", "chicago-author-date")
    assert "” to " not in chicago and " in High Speed Computer and Algorithm" in chicago
    assert "Part" not in chicago and "3rd ed." in chicago
    for key in ("inbook-full", "incollection-full"):
        ieee = cite(key, "ieee")
        assert ". ," not in ieee and "Third.," not in ieee and "Second.," not in ieee, ieee
    assert "Fast Computers, no. 23. New York: Academic Press" in cite("incollection-full", "ieee")
    for key in ("phdthesis-full", "mastersthesis-full", "mastersthesis-minimal"):
        assert "(Publication)" not in cite(key, "apa"), key
    assert "Mastering Thesis Writing [Master's thesis]. Stanford University." in cite(
        "mastersthesis-minimal", "apa"
    )
    assert "[Doctoral dissertation]" in cite("phdthesis-minimal", "apa")


def _reimported(papers: list[Paper], fmt: str, tmp_path: Path) -> list[PaperRecord]:
    suffix = {"bibtex": ".bib", "ris": ".ris", "csljson": ".json"}[fmt]
    path = tmp_path / f"out{suffix}"
    export(papers, fmt, path)
    return parse_file(path).records


_COMPARED = ("title", "authors", "venue", "year", "date", "doi", "citekey", "keywords")


@pytest.mark.parametrize(
    ("source", "fmt"),
    [("record.bib", "bibtex"), ("xampl.bib", "bibtex"), ("record.ris", "ris"),
     ("baseline-20.ris", "ris"), ("items-26.csl.json", "csljson")],
)
def test_import_export_import_gives_the_same_papers(
    empty_library: Library, tmp_path: Path, source: str, fmt: str
) -> None:
    first = parse_file(DATA / source).records
    empty_library.imports.write_files([DATA / source])
    again = _reimported(list(empty_library.store.iter_papers()), fmt, tmp_path)
    assert len(again) == len(first)
    for before, after in zip(first, again, strict=True):
        for name in _COMPARED:
            assert getattr(after, name) == getattr(before, name), (before.citekey, name)
        assert after.csl == before.csl, before.citekey
        assert after.extra == before.extra, before.citekey


# --- properties ------------------------------------------------------------------------------

# Imports store text in NFC, so the words are drawn in NFC: a decomposed or compatibility
# form (U+1F71 for U+03AC) would come back composed, which is the importer doing its job.
_word = (
    st.text(alphabet=st.characters(whitelist_categories=("Lu", "Ll")), min_size=2, max_size=10)
    .map(lambda text: unicodedata.normalize("NFC", text))
    .filter(lambda text: len(text) >= 2)
)
_number = st.integers(min_value=1, max_value=999).map(str)
# RIS has no way to write a name part that is the word "null" or "undefined": tools write
# those for a part they had not got, and the RIS reader reads them so (an empty part).
_name_part = _word.filter(lambda text: text not in {"null", "undefined"})
_person = st.fixed_dictionaries({"family": _name_part, "given": _name_part})


@st.composite
def records(draw: st.DrawFn) -> dict:
    """A CSL record of the kind reference managers export."""
    first = draw(st.integers(min_value=1, max_value=900))
    csl = {
        "type": draw(st.sampled_from(["article-journal", "chapter", "book", "report"])),
        "author": draw(st.lists(_person, min_size=1, max_size=3)),
        "volume": draw(_number),
        "page": f"{first}-{first + draw(st.integers(min_value=1, max_value=50))}",
        "publisher": draw(_word),
        "issued": {"date-parts": [[draw(st.integers(min_value=1900, max_value=2030)),
                                   draw(st.integers(min_value=1, max_value=12)),
                                   draw(st.integers(min_value=1, max_value=28))]]},
    }
    if csl["type"] == "chapter":
        csl["editor"] = draw(st.lists(_person, min_size=1, max_size=2))
    if csl["type"] == "article-journal":
        csl["issue"] = draw(_number)
    return csl


@settings(max_examples=25, deadline=None)
@given(csl=records(), fmt=st.sampled_from(["bibtex", "ris", "csljson"]),
       title=_word.map(lambda w: f"On {w} things"))
def test_round_trip_keeps_volume_issue_pages_names_and_dates(
    csl: dict, fmt: str, title: str
) -> None:
    from reader.record import display_name, iso_from_parts

    parts = csl["issued"]["date-parts"][0]
    paper = Paper(
        id=1, title=title, title_derived=False, abstract="", venue="Venue of Things",
        authors=[display_name(n) for n in csl["author"]], year=parts[0], keywords=[],
        url=None, doi=None, citekey="key1", starred=False, note="", added_at="",
        date=iso_from_parts(csl["issued"]), csl=csl,
    )
    text = export([paper], fmt)
    [record] = parse_text(text, "x", fmt).records
    assert record.citekey == "key1"
    # BibTeX keeps the title as TeX, with braces protecting its case: shown as it was.
    assert (plain_line(record.title), record.venue, record.year, record.date) == (
        title, "Venue of Things", parts[0], paper.date)
    for variable in ("type", "author", "editor", "volume", "issue", "page", "publisher",
                     "issued"):
        assert record.csl.get(variable) == csl.get(variable), variable


def test_the_shared_files_survive_field_by_field(tmp_path: Path) -> None:
    """The measurement script's figures: what reaches 100 % stays there."""
    if not SHARED.exists():
        pytest.skip("shared data not present")
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "measure_record", Path(__file__).parents[1] / "scripts" / "measure_record.py"
    )
    assert spec and spec.loader
    measure_record = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(measure_record)
    entries, papers, present, survived, _ = measure_record.measure(SHARED / "ris" /
                                                                    "baseline-100.ris")
    assert (entries, papers) == (100, 100)
    assert survived == present


# --- formats ---------------------------------------------------------------------------------


def test_medline_records_from_the_pubmed_format(empty_library: Library, tmp_path: Path) -> None:
    parsed = parse_file(DATA / "pubmed-3.nbib")
    assert parsed.format == "medline"
    assert parsed.problems == ["pubmed-3.nbib:57: record has neither title nor abstract; skipped"]
    first, second = parsed.records
    assert first.title.startswith("The value of radiologic interventions and (18)F-DOPA PET")
    assert first.title.endswith("meta-analysis")
    assert first.authors == ["Bjorn A Blomberg", "Mateen C Moghbel"]
    assert (first.venue, first.year, first.date, first.doi) == (
        "Molecular imaging and biology", 2013, "2013-02", "10.1007/s11307-012-0572-0")
    assert {k: first.csl[k] for k in ("volume", "issue", "page", "PMID")} == {
        "volume": "15", "issue": "1", "page": "97-105", "PMID": "22752652"}
    assert second.csl["author"][1] == {"literal": "The Example Consortium"}
    assert second.csl["issued"] == {"date-parts": [[2019, 6, 3]]}


def test_a_medline_file_named_ris_is_read_as_medline_or_refused(tmp_path: Path) -> None:
    misnamed = tmp_path / "pubmed.ris"
    misnamed.write_bytes((DATA / "pubmed-3.nbib").read_bytes())
    runner = CliRunner()
    base = ["--library", str(tmp_path / "lib")]
    result = runner.invoke(cli, [*base, "import", str(misnamed)], obj={})
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0] == (
        "3 read: 2 new, 0 merged, 0 unchanged, 1 skipped (see --verbose)"
    )
    forced = runner.invoke(cli, [*base, "import", "--format", "ris", str(misnamed)], obj={})
    assert forced.exit_code == 1
    [line] = forced.output.strip().splitlines()
    assert line.endswith("pubmed.ris: not RIS (no 'TY  - ' line starts a record)")


def test_web_of_science_plain_text() -> None:
    parsed = parse_file(DATA / "wos-2.txt")
    assert (parsed.format, parsed.problems) == ("wos", [])
    article, book = parsed.records
    assert article.title == (
        "Perceptions of disability and their impact upon involvement in sport for people with "
        "disabilities at all levels"
    )
    assert (article.venue, article.date, article.doi, article.authors) == (
        "Journal of Sport & Social Issues", "2004-11", "10.1177/0193723504268729",
        ["Ian Brittain"])
    assert (article.csl["volume"], article.csl["issue"], article.csl["page"]) == ("28", "4",
                                                                               "429-452")
    assert article.keywords == ["disability", "sport", "perceptions"]
    assert (book.csl["type"], book.csl["publisher"], book.csl["ISBN"]) == (
        "book", "Sage", "978-1-4462-1116-8")


def test_zotero_json_items_names_and_notes(empty_library: Library) -> None:
    parsed = parse_file(DATA / "zotero-2.json")
    assert (parsed.format, parsed.problems) == ("zotero", [])
    chapter, page = parsed.records
    assert chapter.citekey == "Rame72"
    assert chapter.csl["type"] == "chapter"
    assert chapter.csl["editor"] == [{"family": "Van de Walle", "given": "C. G."},
                                     {"literal": "Image Processing Society"}]
    assert "note" not in chapter.csl
    assert chapter.note == "# Summary\n\nDrops points *below* a distance.\n\n- fast"
    assert (page.csl["type"], page.date, page.csl["accessed"]) == (
        "webpage", "2016-06-01", {"date-parts": [[2019, 4, 28]]})
    empty_library.imports.write_files([DATA / "zotero-2.json"])
    stored = by_key(empty_library)["Rame72"]
    assert stored.note == chapter.note
    [version] = empty_library.store.edits.note_versions(stored.id)
    assert (version.text, version.writer) == (chapter.note, "an import")
    assert render([stored], "text", "apa").endswith(
        "In C. G. Van de Walle & Image Processing Society (Eds.), Computer Graphics and Image "
        "Processing (pp. 170–185). Academic Press."
    )


def test_the_shared_better_bibtex_export() -> None:
    path = SHARED / "zotero" / "bbt-1179.zotero.json"
    if not path.exists():
        pytest.skip("shared data not present")
    parsed = parse_file(path)
    assert (parsed.format, len(parsed.records), parsed.problems) == ("zotero", 26, [])
    assert sum(1 for r in parsed.records if r.note) == 13


def test_openreview_api_v2_notes() -> None:
    parsed = parse_file(DATA / "openreview-v2.json")
    assert (parsed.format, parsed.problems) == ("openreview", [])
    accepted, submitted = parsed.records
    assert (accepted.title, accepted.authors, accepted.openreview_id, accepted.citekey) == (
        "Length Generalisation of Transformers by Position Coupling",
        ["Hanseul Cho", "Jaeyoung Cha", "Chulhee Yun"], "sPqR5tUvWx", "cho2024position")
    assert submitted.citekey is None


def test_subtitles_and_date_ranges_come_back_as_written() -> None:
    text = (
        "@book{westfahl, title = {The True Frontier}, subtitle = {Confronting the Realities},"
        " date = {1984/1986}, publisher = {Palgrave}}\n"
    )
    [record] = parse_text(text, "s.bib", "bibtex").records
    assert record.title == "The True Frontier: Confronting the Realities"
    paper = Paper(
        id=1, title=record.title, title_derived=False, abstract="", authors=[], venue=None,
        year=record.year, keywords=[], url=None, doi=None, citekey="westfahl", starred=False,
        note="", added_at="", date=record.date, kind=record.kind, csl=record.csl,
        extra=record.extra,
    )
    entry = render([paper], "bibtex")
    assert "  title = {The True Frontier},\n" in entry
    assert "  subtitle = {Confronting the Realities}" in entry
    assert "  date = {1984/1986}" in entry


def test_and_others_is_cited_and_shown_as_a_list_that_goes_on(
    empty_library: Library, tmp_path: Path
) -> None:
    from reader.ui.paper_parts import _meta_line

    bib = tmp_path / "others.bib"
    bib.write_text(
        "@article{five,\n  title = {Five and More},\n"
        "  author = {Ai, An and Bo, Bea and Cu, Cy and Do, Di and Ed, Eve and others},\n"
        "  journal = {J. Things}, year = {2020}\n}\n",
        encoding="utf-8",
    )
    empty_library.imports.write_files([bib])
    paper = by_key(empty_library)["five"]
    assert render([paper], "text", "apa").startswith(
        "Ai, A., Bo, B., Cu, C., Do, D., Ed, E., et al. (2020)."
    )
    assert render([paper], "text", "ieee").startswith(
        "[1] A. Ai, B. Bo, C. Cu, D. Do, E. Ed, et al., “Five and More,”"
    )
    assert render([paper], "text", "chicago-author-date").startswith(
        "Ai, An, Bea Bo, Cy Cu, Di Do, Eve Ed, et al. 2020."
    )
    assert "Ai, A., Bo, B., Cu, C., Do, D., Ed, E., et al." in render(
        [paper], "text", "apa", output="html")
    assert render([paper], "text", "mla").startswith("Ai, An, et al. “Five and More.”")
    assert _meta_line(paper).plain.splitlines()[0] == "An Ai, Bea Bo, Cy Cu, Di Do, Eve Ed et al."


def test_variables_citeproc_does_not_know_never_reach_it(
    empty_library: Library, tmp_path: Path
) -> None:
    import warnings

    from msgspec.structs import replace

    empty_library.imports.write_files([DATA / "record.bib"])
    thesis = by_key(empty_library)["vonneumann"]
    paper = replace(thesis, csl={**thesis.csl, "WOS": "000123"})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert render([paper], "text", "apa") == render([thesis], "text", "apa")


def test_a_short_doi_beside_the_full_one_exports_the_full_one(
    empty_library: Library, tmp_path: Path
) -> None:
    """Zotero keeps a short DOI (10/dkntrs) with the full one in the URL: the paper is
    known by the full one, and each export writes it, so a re-import finds the paper."""
    item = {"key": "SHRT0001", "itemType": "journalArticle", "title": "Women in sport",
            "creators": [{"creatorType": "author", "firstName": "Jo", "lastName": "Ames"}],
            "date": "2010", "DOI": "10/dkntrs",
            "url": "https://doi.org/10.1080/17430430903522954"}
    source = tmp_path / "zotero.json"
    source.write_text(json.dumps([item]), encoding="utf-8")
    empty_library.import_files([source])
    [paper] = empty_library.papers(empty_library.all_ids())
    assert paper.doi == "10.1080/17430430903522954"
    from reader.cite.export import export

    for fmt in ("csv", "json", "csljson", "ris", "bibtex"):
        out = tmp_path / f"out.{fmt}"
        export([paper], fmt, out)
        assert "10.1080/17430430903522954" in out.read_text(encoding="utf-8"), fmt
        summary = empty_library.import_files([out], dry_run=True)
        assert summary.new == 0, fmt


@pytest.mark.parametrize("source", ["xampl.bib", "zotero-2.json", "items-26.csl.json"])
def test_the_json_export_read_back_is_the_papers_field_for_field(
    empty_library: Library, tmp_path: Path, source: str
) -> None:
    """Our JSON export imported into another library: entry type, structured names,
    editors, volume, pages, publisher and source fields as they were (they came back as
    unread keys of a table)."""
    empty_library.imports.write_files([DATA / source])
    out = tmp_path / "out.json"
    papers = {p.citekey: p for p in empty_library.store.iter_papers()}
    export(list(papers.values()), "json", out)
    other = Library(tmp_path / "other")
    try:
        other.imports.write_files([out])
        again = {p.citekey: p for p in other.store.iter_papers()}
    finally:
        other.close()
    assert again.keys() == papers.keys()
    for key, paper in papers.items():
        back = again[key]
        for name in (*_COMPARED, "kind", "csl", "extra", "aliases", "withdrawn"):
            assert getattr(back, name) == getattr(paper, name), (key, name)
    assert empty_library.imports.write_files([out]).unchanged == len(papers)
