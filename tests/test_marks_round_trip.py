"""A library's CSV and JSON exports carry the user's work (tags, stars, read marks, notes,
highlights), and importing one into a fresh library gives it back, field by field; into
a library that has the papers already, the papers keep their own marks and the summary
says so."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from reader.library import Library, export
from reader.models import Paper

NOTE = 'Re-read §3: **quokka** "quoted", with a comma\nand a second line'


def _mark(library: Library) -> None:
    """Stars, read marks, tags, a note and highlights (one with a note) on a few papers."""
    gdpval = library.resolve("gdpval2026").paper.id  # type: ignore[union-attr]
    library.set_starred(gdpval, True)
    library.set_tags(gdpval, ["to-read", "benchmarks"])
    library.add_highlight(gdpval, 0, 6)
    sc = library.resolve("sc2026").paper.id  # type: ignore[union-attr]
    library.marks.set_read(sc, True)
    library.save_note(sc, NOTE)
    hid = library.add_highlight(sc, 4, 20)
    library.store.marks.set_highlight_note(hid, "why; it matters, \"really\"")


def _fields(paper: Paper) -> dict[str, object]:
    """What an export of a paper promises to bring back."""
    return {
        "citekey": paper.citekey, "title": paper.title, "title_derived": paper.title_derived,
        "abstract": paper.abstract, "authors": paper.authors, "venue": paper.venue,
        "year": paper.year, "keywords": paper.keywords, "starred": paper.starred,
        "read": paper.read, "note": paper.note.strip(), "tags": sorted(paper.tags),
        "highlights": sorted((h.quote, h.note, h.start, h.end) for h in paper.highlights),
    }


def _by_key(library: Library) -> dict[str, dict[str, object]]:
    return {p.citekey: _fields(p) for p in library.papers(library.all_ids())}


def test_csv_and_json_exports_carry_the_users_marks(library: Library) -> None:
    _mark(library)
    papers = library.papers(library.all_ids())
    rows = {r["citekey"]: r for r in csv.DictReader(io.StringIO(export(papers, "csv")))}
    assert rows["gdpval2026"]["tags"] == "benchmarks; to-read"
    assert rows["gdpval2026"]["starred"] == "true" and rows["sc2026"]["read"] == "true"
    assert rows["sc2026"]["note"] == NOTE
    quotes = json.loads(rows["sc2026"]["highlights"])
    assert [h["note"] for h in quotes] == ["why; it matters, \"really\""]
    objects = {o["citekey"]: o for o in json.loads(export(papers, "json"))}
    assert objects["gdpval2026"]["tags"] == ["benchmarks", "to-read"]
    assert objects["sc2026"]["read"] is True
    assert objects["gdpval2026"]["highlights"][0]["quote"] == "We int"


@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_an_export_imported_into_a_fresh_library_gives_back_every_field(
    library: Library, tmp_path: Path, fmt: str
) -> None:
    _mark(library)
    path = tmp_path / f"all.{fmt}"
    export(library.papers(library.all_ids()), fmt, path)
    fresh = Library(tmp_path / "fresh")
    try:
        summary = fresh.import_files([path])
        assert summary.new == 38 and summary.marks_kept == 0
        before, after = _by_key(library), _by_key(fresh)
        assert after.keys() == before.keys()
        for key, fields in before.items():
            for name, value in fields.items():
                assert after[key][name] == value, (key, name)
        assert fresh.search("tag:to-read").ids == [fresh.resolve("gdpval2026").paper.id]  # type: ignore[union-attr]
        assert len(fresh.search("is:starred").ids) == len(fresh.search("is:read").ids) == 1
    finally:
        fresh.close()


def test_a_paper_already_there_keeps_its_own_marks_and_the_summary_says_so(
    library: Library, tmp_path: Path
) -> None:
    _mark(library)
    path = tmp_path / "all.json"
    export(library.papers(library.all_ids()), "json", path)
    gdpval = library.resolve("gdpval2026").paper.id  # type: ignore[union-attr]
    library.set_starred(gdpval, False)
    library.set_tags(gdpval, ["mine"])
    summary = library.import_files([path])
    assert summary.new == 0 and summary.marks_kept == 1
    assert "1 paper already in the library kept its own stars" in summary.text_line()
    paper = library.papers([gdpval])[0]
    assert not paper.starred and paper.tags == ["mine"]


def test_a_highlight_in_a_review_is_not_brought_back_onto_the_abstract() -> None:
    from reader.sources.own_export import own_marks

    marks, other = own_marks({
        "citekey": "x2026", "title_derived": False, "room": "A",
        "highlights": [{"quote": "in the abstract", "note": ""},
                       {"quote": "in a review", "note": "", "reply": "abc"}],
    })
    assert marks["highlights"] == [("in the abstract", "")] and other == {"room": "A"}
