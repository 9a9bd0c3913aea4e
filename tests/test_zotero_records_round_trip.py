"""A Zotero record read into a new library from the library's own RIS and CSL-JSON exports
comes back as it was: the fields its citation needs neither lost nor changed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from reader.cli import cli

# Zotero's RIS of an old arXiv item: a journal article whose publication is the listing.
ARXIV_JOURNAL = """TY  - JOUR
TI  - Attention is not Explanation
AU  - Jain, Sarthak
AU  - Wallace, Byron C.
T2  - arXiv:1902.10186 [cs]
DA  - 2019/05/08/
PY  - 2019
UR  - http://arxiv.org/abs/1902.10186
ER  - 
"""


def _invoke(root: Path, *args: str) -> Any:
    result = CliRunner().invoke(cli, ["--library", str(root), *args], obj={})
    assert result.exit_code == 0, result.output
    return result


def _paper(root: Path) -> dict[str, Any]:
    [paper] = json.loads(_invoke(root, "export", "--format", "json").stdout)
    return dict(paper)


def _through(tmp_path: Path, text: str, fmt: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The paper a file gives, and the paper its export in ``fmt`` gives a new library."""
    source = tmp_path / "zotero.ris"
    source.write_text(text, encoding="utf-8")
    _invoke(tmp_path / "first", "import", str(source))
    out = tmp_path / f"out.{fmt}"
    _invoke(tmp_path / "first", "export", "--format", fmt, "-o", str(out))
    _invoke(tmp_path / "second", "import", str(out))
    return _paper(tmp_path / "first"), _paper(tmp_path / "second")


def test_an_arxiv_journal_article_comes_back_from_csljson_as_one(tmp_path: Path) -> None:
    before, after = _through(tmp_path, ARXIV_JOURNAL, "csljson")
    assert after["csl"].get("type") == before["csl"]["type"] == "article-journal"
    assert after["venue"] == before["venue"] == "arXiv:1902.10186 [cs]"
    assert "publisher" not in after["csl"] and "number" not in after["csl"]
    cited = _invoke(tmp_path / "second", "cite", "jain2019attention", "--style", "apa",
                    "--format", "text").stdout
    assert cited == _invoke(tmp_path / "first", "cite", "jain2019attention", "--style", "apa",
                            "--format", "text").stdout


def test_a_book_page_count_comes_back_from_ris(tmp_path: Path) -> None:
    book = ("TY  - BOOK\nTI  - Gödel, Escher, Bach\nAU  - Hofstadter, Douglas\n"
            "DA  - 1979///\nPY  - 1979\nSP  - 752\nER  - \n")
    before, after = _through(tmp_path, book, "ris")
    assert before["csl"]["number-of-pages"] == after["csl"].get("number-of-pages") == "752"
    assert "page" not in after["csl"]


RETRACTED = """PMID- 32500001
OWN - NLM
STAT- Publisher
TI  - Retracted: A deep network model of visual cortex.
PG  - 45-53
AU  - Tanaka H
FAU - Tanaka, Hiro
PT  - Journal Article
PT  - Retracted Publication
DP  - 2020 Jun 3
TA  - Nat Neurosci
JT  - Nature Neuroscience
SO  - Nat Neurosci. 2020 Jun 3;23:45-53.

"""


@pytest.mark.parametrize("fmt", ["csljson", "bibtex"])
def test_a_retracted_paper_stays_retracted(tmp_path: Path, fmt: str) -> None:
    """Its status goes out (CSL's status, biblatex's pubstate) and, read back, the paper is
    taken out of the literature again, not only cited as retracted."""
    source = tmp_path / "pubmed.nbib"
    source.write_text(RETRACTED, encoding="utf-8")
    _invoke(tmp_path / "first", "import", str(source))
    out = tmp_path / f"out.{fmt}"
    _invoke(tmp_path / "first", "export", "--format", fmt, "-o", str(out))
    _invoke(tmp_path / "second", "import", str(out))
    before, after = _paper(tmp_path / "first"), _paper(tmp_path / "second")
    assert before["withdrawn"] is True and after["withdrawn"] is True
    assert after["csl"].get("status") == before["csl"]["status"] == "retracted"


@pytest.mark.parametrize("fmt", ["bibtex", "biblatex"])
def test_a_program_version_comes_back_from_bibtex(tmp_path: Path, fmt: str) -> None:
    """biblatex's ``version`` holds it (as Better BibTeX writes it); a classic BibTeX style
    passes over a field it does not know."""
    source = tmp_path / "zotero.ris"
    source.write_text("TY  - COMP\nTI  - scikit-learn\nAU  - Pedregosa, Fabian\n"
                      "ET  - 1.5.1\nDA  - 2024///\nPY  - 2024\nER  - \n", encoding="utf-8")
    _invoke(tmp_path / "first", "import", str(source))
    out = tmp_path / f"out.{fmt}"
    _invoke(tmp_path / "first", "export", "--format", fmt, "-o", str(out))
    assert "version = {1.5.1}" in out.read_text(encoding="utf-8")
    _invoke(tmp_path / "second", "import", str(out))
    assert _paper(tmp_path / "second")["csl"].get("version") == "1.5.1"


# Zotero's CSV of a preprint: its server is its publication and its publisher.
PREPRINT = ('"Key","Item Type","Publication Year","Author","Title","Publication Title",'
            '"Publisher","Url"\n"EFGH5678","preprint","2023","Lee, Kim","Sparse mixtures of '
            'experts scale sublinearly","arXiv","arXiv","http://arxiv.org/abs/2305.01234"\n')


def test_a_preprint_keeps_its_server_as_venue_through_csljson(tmp_path: Path) -> None:
    """The export names the server as the preprint's publisher, not as a container: read
    back, the paper had no venue."""
    source = tmp_path / "zotero.csv"
    source.write_text(PREPRINT, encoding="utf-8")
    _invoke(tmp_path / "first", "import", str(source))
    out = tmp_path / "out.csl.json"
    _invoke(tmp_path / "first", "export", "--format", "csljson", "-o", str(out))
    _invoke(tmp_path / "second", "import", str(out))
    before, after = _paper(tmp_path / "first"), _paper(tmp_path / "second")
    assert after["venue"] == before["venue"] == "arXiv"
    assert after["csl"]["type"] == before["csl"]["type"] == "article"


# The same with no publication named, as Zotero's CSV of an arXiv item often has it.
PUBLISHED_BY_ARXIV = ('"Key","Item Type","Publication Year","Author","Title","Publisher",'
                      '"Date","Extra"\n"ABCD1234","preprint","2023","Touvron, Hugo","LLaMA: '
                      'Open and efficient models","arXiv","2023-02-27","arXiv: 2302.13971"\n')


@pytest.mark.parametrize("fmt", ["ris", "csljson", "bibtex"])
def test_a_preprint_comes_back_a_preprint_and_is_shown_and_cited_alike(
    tmp_path: Path, fmt: str
) -> None:
    """RIS has no type for a preprint (UNPB is a manuscript): read back, it was headed
    "Manuscript" and cited as one by IEEE. CSL-JSON names its server as its publisher,
    which Zotero's files mean as its venue too: read back, it was headed "arXiv · 2023 ·
    arXiv". Classic BibTeX's @misc came back a document, which APA dated by its day."""
    source = tmp_path / "zotero.csv"
    source.write_text(PUBLISHED_BY_ARXIV, encoding="utf-8")
    _invoke(tmp_path / "first", "import", str(source))
    out = tmp_path / f"out.{fmt}"
    _invoke(tmp_path / "first", "export", "--format", fmt, "-o", str(out))
    _invoke(tmp_path / "second", "import", str(out))
    before, after = _paper(tmp_path / "first"), _paper(tmp_path / "second")
    assert after["csl"]["type"] == before["csl"]["type"] == "article"
    assert after["venue"] == before["venue"]
    heading = [_invoke(root, "show", "touvron2023llama").stdout.splitlines()[:3]
               for root in (tmp_path / "first", tmp_path / "second")]
    assert heading[0] == heading[1] and heading[0][2] == "2023 · arXiv"
    for command in (["cite", "touvron2023llama", "--style", "ieee", "--format", "text"],
                    ["cite", "touvron2023llama", "--style", "apa", "--format", "text"]):
        assert (_invoke(tmp_path / "second", *command).stdout
                == _invoke(tmp_path / "first", *command).stdout)
