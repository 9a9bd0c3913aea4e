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
}
"""
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
    bib, own = tmp_path / "a.bib", tmp_path / "own.json"
    bib.write_text(BIB, encoding="utf-8")
    own.write_text(json.dumps(OWN), encoding="utf-8")
    first = tmp_path / "first"
    _invoke(first, "import", str(bib), str(own))
    out = tmp_path / "out.csv"
    said = _invoke(first, "export", "-o", str(out)).output
    assert "other fields (1 paper: PMID, note)" in said, said
    again = _invoke(first, "import", "--verbose", str(out)).output
    assert "0 new, 0 merged, 3 unchanged" in again, again
    assert "decision" not in again
    second = tmp_path / "second"
    _invoke(second, "import", str(out))
    before, after = _papers(first), _papers(second)
    for key in ("withdrawn", "decision", "authors"):
        assert {k: p[key] for k, p in after.items()} == {k: p[key] for k, p in before.items()}
    assert after["flawed2024"]["withdrawn"] is True
    assert after["muzero2019"]["authors"] == ["Julian Schrittwieser", "DeepMind"]
