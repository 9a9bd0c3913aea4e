"""The screen lays out at most what it can show: a title of 100,000 lines is shown cut, with
the words that say so, and ``z`` in the reading view shows it whole; a note longer than the
editor takes is shown to read rather than freezing the window."""

from __future__ import annotations

import json
from pathlib import Path

from textual.widgets import Static

from reader.library import Library
from reader.ui.app import ReaderApp
from reader.ui.screens.reading import ReadingScreen
from reader.ui.screens.whole_text import LongText, WholeTextScreen
from reader.ui.text import TITLE_LIMIT
from reader.ui.widgets.note_editor import EDIT_LIMIT
from reader.ui.widgets.paper_detail import PaperDetail
from tests.test_app import SIZE, screen_text, settle


def _huge_title_library(library: Library, tmp_path: Path) -> str:
    title = "\n".join(f"line {n}" for n in range(100_000))
    (tmp_path / "huge.csl.json").write_text(json.dumps([
        {"id": "huge", "type": "article", "title": title,
         "abstract": "An ordinary abstract on sparse transport."},
        {"id": "small", "type": "article", "title": "A small paper",
         "abstract": "A short one on graphs."},
    ]))
    library.import_files([tmp_path / "huge.csl.json"])
    (paper,) = [p for p in library.store.iter_papers() if len(p.title) > TITLE_LIMIT]
    return paper.title


async def test_a_title_of_100000_lines_is_shown_cut_and_whole_on_z(
    empty_library: Library, tmp_path: Path
) -> None:
    title = _huge_title_library(empty_library, tmp_path)
    app = ReaderApp(empty_library, load_sample=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        while not (app.current_paper.title if app.current_paper else "").startswith("line 0 "):
            await pilot.press("j")
            await settle(app, pilot)
        # The detail pane lays out a screenful, not the million characters (which wrapped
        # to some 10,000 lines and froze the window for seconds per paint).
        detail = app.query_one(PaperDetail)
        assert len(detail.text.splitlines()) < 100
        shown = screen_text(app)
        assert "line 0 line 1 line 2 line 3" in shown
        said = " ".join(detail.text.split())  # the pane's lines, joined again
        assert f"title shortened for display: {len(title):,} characters in all" in said
        await pilot.press("enter")
        await settle(app, pilot)
        assert isinstance(app.screen, ReadingScreen)
        heading = str(app.screen.query_one("#paper-title", Static).render())
        assert len(heading) < TITLE_LIMIT + 200
        assert "z in the reading view shows it whole" in heading
        await pilot.press("z")
        await settle(app, pilot)
        assert isinstance(app.screen, WholeTextScreen)
        whole = app.screen.query_one(LongText)
        assert "\n".join(whole._paragraphs).startswith(title + "\n\nAn ordinary abstract")
        await pilot.press("end")
        await settle(app, pilot)
        assert "sparse transport" in screen_text(app)
        await pilot.press("escape", "escape")
        await settle(app, pilot)
        assert not isinstance(app.screen, (ReadingScreen, WholeTextScreen))
        # Searching lays out only the cut title too, and a key typed behind the query
        # acts on the results (s stars), not on a dialog.
        await pilot.press("slash", *"line", "enter", "s")
        await settle(app, pilot)
        assert app.screen is app.screen_stack[0]
    assert [p.starred for p in empty_library.store.iter_papers() if p.title == title] == [True]


async def test_a_note_too_long_for_the_editor_is_shown_to_read(
    library: Library,
) -> None:
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        paper = app.current_paper
        assert paper is not None
        text = ("A long note line about sparse transport. " * 25 + "\n") * 1_000
        assert len(text) > EDIT_LIMIT
        library.save_note(paper.id, text)
        await pilot.press("n")
        await settle(app, pilot)
        assert isinstance(app.screen, WholeTextScreen)
        (said,) = [n.message for n in app._notifications]
        assert said.startswith(f"This note is {len(text):,} characters, more than the ")
        assert f"reader note {paper.citekey}" in said
        await pilot.press("escape")
        await settle(app, pilot)
    assert library.note(paper.id).text == text
