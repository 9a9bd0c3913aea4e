"""The real app over a real library, driven by key presses."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console
from textual.pilot import Pilot
from textual.widgets import Input, Static
from textual.worker import WorkerCancelled

from reader.config import Config
from reader.intake.merge import import_records
from reader.library import Library
from reader.models import PaperRecord
from reader.ui.app import ReaderApp
from reader.ui.screens.help import HelpScreen
from reader.ui.screens.note import NoteScreen
from reader.ui.screens.prompts import PromptScreen
from reader.ui.screens.reading import ReadingScreen
from reader.ui.widgets.paper_detail import PaperDetail
from reader.ui.widgets.paper_list import PaperList
from reader.ui.widgets.paper_view import PaperView
from tests.waiting import until

SIZE = (120, 40)


async def settle(app: ReaderApp, pilot: Pilot) -> None:
    """Wait for workers (searches, writes, indexing) and the redraw after them."""
    for _ in range(3):
        # A worker replaced by a newer one of its group (the replies shown again) is
        # cancelled while waited for: done too, and the others are waited for again.
        for _ in range(10):
            try:
                await app.workers.wait_for_complete()
                break
            except WorkerCancelled:
                await pilot.pause()
        await pilot.pause()


async def seen_written(app: ReaderApp, pilot: Pilot) -> None:
    """Wait until every paper shown is written down as seen, and stays so: a search's
    results drawn after the write can show a paper more, which is pending again. (A batch
    taken from the pending ones is written by a worker: done once no write is under way.)"""

    def written() -> bool:
        return not app.seen.pending and not app.writes.under_way

    for _ in range(20):
        await until(pilot, written, "the seen marks are written")
        await settle(app, pilot)
        if written():
            return
    raise AssertionError("papers kept being shown as the seen marks were written")


def screen_text(app: ReaderApp) -> str:
    """What the terminal shows, as plain text (the same render as a screenshot)."""
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), force_terminal=True,
                      color_system="truecolor", record=True, legacy_windows=False)
    console.print(app.screen._compositor.render_update(full=True))
    return console.export_text()


def detail_text(app: ReaderApp) -> str:
    """What the detail pane, or the reading view when it is open, shows."""
    if isinstance(app.screen, ReadingScreen):
        view = app.screen.query_one(PaperView)
        return "\n".join(str(w.render()) for w in view.query(Static))
    return app.screen.query_one(PaperDetail).text


async def test_first_start_on_empty_library_loads_the_sample(empty_library: Library) -> None:
    # The notice names the window's key for an import, as the user's keymap has it, and
    # the command for the shell.
    app = ReaderApp(empty_library, config=Config(keymap={"app.import": "I"}))
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert len(app.query_one(PaperList).ids) == 38
        [loaded] = [n.message for n in app._notifications if "sample" in n.message]
        assert "38" in loaded
        assert "press I to import" in loaded and " import FILE" in loaded
    assert empty_library.store.count() == 38


async def test_keys_move_through_the_list(library: Library) -> None:
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        papers = app.query_one(PaperList)
        await pilot.press("j", "j", "down")
        assert papers.cursor == 3
        await pilot.press("k")
        assert papers.cursor == 2
        await pilot.press("G")
        assert papers.cursor == 37
        await pilot.press("g")
        assert papers.cursor == 0
        await pilot.press("pagedown")
        assert papers.cursor > 10
        shown = library.store.paper(papers.current_id)  # type: ignore[arg-type]
        assert shown is not None and shown.title[:30] in detail_text(app)


async def test_s_stars_in_sqlite_and_is_starred_finds_it(library: Library) -> None:
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("j", "s")
        await settle(app, pilot)
        paper_id = app.query_one(PaperList).current_id
        assert paper_id is not None
        row = library.store.conn.execute(
            "SELECT starred FROM papers WHERE id = ?", (paper_id,)
        ).fetchone()
        assert row[0] == 1
        assert library.search("is:starred").ids == [paper_id]
        assert "★" in screen_text(app)
        await pilot.press("s")
        await settle(app, pilot)
        assert library.search("is:starred").ids == []


async def test_search_as_you_type_shows_hits(library: Library) -> None:
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("slash")
        await pilot.press(*"gdpval")
        await settle(app, pilot)
        papers = app.query_one(PaperList)
        assert len(papers.ids) == 1
        assert library.store.paper(papers.ids[0]).title.startswith("GDPval")  # type: ignore[union-attr]
        assert "gdpval" in app.terms
        await pilot.press("escape")
        await settle(app, pilot)
        assert len(papers.ids) == 38
        assert papers.has_focus


async def test_note_is_stored_while_typing_and_on_leaving(library: Library) -> None:
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        paper_id = app.query_one(PaperList).current_id
        await pilot.press("n")
        assert isinstance(app.screen, NoteScreen)
        await pilot.press(*"Key idea")
        # Saved by the autosave alone, without leaving the editor.
        await until(pilot, lambda: library.store.paper(paper_id).note == "Key idea",  # type: ignore[arg-type,union-attr]
                    "the autosave")
        await settle(app, pilot)
        assert isinstance(app.screen, NoteScreen)
        assert library.store.paper(paper_id).note == "Key idea"  # type: ignore[arg-type,union-attr]
        await pilot.press(*" and more")
        await pilot.press("escape")  # leaving at once must not lose the last words
        await settle(app, pilot)
        assert not isinstance(app.screen, NoteScreen)
        assert library.store.paper(paper_id).note == "Key idea and more"  # type: ignore[arg-type,union-attr]
        assert library.search("has:notes").ids == [paper_id]
        assert "Key idea and more" in detail_text(app)


async def test_y_copies_bibtex(library: Library) -> None:
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("y")
        paper = library.store.paper(app.query_one(PaperList).current_id)  # type: ignore[arg-type]
        assert paper is not None
        assert app.clipboard.startswith(f"@inproceedings{{{paper.citekey},")
        assert any("OSC 52" in n.message for n in app._notifications)


async def test_enter_opens_the_reading_view_and_j_steps(library: Library) -> None:
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("enter")
        assert isinstance(app.screen, ReadingScreen)
        first = app.screen.query_one(PaperView).paper
        await pilot.press("j")
        second = app.screen.query_one(PaperView).paper
        assert first is not None and second is not None and first.id != second.id
        await pilot.press("escape")
        assert not isinstance(app.screen, ReadingScreen)
        assert app.query_one(PaperList).cursor == 1


async def test_help_lists_every_key(library: Library) -> None:
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        text = screen_text(app)
        for description in ("Star", "Note", "Copy as…", "Mark", "Export", "Search", "Quit", "Read"):
            assert description in text
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpScreen)


async def test_q_quits(library: Library) -> None:
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        paper_id = app.query_one(PaperList).current_id
        assert paper_id is not None
        await pilot.press("s", "q")  # quit right behind a write: the write is kept
        assert app.return_code == 0
        assert not app.is_running
    assert library.store.paper(paper_id).starred  # type: ignore[union-attr]



async def test_ctrl_q_quits_from_the_search_box_and_keeps_its_query(
    library: Library,
) -> None:
    """ctrl+q did nothing while the search box had the keys (its `quit` is off there, so
    that q is typed), and the user's next keys went into the box as a query."""
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("slash", "a", "b", "c", "ctrl+q")
        await until(pilot, lambda: not app.is_running, "ctrl+q quits from the search box")
    assert library.queries.get_meta("ui.last_query") == "abc"

HOSTILE = [
    "[bold]not bold[/] and [link=file:///etc/passwd]a link[/link] and [@click=app.quit]x[/]",
    "Escape \x1b[31mred\x1b[0m and OSC \x1b]52;c;aGVsbG8=\x07 and \x1b]8;;http://x\x1b\\link",
    "Bidi \u202eevil\u202c and NUL \x00 and STX \x02 and zero\u200bwidth.",
]


async def test_hostile_abstracts_render_literally(empty_library: Library) -> None:
    import_records(
        empty_library.store,
        [PaperRecord(abstract=a, title=f"Hostile {i} [bold]x[/]", title_derived=True)
         for i, a in enumerate(HOSTILE)],
        "hostile.txt",
        "seed",
    )
    app = ReaderApp(empty_library, load_sample=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        seen = []
        for _ in HOSTILE:
            seen.append(detail_text(app))
            await pilot.press("j")
        assert "[bold]not bold[/]" in seen[0]
        assert "[link=file:///etc/passwd]a link[/link]" in seen[0]
        assert "[@click=app.quit]x[/]" in seen[0]
        assert "[31mred" in seen[1] and "\x1b" not in seen[1]
        assert "\u202e" not in seen[2] and "\x00" not in seen[2]
        assert "Hostile 0 [bold]x[/]" in screen_text(app)
        assert app.is_running and app.clipboard == ""


async def test_paper_keys_work_in_the_reading_view(library: Library) -> None:
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("enter", "j", "s")
        await settle(app, pilot)
        assert isinstance(app.screen, ReadingScreen)
        paper = app.screen.query_one(PaperView).paper
        assert paper is not None and library.store.paper(paper.id).starred  # type: ignore[union-attr]
        assert "★ starred" in detail_text(app)
        await pilot.press("slash")  # search from the reading view goes back to the list
        await pilot.press(*"gdpval")
        await settle(app, pilot)
        assert not isinstance(app.screen, ReadingScreen)
        assert len(app.query_one(PaperList).ids) == 1


async def test_missing_index_is_rebuilt_at_start(library: Library) -> None:
    import shutil

    library.index.close()
    shutil.rmtree(library.paths.index)
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        assert len(app.query_one(PaperList).ids) == 38  # browsable before the index is back
        await pilot.press("slash", *"gdpval")
        await settle(app, pilot)
        assert len(app.query_one(PaperList).ids) == 1
    assert library.index_state() == "ok"


async def test_i_imports_a_file_and_reports_the_summary(
    library: Library, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Named from the working directory: a path typed key by key is slow to type.
    monkeypatch.chdir(tmp_path)
    path = Path("neurips.txt")
    path.write_text(
        "NeurIPS 2025 accepted papers\n\nWe introduce Quokka, a benchmark for marsupial "
        "vision models across many habitats and seasons.\n",
        encoding="utf-8",
    )
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("i")
        await pilot.press(*str(path))
        await pilot.press("enter")
        await settle(app, pilot)
        assert len(app.query_one(PaperList).ids) == 39
        # The new paper came in at the end of the list, out of sight: the summary says so.
        messages = " ".join(n.message for n in app._notifications)
        assert "1 read: 1 new" in messages
        assert "New papers come at the end of the list (G / end); is:new lists them" in messages
        assert app.query_one(PaperList).ids[-1] == library.search("quokka").ids[0]
        await pilot.press("i", *"missing.txt", "enter")
        await settle(app, pilot)
        messages = " ".join(n.message for n in app._notifications)
        assert "cannot read" in messages
    assert library.search("quokka").ids



async def test_the_import_toast_names_the_papers_that_took_from_the_file(
    library: Library,
) -> None:
    """The window said "(reader import --verbose names them)", but that import run again
    finds those papers unchanged and names none: the toast names them itself."""
    from reader.import_summary import ImportSummary

    summary = ImportSummary(read=5, merged=5)
    summary.filled = [(f"key{n}", ["tags a, b"]) for n in range(5)]
    summary.kept_differing = [("smith2020", ["year 2021"])]
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        app.importing._imported(summary)
        await settle(app, pilot)
        messages = " ".join(n.message for n in app._notifications)
    assert "--verbose names them" not in messages
    assert "took tags from the file: key0, key1, key2 and 2 more" in messages
    assert "values were kept: smith2020" in messages


async def test_a_refused_file_is_named_with_its_first_line_shown_literally(
    library: Library, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "notes.md"
    path.write_text("Notes [/] [@click=app.quit]quit[/]\n\nNothing to import here.\n")
    monkeypatch.chdir(tmp_path)  # named from here: a long path typed key by key is slow
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("i", *path.name, "enter")
        await until(pilot, lambda: app._notifications, "the import's failure said")
        await pilot.pause()
        (failed,) = app._notifications
        assert failed.title == "Import failed" and str(path) in failed.message
        # The file's words are shown as written, never read as markup or as an action.
        assert "('Notes [/] [@click=app.quit]quit[/]')" in failed.message
        assert app.is_running and not failed.markup
    assert library.store.count() == 38

async def test_tab_completes_a_path_in_the_import_prompt(
    library: Library, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Tab completes a path as a shell does; it went nowhere (the dialog has one field),
    and enter then imported the half-typed name."""
    path = tmp_path / "neurips2025-abstracts.txt"
    path.write_text("NeurIPS 2025\n\nAn abstract.\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("i", *"neur")  # (typed key by key: a short name)
        box = app.screen.query_one(Input)
        await until(pilot, lambda: box._suggestion == path.name, "the completion shown")
        await pilot.press("tab")
        assert box.value == path.name


async def test_a_directory_in_the_import_prompt_is_said_there_and_tab_goes_on(
    library: Library, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Tab completes a directory; enter then imported it, which failed ("is a directory"),
    though its one file was shown completed behind the cursor."""
    folder = tmp_path / "lists"
    folder.mkdir()
    (folder / "neurips2025-abstracts.txt").write_text("NeurIPS 2025\n\nAn abstract.\n",
                                                      encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("i", *"lists/", "enter")
        await settle(app, pilot)
        assert isinstance(app.screen, PromptScreen)
        assert "lists/ is a directory: tab completes a file in it" in screen_text(app)
        box = app.screen.query_one(Input)
        await until(pilot, lambda: bool(box._suggestion), "the completion shown")
        await pilot.press("tab")
        await settle(app, pilot)
        assert "is a directory" not in screen_text(app)
        assert box.value == "lists/neurips2025-abstracts.txt"


async def test_an_import_whose_tags_are_rewritten_says_so_in_the_window(
    library: Library, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Zotero CSV's tag "Machine Learning" becomes machine-learning, which the summary
    names: sent between processes as JSON, that pair ended the window with a traceback."""
    path = tmp_path / "zotero.csv"
    path.write_text('Title,Author,Publication Year,Manual Tags\n'
                    'A paper with a tag,"Doe, Jane",2020,Machine Learning\n')
    monkeypatch.chdir(tmp_path)
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("i", *path.name, "enter")
        await until(pilot, lambda: any(n.title == "Imported" for n in app._notifications),
                    "the import's summary said")
        said = " ".join(n.message for n in app._notifications)
        assert '"Machine Learning" → machine-learning' in said
        assert app.is_running
    assert library.store.count() == 39


async def test_results_follow_the_index_after_a_write(library: Library) -> None:
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("slash", *"benchmark -is:starred", "enter")
        await settle(app, pilot)
        papers = app.query_one(PaperList)
        before = list(papers.ids)
        starred = papers.current_id
        await pilot.press("s")
        await settle(app, pilot)
        await settle(app, pilot)
        assert starred not in papers.ids and len(papers.ids) == len(before) - 1


async def test_a_long_venue_leaves_room_for_the_title(library: Library) -> None:
    """A row shows its title even when the venue is long: the venue is cut, the year shows."""
    paper_id = library.all_ids()[0]
    library.marks.update_metadata(paper_id, {
        "title": "Parallel Semigroups Everywhere",
        "venue": "Proc. Fifteenth Annual ACM Symposium on the Theory of Computing and Its "
                 "Applications to High Speed Computer and Algorithm Organization",
        "year": 1983,
    })
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        rows = [line for line in screen_text(app).splitlines() if "Semigroups" in line]
        assert rows, screen_text(app)
        assert "Parallel Semigroups Everywhere" in rows[0]
        assert "Proc. Fi" in rows[0] and "…" in rows[0] and "1983" in rows[0]
