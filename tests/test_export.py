"""Tests for exports (reader.cite.export): each format parses back with the matching reader and
holds the right values, files are written atomically, and the notes export never overwrites a file
the user changed."""

from __future__ import annotations

import csv
import io
import json
import os
from pathlib import Path
from typing import Any

import bibtexparser
import pytest
from msgspec.structs import replace

from reader.cite.export import CSV_COLUMNS, EXPORT_FORMATS, export, format_for_path
from reader.cite.formats import CitationError
from reader.cite.notes_files import NOTES_MANIFEST, export_notes, notes_filename
from reader.library import Library
from reader.models import Paper
from tests.conftest import paper_id_with

HOSTILE_NOTE = 'Commas, "quotes",\nnew lines and [bold]markup[/]\n\n- a list item'

HOSTILE = Paper(
    id=99,
    title='Commas, "quotes" and [bold] * stars',
    title_derived=False,
    abstract="First line,\nsecond line with $\\alpha$ and *emphasis*.\n\n# not a heading",
    authors=["Jane Smith", 'Bo "Bobby" Li, Jr.'],
    venue="Workshop, on Things",
    year=2024,
    keywords=["a, b", "c;d"],
    url="https://example.org/paper?x=1&y=2",
    doi="10.1234/abc,def",
    citekey="smith2024commas",
    starred=True,
    note=HOSTILE_NOTE,
    added_at="2026-01-01T00:00:00",
    arxiv_id="2401.00001",
)


@pytest.fixture
def papers(library: Library) -> list[Paper]:
    """The 38 sample papers, one of them starred with a hostile note, and a hostile paper."""
    gdpval = paper_id_with(library, "We introduce GDPval")
    library.save_note(gdpval, HOSTILE_NOTE)
    library.set_starred(gdpval, True)
    return [*library.store.iter_papers(), HOSTILE]


def by_key(papers: list[Paper], key: str) -> Paper:
    return next(p for p in papers if p.citekey == key)


# --- formats -------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["bibtex", "biblatex"])
def test_bibtex_exports_parse(fmt: str, papers: list[Paper]) -> None:
    library = bibtexparser.parse_string(export(papers, fmt))
    assert library.failed_blocks == []
    entries = {e.key: {f.key: f.value for f in e.fields} for e in library.entries}
    assert len(entries) == len(papers)
    hostile = entries["smith2024commas"]
    assert hostile["author"] == 'Jane Smith and Bo "Bobby" Li, Jr.'
    assert hostile["eprint"] == "2401.00001"
    assert "second line" in hostile["abstract"]
    year_field = "date" if fmt == "biblatex" else "year"
    assert entries["gdpval2026"][year_field] == "2026"


def test_csljson_export_parses(papers: list[Paper]) -> None:
    items = json.loads(export(papers, "csljson"))
    assert len(items) == len(papers)
    hostile = next(i for i in items if i["id"] == "smith2024commas")
    assert hostile["title"] == HOSTILE.title
    assert hostile["author"][1] == {"given": 'Bo "Bobby"', "family": "Li", "suffix": "Jr."}
    assert hostile["container-title"] == "Workshop, on Things"
    assert "α" in hostile["abstract"]  # plain text, not LaTeX


def test_csv_export_parses_with_every_value(papers: list[Paper]) -> None:
    text = export(papers, "csv")
    reader = csv.reader(io.StringIO(text, newline=""))
    assert next(reader) == list(CSV_COLUMNS)
    rows = list(csv.DictReader(io.StringIO(text, newline="")))
    assert len(rows) == len(papers)
    row = next(r for r in rows if r["citekey"] == "smith2024commas")
    assert row == {
        "id": "99",
        "citekey": "smith2024commas",
        "title": HOSTILE.title,
        "title_derived": "false",
        "authors": 'Smith, Jane; Li, Jr., Bo "Bobby"',
        "editors": "",
        "translators": "",
        "venue": "Workshop, on Things",
        "year": "2024",
        "date": "",
        "issued": "",
        "volume": "",
        "issue": "",
        "pages": "",
        "publisher": "",
        "issn": "",
        "isbn": "",
        "language": "",
        "edition": "",
        "place": "",
        "series": "",
        "series_number": "",
        "number": "",
        "genre": "",
        "type": "",
        "doi": "10.1234/abc,def",
        "arxiv_id": "2401.00001",
        "openreview_id": "",
        "url": HOSTILE.url,
        "keywords": "a, b; c;d",
        "starred": "true",
        "note": HOSTILE_NOTE,
        "abstract": HOSTILE.abstract,
        "tldr": "",
        "primary_area": "",
        "withdrawn": "false",
        "tags": "",
        "read": "false",
        "highlights": "",
    }
    gdpval = next(r for r in rows if r["citekey"] == "gdpval2026")
    assert gdpval["note"] == HOSTILE_NOTE
    assert gdpval["starred"] == "true"
    assert gdpval["authors"] == "" and gdpval["doi"] == ""


def test_json_export_has_every_field(papers: list[Paper]) -> None:
    data = json.loads(export(papers, "json"))
    assert len(data) == len(papers)
    fields = set(Paper.__struct_fields__)
    for obj in data:
        assert set(obj) == fields | {"tags", "highlights"}
        assert obj["tags"] == [] and obj["highlights"] == []
    hostile = next(o for o in data if o["citekey"] == "smith2024commas")
    assert hostile["note"] == HOSTILE_NOTE
    assert hostile["authors"] == HOSTILE.authors
    assert hostile["abstract"] == HOSTILE.abstract
    assert hostile["starred"] is True
    assert next(o for o in data if o["citekey"] == "gdpval2026")["note"] == HOSTILE_NOTE


def test_markdown_export_has_a_section_per_paper(papers: list[Paper]) -> None:
    text = export(papers, "markdown")
    sections = text.split("\n## ")
    assert len(sections) == len(papers)
    hostile = sections[-1]
    lines = hostile.splitlines()
    assert lines[0] == r'Commas, "quotes" and \[bold\] \* stars'
    assert r"Jane Smith, Bo \"Bobby\" Li, Jr." not in hostile  # quotes need no escape
    assert 'Jane Smith, Bo "Bobby" Li, Jr.  ' in lines
    assert "Workshop, on Things · 2024  " in lines
    assert "<https://example.org/paper?x=1&y=2>" in lines
    # The abstract as plain text: LaTeX rendered, Markdown markup shown literally.
    assert "second line with α and emphasis." in hostile
    assert "\\# not a heading" in hostile
    # The note as the user wrote it.
    assert hostile.endswith("### Note\n\n" + HOSTILE_NOTE.strip() + "\n")
    gdpval = next(s for s in sections if s.startswith("GDPval"))
    assert "[bold]markup[/]" in gdpval
    assert "ICLR · 2026" in gdpval


def test_unknown_export_format() -> None:
    with pytest.raises(CitationError, match="unknown export format 'docx'"):
        export([HOSTILE], "docx")
    assert set(EXPORT_FORMATS) == {
        "bibtex", "biblatex", "csljson", "ris", "markdown", "csv", "json"
    }


def test_file_names_pick_the_format() -> None:
    assert format_for_path(Path("x.bib")) == "bibtex"
    assert format_for_path(Path("x.csl.json")) == "csljson"
    assert format_for_path(Path("x.json")) == "json"
    assert format_for_path(Path("x.MD")) == "markdown"
    assert format_for_path(Path("x.csv")) == "csv"
    with pytest.raises(CitationError):
        format_for_path(Path("x.docx"))


# --- writing files -------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", EXPORT_FORMATS)
def test_export_writes_what_it_returns(fmt: str, tmp_path: Path) -> None:
    path = tmp_path / "new" / f"out.{fmt}"
    text = export([HOSTILE], fmt, path)
    assert path.read_bytes() == text.encode("utf-8")
    assert text.endswith("\n")
    assert os.listdir(path.parent) == [path.name]


def test_exported_files_get_ordinary_permissions(tmp_path: Path) -> None:
    reference = tmp_path / "reference.txt"
    reference.write_text("x", encoding="utf-8")
    path = tmp_path / "out.json"
    export([HOSTILE], "json", path)
    assert path.stat().st_mode == reference.stat().st_mode  # the umask, not mkstemp's 0600
    path.chmod(0o600)
    export([HOSTILE], "json", path)
    assert path.stat().st_mode & 0o777 == 0o600  # a replaced file keeps its own


def test_csv_file_keeps_its_line_endings(tmp_path: Path) -> None:
    path = tmp_path / "out.csv"
    export([HOSTILE], "csv", path)
    with path.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    assert rows[1][CSV_COLUMNS.index("note")] == HOSTILE_NOTE


def test_a_failed_write_leaves_the_old_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "out.bib"
    path.write_text("old", encoding="utf-8")

    def broken_replace(*_args: Any) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError, match="disk full"):
        export([HOSTILE], "bibtex", path)
    assert path.read_text(encoding="utf-8") == "old"
    assert os.listdir(tmp_path) == ["out.bib"]


# --- notes ---------------------------------------------------------------------------------


def front_matter(text: str) -> tuple[dict[str, Any], str]:
    """The front matter as simple ``key: value`` lines (values are JSON scalars), and the body."""
    assert text.startswith("---\n")
    head, body = text[4:].split("\n---\n", 1)
    values = {}
    for line in head.splitlines():
        key, value = line.split(": ", 1)
        values[key] = json.loads(value)
    return values, body


def test_notes_export_writes_a_file_per_annotated_paper(
    papers: list[Paper], tmp_path: Path
) -> None:
    result = export_notes(papers, tmp_path)
    names = sorted(p.name for p in result.written)
    assert names == ["gdpval2026.md", "smith2024commas.md"]
    assert result.unchanged == [] and result.kept == []
    values, body = front_matter((tmp_path / "smith2024commas.md").read_text(encoding="utf-8"))
    assert values == {
        "title": HOSTILE.title,
        "key": "smith2024commas",
        "venue": "Workshop, on Things",
        "year": 2024,
        "tags": [],
        "url": HOSTILE.url,
    }
    assert body == "\n" + HOSTILE_NOTE + "\n"
    values, _body = front_matter((tmp_path / "gdpval2026.md").read_text(encoding="utf-8"))
    assert values["title"].startswith("GDPval: a benchmark")
    assert values["url"] is None and values["year"] == 2026
    manifest = json.loads((tmp_path / NOTES_MANIFEST).read_text(encoding="utf-8"))
    assert set(manifest["files"]) == {"gdpval2026.md", "smith2024commas.md"}


def test_notes_export_keeps_files_the_user_changed(papers: list[Paper], tmp_path: Path) -> None:
    export_notes(papers, tmp_path)
    again = export_notes(papers, tmp_path)
    assert len(again.unchanged) == 2 and not again.written and not again.kept

    edited = tmp_path / "gdpval2026.md"
    text = edited.read_text(encoding="utf-8") + "\nMy own addition.\n"
    edited.write_text(text, encoding="utf-8")
    changed = [replace(p, note=p.note + " (revised)") if p.note else p for p in papers]
    third = export_notes(changed, tmp_path)
    assert third.kept == [edited]
    assert edited.read_text(encoding="utf-8") == text
    # The file the user did not touch follows the revised note.
    assert [p.name for p in third.written] == ["smith2024commas.md"]
    assert "(revised)" in (tmp_path / "smith2024commas.md").read_text(encoding="utf-8")
    # And the edit is still protected the time after.
    assert export_notes(changed, tmp_path).kept == [edited]


def test_notes_export_never_overwrites_a_file_it_did_not_write(tmp_path: Path) -> None:
    mine = tmp_path / "smith2024commas.md"
    mine.write_text("my own file\n", encoding="utf-8")
    result = export_notes([HOSTILE], tmp_path)
    assert result.kept == [mine]
    assert mine.read_text(encoding="utf-8") == "my own file\n"


def test_notes_export_survives_a_broken_manifest(tmp_path: Path) -> None:
    export_notes([HOSTILE], tmp_path)
    (tmp_path / NOTES_MANIFEST).write_text("{broken", encoding="utf-8")
    revised = replace(HOSTILE, note="something else")
    # Without a record of what was written, a differing file is kept rather than overwritten.
    assert len(export_notes([revised], tmp_path).kept) == 1
    # A file holding exactly what would be written is recognised, and recorded again.
    assert len(export_notes([HOSTILE], tmp_path).unchanged) == 1
    assert len(export_notes([revised], tmp_path).written) == 1


def test_note_file_names_are_safe_and_distinct(tmp_path: Path) -> None:
    odd = replace(HOSTILE, id=5, citekey="../etc/passwd:x")
    upper = replace(HOSTILE, id=6, citekey="Smith2024commas")
    assert notes_filename(odd) == "etc-passwd-x.md"
    result = export_notes([HOSTILE, upper, odd], tmp_path)
    names = sorted(p.name for p in result.written)
    assert names == ["Smith2024commas-6.md", "etc-passwd-x.md", "smith2024commas.md"]
    assert all(p.parent == tmp_path for p in result.written)


def test_yaml_front_matter_quotes_hostile_values(tmp_path: Path) -> None:
    paper = replace(HOSTILE, title='a: b\n- c # d "e"', venue="x\u2028y", url=None)
    export_notes([paper], tmp_path)
    text = (tmp_path / "smith2024commas.md").read_text(encoding="utf-8")
    head = text.split("\n---\n", 1)[0]
    assert len(head.splitlines()) == 7  # "---" and six one-line fields
    assert "\u2028" not in head  # YAML would read it as a line break
    values, _body = front_matter(text.replace("\\L", "\\u2028"))
    assert values["title"] == 'a: b - c # d "e"'
    assert values["venue"] == "x\u2028y"
    assert values["url"] == "https://doi.org/10.1234/abc,def"  # the DOI, without a URL


def test_notes_export_carries_tags_and_highlights(library: Library, tmp_path: Path) -> None:
    """A paper with only highlights gets a file too; its tags are in the front matter and
    each passage is quoted with where it is and its note."""
    from click.testing import CliRunner

    from reader.cli import cli
    from reader.library import display_text

    noted = paper_id_with(library, "GDPval")
    marked = paper_id_with(library, "transport")
    library.save_note(noted, "Read for the method.")
    library.set_tags(noted, ["method", "to-cite"])
    text = display_text(library.store.paper(marked).abstract)
    start = text.index("transport")
    library.add_highlight(marked, start, start + len("transport"), "the key word")
    out = tmp_path / "notes"
    result = CliRunner().invoke(cli, ["notes", "export", str(out), "--library",
                                      str(library.paths.root)], obj={})
    assert result.exit_code == 0, result.output
    assert result.output.startswith("2 written")
    files = {p.name: p.read_text(encoding="utf-8") for p in out.glob("*.md")}
    (note_file,) = [t for t in files.values() if "Read for the method." in t]
    values, _ = front_matter(note_file)
    assert values["tags"] == ["method", "to-cite"]
    (marked_file,) = [t for t in files.values() if "## Highlights" in t]
    _, body = front_matter(marked_file)
    assert "\n> transport\n\n— in the abstract\n\nthe key word\n" in body


def test_markdown_names_an_edited_books_editors_and_publisher() -> None:
    """An edited book has no authors: its section said only its year."""
    book = Paper(
        id=7, title="Handbook of Emotion Regulation", title_derived=False, abstract="",
        authors=[], venue=None, year=2007, keywords=[], url=None, doi=None,
        citekey="gross2007handbook", starred=False, note="", added_at="",
        csl={"type": "book", "editor": [{"family": "Gross", "given": "James J."}],
             "publisher": "Guilford Press"},
    )
    text = export([book], "markdown")
    assert "2007 · Book · Guilford Press · ed. James J. Gross" in text or (
        "Guilford Press" in text and "James J. Gross" in text), text
