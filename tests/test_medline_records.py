"""A PubMed (MEDLINE) record read as PubMed means it: "Jr" is a suffix, not an initial; a
retracted publication is marked retracted; the title in the article's own language is
its original title; the PMC id is kept as CSL's."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from reader.cli import cli

NBIB = """PMID- 32500001
DP  - 2020 Jun 3
TI  - A deep network model of visual cortex.
PG  - 45-53
FAU - Smith, John A Jr
AU  - Smith JA Jr
FAU - Tanaka, Hiroshi
AU  - Tanaka H
PT  - Journal Article
PT  - Retracted Publication
RIN - Nat Neurosci. 2021 Mar;24(3):440. PMID: 33600002
JT  - Nature neuroscience
AID - 10.1038/s41593-020-0000-0 [doi]

PMID- 31978945
DP  - 2020 Jan
TI  - [Artificial intelligence in radiology: a review].
AU  - Müller HP
AU  - Lee JB III
PT  - Journal Article
TT  - Künstliche Intelligenz in der Radiologie: eine Übersicht.
JT  - Der Radiologe
PMC - PMC9931230

PMID- 31978946
DP  - 2019
TI  - RETRACTED: Faster sampling for diffusion.
FAU - Ray, Bob
JT  - Neural Computation
"""


def _invoke(root: Path, *args: str) -> Any:
    result = CliRunner().invoke(cli, ["--library", str(root), *args], obj={})
    assert result.exit_code == 0, result.output
    return result


def _papers(root: Path) -> dict[str, dict[str, Any]]:
    papers = json.loads(_invoke(root, "export", "--format", "json").stdout)
    return {p["csl"]["PMID"]: p for p in papers}


def test_a_medline_record_keeps_suffixes_retractions_and_original_titles(
    tmp_path: Path,
) -> None:
    nbib = tmp_path / "pubmed.nbib"
    nbib.write_text(NBIB, encoding="utf-8")
    library = tmp_path / "lib"
    _invoke(library, "import", str(nbib))
    papers = _papers(library)
    smith, muller, ray = papers["32500001"], papers["31978945"], papers["31978946"]
    assert smith["csl"]["author"][0] == {"family": "Smith", "given": "John A", "suffix": "Jr."}
    assert muller["csl"]["author"][1] == {"family": "Lee", "given": "J. B.", "suffix": "III"}
    apa = _invoke(library, "cite", smith["citekey"], "--style", "apa", "--format",
                  "text").stdout
    assert apa.startswith("Smith, J. A., Jr., & Tanaka, H. (2020).")
    assert "(Retracted)" in apa
    assert smith["withdrawn"] and ray["withdrawn"] and not muller["withdrawn"]
    assert smith["csl"]["status"] == ray["csl"]["status"] == "retracted"
    found = _invoke(library, "search", "is:withdrawn").stdout
    assert smith["citekey"] in found and ray["citekey"] in found
    assert muller["csl"]["original-title"] == (
        "Künstliche Intelligenz in der Radiologie: eine Übersicht")
    assert muller["csl"]["PMCID"] == "PMC9931230"
