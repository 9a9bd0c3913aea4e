"""TeX and Markdown in titles, TL;DRs and names: rendered in the list, the detail pane, the
reading view and citations; stored as the source wrote them."""

from __future__ import annotations

from pathlib import Path

import pytest

from reader.cite.formats import render
from reader.intake.merge import import_records
from reader.library import Library
from reader.models import PaperRecord
from reader.ui.app import ReaderApp
from reader.ui.screens.reading import ReadingScreen
from reader.ui.widgets.paper_list import PaperList
from tests.test_app import SIZE, detail_text, screen_text, settle

DEPTH = r"DA$^2$: Depth Anything in Any Condition"
GAN = r"InGaN\slashGaN Quantum Wells on $\left( 000\overline{1} \right)$ Surfaces"
CONNIVER = r"The \sc CONNIVER Reference Manual"
SHOWN = {
    DEPTH: "DA²: Depth Anything in Any Condition",
    GAN: "InGaN/GaN Quantum Wells on (0001̅) Surfaces",
    CONNIVER: "The CONNIVER Reference Manual",
}
TLDR = r"Robust **depth** for 360$^\circ\times$180$^\circ$ panoramas, in $O(n^2)$ time."
TLDR_SHOWN = "Robust depth for 360°×180° panoramas, in O(n²) time."


@pytest.fixture
def tex_library(empty_library: Library) -> Library:
    """Three papers whose title, TL;DR and author name hold TeX."""
    records = [
        PaperRecord(abstract="Monocular depth estimation under adverse weather.", title=DEPTH,
                    tldr=TLDR, authors=[r"J. Sch{\"o}ller"], venue="ICLR", year=2026),
        PaperRecord(abstract="Growth of nitride quantum wells.", title=GAN, year=1999),
        PaperRecord(abstract="A manual for a programming language.", title=CONNIVER,
                    year=1972),
    ]
    import_records(empty_library.store, records, "tex.bib", "bibtex")
    return empty_library


def test_the_source_text_is_what_is_stored(tex_library: Library) -> None:
    titles = {p.title for p in tex_library.store.iter_papers()}
    assert titles == set(SHOWN)
    assert {p.tldr for p in tex_library.store.iter_papers()} == {TLDR, None}


async def test_the_list_shows_titles_rendered(tex_library: Library) -> None:
    app = ReaderApp(tex_library, load_sample=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        rows = screen_text(app)
        list_top = app.query_one(PaperList).region.y
        listed = "\n".join(rows.splitlines()[list_top : list_top + 3])
        for shown in SHOWN.values():
            # The terminal gets a combining overline as a character of its own cell.
            assert shown.replace("\u0305", "") in listed.replace("\u0305", "")
        assert "$" not in listed and "\\" not in listed


async def test_the_detail_pane_and_reading_view_show_title_tldr_and_names_rendered(
    tex_library: Library,
) -> None:
    app = ReaderApp(tex_library, load_sample=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        shown_in_pane = []
        for _ in SHOWN:
            shown_in_pane.append(" ".join(detail_text(app).split()))
            await pilot.press("j")
            await pilot.pause()
        for shown in SHOWN.values():
            assert any(shown in text for text in shown_in_pane), shown
        depth = next(text for text in shown_in_pane if SHOWN[DEPTH] in text)
        assert f"TL;DR: {TLDR_SHOWN}" in depth
        assert "J. Schöller" in depth
        assert "$" not in depth and "**" not in depth and "\\" not in depth

        await pilot.press("g")
        while SHOWN[DEPTH] not in detail_text(app):
            await pilot.press("j")
            await pilot.pause()
        await pilot.press("enter")
        assert isinstance(app.screen, ReadingScreen)
        reading = " ".join(detail_text(app).split())
        assert SHOWN[DEPTH] in reading
        assert f"TL;DR: {TLDR_SHOWN}" in reading
        assert "$" not in reading and "**" not in reading


@pytest.mark.parametrize(
    ("style", "expected"),
    [
        ("apa", "DA²: Depth Anything in Any Condition"),
        ("ieee", "DA²: Depth Anything in Any Condition"),
        ("chicago-author-date", "DA²: Depth Anything in Any Condition"),
    ],
)
def test_citations_render_a_tex_title(tex_library: Library, style: str, expected: str) -> None:
    paper = next(p for p in tex_library.store.iter_papers() if p.title == DEPTH)
    text = render([paper], "text", style)
    assert expected in text
    assert "$" not in text
    assert "Schöller" in text


def test_every_title_cited_from_the_list_is_rendered(tex_library: Library) -> None:
    papers = list(tex_library.store.iter_papers())
    text = render(papers, "text", "apa")
    for shown in SHOWN.values():
        assert shown in text
    assert "\\" not in text


def test_reader_search_prints_titles_rendered(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from reader.cli import cli

    library = Library(tmp_path / "clilib")
    import_records(
        library.store,
        [PaperRecord(abstract="Monocular depth.", title=DEPTH, venue="ICLR", year=2026)],
        "tex.jsonl", "openreview",
    )
    library.close()
    result = CliRunner().invoke(cli, ["--library", str(tmp_path / "clilib"), "search", "depth"],
                                obj={})
    assert result.exit_code == 0, result.output
    assert "DA²: Depth Anything in Any Condition  [ICLR · 2026]" in result.output
    assert "$" not in result.output


def test_a_highlight_chosen_under_an_older_rendering_stays_on_its_passage(
    empty_library: Library,
) -> None:
    """Highlight offsets count characters of the abstract as shown; when the renderer shows
    it differently ("x_i" became "xᵢ"), the passage is found again by its quote."""
    from rich.style import Style

    from reader.store.highlights import display_text
    from reader.ui.paper_parts import paper_parts

    abstract = r"Each $x_i$ is a sample. We bound the error of every sample."
    import_records(empty_library.store, [PaperRecord(abstract=abstract, title="T")], "t", "seed")
    paper = next(empty_library.store.iter_papers())
    shown = display_text(paper.abstract)
    assert shown.startswith("Each xᵢ is a sample.")
    quote = "We bound the error"
    # Where the passage was when "$x_i$" was shown as "x_i": one character further on.
    old_start = shown.index(quote) + 1
    empty_library.store.marks.add_highlight(paper.id, old_start, old_start + len(quote), quote)
    paper = empty_library.store.paper(paper.id)
    assert paper is not None

    passage = Style(underline=True)
    parts = paper_parts(paper, frozenset(), lambda name: passage if "passage" in name else Style())
    marked = [parts.abstract.plain[s.start : s.end] for s in parts.abstract.spans
              if s.style == passage]
    assert marked == [quote]


def test_the_markdown_export_renders_titles_and_names(tex_library: Library) -> None:
    from reader.cite.export import export

    paper = next(p for p in tex_library.store.iter_papers() if p.title == DEPTH)
    text = export([paper], "markdown")
    assert "## DA²: Depth Anything in Any Condition" in text
    assert "J. Schöller" in text


def test_the_tldr_marks_the_query_words_as_the_abstract_does(empty_library: Library) -> None:
    """The query's words were marked in the title and the abstract, never in the TL;DR
    shown between them."""
    from rich.style import Style

    from reader.ui.paper_parts import paper_parts

    record = PaperRecord(title="T", abstract="We study sparse models.",
                         tldr=r"Sparse $\alpha$-models, done fast.")
    import_records(empty_library.store, [record], "t", "seed")
    paper = next(empty_library.store.iter_papers())
    hit = Style(bold=True, color="red")
    parts = paper_parts(paper, empty_library.search("sparse").terms,
                        lambda name: hit if name.endswith("highlight") else Style())
    marked = [parts.meta.plain[s.start : s.end] for s in parts.meta.spans if s.style == hit]
    assert marked == ["Sparse"]
    assert "TL;DR: Sparse α-models, done fast." in parts.meta.plain
