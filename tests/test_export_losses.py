"""What an export says it leaves out is what a library made from it lacks: a value that
appears elsewhere in the record (a source named in the URL) is still lost, and what RIS can
carry (a BibTeX record's PMID, a preprint's number) comes back from it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from reader.cli import cli
from reader.library import Library


def _invoke(root: Path, *args: str) -> Any:
    result = CliRunner().invoke(cli, ["--library", str(root), *args], obj={})
    assert result.exit_code == 0, result.output
    return result


def _csl(root: Path, path: Path) -> dict[str, dict[str, Any]]:
    """Each paper's CSL variables by title, in a new library made from ``path``."""
    _invoke(root, "import", str(path))
    library = Library(root)
    try:
        return {p.title: p.csl for p in library.papers(library.all_ids())}
    finally:
        library.close()


def test_a_source_named_in_the_url_is_still_lost(tmp_path: Path) -> None:
    """Zotero's Library Catalog ("www.bmj.com") has no BibTeX field: said, though the
    paper's link holds the same words."""
    item = {"id": "a", "type": "article-journal", "title": "Sex and gender equity",
            "author": [{"family": "Tannenbaum", "given": "Cara"}],
            "issued": {"date-parts": [[2019]]}, "URL": "https://www.bmj.com/content/364/l1",
            "source": "www.bmj.com"}
    (tmp_path / "z.json").write_text(json.dumps([item]), encoding="utf-8")
    _invoke(tmp_path / "lib", "import", str(tmp_path / "z.json"))
    said = _invoke(tmp_path / "lib", "export", "-o", str(tmp_path / "z.bib")).stderr
    assert said.startswith("Not in bibtex: other fields (1 paper: source)"), said
    assert "source" not in _csl(tmp_path / "back", tmp_path / "z.bib")["Sex and gender equity"]


BIB = """@article{englert96,
  author = {Englert, Berthold-Georg},
  title = {Fringe Visibility and Which-Way Information},
  journal = {Physical Review Letters},
  year = {1996},
  volume = {77},
  pmid = {10061872},
}

@article{devetak05b,
  author = {Devetak, Igor},
  title = {The Private Classical Capacity of a Quantum Channel},
  journal = {IEEE Transactions on Information Theory},
  year = {2005},
  isbn = {0018-9448},
  issn = {0018-9448},
}
"""


def test_ris_carries_a_bibtex_pmid_and_says_an_isbn_it_cannot(tmp_path: Path) -> None:
    (tmp_path / "a.bib").write_text(BIB, encoding="utf-8")
    _invoke(tmp_path / "lib", "import", str(tmp_path / "a.bib"))
    said = _invoke(tmp_path / "lib", "export", "-o", str(tmp_path / "a.ris")).stderr
    back = _csl(tmp_path / "back", tmp_path / "a.ris")
    assert back["Fringe Visibility and Which-Way Information"]["PMID"] == "10061872"
    devetak = back["The Private Classical Capacity of a Quantum Channel"]
    assert devetak["ISSN"] == "0018-9448"
    # RIS's SN is read by the number's form: an ISBN field holding an ISSN is lost, and said.
    assert "ISBN" not in devetak
    assert said.startswith("Not in ris: other fields (1 paper: ISBN)"), said


def test_a_preprints_number_comes_back_from_ris(tmp_path: Path) -> None:
    item = {"id": "m", "type": "article", "title": "Mistral 7B", "publisher": "arXiv",
            "number": "arXiv:2310.06825", "author": [{"family": "Jiang", "given": "Albert Q."}],
            "issued": {"date-parts": [[2023, 10, 10]]}}
    (tmp_path / "m.json").write_text(json.dumps([item]), encoding="utf-8")
    _invoke(tmp_path / "lib", "import", str(tmp_path / "m.json"))
    said = _invoke(tmp_path / "lib", "export", "-o", str(tmp_path / "m.ris")).stderr
    assert said == ""
    assert _csl(tmp_path / "back", tmp_path / "m.ris")["Mistral 7B"]["number"] == \
        "arXiv:2310.06825"
    library = Library(tmp_path / "back")
    try:
        [key] = [p.citekey for p in library.papers(library.all_ids())]
    finally:
        library.close()
    cited = _invoke(tmp_path / "back", "cite", key, "--style", "apa", "--format", "text").stdout
    assert "Mistral 7B (arXiv:2310.06825)" in cited


SCOPUS_ERRATUM = """TY  - JOUR
AU  - Kowalski, M.
TI  - Erratum: Transformers for Polish named entity recognition
PY  - 2024
T2  - Language Resources and Evaluation
C7  - 23
DO  - 10.1007/s10579-024-09999-9
N1  - Export Date: 03 December 2024; Correspondence Address: M. Kowalski; University of \
Warsaw; email: mk@uw.edu.pl
DB  - Scopus
ER  - 
"""


def test_an_article_number_comes_back_from_bibtex_as_the_number(tmp_path: Path) -> None:
    """An article's number went out as BibTeX's number, which is an @article's issue: the
    library made from the .bib cited "(23)" for "Article 23"; and the library's own entry
    read back was a change."""
    (tmp_path / "s.ris").write_text(SCOPUS_ERRATUM, encoding="utf-8")
    _invoke(tmp_path / "lib", "import", str(tmp_path / "s.ris"))
    _invoke(tmp_path / "lib", "export", "-o", str(tmp_path / "s.bib"))
    csl = _csl(tmp_path / "back", tmp_path / "s.bib")
    [variables] = csl.values()
    assert (variables.get("number"), variables.get("issue")) == ("23", None)
    again = _invoke(tmp_path / "lib", "import", str(tmp_path / "s.bib")).stdout
    assert "1 unchanged" in again


def test_scopus_record_notes_are_no_bibtex_note(tmp_path: Path) -> None:
    """Scopus's N1 (its export date, the corresponding author's address and e-mail) went
    out as a BibTeX note, which most styles print; it stays the record's, for RIS."""
    (tmp_path / "s.ris").write_text(SCOPUS_ERRATUM, encoding="utf-8")
    _invoke(tmp_path / "lib", "import", str(tmp_path / "s.ris"))
    bib = _invoke(tmp_path / "lib", "export", "--format", "bibtex").stdout
    assert "Export Date" not in bib and "mk@uw.edu.pl" not in bib
    ris = _invoke(tmp_path / "lib", "export", "--format", "ris").stdout
    assert "N1  - Export Date: 03 December 2024" in ris


def test_an_item_type_bibtex_has_no_entry_for_is_said(tmp_path: Path) -> None:
    """Classic BibTeX has no patent, program, talk or data set: each goes out as @misc and
    comes back a document, which its export says; biblatex's types keep them."""
    items = [{"id": "p", "type": "patent", "title": "Distilling knowledge",
              "author": [{"family": "Hinton", "given": "Geoffrey"}],
              "issued": {"date-parts": [[2021]]}},
             {"id": "a", "type": "article-journal", "title": "An article",
              "author": [{"family": "Smith", "given": "Ann"}], "container-title": "Nature",
              "issued": {"date-parts": [[2020]]}}]
    (tmp_path / "z.json").write_text(json.dumps(items), encoding="utf-8")
    _invoke(tmp_path / "lib", "import", str(tmp_path / "z.json"))
    said = _invoke(tmp_path / "lib", "export", "-o", str(tmp_path / "z.bib")).stderr
    assert said.startswith("Not in bibtex: item types (1 paper)"), said
    assert _csl(tmp_path / "back", tmp_path / "z.bib")["Distilling knowledge"]["type"] != "patent"
    said = _invoke(tmp_path / "lib", "export", "--format", "biblatex",
                   "-o", str(tmp_path / "z.biblatex")).stderr
    assert "item types" not in said, said


def test_ris_carries_a_pmid_and_names_the_variables_it_cannot(tmp_path: Path) -> None:
    """A PMID from any source goes out as PubMed's record number (EndNote's AN and DB),
    which comes back; a book's original date, which RIS has no tag for, is named."""
    items = [
        {"id": "g", "type": "article-journal", "title": "Mastering the game of Go",
         "author": [{"family": "Silver", "given": "David"}], "PMID": "29052630",
         "issued": {"date-parts": [[2017, 10]]}, "container-title": "Nature"},
        {"id": "s", "type": "book", "title": "Speech and Language Processing",
         "author": [{"family": "Jurafsky", "given": "Daniel"}], "publisher": "Pearson",
         "issued": {"date-parts": [[2009]]}, "original-date": {"date-parts": [[2000]]}},
    ]
    (tmp_path / "z.json").write_text(json.dumps(items), encoding="utf-8")
    _invoke(tmp_path / "lib", "import", str(tmp_path / "z.json"))
    said = _invoke(tmp_path / "lib", "export", "-o", str(tmp_path / "z.ris")).stderr
    assert said.startswith("Not in ris: other fields (1 paper: original-date)"), said
    back = _csl(tmp_path / "back", tmp_path / "z.ris")
    assert back["Mastering the game of Go"]["PMID"] == "29052630"
    assert "0 merged, 2 unchanged" in _invoke(tmp_path / "lib", "import",
                                              str(tmp_path / "z.ris")).stdout


def test_ris_and_csljson_say_they_write_markup_rendered(tmp_path: Path) -> None:
    """Their titles and abstracts are plain text for other tools: a paper whose TeX or
    Markdown is rendered comes back as other text, and the export says so; a plain one
    (its dashes as written) comes back as it was, and is not counted."""
    (tmp_path / "t.csv").write_text(
        "title,abstract\n"
        '"$\\lambda$-GRPO","A *hierarchical* cut: 28\\% vs. 30\\%."\n'
        '"Plain Words","Olfaction---the ability to sense molecules -- is old."\n',
        encoding="utf-8",
    )
    _invoke(tmp_path / "lib", "import", str(tmp_path / "t.csv"))
    for suffix in ("ris", "csl.json"):
        out = tmp_path / f"t.{suffix}"
        said = _invoke(tmp_path / "lib", "export", "-o", str(out)).stderr
        assert "TeX or Markdown of titles and abstracts (1 paper)" in said, said
        titles = set(_csl(tmp_path / f"back-{suffix}", out))
        assert titles == {"λ-GRPO", "Plain Words"}


def test_the_lines_name_split_keywords_folded_lines_and_a_tables_tex(tmp_path: Path) -> None:
    """A keyword holding ";" comes back as two from every format but JSON, a line break
    within a paragraph as a space from BibTeX and RIS, and a .bib title's TeX as its text
    from a CSV: each line says so, with the papers it is true of (and a CSV says a name
    lost its parts, not that "author" is lost: every author comes back)."""
    submission = {"id": "abcd0001", "cdate": 1758000000000, "content": {
        "title": {"value": "Sparse Things"}, "authors": {"value": ["Kim Lee"]},
        "abstract": {"value": "First line\nsecond line.\n\nA new paragraph."},
        "keywords": {"value": ["Diffusion models;RL", "other"]},
        "venue": {"value": "ICLR 2026 Conference Submission"},
        "venueid": {"value": "ICLR.cc/2026/Conference/Submission"}}}
    (tmp_path / "s.jsonl").write_text(json.dumps(submission) + "\n", encoding="utf-8")
    (tmp_path / "t.bib").write_text(
        "@article{spark2026, title = {{SPARK}: Parts}, author = {Garc{\\'i}a M{\\'a}rquez, Ana},"
        " journal = {J}, year = {2026}}\n", encoding="utf-8")
    lib = tmp_path / "lib"
    _invoke(lib, "import", str(tmp_path / "s.jsonl"), str(tmp_path / "t.bib"))
    said = {}
    for suffix in ("bib", "ris", "csl.json", "csv", "json"):
        said[suffix] = _invoke(lib, "export", "-o", str(tmp_path / f"o.{suffix}")).stderr
        back = tmp_path / f"back-{suffix}"
        _invoke(back, "import", str(tmp_path / f"o.{suffix}"))
        library = Library(back)
        try:
            papers = {p.title: p for p in library.papers(library.all_ids())}
        finally:
            library.close()
        split = papers["Sparse Things"].keywords != ["Diffusion models;RL", "other"]
        assert split == ("keywords split at ',' or ';' (1" in said[suffix]), said[suffix]
        folded = "\n" not in (papers["Sparse Things"].abstract or "").split("\n\n")[0]
        assert folded == ("line breaks within abstracts' paragraphs (1" in said[suffix])
    assert "line breaks" in said["bib"] and "keywords split" in said["csl.json"]
    assert "TeX or Markdown of titles and abstracts (1" in said["csv"], said["csv"]
    # ("García Márquez, Ana" comes back as Ana García Márquez, family name Márquez.)
    assert "other fields (1: authors' family names)" in said["csv"], said["csv"]


def test_bibtex_keeps_a_control_space_and_names_markdown_it_escapes(tmp_path: Path) -> None:
    """An OpenReview abstract in TeX ("30\\%", "e.g.\\ this") goes out as written and comes
    back so, its control space too (it came back "e.g.\\textbackslash{} this"); a Markdown
    "_emphasis_" in it cannot (TeX has no bare "_"), and the line counts it."""
    abstract = "A 30\\% cut of _safety triggers_ (e.g.\\ this one)."
    submission = {"id": "abcd0002", "cdate": 1758000000000, "content": {
        "title": {"value": "Safe Steps"}, "abstract": {"value": abstract}}}
    (tmp_path / "s.jsonl").write_text(json.dumps(submission) + "\n", encoding="utf-8")
    _invoke(tmp_path / "lib", "import", str(tmp_path / "s.jsonl"))
    said = _invoke(tmp_path / "lib", "export", "-o", str(tmp_path / "o.bib")).stderr
    assert "TeX or Markdown of titles and abstracts (1" in said, said
    _invoke(tmp_path / "back", "import", str(tmp_path / "o.bib"))
    library = Library(tmp_path / "back")
    try:
        [paper] = library.papers(library.all_ids())
    finally:
        library.close()
    assert paper.abstract == abstract.replace("_safety triggers_", "\\_safety triggers\\_")


def test_a_keyword_with_a_comma_is_said_split_only_where_it_is(tmp_path: Path) -> None:
    """RIS writes a keyword a line and splits a line at ";" alone: Scopus's "Models,
    Biological" comes back whole from it, and its export says nothing is split; CSL-JSON
    joins the keywords with commas, and says so."""
    (tmp_path / "k.ris").write_text(
        "TY  - JOUR\nTI  - Growth\nAU  - Lee, Kim\nPY  - 2024\nKW  - Models, Biological\n"
        "KW  - Growth\nER  - \n", encoding="utf-8")
    lib = tmp_path / "lib"
    _invoke(lib, "import", str(tmp_path / "k.ris"))
    for suffix, split in (("ris", False), ("csl.json", True)):
        said = _invoke(lib, "export", "-o", str(tmp_path / f"o.{suffix}")).stderr
        back = tmp_path / f"back-{suffix}"
        _invoke(back, "import", str(tmp_path / f"o.{suffix}"))
        library = Library(back)
        try:
            [paper] = library.papers(library.all_ids())
        finally:
            library.close()
        assert (paper.keywords != ["Models, Biological", "Growth"]) == split
        assert ("keywords split" in said) == split, said
