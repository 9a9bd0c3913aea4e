"""Honest citations: a title reader derived from the abstract is never cited as the
paper's own; copying such a paper says so, and the user's own title ends it."""

from __future__ import annotations

from reader.cite.formats import DERIVED_MARK, render
from reader.library import Library
from reader.ui.app import ReaderApp
from tests.test_app import SIZE, settle


def derived_id(library: Library) -> int:
    """The first paper of the sample whose title was derived."""
    return next(p.id for p in library.store.iter_papers() if p.title_derived)


async def test_copying_a_derived_title_says_so_and_marks_it(library: Library) -> None:
    paper_id = derived_id(library)
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        while app.paper_list.current_id != paper_id:
            await pilot.press("j")
        await pilot.press("y")
        await settle(app, pilot)
        assert DERIVED_MARK in (app.clipboard or "")
        messages = [n.message for n in app._notifications]
        assert any("derived from the abstract" in m and "e gives it" in m for m in messages)


def test_every_citation_format_marks_a_derived_title(library: Library) -> None:
    paper = library.store.paper(derived_id(library))
    assert paper is not None
    for fmt in ("text", "bibtex", "biblatex", "csljson", "markdown"):
        # Markdown escapes the brackets.
        assert DERIVED_MARK.strip("[]") in render([paper], fmt), fmt
    # As written in every style: a title-casing style (MLA, Chicago) cases the title only.
    for style in ("mla", "chicago-author-date", "ieee"):
        assert DERIVED_MARK in render([paper], "text", style), style


def test_every_export_marks_a_derived_title(library: Library) -> None:
    """The Markdown export wrote a derived title as the paper's own: RIS, BibTeX and
    CSL-JSON marked it."""
    from reader.cite.export import export

    paper = library.store.paper(derived_id(library))
    assert paper is not None
    for fmt in ("markdown", "bibtex", "csljson", "ris"):
        assert DERIVED_MARK.strip("[]") in export([paper], fmt), fmt


def test_a_title_the_user_gave_is_cited_plain(library: Library) -> None:
    paper_id = derived_id(library)
    library.marks.update_metadata(paper_id, {"title": "In-Context Forgetting, Measured"})
    paper = library.store.paper(paper_id)
    assert paper is not None
    for fmt in ("text", "bibtex", "csljson", "markdown"):
        text = render([paper], fmt)
        assert DERIVED_MARK.strip("[]") not in text and "Forgetting, Measured" in text, fmt


def test_a_derived_title_exported_and_imported_stays_derived(
    library: Library, tmp_path
) -> None:  # type: ignore[no-untyped-def]
    paper = library.store.paper(derived_id(library))
    assert paper is not None
    for fmt, name in (("bibtex", "out.bib"), ("csljson", "out.json")):
        path = tmp_path / name
        path.write_text(render([paper], fmt), encoding="utf-8")
        other = Library(tmp_path / f"other-{fmt}")  # a library that never held the paper
        try:
            other.imports.write_files([path])
            back = [p for p in other.store.iter_papers() if p.citekey == paper.citekey]
        finally:
            other.close()
        assert back and back[0].title == paper.title and back[0].title_derived, fmt


def test_reader_show_names_a_derived_title_as_the_window_does(library: Library) -> None:
    """`reader show` said "(title from the abstract)", the window and every export "title
    derived from the abstract"."""
    from reader.cli.show import paper_page

    paper = library.store.paper(derived_id(library))
    assert paper is not None
    assert paper_page(paper, None)[0].endswith("  (title derived from the abstract)")
