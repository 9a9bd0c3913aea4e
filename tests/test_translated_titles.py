"""A title in two languages is cited as the manuals ask: the original, then the translation
in square brackets, whichever of the two the source gave as the title; never as a
republished work's "Original work published as …"."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reader.cite.formats import render
from reader.library import Library

NBIB = """PMID- 31978945
DP  - 2020 Jan
TI  - [Artificial intelligence in radiology: a review].
AU  - Müller HP
PT  - Journal Article
TT  - Künstliche Intelligenz in der Radiologie: eine Übersicht.
JT  - Der Radiologe
"""
ITEMS = [
    # A Zotero user's English gloss beside a Japanese title.
    {"id": "suzuki2020", "type": "article-journal", "title": "深層学習を用いた日本語係り受け解析",
     "original-title": "Japanese dependency parsing with deep learning",
     "author": [{"family": "鈴木", "given": "健"}], "container-title": "自然言語処理",
     "issued": {"date-parts": [[2020]]}},
    # Scopus's "English title [Original title]", read apart.
    {"id": "ivanov2019", "type": "article-journal",
     "title": "Neural networks for morphological analysis of Russian texts",
     "original-title": "Нейронные сети для морфологического анализа русских текстов",
     "author": [{"family": "Ivanov", "given": "I."}], "container-title": "Trudy",
     "issued": {"date-parts": [[2019]]}},
]


@pytest.fixture
def library(tmp_path: Path) -> Library:
    (tmp_path / "radiologe.nbib").write_text(NBIB, encoding="utf-8")
    (tmp_path / "items.json").write_text(json.dumps(ITEMS), encoding="utf-8")
    library = Library(tmp_path / "lib")
    library.imports.write_files([tmp_path / "radiologe.nbib", tmp_path / "items.json"])
    return library


@pytest.mark.parametrize("style", ["apa", "chicago-author-date", "ieee", "nature"])
def test_the_original_title_comes_first_and_its_translation_in_brackets(
    library: Library, style: str
) -> None:
    papers = {p.citekey: p for p in library.store.iter_papers()}
    cited = {key: render([paper], "text", style=style) for key, paper in papers.items()}
    assert all("Original work published" not in text for text in cited.values())
    # (Chicago writes titles in title case: compared without case.)
    for key, both in (
        ("muller2020artificial", "Künstliche Intelligenz in der Radiologie: eine Übersicht "
         "[Artificial intelligence in radiology: a review]"),
        ("suzuki2020", "深層学習を用いた日本語係り受け解析 [Japanese dependency parsing with deep "
         "learning]"),
        ("ivanov2019", "Нейронные сети для морфологического анализа русских текстов [Neural "
         "networks for morphological analysis of Russian texts]"),
    ):
        assert both.lower() in cited[key].lower(), (key, cited[key])
    # The record keeps both as the source gave them, for an export.
    assert papers["ivanov2019"].csl["original-title"].startswith("Нейронные")
