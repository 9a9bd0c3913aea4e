"""The record in the reader: the detail pane and reading view show it, `e` edits it."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input

from reader.library import Library
from reader.ui.app import ReaderApp
from reader.ui.screens.metadata import MetadataForm
from reader.ui.screens.reading import ReadingScreen
from reader.ui.widgets.paper_list import PaperList
from tests.test_app import SIZE, detail_text, screen_text, settle

DATA = Path(__file__).parent / "data"


def _key_id(library: Library, key: str) -> int:
    found = library.store.id_for_key(key)
    assert found is not None
    return found


async def test_detail_and_reading_view_show_the_record(empty_library: Library) -> None:
    empty_library.import_files([DATA / "record.bib"])
    chapter = _key_id(empty_library, "Rame72")
    app = ReaderApp(empty_library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        app.query_one(PaperList).cursor = empty_library.store.all_ids().index(chapter)
        await settle(app, pilot)
        shown = " ".join(detail_text(app).split())
        assert "Computer Graphics and Image Processing · 1972 · @Rame72" in shown
        assert ("Chapter · pp. 170–185 · Academic Press, New York · eds. C. G. Van de Walle, "
                "Kristina Curry Rogers") in shown
        await pilot.press("enter")
        await settle(app, pilot)
        assert isinstance(app.screen, ReadingScreen)
        assert "Chapter · pp. 170–185 · Academic Press, New York" in " ".join(
            screen_text(app).split())


async def test_e_edits_volume_pages_publisher_and_names(empty_library: Library) -> None:
    empty_library.import_files([DATA / "record.bib"])
    article = _key_id(empty_library, "brittain2004")
    app = ReaderApp(empty_library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        app.query_one(PaperList).cursor = empty_library.store.all_ids().index(article)
        await settle(app, pilot)
        await pilot.press("e")
        form = app.screen
        assert isinstance(form, MetadataForm)
        assert form.query_one("#field-volume", Input).value == "28"
        assert form.query_one("#field-page", Input).value == "429-452"
        form.query_one("#field-type", Input).value = "magazine"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, MetadataForm)  # not a CSL type
        assert "A CSL type" in screen_text(app)
        form.query_one("#field-type", Input).value = "article-journal"
        form.query_one("#field-volume", Input).value = "29"
        form.query_one("#field-page", Input).value = "430–453"
        form.query_one("#field-publisher", Input).value = "SAGE"
        form.query_one("#field-editor", Input).value = "van Gogh, Vincent; {The Editors}"
        form.query_one("#field-authors", Input).value = "Ian Brittain; Ada Lovelace"
        await pilot.press("ctrl+s")
        await settle(app, pilot)
        assert not isinstance(app.screen, MetadataForm)
        paper = empty_library.store.paper(article)
        assert paper is not None
        assert {k: paper.csl[k] for k in ("volume", "page", "publisher", "editor")} == {
            "volume": "29", "page": "430-453", "publisher": "SAGE",
            "editor": [{"non-dropping-particle": "van", "family": "Gogh", "given": "Vincent"},
                       {"literal": "The Editors"}],
        }
        assert paper.authors == ["Ian Brittain", "Ada Lovelace"]
        assert paper.csl["author"] == [{"family": "Brittain", "given": "Ian"},
                                       {"given": "Ada", "family": "Lovelace"}]
        assert "29(4) · pp. 430–453 · SAGE" in " ".join(detail_text(app).split())
