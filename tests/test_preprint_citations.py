"""An arXiv preprint is cited as the styles expect Zotero's data: its number
"arXiv:1706.03762", its case kept ("(ArXiv:…)" was printed), once in IEEE; a BibTeX @misc
with arXiv eprint fields is cited as the preprint it is."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from reader.cli import cli

DATA = Path(__file__).parent / "data"
ZOTERO_ITEM = {
    "id": "v17", "type": "article", "title": "Attention Is All You Need",
    "author": [{"family": "Vaswani", "given": "Ashish"}], "issued": {"date-parts": [[2017]]},
    "publisher": "arXiv", "number": "arXiv:1706.03762",
    "URL": "http://arxiv.org/abs/1706.03762",
}
# Zotero's CSV of a preprint: its arXiv id in Extra (and its DOI), arXiv its publisher.
ZOTERO_CSV = (
    '"Key","Item Type","Publication Year","Author","Title","DOI","Publisher","Extra"\n'
    '"ABCD1234","preprint","2017","Vaswani, Ashish","Attention Is All You Need",'
    '"10.48550/arXiv.1706.03762","arXiv","arXiv: 1706.03762"\n'
)
EPRINT_MISC = """@misc{vaswani2017,
  title = {Attention Is All You Need},
  author = {Vaswani, Ashish and Shazeer, Noam},
  year = {2017}, eprint = {1706.03762}, archivePrefix = {arXiv}, primaryClass = {cs.CL}
}
"""


def _cite(root: Path, style: str) -> str:
    result = CliRunner().invoke(
        cli, ["--library", str(root), "cite", "--format", "text", "--style", style, "1"], obj={}
    )
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.mark.parametrize("source", ["kaggle", "zotero", "zotero-csv", "bibtex"])
def test_a_preprint_is_cited_with_its_arxiv_number(tmp_path: Path, source: str) -> None:
    """(A Zotero table's preprint, arXiv its publisher, was cited with no number.)"""
    path = {"kaggle": DATA / "arxiv-kaggle-one.jsonl", "zotero": tmp_path / "zotero.json",
            "zotero-csv": tmp_path / "zotero.csv", "bibtex": tmp_path / "eprint.bib"}[source]
    if source == "zotero":
        path.write_text(json.dumps([ZOTERO_ITEM]), encoding="utf-8")
    elif source == "zotero-csv":
        path.write_text(ZOTERO_CSV, encoding="utf-8")
    elif source == "bibtex":
        path.write_text(EPRINT_MISC, encoding="utf-8")
    root = tmp_path / "lib"
    done = CliRunner().invoke(cli, ["--library", str(root), "import", str(path)], obj={})
    assert done.exit_code == 0, done.output
    assert "(arXiv:1706.03762). arXiv." in _cite(root, "apa")
    assert "arXiv:1706.03762. Preprint, arXiv." in _cite(root, "chicago-author-date")
    ieee = _cite(root, "ieee")
    assert "arXiv: 1706.03762" in ieee and "arXiv: arXiv" not in ieee, ieee


@pytest.mark.parametrize("key", ["1", "2"])
def test_an_article_in_arxiv_preprint_is_cited_as_a_preprint(tmp_path: Path, key: str) -> None:
    """Mendeley's and Google Scholar's @article{journal = {arXiv preprint …}}: APA said
    "In arXiv preprint." with no number, IEEE nothing of arXiv."""
    root = tmp_path / "lib"
    done = CliRunner().invoke(
        cli, ["--library", str(root), "import", str(DATA / "mendeley-arxiv.bib")], obj={})
    assert done.exit_code == 0, done.output
    result = CliRunner().invoke(
        cli, ["--library", str(root), "cite", "--format", "text", "--style", "apa", key], obj={})
    assert "(arXiv:" in result.stdout and "In arXiv" not in result.stdout, result.stdout


def test_a_preprint_read_back_from_a_csv_export_is_cited_as_one(tmp_path: Path) -> None:
    """The CSV's type "article" is CSL's preprint: read back it was cited "In arXiv."."""
    first, second = tmp_path / "first", tmp_path / "second"
    for root, path in ((first, DATA / "arxiv-kaggle-one.jsonl"),):
        CliRunner().invoke(cli, ["--library", str(root), "import", str(path)], obj={})
    out = tmp_path / "out.csv"
    CliRunner().invoke(cli, ["--library", str(first), "export", "-o", str(out)], obj={})
    CliRunner().invoke(cli, ["--library", str(second), "import", str(out)], obj={})
    assert "(arXiv:1706.03762). arXiv." in _cite(second, "apa")


def test_a_free_text_journal_reference_is_no_container() -> None:
    """arXiv's journal reference is free text: a whole citation became the container's
    title ("In L. H. Friedman. Order of …"), "Vol. 140 pp77-89" was not read, and
    "RIMS Kokyuroku, No.1551" became a journal "RIMS Kokyuroku, No." of volume 1551."""
    from reader.sources.journal_ref import journal_reference

    assert journal_reference(
        "L. H. Friedman. Order of epitaxial self-assembled quantum dots: Linear analysis. "
        "Journal of Nanophotonics, 1(1):013513, 2007.") == {}
    assert journal_reference("J. Low. Temp. Phys. Vol. 140 pp77-89 (2005)") == {
        "type": "article-journal", "container-title": "J. Low. Temp. Phys.",
        "volume": "140", "page": "77–89", "issued": {"date-parts": [[2005]]}}
    found = journal_reference("RIMS Kokyuroku, No.1551, pp.57-62 (2007)")
    assert (found["container-title"], found["issue"]) == ("RIMS Kokyuroku", "1551")


def test_a_journal_reference_with_its_year_before_the_volume_is_read() -> None:
    """The IMS journals' form ("Statistical Science 2008, Vol. 23, No. 1, 65-68") and a
    month and year before volume(issue): pages were kept whole as the journal's name, cited
    "In Statistical Science 2008, Vol. 23, No. 1, 65-68" with the preprint's year."""
    from reader.sources.journal_ref import journal_reference

    assert journal_reference("Statistical Science 2008, Vol. 23, No. 1, 65-68") == {
        "type": "article-journal", "container-title": "Statistical Science", "volume": "23",
        "issue": "1", "page": "65–68", "issued": {"date-parts": [[2008]]}}
    assert journal_reference("Science & Education, September 2014, 23(9): 1853-1873") == {
        "type": "article-journal", "container-title": "Science & Education", "volume": "23",
        "issue": "9", "page": "1853–1873", "issued": {"date-parts": [[2014]]}}


def test_a_tex_accent_in_an_arxiv_title_stays_an_accent_in_bibtex(tmp_path: Path) -> None:
    """arXiv writes `Koll\\'ar` in its titles: the BibTeX export escaped the backslash,
    LaTeX printed it, and another library read it back as a literal `\\'`."""
    first, second = tmp_path / "first", tmp_path / "second"
    CliRunner().invoke(cli, ["--library", str(first), "import",
                             str(DATA / "arxiv-kaggle-accent.jsonl")], obj={})
    out = tmp_path / "out.bib"
    CliRunner().invoke(cli, ["--library", str(first), "export", "-o", str(out)], obj={})
    assert "Koll\\'ar" in out.read_text(encoding="utf-8")
    CliRunner().invoke(cli, ["--library", str(second), "import", str(out)], obj={})
    assert "Kollár's injectivity theorem" in _cite(second, "apa")


def test_a_withdrawn_paper_is_said_withdrawn_in_every_style() -> None:
    # APA and Chicago have a place for it; IEEE, Harvard, Nature, ACM and MLA's preprint
    # have none, and cited it as standing. (The title's own "withdrawn" is not the mark.)
    from reader.cite.formats import render
    from reader.models import Paper

    paper = Paper(
        id=1, title="A withdrawn result on graphs", title_derived=False, abstract="",
        authors=["Ann Lee"], venue="arXiv", year=2018, keywords=[], url=None, doi=None,
        citekey="lee2018withdrawn", starred=False, note="", added_at="",
        arxiv_id="1805.04833", withdrawn=True,
    )
    for style in ("apa", "chicago-author-date", "modern-language-association", "ieee",
                  "harvard-cite-them-right", "nature", "association-for-computing-machinery"):
        cited = render([paper], "text", style=style)
        assert "withdrawn" in cited.lower().replace(paper.title.lower(), ""), (style, cited)
