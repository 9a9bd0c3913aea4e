"""Hostile input: markup, escape sequences, bidi tricks, control characters and absurd sizes.

Every file of ``tests/data/hostile`` is imported through the real importers into a real
library; each either imports with clean text or is refused with a one-line message. Then the
real app shows every paper, and what reaches the terminal is checked byte by byte: the text
is literal, nothing is styled as a link, no escape sequence from a file gets through, nothing
is copied and nothing is run.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import TextArea

from reader.library import Library
from reader.sources import ImportFormatError
from reader.ui.app import ReaderApp
from reader.ui.screens.note import NoteScreen
from reader.ui.screens.reading import ReadingScreen
from reader.ui.widgets.paper_list import PaperList
from tests.parsing import parse_file
from tests.test_app import settle

HOSTILE = Path(__file__).parent / "data" / "hostile"
SIZE = (120, 40)

#: File → papers it must yield (its bad records are reported, the others imported).
IMPORTABLE = {
    "hostile-seed.txt": 6,
    "hostile.bib": 7,
    "hostile.csl.json": 7,
    "hostile.ris": 6,
    "hostile.csv": 6,
    "hostile-openreview.jsonl": 6,
}
#: File → a fragment of the one-line message that refuses it.
REFUSED = {
    "hostile-nul.txt": "a binary file, not a list of papers (a NUL byte, which no text has, "
                       "on line 3)",
    "deep.json": "JSON nested more than 64 deep, too deeply to be paper records",
}

# What must never be stored: C0 controls other than tab and newline, DEL, C1, zero widths.
_FORBIDDEN_STORED = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b\u200c\u200d\u2060\ufeff]")
# What must never reach the terminal from a paper: an OSC (ESC ] or the C1 form), BEL, or a
# bidi control, raw.
_OSC = re.compile("\x1b\\]|\x9d|\x07")
_BIDI = re.compile("[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]")


def _stored_texts(library: Library) -> list[str]:
    texts = []
    for paper in library.store.iter_papers():
        texts += [paper.title, paper.abstract, paper.venue or "", paper.tldr or ""]
        texts += paper.authors + paper.keywords
    return texts


@pytest.fixture(scope="module")
def hostile_library(tmp_path_factory: pytest.TempPathFactory) -> Library:
    """One library holding every importable hostile file."""
    library = Library(tmp_path_factory.mktemp("hostile") / "lib")
    library.import_files([HOSTILE / name for name in IMPORTABLE])
    return library


@pytest.mark.parametrize("name", sorted(IMPORTABLE))
def test_hostile_file_imports_with_clean_text(name: str, empty_library: Library) -> None:
    parsed = parse_file(HOSTILE / name)
    summary = empty_library.import_files([HOSTILE / name])
    assert summary.new == IMPORTABLE[name]
    # Bad records (the unclosed BibTeX entry, the JSON nested 20,000 deep) are named, once.
    assert all(p.startswith(name + ":") and "\n" not in p for p in parsed.problems)
    for text in _stored_texts(empty_library):
        assert not _FORBIDDEN_STORED.search(text), repr(text[:120])
    titles = [p.title for p in empty_library.store.iter_papers()]
    if name != "hostile-seed.txt":  # plain-text lists have no titles
        # Markup is text: stored exactly as written, to be shown exactly as written.
        assert any("[link=file:///etc/passwd]open me[/link]" in t for t in titles)
        assert any("[@click=app.quit]quit now[/]" in t for t in titles)


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_hostile_file_is_refused_in_one_line(name: str, empty_library: Library) -> None:
    with pytest.raises(ImportFormatError) as caught:
        empty_library.import_files([HOSTILE / name])
    message = str(caught.value)
    assert REFUSED[name] in message and name in message and "\n" not in message
    assert empty_library.store.count() == 0


def test_deep_json_named_as_json_is_refused_clearly(empty_library: Library) -> None:
    for fmt in ("csljson", "openreview", "paperlists", "arxiv-kaggle", "zotero"):
        with pytest.raises(ImportFormatError, match="nested too deeply"):
            empty_library.import_files([HOSTILE / "deep.json"], fmt)


def test_five_megabyte_abstract_and_ten_thousand_character_title(
    empty_library: Library, tmp_path: Path
) -> None:
    abstract = ("sparse transport under adversarial noise " * 130_000)[:5_000_000]
    title = ("An extremely long title " * 500)[:10_000]
    (tmp_path / "big.csl.json").write_text(
        json.dumps([{"id": "big", "type": "article", "title": title, "abstract": abstract}])
    )
    other = ("dense retrieval over noisy corpora " * 140_000)[:5_000_000]
    (tmp_path / "big.txt").write_text(f"ICLR 2026\n\n{other}\n\nA short abstract.\n")
    summary = empty_library.import_files([tmp_path / "big.csl.json", tmp_path / "big.txt"])
    # A field named abstract is kept whatever its size; in a plain-text list a paragraph of
    # 5 MB is no abstract, and is skipped, named.
    assert (summary.new, summary.skipped) == (2, 1)
    (problem,) = summary.problems
    assert problem.startswith("big.txt:3: a paragraph of 4,900,000 characters, too long")
    lengths = sorted((len(p.title), len(p.abstract)) for p in empty_library.store.iter_papers())
    assert lengths == [(16, 17), (10_000, 5_000_000)]
    assert empty_library.search("adversarial").ids



@pytest.mark.parametrize("layout", ["", "\n"])
def test_an_xml_export_is_refused_with_what_to_export_instead(
    empty_library: Library, tmp_path: Path, layout: str
) -> None:
    # PubMed's XML (EndNote's is read), on one line and pretty-printed: not an abstract
    # list, whatever --format says, so the message does not offer to read it as one.
    path = tmp_path / "pubmed.xml"
    path.write_text(f'<?xml version="1.0" encoding="UTF-8" ?>{layout}<PubmedArticleSet>'
                    f"{layout}<PubmedArticle><ArticleTitle>A Paper</ArticleTitle>"
                    + "<x/>" * 80 + "</PubmedArticle></PubmedArticleSet>", encoding="utf-8")
    with pytest.raises(ImportFormatError) as caught:
        empty_library.import_files([path])
    message = str(caught.value)
    assert "it is XML (MODS, PubMed's XML" in message and "export the records as RIS" in message
    assert "--format seed" not in message and empty_library.store.count() == 0


def test_five_megabyte_line_is_refused_having_read_only_its_start(
    empty_library: Library, tmp_path: Path
) -> None:
    import tracemalloc

    path = tmp_path / "one-line.txt"
    path.write_text(("dense retrieval over noisy corpora " * 150_000)[:5_000_000])
    with pytest.raises(ImportFormatError) as caught:
        empty_library.import_files([path])
    message = str(caught.value)
    assert message.startswith(f"{path}: not a format reader knows: its first line is longer ")
    assert "\n" not in message and empty_library.store.count() == 0
    # Judged from its first kilobytes: the file is never held whole, let alone copied.
    tracemalloc.start()
    try:
        with pytest.raises(ImportFormatError):
            parse_file(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1_000_000
    # Read as an abstract list on demand, its one paragraph is too long to be an abstract.
    forced = parse_file(path, "seed")
    assert forced.records == [] and len(forced.problems) == 1
    assert forced.problems[0].startswith("one-line.txt:1: a paragraph of 5,000,000 characters")


async def test_big_paper_renders_and_the_app_stays_responsive(
    empty_library: Library, tmp_path: Path
) -> None:
    abstract = ("sparse transport under adversarial noise " * 130_000)[:5_000_000]
    (tmp_path / "big.csl.json").write_text(json.dumps([
        {"id": "big", "type": "article", "title": "T " * 5_000, "abstract": abstract},
        {"id": "small", "type": "article", "title": "Small one", "abstract": "A short one."},
    ]))
    empty_library.import_files([tmp_path / "big.csl.json"])
    app = ReaderApp(empty_library, load_sample=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ReadingScreen)
        await pilot.press("pagedown", "j", "escape")
        await settle(app, pilot)
        assert "Small one" in "".join(_screen_lines(app))
        assert app.is_running


def _screen_lines(app: ReaderApp) -> list[str]:
    """The text of every line of the screen."""
    return ["".join(seg.text for seg in strip) for strip in app.screen._compositor.render_strips()]


def _check_inert(app: ReaderApp) -> str:
    """Assert that the screen holds no link, no click action and no raw escape; return the
    screen's text."""
    strips = app.screen._compositor.render_strips()
    for strip in strips:
        for seg in strip:
            assert not _OSC.search(seg.text) and "\x1b" not in seg.text, repr(seg.text)
            assert not _BIDI.search(seg.text), repr(seg.text)
            style = seg.style
            if style is not None:
                assert not style.link, (style.link, seg.text)
                # No segment of these screens carries a click action (the footer's keys are
                # widgets that take clicks themselves): one here came from a paper's text.
                assert "@click" not in (style.meta or {}), (style.meta, seg.text)
    # The bytes the driver would write for this screen: no OSC (8 = link, 52 = clipboard).
    update = app.screen._compositor.render_full_update()
    written = update.render_segments(app.console)
    assert "\x1b]" not in written and "\x07" not in written
    return "\n".join("".join(seg.text for seg in strip) for strip in strips)


async def _visit_every_paper(app: ReaderApp, pilot: Pilot) -> str:
    """Show each paper in the detail pane; return everything shown."""
    seen = []
    papers = app.query_one(PaperList)
    for _ in range(len(papers.ids)):
        await pilot.pause()
        seen.append(_check_inert(app))
        await pilot.press("j")
    return "\n".join(seen)


async def test_every_hostile_paper_renders_inert(hostile_library: Library) -> None:
    app = ReaderApp(hostile_library, load_sample=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        seen = await _visit_every_paper(app, pilot)
        # What is on screen is the literal text of the file.
        assert "[link=file:///etc/passwd]open me[/link]" in seen
        assert "[@click=app.quit]quit now[/]" in seen
        assert "[bold]Bold[/bold]" in seen
        assert "[31m" not in seen and "red" in seen  # the escape sequence removed whole
        assert "\u27e8U+202E\u27e9evil.exe" in seen  # the override shown, not obeyed
        # Nothing was run or copied.
        assert app.is_running and not app.clipboard
        # The same in the reading view and the note editor.
        await pilot.press("g")
        for _ in range(3):
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(app.screen, ReadingScreen)
            _check_inert(app)
            await pilot.press("j", "j", "escape")
            await pilot.pause()
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, NoteScreen)
        app.screen.query_one(TextArea).cursor_blink = False
        _check_inert(app)
        await pilot.press("escape")
        await settle(app, pilot)
        assert app.is_running and not app.clipboard


async def test_searching_for_markup_is_literal(hostile_library: Library) -> None:
    app = ReaderApp(hostile_library, load_sample=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("slash", *"[@click=app.quit]")
        await settle(app, pilot)
        _check_inert(app)
        assert app.is_running
        assert "[@click=app.quit]" in "\n".join(_screen_lines(app))
