"""A group that authors a paper as one ("ATLAS Collaboration") is cited as written and keyed
by its name, and a journal reference's lettered volume ("Phys.Lett. B716") is the journal's
section and the volume, as a physicist cites it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from rich.style import Style

from reader.cli import cli
from reader.record import split_name
from reader.sources.journal_ref import journal_reference

ATLAS = {
    "id": "1207.7214", "submitter": "Atlas Publications", "authors": "ATLAS Collaboration",
    "title": "Observation of a new particle in the search for the Standard Model Higgs boson",
    "journal-ref": "Phys.Lett. B716 (2012) 1-29", "doi": "10.1016/j.physletb.2012.08.020",
    "categories": "hep-ex", "abstract": "A search for the Standard Model Higgs boson.",
    "versions": [{"version": "v1", "created": "Tue, 31 Jul 2012 17:59:04 GMT"}],
    "update_date": "2012-09-01", "authors_parsed": [["ATLAS Collaboration", "", ""]],
}


def _invoke(root: Path, *args: str) -> Any:
    result = CliRunner().invoke(cli, ["--library", str(root), *args], obj={})
    assert result.exit_code == 0, result.output
    return result


def test_a_collaboration_is_cited_as_written_and_keyed_by_its_name(tmp_path: Path) -> None:
    listing = tmp_path / "arxiv.jsonl"
    listing.write_text(json.dumps(ATLAS) + "\n", encoding="utf-8")
    _invoke(tmp_path / "lib", "import", str(listing))
    apa = _invoke(tmp_path / "lib", "cite", "atlas2012observation", "--style", "apa",
                  "--format", "text").stdout
    assert apa.startswith("ATLAS Collaboration. (2012). Observation of a new particle")
    assert "Phys.Lett. B, 716, 1–29." in apa
    assert "(2012) 1-29" not in apa


def test_groups_and_et_al_are_literal_names() -> None:
    for name in ("ATLAS Collaboration", "Gemini Team", "The Tabula Muris Consortium",
                 "CMS Collaboration et al.", "G. Aad et al."):
        assert split_name(name) == {"literal": name}
    assert split_name("Ann Group-Lee") == {"given": "Ann", "family": "Group-Lee"}


def test_a_lettered_volume_is_the_journals_section() -> None:
    assert journal_reference("Phys.Lett. B716 (2012) 1-29") == {
        "type": "article-journal", "container-title": "Phys.Lett. B", "volume": "716",
        "page": "1–29", "issued": {"date-parts": [[2012]]},
    }
    assert journal_reference("Phys. Lett. B 716 (2012) 1-29")["volume"] == "716"


def test_a_group_among_people_is_one_name_in_bibtex_and_read_back_so(tmp_path: Path) -> None:
    """"The BABAR Collaboration" is braced whole: unbraced, BibTeX (and the reader, reading
    the export back) takes "The BABAR" for a given name and "Collaboration" for a family."""
    babar = {**ATLAS, "id": "0704.0020", "authors": "The BABAR Collaboration, B. Aubert",
             "authors_parsed": [["The BABAR Collaboration", "", ""], ["Aubert", "B.", ""]]}
    listing = tmp_path / "arxiv.jsonl"
    listing.write_text(json.dumps(babar) + "\n", encoding="utf-8")
    _invoke(tmp_path / "lib", "import", str(listing))
    _invoke(tmp_path / "lib", "export", "--format", "bibtex", "--output",
            str(tmp_path / "out.bib"), "-q", "arxiv:0704.0020")
    text = (tmp_path / "out.bib").read_text(encoding="utf-8")
    assert "author = {{The BABAR Collaboration} and B. Aubert}" in text
    _invoke(tmp_path / "again", "import", str(tmp_path / "out.bib"))
    apa = _invoke(tmp_path / "again", "cite", "--style", "apa", "--format", "text",
                  "babar2012observation").stdout
    assert apa.startswith("The BABAR Collaboration, & Aubert, B. (2012)."), apa


def test_a_listing_with_a_journal_shows_the_journal_not_arxiv(tmp_path: Path) -> None:
    """The detail pane and `reader show` said "arXiv · 2012 · vol. 716 · pp. 1–29": the
    journal's volume and pages under the archive's name, the journal named nowhere."""
    from reader.library import Library
    from reader.ui.paper_parts import paper_parts

    listing = tmp_path / "arxiv.jsonl"
    listing.write_text(json.dumps(ATLAS) + "\n", encoding="utf-8")
    _invoke(tmp_path / "lib", "import", str(listing))
    shown = _invoke(tmp_path / "lib", "show", "atlas2012observation").stdout.splitlines()
    assert shown[2] == "Phys.Lett. B · 2012 · vol. 716 · pp. 1–29"
    library = Library(tmp_path / "lib")
    try:
        paper = library.paper(library.all_ids()[0])
        assert paper is not None
        meta = paper_parts(paper, frozenset(), lambda _: Style()).meta.plain
    finally:
        library.close()
    assert meta.splitlines()[1].startswith("Phys.Lett. B · 2012 · @atlas2012observation")
