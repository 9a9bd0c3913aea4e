"""The library's own CSV and JSON exports read back as the library that wrote them: nothing
changed when read into it again, the same papers field by field when read into a new one;
and every export says what of the papers its format does not write."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from reader.cli import cli
from reader.library import Library
from reader.record import csl_type_for_bibtex

DATA = Path(__file__).parent / "data"
#: A paperlists file: ratings as lists, confidences, a status, every source field kept.
PAPERLISTS = DATA / "colm2025-15.json"


def _invoke(root: Path, *args: str) -> Any:
    result = CliRunner().invoke(cli, ["--library", str(root), *args], obj={})
    assert result.exit_code == 0, result.output
    return result


def _papers(root: Path) -> list[dict[str, Any]]:
    """Every field of every paper, as the JSON export writes them, less what a library
    gives each paper of its own (its row id, when it was added)."""
    papers = json.loads(_invoke(root, "export", "--format", "json").stdout)
    return [{k: v for k, v in p.items() if k not in ("id", "added_at")} for p in papers]


@pytest.mark.parametrize("suffix", ["csv", "json"])
def test_an_own_export_read_back_is_unchanged_and_the_same_papers(
    tmp_path: Path, suffix: str
) -> None:
    first = tmp_path / "first"
    _invoke(first, "import", str(PAPERLISTS))
    _invoke(first, "star", "BEARCUBS")  # a mark of the user's comes back too
    out = tmp_path / f"out.{suffix}"
    _invoke(first, "export", "-o", str(out))
    again = _invoke(first, "import", str(out)).stdout
    assert "0 new, 0 merged, 15 unchanged" in again, again
    second = tmp_path / "second"
    _invoke(second, "import", str(out))
    before, after = _papers(first), _papers(second)
    if suffix == "csv":
        # A table has no column for the source's own fields (the export says so), and its
        # type column is the CSL type: "inproceedings" comes back as the same type in CSL's
        # words, "paper-conference".
        for paper, back in zip(before, after, strict=True):
            paper["extra"] = {}
            kind = csl_type_for_bibtex(paper.pop("kind"))
            assert back.pop("kind") == back["csl"].pop("type") == kind == "paper-conference"
    assert after == before


def test_a_csv_export_keeps_the_words_of_a_decision_and_the_count_of_ratings(
    tmp_path: Path,
) -> None:
    table = tmp_path / "accepted.csv"
    table.write_text(
        "title,authors,abstract,venue,avg_rating,n_ratings\n"
        "Sparse Attention,Ada Lovelace,We study sparse attention at scale.,ICLR 2026 Oral,7.5,4\n",
        encoding="utf-8")
    first = tmp_path / "first"
    _invoke(first, "import", str(table))
    out = tmp_path / "out.csv"
    _invoke(first, "export", "-o", str(out))
    second = tmp_path / "second"
    _invoke(second, "import", str(out))
    [paper] = _papers(second)
    assert (paper["decision"], paper["decision_raw"], paper["rating"], paper["rating_count"]) == (
        "oral", "ICLR 2026 Oral", 7.5, 4)


def test_a_venue_names_its_workshop_or_its_year_alone(tmp_path: Path) -> None:
    table = tmp_path / "papers.csv"
    table.write_text(
        "title,abstract,venue\n"
        "Tiny Tokenizers,A workshop paper on tokenizers for code.,ICLR 2026 Workshop\n"
        "Late Bloomers,A conference paper on late interaction.,ICML 2025\n",
        encoding="utf-8")
    root = tmp_path / "lib"
    _invoke(root, "import", str(table))
    papers = {p["title"]: p for p in _papers(root)}
    workshop, icml = papers["Tiny Tokenizers"], papers["Late Bloomers"]
    assert (workshop["venue"], workshop["year"], workshop["decision"]) == (
        "ICLR Workshop", 2026, "workshop")
    assert (icml["venue"], icml["year"], icml["decision"]) == ("ICML", 2025, None)


def test_a_lists_count_of_ratings_is_no_review_to_read(tmp_path: Path) -> None:
    table = tmp_path / "accepted.csv"
    table.write_text(
        "title,abstract,venue,avg_rating,n_ratings\n"
        "Sparse Attention,We study sparse attention at scale.,ICLR 2026 Poster,6.5,3\n",
        encoding="utf-8")
    root = tmp_path / "lib"
    _invoke(root, "import", str(table))
    shown = _invoke(root, "reviews", "sparse").stdout
    assert "mean 6.5" in shown and "review" not in shown.split("mean 6.5")[1], shown


def test_every_export_says_what_its_format_does_not_write(
    empty_library: Library, tmp_path: Path
) -> None:
    root = empty_library.paths.root
    _invoke(root, "import", str(PAPERLISTS))
    _invoke(root, "star", "BEARCUBS")
    said = {
        fmt: _invoke(root, "export", "-o", str(tmp_path / f"out.{fmt}")).stderr
        for fmt in ("bib", "ris", "csl.json", "csv", "json", "md")
    }
    assert said["bib"].startswith("Not in bibtex: ratings or decisions (15 papers), stars (1)")
    assert "json keeps all but replies" in said["bib"]
    assert "other fields (15: source fields)" in said["ris"]
    assert "other fields" not in said["csl.json"] and "stars (1)" in said["csl.json"]
    assert said["csv"].startswith("Not in csv: other fields (15 papers: source fields)")
    assert said["json"] == ""
    assert "stars (1)" in said["md"] and "notes" not in said["md"]


BOOKS_AND_THESES = """\
@phdthesis{smith2020,
  title = {Learning Things}, author = {Smith, Jane}, school = {MIT},
  address = {Cambridge, MA}, type = {{PhD} dissertation}, year = {2020}
}
@techreport{doe2019,
  title = {A Report}, author = {Doe, John}, institution = {Bell Labs},
  number = {TR-42}, address = {Murray Hill}, year = {2019}
}
@book{kant1998,
  title = {Critique of Pure Reason}, author = {Kant, Immanuel},
  translator = {Guyer, Paul and Wood, Allen W.}, edition = {2},
  series = {Cambridge Edition}, volume = {3}, number = {7},
  publisher = {Cambridge University Press}, address = {Cambridge}, year = {1998}
}
"""


def test_a_csv_export_keeps_a_thesis_a_report_and_a_translated_book(tmp_path: Path) -> None:
    """The CSV has columns for a thesis's type, a report's number, a book's edition, place,
    series and translators: read into another library, each is cited as before, and the
    export says nothing is left out."""
    bib = tmp_path / "books.bib"
    bib.write_text(BOOKS_AND_THESES, encoding="utf-8")
    first, second = tmp_path / "first", tmp_path / "second"
    _invoke(first, "import", str(bib))
    out = tmp_path / "out.csv"
    exported = _invoke(first, "export", "-o", str(out))
    assert "Not in csv" not in exported.stderr, exported.stderr
    assert "0 merged, 3 unchanged" in _invoke(first, "import", str(out)).stdout
    _invoke(second, "import", str(out))
    for key in ("smith2020", "doe2019", "kant1998"):
        for style in ("apa", "chicago-author-date"):
            cited = [
                _invoke(root, "cite", "--format", "text", "--style", style, key).stdout
                for root in (first, second)
            ]
            assert cited[0] == cited[1], (key, style, cited)
    [kant] = [p for p in _papers(second) if p["citekey"] == "kant1998"]
    assert kant["csl"]["translator"][1] == {"family": "Wood", "given": "Allen W."}
    assert (kant["csl"]["edition"], kant["csl"]["publisher-place"]) == ("2", "Cambridge")


def test_an_export_names_only_what_does_not_come_back(tmp_path: Path) -> None:
    """JabRef's groups, comment and read status go back out as its fields (an import reads
    them as tags, note and read mark again): a BibTeX export does not call them lost. A
    series number and a PMCID are written to BibTeX (number, pmcid), so nothing is said;
    RIS has no place for a PMID, and says so."""
    root = tmp_path / "lib"
    _invoke(root, "import", str(DATA / "jabref-marks.bib"))
    said = _invoke(root, "export", "--format", "bibtex", "-o", str(tmp_path / "a.bib")).stderr
    assert "tags" not in said and "notes" not in said and "read marks" not in said, said
    item = {"id": "b1", "type": "book", "title": "Series Book", "issued": {"date-parts": [[2010]]},
            "author": [{"family": "Roe", "given": "Al"}], "collection-title": "Lecture Notes",
            "collection-number": "42", "PMID": "123456", "PMCID": "PMC77"}
    (tmp_path / "bbt.json").write_text(json.dumps([item]), encoding="utf-8")
    other = tmp_path / "other"
    _invoke(other, "import", str(tmp_path / "bbt.json"))
    bib = tmp_path / "b.bib"
    assert _invoke(other, "export", "-o", str(bib)).stderr == ""
    assert "number = {42}" in bib.read_text(encoding="utf-8")
    assert "0 merged, 1 unchanged" in _invoke(other, "import", str(bib)).stdout
    ris = _invoke(other, "export", "-o", str(tmp_path / "b.ris")).stderr
    assert ris.startswith("Not in ris: other fields (1 paper: PMCID)"), ris
    # biblatex is read back as the BibTeX it is (its export stopped on a KeyError).
    said = _invoke(other, "export", "--format", "biblatex", "-o", str(tmp_path / "c.bib"))
    assert said.stderr == ""


@pytest.mark.parametrize("suffix", ["csv", "json"])
def test_an_own_export_keeps_a_submission_date_and_a_venue_with_its_year(
    tmp_path: Path, suffix: str
) -> None:
    """An OpenReview paper's date is its submission's (2025-09-01, the conference's year
    2026): read back it became "2026". A venue naming its year ("Proceedings of ACL 2024",
    as a Zotero item has it) lost the year."""
    first = tmp_path / "first"
    _invoke(first, "import", str(DATA / "openreview-replies-3.jsonl"))
    conn = sqlite3.connect(first / "library.sqlite")
    with conn:
        conn.execute("UPDATE papers SET venue = 'Proceedings of ACL 2025' "
                     "WHERE citekey = 'defacto2026'")
    conn.close()
    out = tmp_path / f"out.{suffix}"
    _invoke(first, "export", "-o", str(out))
    second = tmp_path / "second"
    _invoke(second, "import", str(out))
    kept = {p["citekey"]: (p["date"], p["venue"]) for p in _papers(second)}
    assert kept == {p["citekey"]: (p["date"], p["venue"]) for p in _papers(first)}
    assert kept["reasoning2026"] == ("2025-09-01", "ICLR")
    assert kept["defacto2026"] == ("2025-09-01", "Proceedings of ACL 2025")


@pytest.mark.parametrize("fmt", ["bibtex", "biblatex", "ris", "csv", "csljson"])
def test_a_series_number_reads_back_as_one_from_every_export(tmp_path: Path, fmt: str) -> None:
    """A book's number in its series came back from BibTeX and RIS as a plain number."""
    item = {"id": "b1", "type": "book", "title": "Series Book", "issued": {"date-parts": [[2010]]},
            "author": [{"family": "Roe", "given": "Al"}], "collection-title": "Lecture Notes",
            "collection-number": "42"}
    (tmp_path / "bbt.json").write_text(json.dumps([item]), encoding="utf-8")
    first, second = tmp_path / "first", tmp_path / "second"
    _invoke(first, "import", str(tmp_path / "bbt.json"))
    out = tmp_path / f"out.{fmt}"
    _invoke(first, "export", "--format", fmt, "-o", str(out))
    _invoke(second, "import", str(out))
    [paper] = _papers(second)
    assert paper["csl"].get("collection-number") == "42" and "number" not in paper["csl"]


@pytest.mark.parametrize("fmt", ["bibtex", "biblatex", "ris", "csljson", "csv", "json"])
def test_every_own_export_of_mixed_sources_reads_back_unchanged(
    tmp_path: Path, fmt: str
) -> None:
    """Papers from arXiv (with a journal reference), biblatex and classic BibTeX: the
    biblatex export read back "merged" them (its default field names and whole dates taken
    as news), and the JSON export named the arXiv paper's journal as differing."""
    root = tmp_path / "lib"
    for name in ("arxiv-journal-ref.xml", "biblatex-source.bib", "merge-journals.bib"):
        _invoke(root, "import", str(DATA / name))
    out = tmp_path / f"all.{fmt}"
    _invoke(root, "export", "--format", fmt, "-o", str(out))
    said = _invoke(root, "import", "--verbose", str(out)).stdout
    assert "0 new, 0 merged, 5 unchanged" in said and "differ" not in said, said


def test_a_csv_export_says_what_a_bibtex_thesis_is(tmp_path: Path) -> None:
    """A @mastersthesis says its kind in its entry type alone: the CSV's type "thesis" read
    back was cited with no "Master's thesis"."""
    first, second = tmp_path / "first", tmp_path / "second"
    _invoke(first, "import", str(DATA / "jabref-mastersthesis.bib"))
    out = tmp_path / "out.csv"
    _invoke(first, "export", "-o", str(out))
    assert "0 merged, 1 unchanged" in _invoke(first, "import", str(out)).stdout
    _invoke(second, "import", str(out))
    cited = [_invoke(root, "cite", "--format", "text", "--style", "ieee", "Lee2019").stdout
             for root in (first, second)]
    assert cited[0] == cited[1] and "Master's thesis" in cited[1]


def test_a_scopus_csv_is_read_as_scopus_means_it(tmp_path: Path) -> None:
    """Scopus writes "Zhang Y." (family first, then initials), "Article" for a journal's,
    and the pages in two columns: the initial was taken for the family name, the paper
    for a preprint, and the pages were lost."""
    root = tmp_path / "lib"
    _invoke(root, "import", str(DATA / "scopus-one.csv"))
    cited = _invoke(root, "cite", "--format", "text", "--style", "apa", "contrastive").stdout
    assert cited.startswith("Zhang, Y., Müller, K.-R., & O'Neil, P. (2022).")
    assert "Journal of Chemical Information and Modeling, 62(14), 3405–3417." in cited
    assert _invoke(root, "cite", "--format", "bibtex", "contrastive").stdout.startswith(
        "@article{zhang2022contrastive,")


def test_a_csv_export_keeps_an_abstracts_spaces_as_stored(tmp_path: Path) -> None:
    """No-break spaces ("5\u00a0ms", "10\u202f%") and a double space come back from the
    library's own CSV as they were, as from its JSON."""
    seeds = tmp_path / "seeds.txt"
    abstract = "We keep a 5\u00a0ms budget  and lose 10\u202f% of accuracy in doing so."
    seeds.write_text(f"ICLR 2026\n\n{abstract}\n", encoding="utf-8")
    first, second = tmp_path / "first", tmp_path / "second"
    _invoke(first, "import", str(seeds))
    [stored] = _papers(first)
    out = tmp_path / "out.csv"
    _invoke(first, "export", "-o", str(out))
    _invoke(second, "import", str(out))
    [back] = _papers(second)
    assert back["abstract"] == stored["abstract"]
    assert "\u00a0" in back["abstract"] and "\u202f" in back["abstract"]
