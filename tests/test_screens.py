"""The main screens as a user meets them: where the cursor stays, what a notice covers, how
the list fits a narrow terminal, what `/` does to the query typed."""

from __future__ import annotations

import json
from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Input

from reader.library import Library
from reader.ui.app import ReaderApp
from reader.ui.features.views import PAPER_KEY
from reader.ui.widgets.paper_list import PaperList
from reader.ui.widgets.search_box import SearchBox
from tests.test_app import screen_text
from tests.waiting import until

SIZE = (120, 40)


async def settle(app: ReaderApp, pilot: Pilot) -> None:
    """Wait for workers (searches, writes, indexing) and the redraw after them."""
    for _ in range(3):
        await app.workers.wait_for_complete()
        await pilot.pause()


async def test_slash_from_the_results_extends_the_query(library: Library) -> None:
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("slash", *"bench", "enter")
        await settle(app, pilot)
        assert app.focused is app.query_one(PaperList)
        await pilot.press("slash", *"mark")
        await settle(app, pilot)
        box = app.query_one(SearchBox)
        assert box.value == "benchmark"
        assert box.cursor_position == len("benchmark")


def _papers(path: Path, word: str, count: int, weight: int) -> Path:
    """``count`` new papers naming ``word`` ``weight`` times (more often ranks higher)."""
    path.write_text(
        "".join(
            json.dumps({"id": f"{word}{weight}x{n}", "content": {
                "title": f"{' '.join([word.title()] * weight)} Study Number {n}",
                "abstract": f"Colony {n}: " + " ".join([word] * weight) + " counted by radar.",
            }}) + "\n"
            for n in range(count)
        ),
        encoding="utf-8",
    )
    return path


async def _grow_results(app: ReaderApp, pilot: Pilot, library: Library, source: Path,
                        total: int) -> None:
    """Better matches reach the index (another process indexes them) and the results."""
    other = Library(library.paths.root)
    try:
        other.import_files([source])
        other.sync_index()
    finally:
        other.close()
    await until(pilot, lambda: len(app.paper_list.ids) == total, "the better matches")
    await settle(app, pilot)


async def test_results_the_user_has_not_moved_in_stay_at_the_best_match(
    library: Library, tmp_path: Path
) -> None:
    library.import_files([_papers(tmp_path / "weak.jsonl", "wombat", 3, 1)])
    library.sync_index()
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("slash", *"wombat", "enter")
        await until(pilot, lambda: len(app.paper_list.ids) == 3, "the three matches")
        await settle(app, pilot)
        await _grow_results(app, pilot, library, _papers(tmp_path / "s.jsonl", "wombat", 60, 4), 63)
        papers = app.paper_list
        assert papers.cursor == 0 and papers.scroll_offset.y == 0
        best = library.search("wombat").ids[0]
        assert papers.ids[0] == best
        assert app.current_paper is not None and app.current_paper.id == papers.ids[0]


async def test_results_keep_the_paper_the_user_moved_to_as_better_ones_come_in(
    library: Library, tmp_path: Path
) -> None:
    library.import_files([_papers(tmp_path / "weak.jsonl", "wombat", 3, 1)])
    library.sync_index()
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("slash", *"wombat", "enter")
        await until(pilot, lambda: len(app.paper_list.ids) == 3, "the three matches")
        await settle(app, pilot)
        await pilot.press("j")
        await settle(app, pilot)
        papers = app.paper_list
        chosen = papers.current_id
        await _grow_results(app, pilot, library, _papers(tmp_path / "s.jsonl", "wombat", 60, 4), 63)
        assert papers.current_id == chosen
        line = papers.cursor - round(papers.scroll_offset.y)
        assert 0 <= line < papers.size.height  # on screen
        assert app.current_paper is not None and app.current_paper.id == chosen


async def test_a_second_window_starts_at_the_paper_the_first_is_on(library: Library) -> None:
    first = ReaderApp(library)
    async with first.run_test(size=SIZE) as pilot:
        await settle(first, pilot)
        await pilot.press(*"j" * 25)
        await settle(first, pilot)
        chosen = first.paper_list.current_id
        assert chosen is not None
        # Still open: a second window, started now, reads what the first remembered.
        await until(pilot, lambda: _remembered(library) == str(chosen), "the paper remembered",
                    10)
        second = ReaderApp(Library(library.paths.root))
        # (The first window stays as it is while the second runs in its place.)
    async with second.run_test(size=SIZE) as pilot:
        await settle(second, pilot)
        papers = second.paper_list
        assert papers.current_id == chosen
        assert 0 <= papers.cursor - round(papers.scroll_offset.y) < papers.size.height
        assert second.current_paper is not None and second.current_paper.id == chosen
    second.library.close()


def _remembered(library: Library) -> str | None:
    """The paper a window remembered for the next start, read as another process would."""
    other = Library(library.paths.root)
    try:
        return other.queries.get_meta(PAPER_KEY)
    finally:
        other.close()


async def test_a_row_at_80_columns_shows_forty_characters_of_title(library: Library) -> None:
    """Under 100 columns the list and the detail pane are stacked: side by side at 80 a row
    had room for about 17 characters of title."""
    app = ReaderApp(library)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        papers = app.query_one(PaperList)
        assert papers.size.width >= 78
        row = papers.render_line(0).text
        title = library.paper(papers.ids[0]).title  # type: ignore[union-attr]
        assert title[:40] in row, row
        assert "2026" in row  # the venue and year still show


async def test_tags_and_a_long_venue_leave_a_row_forty_characters_of_title(
    tmp_path: Path,
) -> None:
    """Tags took a third of the row and the venue another: at 80 columns a row showed 32
    characters of "Calibrated Uncertainty for Retrieval-Augmented Generation"."""
    source = tmp_path / "papers.csv"
    source.write_text(
        "title,authors,venue,year\n"
        '"Calibrated Uncertainty for Retrieval-Augmented Generation in Open Domains",'
        '"Ann Lee","The Twelfth International Conference on Learning Representations",2024\n',
        encoding="utf-8",
    )
    library = Library(tmp_path / "lib")
    library.import_files([source])
    [paper_id] = library.all_ids()
    library.set_tags(paper_id, ["rag", "uncertainty", "to-read"])
    app = ReaderApp(library)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        papers = app.query_one(PaperList)
        row = papers.render_line(0).text
        assert "Calibrated Uncertainty for Retrieval-Aug" in row, row
        assert "#rag" in row and "The Twelfth" in row and "2024" in row, row
    library.close()


async def test_opening_a_paper_takes_down_the_notices_that_only_inform(
    tmp_path: Path,
) -> None:
    """The "Sample loaded" notice was drawn over the text of the paper opened."""
    library = Library(tmp_path / "fresh")
    app = ReaderApp(library)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        [loaded] = [n for n in app._notifications if n.title == "Sample loaded"]
        # Not the default library: the notice says where it is.
        assert loaded.message.startswith(f"The library in {tmp_path / 'fresh'} was empty")
        app.notify("Something went wrong", severity="error")
        await pilot.press("enter")
        await settle(app, pilot)
        titles = [n.title or n.message for n in app._notifications]
        assert "Sample loaded" not in titles
        assert "Something went wrong" in titles
    library.close()


async def test_the_palettes_footer_offers_no_key_it_would_type(library: Library) -> None:
    """With the palette open, the footer offered "? Help" and "q Quit", which the palette's
    field takes as letters of the query."""
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("ctrl+p")
        await settle(app, pilot)
        footer = screen_text(app).splitlines()[-1]
        assert "Open" in footer and "Help" not in footer and "Quit" not in footer, footer
        await pilot.press(*"q?")
        await settle(app, pilot)
        assert app.screen.query_one(Input).value == "q?"


async def test_the_reading_views_footer_is_cut_between_keys_never_inside_one(
    library: Library,
) -> None:
    """At 80 and at 120 columns the reading view's footer ended mid-key ("esc B", "space"
    without its word), its help's key out of sight: it is compact where its keys would not
    fit laid out in full, and holds only keys that fit whole, the help's first."""
    from textual.widgets import Footer
    from textual.widgets._footer import FooterKey

    app = ReaderApp(library)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("enter")
        await settle(app, pilot)
        for width in (80, 120, 200):
            await pilot.resize_terminal(width, 30)
            await settle(app, pilot)
            await pilot.pause()
            keys = [key for key in app.screen.query(FooterKey) if key.description]
            cut = [key.description for key in keys
                   if key.region.x < width < key.region.right]
            assert cut == [], (width, cut)
            assert app.screen.query_one(Footer).compact == (width < 155)
            assert "Help" in [key.description for key in keys], width  # kept at any width


async def test_at_80_columns_the_footer_shows_help_and_quit(library: Library) -> None:
    """The footer was cut after Copy at 80 columns: under 100 it is compact and leaves the
    palette's hint out (ctrl+p still opens the palette); wider, it is as it was."""
    from textual.widgets import Footer
    from textual.widgets._footer import FooterKey

    def shown(app: ReaderApp) -> dict[str, bool]:
        width = app.size.width
        return {key.description: key.region.right <= width for key in app.query(FooterKey)
                if key.description}

    app = ReaderApp(library)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        keys = shown(app)
        assert keys["Help"] and keys["Quit"] and keys["Star"], keys
        assert app.query_one(Footer).compact and "palette" not in keys
        await pilot.resize_terminal(120, 40)
        await settle(app, pilot)
        await pilot.pause()
        keys = shown(app)
        assert keys["Help"] and keys["Quit"] and keys["palette"], keys
        assert not app.query_one(Footer).compact
