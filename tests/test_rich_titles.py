"""Titles in HTML's inline tags (Web of Science's italic species names, Zotero's rich text)
are read as their text: a BibTeX export put a brace inside a tag (``<{i>Kulindadromeus}``),
and every view showed the tags."""

from __future__ import annotations

from reader.sources import parse_text
from reader.text.render import to_plain
from reader.text.rich_text import html_title


def test_inline_tags_are_read_as_their_text() -> None:
    assert html_title("<i>Kulindadromeus zabaikalicus</i>, a dinosaur") == (
        "Kulindadromeus zabaikalicus, a dinosaur")
    assert html_title('H<sub>2</sub>O on an <span class="nocase">iPhone</span>') == (
        "H2O on an iPhone")
    assert html_title("a < b and c > d") == "a < b and c > d"


def test_a_ris_title_in_tags_reads_and_exports_as_text() -> None:
    text = ("TY  - JOUR\nAU  - Godefroit, P\nTI  - A Jurassic ornithischian dinosaur, "
            "<i>Kulindadromeus zabaikalicus</i>\nPY  - 2014\nER  - \n")
    [record] = parse_text(text, "wos.ris", "ris").records
    assert to_plain(record.title) == (
        "A Jurassic ornithischian dinosaur, Kulindadromeus zabaikalicus")
    assert "<" not in record.title and "\\" not in record.title
