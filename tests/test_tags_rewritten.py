"""A file's tags written otherwise than tags are (Zotero's "health, digital" becomes
``health-digital``) are named by the import: a tag renamed without a word is looked for
under the file's name and not found."""

from __future__ import annotations

from pathlib import Path

from reader.library import Library
from reader.text.tags import tags_as_written

ZOTERO_CSV = (
    '"Key","Item Type","Publication Year","Author","Title","Publication Title","DOI",'
    '"Manual Tags","Automatic Tags"\n'
    '"AB12","journalArticle","2021","de Vries, Hanna","Chatbots for triage in primary care",'
    '"PLOS Digital Health","10.1371/journal.pdig.0000123","health, digital; RCT; triage",'
    '"Humans"\n'
)


def test_tags_written_otherwise_are_kept_beside_their_tags() -> None:
    tags, rewritten = tags_as_written(["health, digital", "RCT", "Deep Learning", "rct"])
    assert tags == ["health-digital", "rct", "deep-learning"]
    # Lower case is how every tag is written: no news.
    assert rewritten == [("health, digital", "health-digital"),
                         ("Deep Learning", "deep-learning")]


def test_an_import_names_the_tags_it_wrote_otherwise(tmp_path: Path) -> None:
    csv = tmp_path / "zotero.csv"
    csv.write_text(ZOTERO_CSV, encoding="utf-8")
    library = Library(tmp_path / "lib")
    try:
        summary = library.import_files([csv])
        assert summary.key_changes() == (
            '1 tag written as tags are (lower case, one word): "health, digital" → '
            "health-digital"
        )
        (paper,) = (library.paper(pid) for pid in library.all_ids())
        assert paper is not None and paper.tags == ["health-digital", "rct", "triage"]
    finally:
        library.close()
