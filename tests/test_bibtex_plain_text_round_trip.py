"""A BibTeX export read back gives the abstracts and TL;DRs the library had: plain text the
export escaped comes back as that plain text (``30%``, not ``30\\%``), and TeX the library
keeps as TeX (an OpenReview author's ``20\\%``, ``\\textbf``) comes back as that TeX."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from reader.cli import cli
from reader.text.tex_plain import as_read, escaped_plain

PAPERS = [
    {"title": "Plain Percent", "authors": ["Ada Lovelace"], "year": 2026,
     "abstract": "Pass@5 of 90-95% and Pass^5 on a_b & c#1 {x} ~3 at C:\\temp costs $5, "
                 "with $k_1$ math.",
     "tldr": "more than 30% of private data, Pass^5"},
    {"title": "Simple TeX", "authors": ["Alan Turing"], "year": 2026,
     "abstract": "We gain 20\\% over the baseline \\& more.", "tldr": "20\\% better"},
    {"title": "Rich TeX", "authors": ["Grace Hopper"], "year": 2026,
     "abstract": "A \\textbf{bold} claim: 20\\% with $\\alpha$.", "tldr": "\\emph{all} of it"},
]


def _invoke(root: Path, *args: str) -> str:
    result = CliRunner().invoke(cli, ["--library", str(root), *args], obj={})
    assert result.exit_code == 0, result.output
    return str(result.stdout)


def _texts(root: Path) -> dict[str, Any]:
    papers = json.loads(_invoke(root, "export", "--format", "json"))
    return {p["citekey"]: (p["abstract"], p["tldr"]) for p in papers}


def test_a_bibtex_export_reads_back_as_the_same_plain_text_and_tex(tmp_path: Path) -> None:
    source = tmp_path / "papers.json"
    source.write_text(json.dumps(PAPERS), encoding="utf-8")
    first = tmp_path / "first"
    _invoke(first, "import", str(source))
    libraries = [first]
    for hop in range(2):  # and again from the library that read the first export
        out = tmp_path / f"hop{hop}.bib"
        _invoke(libraries[-1], "export", "--format", "bibtex", "-o", str(out))
        libraries.append(tmp_path / f"hop{hop}")
        _invoke(libraries[-1], "import", str(out))
        assert _texts(libraries[-1]) == _texts(first)
    # Plain text goes out escaped, and the next CSV export carries the plain text.
    table = _invoke(libraries[-1], "export", "--format", "csv")
    assert "Pass^5" in table and "30% of" in table and "textasciicircum" not in table
    # The same library reads its own export as unchanged.
    again = _invoke(first, "import", str(tmp_path / "hop0.bib"))
    assert "0 new, 0 merged, 3 unchanged" in again, again


def test_escaped_plain_text_is_told_from_tex() -> None:
    assert escaped_plain(r"30\% and Pass\textasciicircum{}5, $a_b$ \{x\}") == (
        "30% and Pass^5, $a_b$ {x}")
    # A command, a bare brace or a tie is TeX written by hand.
    for tex in (r"\textbf{x} 20\%", r"{GNN}s \%", r"a~b \%", r"20% \%"):
        assert escaped_plain(tex) is None
    assert as_read(r"20\%") == "20%"
    assert as_read(r"20\%", tex=True) == r"20\%"
