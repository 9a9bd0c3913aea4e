"""Triage, tags, highlights, more like this, views, sort and details in the real app,
driven by keys, with assertions on the screen and on what is stored."""

from __future__ import annotations

import asyncio

import pytest
from textual import events
from textual.widgets import Input

from reader.library import Library
from reader.store.highlights import display_text, sentences
from reader.ui.app import ReaderApp, paper_url
from reader.ui.commands import ReaderCommands
from reader.ui.screens.metadata import MetadataForm
from reader.ui.screens.reading import ReadingScreen
from reader.ui.screens.tags import TagEditor
from reader.ui.widgets.paper_list import PaperList
from tests.conftest import paper_id_with
from tests.test_app import SIZE, detail_text, screen_text, seen_written, settle
from tests.waiting import until


async def flushed(app: ReaderApp, pilot) -> None:  # type: ignore[no-untyped-def]
    """Wait until papers shown have been written down as seen."""
    await seen_written(app, pilot)


async def test_space_steps_through_unseen_papers(library: Library) -> None:
    ids = library.store.all_ids()
    library.marks.mark_seen([ids[1], ids[2], ids[4]])
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        papers = app.query_one(PaperList)
        assert papers.cursor == 0  # shown, so now seen
        await pilot.press("space")
        assert papers.current_id == ids[3]
        await pilot.press("space")
        assert papers.current_id == ids[5]
        await flushed(app, pilot)
        assert "6 / 38 seen" in screen_text(app)
    assert library.store.marks.triage_counts()["seen"] == 6
    assert set(library.search("is:seen").ids) == {ids[0], ids[1], ids[2], ids[3], ids[4], ids[5]}


async def test_space_says_when_everything_is_seen(library: Library) -> None:
    library.marks.mark_seen(library.store.all_ids())
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("space")
        assert any("Every paper in this view has been seen" in n.message
                   for n in app._notifications)


async def test_r_marks_read_and_is_read_finds_it(library: Library) -> None:
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("j", "r")
        await settle(app, pilot)
        first_read = app.query_one(PaperList).current_id
        assert "1 read" in screen_text(app)
        assert "✓ read" in detail_text(app)
        await pilot.press("slash", *"is:read")
        await settle(app, pilot)
        assert app.query_one(PaperList).ids == [first_read]
        await pilot.press("enter", "r")  # back in the list: r again makes it unread
        await settle(app, pilot)
    assert library.search("is:read").ids == []


async def test_t_edits_tags_with_completion(library: Library) -> None:
    gdp = paper_id_with(library, "GDPval")
    other = library.store.all_ids()[0]
    library.set_tags(other, ["economics"])
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        app.query_one(PaperList).cursor = library.store.all_ids().index(gdp)
        await pilot.press("t")
        assert isinstance(app.screen, TagEditor)
        assert "economics (1)" in screen_text(app)
        await pilot.press(*"eco")
        field = app.screen.query_one(Input)
        # The completion, shown after the cursor, comes from a worker.
        await until(pilot, lambda: field._suggestion == "economics", "the completion")
        await pilot.press("right")  # accept the completion
        await pilot.press(*" to read", "enter")
        await settle(app, pilot)
        assert library.store.paper(gdp).tags == ["economics", "read", "to"]
        assert "#economics" in screen_text(app)
        await pilot.press("slash", *"tag:economics")
        await settle(app, pilot)
        assert set(app.query_one(PaperList).ids) == {gdp, other}


async def test_highlight_made_with_keys_is_stored_and_found(library: Library) -> None:
    gdp = paper_id_with(library, "GDPval")
    text = display_text(library.store.paper(gdp).abstract)
    second = sentences(text)[1]
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        app.query_one(PaperList).cursor = library.store.all_ids().index(gdp)
        await pilot.press("enter")
        assert isinstance(app.screen, ReadingScreen)
        await pilot.press("right_parenthesis", "right_parenthesis")
        assert app.screen.selection == second
        await pilot.press("shift+right")  # a word more: into the third sentence
        start, end = app.screen.selection
        assert start == second[0] and end > second[1]
        await pilot.press("shift+left")
        assert app.screen.selection == second
        await pilot.press("h")
        await pilot.press(*"marmalade idea", "enter")
        await settle(app, pilot)
        stored = library.store.paper(gdp).highlights
        assert [(h.start, h.end, h.quote, h.note) for h in stored] == [
            (second[0], second[1], text[second[0]:second[1]], "marmalade idea")
        ]
        shown = screen_text(app)
        assert "Highlights" in shown and "marmalade idea" in shown
        await pilot.press("escape", "slash", *"marmalade")
        await settle(app, pilot)
        assert app.query_one(PaperList).ids == [gdp]
        # H on the passage removes it again.
        await pilot.press("enter", "enter", "right_parenthesis", "right_parenthesis", "H")
        await settle(app, pilot)
    assert library.store.paper(gdp).highlights == []


async def test_m_lists_similar_papers_and_why(library: Library) -> None:
    gdp = paper_id_with(library, "GDPval")
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        app.query_one(PaperList).cursor = library.store.all_ids().index(gdp)
        await pilot.press("m")
        await settle(app, pilot)
        ids = app.query_one(PaperList).ids
        assert ids and gdp not in ids
        assert app.query_one("#search", Input).value.startswith("like:")
        assert "Shares: " in detail_text(app)
        assert "like “GDPval" in screen_text(app)


async def test_f_ranks_unseen_papers_like_the_starred_ones(library: Library) -> None:
    gdp = paper_id_with(library, "GDPval")
    library.set_starred(gdp, True)
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("f")
        await settle(app, pilot)
        ids = app.query_one(PaperList).ids
        assert ids and gdp not in ids
        assert "like your 1 starred paper" in screen_text(app)


async def test_e_edits_details_with_validation(library: Library) -> None:
    gdp = paper_id_with(library, "GDPval")
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        app.query_one(PaperList).cursor = library.store.all_ids().index(gdp)
        await pilot.press("e")
        form = app.screen
        assert isinstance(form, MetadataForm)
        form.query_one("#field-title", Input).value = "GDPval, the real title"
        form.query_one("#field-year", Input).value = "twenty"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, MetadataForm)  # not saved: the year is wrong
        assert "A year is four digits" in screen_text(app)
        form.query_one("#field-year", Input).value = "2026"
        await pilot.press("ctrl+s")
        await settle(app, pilot)
        assert not isinstance(app.screen, MetadataForm)
        paper = library.store.paper(gdp)
        assert (paper.title, paper.title_derived) == ("GDPval, the real title", False)
        await pilot.press("slash", *"title:real")
        await settle(app, pilot)
        assert app.query_one(PaperList).ids == [gdp]


async def test_sort_query_and_selection_are_remembered(library: Library) -> None:
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("O")  # relevance → title
        await settle(app, pilot)
        titles = [library.store.paper(i).title.casefold() for i in app.query_one(PaperList).ids]
        assert titles == sorted(titles)
        await pilot.press("slash", *"benchmark", "enter", "j", "j")
        await settle(app, pilot)
        chosen = app.query_one(PaperList).current_id
        await pilot.press("q")
    again = ReaderApp(library)
    async with again.run_test(size=SIZE) as pilot:
        await settle(again, pilot)
        assert again.views.order == "title"
        assert again.query_one("#search", Input).value == "benchmark"
        assert again.query_one(PaperList).current_id == chosen
        assert "sorted by title" in screen_text(again)


async def test_a_remembered_query_shows_no_other_papers_before_its_results(
    library: Library,
) -> None:
    """Started on the query the last run left: the first frames showed the whole library
    under it, and a key pressed then starred the library's first paper, which the query
    does not find; and the search said "Still indexing" over an index that was whole."""
    library.queries.set_meta("ui.last_query", "diffusion")
    found = set(library.search("diffusion").ids)
    first = library.store.all_ids()[0]
    assert first not in found
    app = ReaderApp(library)
    notices: list[str | None] = []
    shown = app.status.searched

    def searched(outcome):  # type: ignore[no-untyped-def]
        notices.append(outcome.notice if outcome is not None else None)
        shown(outcome)

    app.status.searched = searched  # type: ignore[method-assign]
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("j", "s")  # wait for the results, then act on them
        await settle(app, pilot)
        papers = app.query_one(PaperList)
        assert set(papers.ids) == found
        assert papers.cursor == 1
        second = papers.current_id
    starred = {p.id for p in library.store.papers(library.store.all_ids()) if p.starred}
    assert starred == {second}
    assert not any(n and n.startswith("Still indexing") for n in notices), notices



async def test_keys_typed_before_a_remembered_querys_results_act_on_them(
    library: Library,
) -> None:
    """The keys typed while the query the last run left is searched for wait for its
    results, then act on them: typed into the empty list, they were lost without a word."""
    library.queries.set_meta("ui.last_query", "diffusion")
    found = set(library.search("diffusion").ids)
    app = ReaderApp(library)
    slow = app.search._running  # held, the search waits as a slow one would
    slow.acquire()
    typed_early: list[bool] = []

    async def type_while_searching() -> None:
        # Typed as the window starts, before the results (the pilot only starts once
        # the list is done waiting for them).
        while not (app.is_running and isinstance(app.focused, PaperList)):
            await asyncio.sleep(0.01)
        for key in "js":
            app.post_message(events.Key(key, key))
        await asyncio.sleep(0.3)
        typed_early.append(app.query_one(PaperList).ids == [])
        slow.release()

    typing = asyncio.create_task(type_while_searching())
    try:
        async with app.run_test(size=SIZE) as pilot:
            await typing
            await settle(app, pilot)
            papers = app.query_one(PaperList)
            assert set(papers.ids) == found
            assert papers.cursor == 1
            second = papers.current_id
    finally:
        if slow.locked():
            slow.release()
    assert typed_early == [True]
    starred = {p.id for p in library.store.papers(library.store.all_ids()) if p.starred}
    assert starred == {second}


async def test_a_remembered_query_over_an_index_behind_by_a_star_says_no_still_indexing(
    library: Library,
) -> None:
    """An index one star behind the database (starred while no window ran): the query the
    last run left flashed "Still indexing; results when it is done" for the moment the
    catch-up took, then its results."""
    library.queries.set_meta("ui.last_query", "diffusion")
    found = set(library.search("diffusion").ids)
    starred = sorted(found)[0]
    library.store.marks.set_starred(starred, True)  # the database alone
    assert library.index_state() == "stale"
    app = ReaderApp(library)
    notices: list[str | None] = []
    shown = app.status.searched

    def searched(outcome):  # type: ignore[no-untyped-def]
        notices.append(outcome.notice if outcome is not None else None)
        shown(outcome)

    app.status.searched = searched  # type: ignore[method-assign]
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert set(app.query_one(PaperList).ids) == found
    assert not any(n and n.startswith("Still indexing") for n in notices), notices
    assert library.index_state() == "ok"
    assert library.search("diffusion is:starred").ids == [starred]

async def test_saved_searches_open_with_a_number_and_show_in_the_palette(
    library: Library,
) -> None:
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("slash", *"benchmark", "enter", "S")
        await pilot.press(*"benches", "enter")
        await settle(app, pilot)
        assert library.store.marks.saved_searches() == [("benches", "benchmark")]
        await pilot.press("escape")
        await settle(app, pilot)
        assert len(app.query_one(PaperList).ids) == 38
        await pilot.press("1")
        await settle(app, pilot)
        assert app.query_one("#search", Input).value == "benchmark"
        expected = len(library.search("benchmark").ids)
        provider = ReaderCommands(app.screen)
        names = [name for name, _, _ in provider._gather()]
        assert f"Saved search: benches ({expected} papers)" in names


async def test_tags_renamed_from_the_palette_commands(library: Library) -> None:
    ids = library.store.all_ids()
    library.set_tags(ids[0], ["llm"])
    library.set_tags(ids[1], ["llm", "agents"])
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        app.tags.rename_tag("llm")
        await pilot.pause()
        prompt = app.screen.query_one(Input)
        prompt.value = "language-models"
        await pilot.press("enter")
        await settle(app, pilot)
        assert library.store.marks.all_tags() == [("language-models", 2), ("agents", 1)]
        app.tags.delete_tag("agents")
        await settle(app, pilot)
    assert library.store.marks.all_tags() == [("language-models", 2)]
    assert library.search("tag:agents").ids == []


def test_only_web_addresses_are_opened(library: Library) -> None:
    paper = library.store.paper(library.store.all_ids()[0])
    paper.url = "javascript:alert(1)"
    paper.doi = None
    paper.arxiv_id = None
    paper.openreview_id = None
    assert paper_url(paper) is None
    paper.url = "file:///etc/passwd"
    paper.doi = "10.1234/abc"
    assert paper_url(paper) == "https://doi.org/10.1234/abc"
    paper.url = "https://openreview.net/forum?id=x"
    assert paper_url(paper) == "https://openreview.net/forum?id=x"


async def test_o_opens_the_paper_in_the_browser(
    library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    import webbrowser

    # Only the system's browser is stood in for: one is found, and what it is asked to open
    # is written down.
    opened: list[str] = []
    browsers: list[object] = [object()]

    def get(using: str | None = None) -> object:
        if not browsers:
            raise webbrowser.Error("could not locate runnable browser")
        return browsers[0]

    monkeypatch.setattr(webbrowser, "get", get)
    monkeypatch.setattr(webbrowser, "open", lambda url, *a, **k: opened.append(url) or True)
    first, second = library.store.all_ids()[:2]
    page = "https://openreview.net/forum?id=reader-o-test"
    library.marks.update_metadata(first, {"url": page})
    assert paper_url(library.store.paper(second)) is None  # type: ignore[arg-type]
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert app.paper_list.current_id == first
        await pilot.press("o")
        await settle(app, pilot)
        assert opened == [page]
        assert f"Opened {page}" in [n.message for n in app._notifications]
        # A paper with no web address opens nothing and says how to give it one.
        await pilot.press("j", "o")
        await settle(app, pilot)
        assert opened == [page]
        assert any("no web address" in n.message for n in app._notifications)
        # No browser on this machine: the address is shown instead.
        browsers.clear()
        await pilot.press("k", "o")
        await settle(app, pilot)
        assert opened == [page]
        assert any(page in n.message and "No web browser" in n.message
                   for n in app._notifications)


async def test_a_mouse_selection_is_highlighted_with_h(library: Library) -> None:
    from textual.geometry import Offset
    from textual.selection import Selection
    from textual.widgets import Static

    gdp = paper_id_with(library, "GDPval")
    text = display_text(library.store.paper(gdp).abstract)
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        app.query_one(PaperList).cursor = library.store.all_ids().index(gdp)
        await pilot.press("enter")
        abstract = app.screen.query_one("#paper-abstract", Static)
        # What a drag over characters 10–40 of the first line of the abstract selects.
        app.screen.selections = {abstract: Selection(Offset(10, 0), Offset(40, 0))}
        await pilot.press("h", "enter")
        await settle(app, pilot)
    (highlight,) = library.store.paper(gdp).highlights
    assert highlight.quote == text[10:40].strip()


async def test_a_key_in_use_keeps_the_form_open_and_what_was_typed(library: Library) -> None:
    ids = library.store.all_ids()
    other = library.store.paper(ids[1])
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("e")
        form = app.screen
        assert isinstance(form, MetadataForm)
        form.query_one("#field-authors", Input).value = "Ada Lovelace"
        form.query_one("#field-citekey", Input).value = other.citekey
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, MetadataForm)
        assert f"Already used by @{other.citekey}" in screen_text(app)
        assert form.query_one("#field-authors", Input).value == "Ada Lovelace"
        form.query_one("#field-citekey", Input).value = "lovelace2026"
        await pilot.press("ctrl+s")
        await settle(app, pilot)
    paper = library.store.paper(ids[0])
    assert (paper.citekey, paper.authors) == ("lovelace2026", ["Ada Lovelace"])


async def test_the_selected_result_is_remembered_while_the_index_is_rebuilt(
    library: Library,
) -> None:
    import shutil

    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("slash", *"benchmark", "enter", "j", "j", "j")
        await settle(app, pilot)
        chosen = app.query_one(PaperList).current_id
        await pilot.press("q")
    library.close()
    shutil.rmtree(library.paths.index)  # the next start must build the index first
    again = ReaderApp(Library(library.paths.root))
    async with again.run_test(size=SIZE) as pilot:
        await settle(again, pilot)
        assert again.query_one("#search", Input).value == "benchmark"
        assert again.query_one(PaperList).current_id == chosen
