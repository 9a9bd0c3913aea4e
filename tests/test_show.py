"""``reader show``: one paper whole, for a person (its record, marks, signals, abstract,
note and highlights) or a script (``--json``)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from reader.cli import cli
from reader.library import Library

DATA = Path(__file__).parent / "data"


def _run(root: Path, *args: str) -> str:
    result = CliRunner().invoke(cli, ["--library", str(root), *args], obj={})
    assert result.exit_code == 0, result.output
    return result.stdout


def test_show_prints_a_paper_whole(empty_library: Library) -> None:
    library = empty_library
    library.imports.write_files([DATA / "jabref-marks.bib"])
    [paper] = library.store.iter_papers()
    library.set_starred(paper.id, True)
    root = library.paths.root
    shown = _run(root, "show", "Vaswani2017").splitlines()
    assert shown[:3] == ["Attention Is All You Need", "Ashish Vaswani, Noam Shazeer",
                         "NeurIPS · 2017"]
    assert "key        Vaswani2017" in shown
    assert "tags       to-cite, transformers" in shown
    assert "marks      ★ starred · read" in shown
    assert shown[shown.index("Note") + 1] == "The paper that started it."
    whole = json.loads(_run(root, "show", "--json", "attention"))
    assert (whole["citekey"], whole["starred"], whole["tags"]) == (
        "Vaswani2017", True, ["to-cite", "transformers"])
    assert whole["extra"]["bibtex"]["ranking"] == "rank5"


def test_show_prints_a_conference_papers_signals(empty_library: Library) -> None:
    library = empty_library
    library.imports.write_files([DATA / "iclr2017-workshop-4.json"])
    shown = _run(library.paths.root, "show", "B16Jem9xe")
    assert "signals    ratings" in shown and "decision workshop" in shown
    assert "\nAbstract\n" in shown


def test_titles_kept_as_tex_are_shown_plain_in_search_json(empty_library: Library) -> None:
    """A BibTeX title is stored as its TeX ("{BEARCUBS}: …"); a script reading `reader
    search --json` gets it as the reader shows it."""
    bib = empty_library.paths.root.parent / "tex.bib"
    bib.write_text("@article{sail, title = {{SAIL}: {Self-Amplified} Learning}, "
                   "year = {2025}, journal = {J}}\n", encoding="utf-8")
    empty_library.imports.write_files([bib])
    [row] = json.loads(_run(empty_library.paths.root, "search", "--json", "sail"))
    assert row["title"] == "SAIL: Self-Amplified Learning"


def test_a_files_notes_field_is_shown_apart_from_the_users_note(
    empty_library: Library, tmp_path: Path
) -> None:
    """A RIS N1 stays the record's notes field (databases fill it with accession numbers,
    which reference managers pass on): shown as the file's, not taken for the user's."""
    ris = tmp_path / "one.ris"
    ris.write_text("TY  - JOUR\nAU  - Smith, Anna\nTI  - Notes in RIS\nPY  - 2020\n"
                   "N1  - L2030246463\nER  - \n", encoding="utf-8")
    library = empty_library
    library.imports.write_files([ris])
    [paper] = library.store.iter_papers()
    assert paper.note == ""
    shown = _run(library.paths.root, "show", paper.citekey).splitlines()
    assert "file note  L2030246463" in shown and "Note" not in shown


def test_show_prints_a_doi_as_its_source_wrote_it(empty_library: Library, tmp_path: Path) -> None:
    """The library matches DOIs lower-cased; shown, "PhysRevD" became "physrevd"."""
    bib = tmp_path / "one.bib"
    bib.write_text("@article{p1, title={Phys Paper}, author={Doe, J}, journal={Phys. Rev. D},"
                   " year={2007}, doi={10.1103/PhysRevD.76.013009}}\n", encoding="utf-8")
    empty_library.imports.write_files([bib])
    assert "doi        10.1103/PhysRevD.76.013009" in _run(
        empty_library.paths.root, "show", "p1").splitlines()


def test_keywords_written_in_tex_are_shown_as_rendered(
    empty_library: Library, tmp_path: Path
) -> None:
    """A keyword "$\\ell_0$ cardinality constraint" was shown as written, by `reader show`
    and the detail pane, beside a title that showed ℓ₀."""
    from rich.style import Style

    from reader.ui.paper_parts import paper_parts

    path = tmp_path / "kw.json"
    path.write_text(json.dumps([{
        "title": "Sparse $\\ell_0$ Regression", "authors": ["Ann Ng"], "year": 2026,
        "abstract": "We fit sparse models.",
        "keywords": ["$\\ell_0$ cardinality constraint", "sparsity"],
    }]), encoding="utf-8")
    empty_library.imports.write_files([path])
    [paper] = empty_library.store.iter_papers()
    shown = _run(empty_library.paths.root, "show", paper.citekey)
    assert "keywords   ℓ₀ cardinality constraint, sparsity" in shown
    parts = paper_parts(paper, frozenset(), lambda _name: Style())
    assert "Keywords: ℓ₀ cardinality constraint, sparsity" in parts.meta.plain
