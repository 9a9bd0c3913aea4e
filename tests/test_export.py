"""Exports parse back with the matching reader; notes export never overwrites your edits."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import bibtexparser
import pytest

from reader.export import EXPORT_FORMATS, export, export_notes, format_for_path
from reader.formats import CitationError
from reader.library import Library
from tests.conftest import paper_id_with

HOSTILE_NOTE = 'Commas, "quotes",\nnew lines and [bold]markup[/]'


@pytest.fixture
def papers(library: Library):
    gdpval = paper_id_with(library, "We introduce GDPval")
    library.save_note(gdpval, HOSTILE_NOTE, sync=False)
    library.set_starred(gdpval, True, sync=False)
    return list(library.store.iter_papers())


def test_every_format_parses_back(papers, tmp_path: Path) -> None:
    bib = export(papers, "bibtex")
    assert len(bibtexparser.parse_string(bib).entries) == 38
    rows = list(csv.DictReader(io.StringIO(export(papers, "csv"))))
    assert len(rows) == 38
    noted = next(r for r in rows if r["citekey"] == "gdpval2026")
    assert noted["note"] == HOSTILE_NOTE and noted["starred"] in ("1", "true", "True")
    data = json.loads(export(papers, "json"))
    assert {"abstract", "note", "tags", "highlights", "citekey"} <= set(data[0])
    assert next(p for p in data if p["citekey"] == "gdpval2026")["note"] == HOSTILE_NOTE
    assert len(json.loads(export(papers, "csljson"))) == 38
    assert "[bold]markup[/]" in export(papers, "markdown")
    out = tmp_path / "all.bib"
    export(papers, "bibtex", out)
    assert out.read_text(encoding="utf-8").strip() == bib.strip()
    assert set(EXPORT_FORMATS) == {"bibtex", "biblatex", "csljson", "markdown", "csv", "json"}


def test_file_names_pick_the_format() -> None:
    assert format_for_path(Path("x.bib")) == "bibtex"
    assert format_for_path(Path("x.csl.json")) == "csljson"
    assert format_for_path(Path("x.json")) == "json"
    with pytest.raises(CitationError):
        format_for_path(Path("x.docx"))


def test_notes_export_keeps_files_the_user_changed(papers, tmp_path: Path) -> None:
    first = export_notes(papers, tmp_path)
    assert len(first.written) == 1
    note_file = tmp_path / "gdpval2026.md"
    text = note_file.read_text(encoding="utf-8")
    assert text.startswith("---\n") and "key: " in text and HOSTILE_NOTE in text
    again = export_notes(papers, tmp_path)
    assert len(again.unchanged) == 1 and not again.written
    note_file.write_text(text + "\nMy own addition.\n", encoding="utf-8")
    third = export_notes(papers, tmp_path)
    assert len(third.kept) == 1
    assert "My own addition." in note_file.read_text(encoding="utf-8")
