"""The library's own CSV export read back: into the same library, nothing changed (no type
filled in that the library never had, no decision read out of a workshop's venue); into a
new one, a withdrawn paper still withdrawn and a name kept whole without its braces; and
the export names the fields it has no column for."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from reader.cli import cli

BIB = r"""@inproceedings{muzero2019,
  title = {Mastering Atari by Planning with a Learned Model},
  author = {Schrittwieser, Julian and {DeepMind}},
  booktitle = {NeurIPS 2019 Deep RL Workshop},
  year = {2019},
}
@misc{flawed2024,
  title = {A Flawed Submission},
  author = {Other, Anne},
  year = {2024},
  pubstate = {withdrawn},
  howpublished = {Submitted to ICLR 2026},
}
"""
# Zotero's CSV export of a preprint: its CSL type is ``article`` (a preprint, in CSL).
ZOTERO = ('"Key","Item Type","Publication Year","Author","Title","Publisher","Url","Extra"\n'
          '"EFGH5678","preprint","2023","Lee, Kim","Sparse mixtures of experts scale '
          'sublinearly","arXiv","http://arxiv.org/abs/2305.01234","arXiv:2305.01234 [cs]"\n')
# A paper of the library's own JSON export with no kind of its own, only a CSL type; and
# a CSL variable (a PubMed id, a note) a CSV has no column for.
OWN = [{
    "citekey": "radford2021learning", "title_derived": False,
    "title": "Learning Transferable Visual Models From Natural Language Supervision",
    "authors": ["Alec Radford", "Jong Wook Kim"], "venue": "ICML", "year": 2021, "kind": None,
    "csl": {"type": "paper-conference", "note": "37 pages", "PMID": "123456",
            "author": [{"family": "Radford", "given": "Alec"},
                       {"family": "Kim", "given": "Jong Wook"}]},
}]


def _invoke(root: Path, *args: str) -> Any:
    result = CliRunner().invoke(cli, ["--library", str(root), *args], obj={})
    assert result.exit_code == 0, result.output
    return result


def _papers(root: Path) -> dict[str, dict[str, Any]]:
    papers = json.loads(_invoke(root, "export", "--format", "json").stdout)
    return {p["citekey"]: p for p in papers}


def test_an_own_csv_export_reads_back_unchanged_and_withdrawn(tmp_path: Path) -> None:
    bib, own, zotero = tmp_path / "a.bib", tmp_path / "own.json", tmp_path / "zotero.csv"
    bib.write_text(BIB, encoding="utf-8")
    own.write_text(json.dumps(OWN), encoding="utf-8")
    zotero.write_text(ZOTERO, encoding="utf-8")
    first = tmp_path / "first"
    _invoke(first, "import", str(bib), str(own), str(zotero))
    out = tmp_path / "out.csv"
    said = _invoke(first, "export", "-o", str(out)).output
    # A BibTeX source's field is named as such (it was one of the unnamed "source fields").
    assert "other fields (3 papers: howpublished, PMID, note, source fields)" in said, said
    again = _invoke(first, "import", "--verbose", str(out)).output
    assert "0 new, 0 merged, 4 unchanged" in again, again
    assert "decision" not in again
    second = tmp_path / "second"
    _invoke(second, "import", str(out))
    before, after = _papers(first), _papers(second)
    for key in ("withdrawn", "decision", "authors"):
        assert {k: p[key] for k, p in after.items()} == {k: p[key] for k, p in before.items()}
    assert after["flawed2024"]["withdrawn"] is True
    assert after["muzero2019"]["authors"] == ["Julian Schrittwieser", "DeepMind"]
    # The preprint is one still, not a journal article (the type column's CSL "article",
    # read as BibTeX's @article, was then exported as one, "journal = {arXiv}").
    preprint = after["lee2023sparse"]
    assert preprint["csl"]["type"] == before["lee2023sparse"]["csl"]["type"] == "article"
    assert preprint["kind"] != "article"
    cite = ("cite", "--format", "text", "--style", "apa", "lee2023sparse")
    assert _invoke(second, *cite).output == _invoke(first, *cite).output
    assert "@misc{lee2023sparse" in _invoke(second, "cite", "--format", "bibtex",
                                            "lee2023sparse").output
