"""A file read into a library that has its papers already: what it says otherwise is
named (the library's values stay), and what it adds where the paper has nothing (a note,
tags) is added, never said to be "kept" over nothing."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from reader.cli import cli
from reader.library import Library

DATA = Path(__file__).parent / "data"


def test_a_corrected_record_read_again_names_the_fields_the_library_kept(
    empty_library: Library,
) -> None:
    library = empty_library
    library.imports.write_files([DATA / "merge-before.bib"])
    summary = library.imports.write_files([DATA / "merge-corrected.bib"])
    [(key, fields)] = summary.kept_differing
    assert key == "smith2020"
    assert fields == [
        "year 2020 (the file: 2021)",
        "authors Anna Smith, Bob Jones (the file: Anna Smith, Bob Jones, Carol Doe)",
        "journal Journal of Things (the file: Journal of Things and Stuff)",
        "volume 1 (the file: 12)",
        "pages 1-10 (the file: 101-110)",
    ]
    said = CliRunner().invoke(cli, ["--library", str(library.paths.root), "import",
                                    str(DATA / "merge-corrected.bib")], obj={}).output
    assert ("1 paper already in the library differs from the file in year, authors, journal, "
            "volume, pages: the library's values were kept (--verbose names them)") in said
    # The same file again, and the library's own export: nothing said.
    again = library.imports.write_files([DATA / "merge-before.bib"])
    assert again.kept_differing == [] and again.unchanged == 1


def test_two_tools_exports_of_the_same_items_keep_the_notes_one_of_them_has(
    empty_library: Library,
) -> None:
    """Zotero's items as CSL-JSON (no notes) and as Better BibTeX JSON (two with notes) in
    one command: the notes were dropped, said to be the papers' own kept."""
    library = empty_library
    summary = library.imports.write_files([DATA / "zotero-3.csl.json",
                                           DATA / "zotero-3.bbt.json"])
    assert (summary.new, summary.marks_kept) == (3, 0)
    noted = library.queries.flagged_ids("notes")
    assert len(noted) == 2
    assert {library.note(i).text for i in noted} == {"My note on this chapter."}
    # Read again, they change nothing: the notes are there.
    again = library.imports.write_files([DATA / "zotero-3.bbt.json"])
    assert again.unchanged == 3 and again.marks_kept == 0


def test_a_corrected_doi_and_journal_are_named_and_what_was_missing_is_said_taken(
    empty_library: Library,
) -> None:
    """A file's correction of a DOI keeps its paper (found by its own key, title and
    authors: no duplicate), a changed journal name is named, and a DOI or issue the
    library lacked is said to be taken from the file, not taken silently."""
    library = empty_library
    library.imports.write_files([DATA / "merge-journals.bib"])
    summary = library.imports.write_files([DATA / "merge-journals-corrected.bib"])
    assert (summary.new, summary.merged) == (0, 2)
    assert dict(summary.kept_differing) == {
        "kim2020": ["journal Soil Science (the file: Soil Science Journal)",
                    "doi 10.1000/soil.2020.1 (the file: 10.1000/soil.2020.7)"],
        "ng2019": ["journal Water (the file: Water Research)"],
    }
    assert dict(summary.filled) == {
        "kim2020": ["issue 4"], "ng2019": ["doi 10.1000/water.3", "issue 2"],
    }
    said = CliRunner().invoke(cli, ["--library", str(library.paths.root), "import",
                                    str(DATA / "merge-journals-corrected.bib")], obj={}).output
    assert "took" not in said  # taken once: the second time there is nothing to take
    assert "2 papers already in the library differ from the file in journal, doi" in said


def test_a_corrected_doi_in_a_file_without_keys_keeps_its_paper(empty_library: Library) -> None:
    """A RIS record (no citation key) whose DOI, year and issue were corrected, with the
    same title, first author and abstract, is the same paper: it became a second copy."""
    library = empty_library
    library.imports.write_files([DATA / "merge-doi.ris"])
    summary = library.imports.write_files([DATA / "merge-doi-corrected.ris"])
    assert summary.new == 0 and len(library.all_ids()) == 1
    [(key, fields)] = summary.kept_differing
    assert fields == ["year 2021 (the file: 2022)", "issue 3 (the file: 4)",
                      "doi 10.5555/jmlr.2021.0042 (the file: 10.5555/jmlr.2021.0043)"]


def test_an_arxiv_papers_journal_is_not_named_as_differing_by_its_own_export(
    empty_library: Library, tmp_path: Path
) -> None:
    """A preprint whose listing names its journal is exported as in that journal: read
    back, "journal arXiv (the file: Adv.Theor.Math.Phys.)" was named as differing."""
    from reader.cite.export import export

    library = empty_library
    library.imports.write_files([DATA / "arxiv-journal-ref.xml"])
    papers = library.store.papers(library.all_ids())
    for fmt in ("bibtex", "csv", "ris"):
        out = tmp_path / f"own.{fmt}"
        out.write_text(export(papers, fmt), encoding="utf-8")
        summary = library.imports.write_files([out])
        assert summary.kept_differing == [] and summary.unchanged == 1, fmt


def test_update_takes_the_files_values_and_undo_puts_them_back(tmp_path: Path) -> None:
    """`reader import --update` takes a corrected file's values where they differ (there
    was no way to take them), says so, and `import --undo` puts the library's back."""
    root = tmp_path / "lib"

    def run(*args: str) -> str:
        result = CliRunner().invoke(cli, ["--library", str(root), *args], obj={})
        assert result.exit_code == 0, result.output
        return result.output

    run("import", str(DATA / "merge-journals.bib"))
    said = run("import", "--update", str(DATA / "merge-journals-corrected.bib"))
    assert "differ from the file in journal, doi (1 paper): the file's values were taken" in said
    shown = run("show", "kim2020")
    assert "Soil Science Journal" in shown and "10.1000/soil.2020.7" in shown
    run("import", "--undo")
    shown = run("show", "kim2020")
    assert "Soil Science Journal" not in shown and "10.1000/soil.2020.1" in shown
    # A year taken is the year every citation prints (the date kept the old one).
    run("import", str(DATA / "merge-before.bib"))
    assert "(2020)" in run("cite", "--format", "text", "--style", "apa", "smith2020")
    run("import", "--update", str(DATA / "merge-corrected.bib"))
    assert "(2021)" in run("cite", "--format", "text", "--style", "apa", "smith2020")


def test_an_abstract_and_tldr_filled_in_by_a_merge_are_said(
    empty_library: Library, tmp_path: Path
) -> None:
    """A list of orals gave a paper its abstract, a newer snapshot its TL;DR: both were
    "merged" and nothing more."""
    library = empty_library
    bare, full = tmp_path / "bare.csv", tmp_path / "full.csv"
    bare.write_text("title,authors,year\nA Study of Things,Ann Lee,2024\n", encoding="utf-8")
    full.write_text("title,authors,year,abstract,tldr\n"
                    "A Study of Things,Ann Lee,2024,We study things at length.,Things.\n",
                    encoding="utf-8")
    library.imports.write_files([bare])
    summary = library.imports.write_files([full])
    assert dict(summary.filled) == {
        "lee2024study": ["abstract (26 characters)", "tldr (7 characters)"]
    }


def test_a_paper_twice_in_one_file_keeps_both_copies_tags(
    empty_library: Library, tmp_path: Path
) -> None:
    """Two Zotero items of one paper, tagged apart: the second's tags were dropped, and the
    paper, new to the library, was said to have kept "its own" marks."""
    library = empty_library
    items = [
        {"itemType": "preprint", "title": "Mistral 7B", "DOI": "10.48550/arXiv.2310.06825",
         "tags": [{"tag": tag}], "creators": [], "date": "2023"}
        for tag in ("llm", "to-read")
    ]
    path = tmp_path / "z.json"
    path.write_text(json.dumps({"config": {}, "items": items}), encoding="utf-8")
    summary = library.imports.write_files([path])
    [paper] = list(library.store.iter_papers())
    assert sorted(paper.tags) == ["llm", "to-read"]
    assert summary.marks_kept == 0 and summary.new == 1


def test_a_table_naming_another_journal_for_a_paper_says_so(
    empty_library: Library, tmp_path: Path
) -> None:
    """A table has no types: its row naming another journal for a journal article is said
    to differ, with its year and pages."""
    library = empty_library
    bib = tmp_path / "a.bib"
    bib.write_text("@article{lecun2015deep,\n  title = {Deep Learning},\n  author = {LeCun, "
                   "Yann},\n  journal = {Nature},\n  year = {2015},\n  pages = {436--444},\n"
                   "  doi = {10.1038/nature14539},\n}\n", encoding="utf-8")
    table = tmp_path / "b.csv"
    table.write_text("title,authors,venue,year,pages,doi\nDeep Learning,Yann LeCun,Nature "
                     "Reviews,2016,1-10,10.1038/nature14539\n", encoding="utf-8")
    library.imports.write_files([bib])
    [(key, fields)] = library.imports.write_files([table]).kept_differing
    assert (key, fields) == ("lecun2015deep", [
        "year 2015 (the file: 2016)", "journal Nature (the file: Nature Reviews)",
        "pages 436-444 (the file: 1-10)",
    ])
