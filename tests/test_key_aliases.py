"""A merged entry's key stays a key of its paper: cited, starred, noted and exported by it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from reader.cite.export import export
from reader.cli import cli
from reader.library import Library
from reader.store.database import StoreError
from reader.ui.app import ReaderApp
from reader.ui.widgets.paper_list import PaperList
from tests.test_app import SIZE, detail_text, settle

# Two entries of one file with one arXiv id (random-229.bib has them): one paper.
TWO_KEYS = r"""@inproceedings{wooters07,
  title = {{Discrete Phase Space and Minimum-Uncertainty States}},
  author = {Wootters, William K. and Sussman, Daniel M.},
  booktitle = {Proc. QCMC 2007},
  eprint = {0704.1277},
  archivePrefix = {arXiv},
  year = {2007}
}
@article{wootters07,
  title = {{Discrete Phase Space and Minimum-Uncertainty States}},
  author = {Wootters, William K. and Sussman, Daniel M.},
  eprint = {0704.1277},
  archivePrefix = {arXiv},
  year = {2007}
}
@article{other,
  title = {Another paper},
  author = {Doe, Jane},
  year = {2010}
}
"""


@pytest.fixture
def bib(tmp_path: Path) -> Path:
    path = tmp_path / "keys.bib"
    path.write_text(TWO_KEYS, encoding="utf-8")
    return path


def _cli(library: Path, *args: str, ok: bool = True) -> str:
    result = CliRunner().invoke(cli, ["--library", str(library), *args], obj={})
    assert (result.exit_code == 0) == ok, result.output
    return result.output


def test_the_key_of_a_merged_entry_works_wherever_a_key_does(tmp_path: Path, bib: Path) -> None:
    lib = tmp_path / "lib"
    summary = _cli(lib, "import", str(bib))
    assert "2 new, 1 merged" in summary
    assert "1 key of merged entries, kept as aliases: wootters07 → wooters07" in summary
    assert "@inproceedings{wooters07," in _cli(lib, "cite", "wootters07")
    _cli(lib, "star", "wootters07")
    _cli(lib, "note", "wootters07", "--text", "Read this one.")
    library = Library(lib)
    paper = library.store.paper(library.store.id_for_key("wooters07") or 0)
    assert paper is not None
    assert (paper.starred, paper.note, paper.aliases) == (True, "Read this one.", ["wootters07"])
    assert "no paper with key" not in (library.search("like:wootters07").notice or "")
    assert "no paper with key" in (library.search("like:wootters08").notice or "")


def test_an_alias_is_never_another_papers_key(tmp_path: Path, bib: Path) -> None:
    library = Library(tmp_path / "lib")
    library.imports.write_files([bib])
    other = library.store.id_for_key("other")
    assert other is not None
    with pytest.raises(StoreError, match="already belongs"):
        library.store.edits.set_citekey(other, "wootters07")
    with pytest.raises(StoreError, match="already belongs"):
        library.store.edits.update_metadata(other, {"citekey": "wootters07"})
    # A new entry with that key gets a suffix, as for any key already taken.
    later = tmp_path / "later.bib"
    later.write_text("@article{wootters07, title={Something else}, year=2020}\n", "utf-8")
    summary = library.imports.write_files([later])
    assert "wootters07 → wootters07a" in summary.key_changes()
    # The paper itself may take its alias as its key: then it is no longer an alias, and
    # the key it had becomes one.
    own = library.store.id_for_key("wootters07")
    assert own is not None
    library.store.edits.set_citekey(own, "wootters07")
    paper = library.store.paper(own)
    assert paper is not None and (paper.citekey, paper.aliases) == ("wootters07", ["wooters07"])
    assert library.store.id_for_key("wooters07") == own


def test_aliases_go_out_as_biblatex_ids_and_come_back(tmp_path: Path, bib: Path) -> None:
    library = Library(tmp_path / "lib")
    library.imports.write_files([bib])
    first = export(list(library.store.iter_papers()), "bibtex")
    assert "  ids = {wootters07}" in first
    again = tmp_path / "again.bib"
    again.write_text(first, encoding="utf-8")
    copy = Library(tmp_path / "copy")
    copy.imports.write_files([again])
    assert copy.store.id_for_key("wootters07") == copy.store.id_for_key("wooters07") is not None
    assert export(list(copy.store.iter_papers()), "bibtex") == first


async def test_the_detail_pane_names_the_aliases(tmp_path: Path, bib: Path) -> None:
    library = Library(tmp_path / "lib")
    library.import_files([bib])
    paper_id = library.store.id_for_key("wootters07")
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        app.query_one(PaperList).cursor = library.store.all_ids().index(paper_id)
        await settle(app, pilot)
        assert "@wooters07 (also @wootters07)" in " ".join(detail_text(app).split())


def test_a_rekeyed_paper_still_answers_to_its_old_key(tmp_path: Path, bib: Path) -> None:
    lib = tmp_path / "lib"
    _cli(lib, "import", str(bib))
    _cli(lib, "rekey", "other", "doe2010")
    assert "@article{doe2010," in _cli(lib, "cite", "other")
    assert "  ids = {other}" in _cli(lib, "cite", "doe2010")
    # Back to the old key: it is the key again, and the other one the alias.
    _cli(lib, "rekey", "doe2010", "other")
    library = Library(lib)
    paper = library.store.paper(library.store.id_for_key("doe2010") or 0)
    assert paper is not None and (paper.citekey, paper.aliases) == ("other", ["doe2010"])


def test_a_key_changed_in_the_details_form_stays_an_alias(tmp_path: Path, bib: Path) -> None:
    library = Library(tmp_path / "lib")
    library.imports.write_files([bib])
    merged = library.store.id_for_key("wooters07")
    assert merged is not None
    library.marks.update_metadata(merged, {"citekey": "wootters2007"})
    paper = library.store.paper(merged)
    assert paper is not None
    assert (paper.citekey, paper.aliases) == ("wootters2007", ["wooters07", "wootters07"])
    assert library.store.id_for_key("wooters07") == merged
    # A key taken by another paper is refused and changes nothing.
    with pytest.raises(StoreError, match="already belongs"):
        library.marks.update_metadata(merged, {"citekey": "other"})
    assert library.store.paper(merged).aliases == ["wooters07", "wootters07"]  # type: ignore[union-attr]


def test_a_new_key_and_a_restored_text_reach_the_index_with_the_write(tmp_path: Path) -> None:
    """The library, not its caller, has the index follow a key given or a revision put
    back: the index is current as the write returns (no later sync needed)."""
    from reader.resources import sample_files

    library = Library(tmp_path / "lib")
    library.import_files(sample_files()[:1])
    paper_id = library.store.all_ids()[0]
    change = library.queries.set_citekey(paper_id, "brandnewkey")
    assert change.indexed
    assert library.index.generation == library.store.generation()
    from reader.search.query import ParsedQuery

    assert list(library.index.search(ParsedQuery("brandnewkey")).ids) == [paper_id]
    library.close()


def _openreview_note(path: Path, bibtex_key: str, authors: list[str]) -> Path:
    """A NeurIPS submission's note as OpenReview's API v2 gives it, with its ``_bibtex``."""
    note = {
        "id": "qQ1wW2eE3r", "forum": "qQ1wW2eE3r", "number": 3, "cdate": 1715000000000,
        "mdate": 1715000000000 if bibtex_key.startswith("anonymous") else 1727000000000,
        "invitations": ["NeurIPS.cc/2024/Conference/-/Submission"],
        "content": {
            "title": {"value": "A Benchmark for Multilingual Code Repair"},
            "abstract": {"value": "We collect bugs and their fixes in twelve languages."},
            "authors": {"value": authors},
            "venue": {"value": "NeurIPS 2024 Conference Submission"},
            "_bibtex": {"value": f"@inproceedings{{\n{bibtex_key},\ntitle={{A Benchmark for "
                                 "Multilingual Code Repair}},\nyear={2024}\n}"},
        },
    }
    path.write_text(json.dumps(note) + "\n", encoding="utf-8")
    return path


def test_a_later_snapshots_key_does_not_rename_the_paper(tmp_path: Path) -> None:
    """A key once given is the paper's: a later snapshot whose ``_bibtex`` names it
    otherwise (OpenReview's ``sato2024a``) gives an alias, and ``\\cite{sato2024benchmark}``
    in a document keeps finding its entry in a classic BibTeX export."""
    lib = tmp_path / "lib"
    _cli(lib, "import", str(_openreview_note(tmp_path / "old.jsonl", "anonymous2024a",
                                             ["Yuki Sato", "Ana Popescu"])))
    assert "sato2024benchmark" in _cli(lib, "search", "")
    summary = _cli(lib, "import", str(_openreview_note(tmp_path / "new.jsonl", "sato2024a",
                                                       ["Yuki Sato", "Ana Popescu"])))
    assert "kept as aliases: sato2024a → sato2024benchmark" in summary
    assert "@inproceedings{sato2024benchmark," in _cli(lib, "cite", "sato2024a")
    assert "@inproceedings{sato2024benchmark," in _cli(lib, "cite", "sato2024benchmark")
