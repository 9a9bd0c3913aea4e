"""An institution is one author whatever words its name holds ("National Institute of
Standards and Technology"): read from a Zotero CSV, and through the library's own CSV and
JSON exports, which read back as the same papers, never as new ones."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from reader.cli import cli

RIS = """TY  - RPRT
TI  - AI Risk Management Framework
AU  - National Institute of Standards and Technology
PY  - 2023
PB  - NIST
DO  - 10.6028/NIST.AI.100-1
ER  - 

TY  - JOUR
TI  - Guidance for industry on AI-enabled devices
AU  - U.S. Food and Drug Administration
PY  - 2024
T2  - Federal Register
VL  - 89
ER  - 

TY  - JOUR
TI  - Devices under review
AU  - Lee, Ann
AU  - Bill and Melinda Gates Foundation
PY  - 2022
T2  - Health Policy
ER  - 
"""

ZOTERO = (
    '"Key","Item Type","Publication Year","Author","Title","Publisher","Date"\n'
    '"AB12CD34","report","2024","National Institute of Standards and Technology",'
    '"Artificial Intelligence Risk Management Framework","NIST","2024"\n'
    '"EF56GH78","journalArticle","2021","Lee, Ann; Food and Drug Administration",'
    '"Devices in review","","2021"\n'
)


def _invoke(root: Path, *args: str) -> Any:
    result = CliRunner().invoke(cli, ["--library", str(root), *args], obj={})
    assert result.exit_code == 0, result.output
    return result


def _authors(root: Path) -> dict[str, list[str]]:
    papers = json.loads(_invoke(root, "export", "--format", "json").stdout)
    return {p["citekey"]: p["authors"] for p in papers}


def _apa(root: Path, key: str) -> str:
    return str(_invoke(root, "cite", key, "--style", "apa", "--format", "text").stdout)


def test_a_zotero_csv_single_field_creator_is_one_institution(tmp_path: Path) -> None:
    table = tmp_path / "zotero.csv"
    table.write_text(ZOTERO, encoding="utf-8")
    library = tmp_path / "lib"
    _invoke(library, "import", str(table))
    authors = _authors(library)
    assert authors == {
        "nist2024artificial": ["National Institute of Standards and Technology"],
        "lee2021devices": ["Ann Lee", "Food and Drug Administration"],
    }
    assert _apa(library, "nist2024artificial").startswith(
        "National Institute of Standards and Technology. (2024).")
    assert _apa(library, "lee2021devices").startswith(
        "Lee, A., & Food and Drug Administration. (2021).")


@pytest.mark.parametrize("suffix", ["csv", "json"])
def test_an_own_export_keeps_an_institution_whole(tmp_path: Path, suffix: str) -> None:
    ris = tmp_path / "inst.ris"
    ris.write_text(RIS, encoding="utf-8")
    first = tmp_path / "first"
    _invoke(first, "import", str(ris))
    out = tmp_path / f"out.{suffix}"
    _invoke(first, "export", "-o", str(out))
    again = _invoke(first, "import", str(out)).stdout
    assert "0 new, 0 merged, 3 unchanged" in again, again
    assert "differs" not in again, again
    second = tmp_path / "second"
    _invoke(second, "import", str(out))
    assert _authors(second) == _authors(first) == {
        "nist2023ai": ["National Institute of Standards and Technology"],
        "fda2024guidance": ["U.S. Food and Drug Administration"],
        "lee2022devices": ["Ann Lee", "Bill and Melinda Gates Foundation"],
    }
    assert _apa(second, "nist2023ai").startswith(
        "National Institute of Standards and Technology. (2023).")
    assert _apa(second, "fda2024guidance").startswith(
        "U.S. Food and Drug Administration. (2024).")
    assert _apa(second, "lee2022devices").startswith(
        "Lee, A., & Bill and Melinda Gates Foundation. (2022).")
