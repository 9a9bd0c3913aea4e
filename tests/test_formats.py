"""Citation styles and formats: golden outputs, BibTeX validity and round trip."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import bibtexparser
import pytest

from reader.formats import BUNDLED_STYLES, FORMATS, CitationError, render
from reader.library import Library
from reader.models import Paper

GOLDEN = Path(__file__).parent / "golden"

FULL = Paper(
    id=1,
    title="Attention Is All You Need",
    title_derived=False,
    abstract="We propose the Transformer, based solely on attention mechanisms.",
    authors=["Ashish Vaswani", "Noam Shazeer", "Niki Parmar", "Jakob Uszkoreit", "Llion Jones",
             "Aidan N. Gomez", "Łukasz Kaiser", "Illia Polosukhin"],
    venue="NeurIPS",
    year=2017,
    keywords=["attention"],
    url="https://arxiv.org/abs/1706.03762",
    doi="10.48550/arXiv.1706.03762",
    citekey="vaswani2017attention",
    starred=False,
    note="",
    added_at="",
)
ANONYMOUS = Paper(
    id=2,
    title="GDPval: a benchmark evaluating AI model capabilities on real-world economically "
    "valuable knowledge-work tasks",
    title_derived=True,
    abstract="We introduce GDPval, a benchmark evaluating AI model capabilities.",
    authors=[],
    venue="ICLR",
    year=2026,
    keywords=[],
    url=None,
    doi=None,
    citekey="gdpval2026",
    starred=False,
    note="",
    added_at="",
)


@pytest.mark.parametrize("style", BUNDLED_STYLES)
@pytest.mark.parametrize(("name", "paper"), [("full", FULL), ("anonymous", ANONYMOUS)])
def test_golden_output(style: str, name: str, paper: Paper) -> None:
    expected = (GOLDEN / f"{style}-{name}.txt").read_text(encoding="utf-8").rstrip("\n")
    assert render([paper], "text", style) == expected


@pytest.mark.parametrize("style", BUNDLED_STYLES)
def test_no_style_prints_none_or_empty_punctuation_for_anonymous_papers(style: str) -> None:
    text = render([ANONYMOUS], "text", style)
    assert "None" not in text and ", ," not in text and "()" not in text
    assert "GDPval" in text and "2026" in text


def test_ieee_numbers_and_apa_sorts_several_papers() -> None:
    ieee = render([FULL, ANONYMOUS], "text", "ieee").splitlines()
    assert ieee[0].startswith("[1] ") and ieee[1].startswith("[2] ")
    apa = render([FULL, ANONYMOUS], "text", "apa").splitlines()
    assert apa[0].startswith("GDPval") and apa[1].startswith("Vaswani")


def test_a_style_file_by_path() -> None:
    path = Path(__file__).parents[1] / "reader" / "csl" / "ieee.csl"
    assert render([FULL], "text", str(path)).startswith("[1] A. Vaswani et al.")


def test_unknown_style_and_format_are_clear_errors() -> None:
    with pytest.raises(CitationError, match="no-such"):
        render([FULL], "text", "no-such")
    with pytest.raises(CitationError, match="format"):
        render([FULL], "nope")


def test_the_other_formats() -> None:
    assert render([FULL, ANONYMOUS], "key") == "vaswani2017attention\ngdpval2026"
    assert render([FULL, ANONYMOUS], "latex") == "\\cite{vaswani2017attention,gdpval2026}"
    assert render([FULL, ANONYMOUS], "pandoc") == "[@vaswani2017attention; @gdpval2026]"
    assert render([FULL], "markdown") == (
        "[Attention Is All You Need](https://doi.org/10.48550/arXiv.1706.03762)"
    ) or render([FULL], "markdown").startswith("[Attention Is All You Need](https://")
    items = json.loads(render([FULL, ANONYMOUS], "csljson"))
    assert items[0]["id"] == "vaswani2017attention"
    assert items[0]["author"][0] == {"family": "Vaswani", "given": "Ashish"}
    assert items[0]["issued"]["date-parts"][0][0] == 2017
    assert "author" not in items[1]
    assert set(FORMATS) >= {"text", "bibtex", "biblatex", "csljson", "key", "markdown"}


@pytest.mark.parametrize("fmt", ["bibtex", "biblatex"])
def test_bibtex_is_valid_and_escapes_are_ascii(fmt: str) -> None:
    hostile = replace(FULL, title="50% of R&D_costs #1 {x} Schrödinger", citekey="hostile2020")
    text = render([FULL, ANONYMOUS, hostile], fmt, bibtex_unicode=False)
    assert text.isascii()
    library = bibtexparser.parse_string(text)
    assert not library.failed_blocks
    assert [e.key for e in library.entries] == ["vaswani2017attention", "gdpval2026", "hostile2020"]


def test_bibtex_round_trip_of_the_sample_library(library: Library, tmp_path: Path) -> None:
    papers = list(library.store.iter_papers())
    path = tmp_path / "sample.bib"
    path.write_text(render(papers, "bibtex"), encoding="utf-8")
    other = Library(tmp_path / "other")
    summary = other.import_files([path], sync=False)
    assert summary.new == len(papers) == 38 and summary.skipped == 0
    back = {p.citekey: p for p in other.store.iter_papers()}
    for paper in papers:
        twin = back[paper.citekey]
        assert (twin.title, twin.year) == (paper.title, paper.year)
        assert twin.venue and "ICLR" in twin.venue
    other.close()
