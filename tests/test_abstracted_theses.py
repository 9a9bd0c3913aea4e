"""A dissertation PsycInfo records as abstracted in Dissertation Abstracts International
(Ovid's RIS: ``TY THES``, ``JF Dissertation Abstracts International …``, ``PB ProQuest``) is
cited as a thesis, with DAI as where it is abstracted (APA 7, 10.6), not as a chapter of
a book published by ProQuest."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from click.testing import CliRunner

from reader.cli import cli

OVID = """1. 
TY  - THES
DB  - APA PsycInfo <1806 to December Week 1 2024>
AN  - 2020-12121-188
ID  - 2020-12121-188
T1  - Sleep, rumination and adolescent depression.
A1  - Moreau, Camille
Y1  - 2020//
JF  - Dissertation Abstracts International: Section B: The Sciences and Engineering
VL  - 81
IS  - 7-B
M3  - Dissertation
PB  - ProQuest Information & Learning
ER  - 
"""


def _cite(root: Path, style: str) -> str:
    result = CliRunner().invoke(
        cli, ["--library", str(root), "cite", "moreau2020sleep", "--style", style,
              "--format", "text"], obj={})
    assert result.exit_code == 0, result.output
    return str(result.stdout).strip()


def _library(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "ovid.ris"
    path.write_text(text, encoding="utf-8")
    root = tmp_path / "lib"
    result: Any = CliRunner().invoke(cli, ["--library", str(root), "import", str(path)], obj={})
    assert result.exit_code == 0, result.output
    return root


def test_a_dai_dissertation_is_cited_as_a_doctoral_dissertation(tmp_path: Path) -> None:
    root = _library(tmp_path, OVID)
    apa = _cite(root, "apa")
    assert apa.startswith("Moreau, C. (2020). Sleep, rumination and adolescent depression "
                          "[Doctoral dissertation]. Dissertation Abstracts International: "
                          "Section B: The Sciences and Engineering, 81(7-B)."), apa
    assert "ProQuest" not in apa and " In " not in apa
    ieee = _cite(root, "ieee")
    assert "Doctoral dissertation" in ieee and "ProQuest" not in ieee, ieee


def test_its_university_is_named_where_the_record_gives_it(tmp_path: Path) -> None:
    root = _library(tmp_path, OVID.replace("ProQuest Information & Learning",
                                           "Université de Montréal"))
    assert "[Doctoral dissertation, Université de Montréal]" in _cite(root, "apa")
