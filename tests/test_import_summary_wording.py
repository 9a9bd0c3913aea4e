"""The import summary's line of conference signals reads as a sentence: parts that count
nothing are left out, and each count agrees with its noun."""

from __future__ import annotations

from pathlib import Path

import pytest

from reader.import_summary import ImportSummary


@pytest.mark.parametrize(
    ("new", "edited", "said"),
    [
        (0, 0, ""),
        (1, 0, "1 new reply"),
        (0, 1, "1 edited reply"),
        (0, 3, "3 edited replies"),
        (1, 1, "1 new reply and 1 edited reply"),
        (2, 1, "2 new replies and 1 edited reply"),
        (1_643, 23, "1,643 new replies and 23 edited replies"),
    ],
)
def test_new_and_edited_replies(new: int, edited: int, said: str) -> None:
    summary = ImportSummary(replies_new=new, reply_versions=edited)
    assert summary.signals_line() == said


def test_a_reimport_with_only_an_edit_says_only_the_edit() -> None:
    summary = ImportSummary(ratings_changed=1, reply_versions=1)
    assert summary.signals_line() == "1 paper whose reviewers changed a rating; 1 edited reply"


def test_every_part_at_many() -> None:
    summary = ImportSummary(
        ratings_changed=300, new_decisions=41, replies_new=1_643, reply_versions=23,
        replies_waiting=2, ratings_unreadable=3,
    )
    assert summary.signals_line() == (
        "300 papers whose reviewers changed a rating, 41 new decisions; 1,643 new replies and "
        "23 edited replies; 2 replies kept for papers not in the library; 3 ratings not a number, "
        "kept as written"
    )


def test_texts_a_newer_file_replaced_are_said() -> None:
    summary = ImportSummary(newer_abstracts=2, newer_titles=3)
    assert summary.text_line() == (
        "2 abstracts and 3 titles replaced by the file's newer text, the old kept as "
        "revisions (reader revisions REF)"
    )


def test_a_records_note_field_taken_is_said_as_the_files_note(tmp_path: Path) -> None:
    """A BibTeX ``note`` a paper takes is the file's note (``reader show``'s "file note"),
    not the user's: the summary says so, and a withdrawn mark by its name alone."""
    from click.testing import CliRunner

    from reader.cli import cli

    home = ["--library", str(tmp_path / "lib")]
    first = tmp_path / "a.bib"
    first.write_text("@article{lecun2015deep,\n  title = {Deep Learning},\n  author = {LeCun, "
                     "Yann},\n  journal = {Nature},\n  year = {2015},\n}\n", encoding="utf-8")
    second = tmp_path / "b.bib"
    second.write_text(first.read_text(encoding="utf-8").replace(
        "year = {2015},", "year = {2015},\n  note = {A note field},\n  pubstate = {withdrawn},"
    ), encoding="utf-8")
    assert CliRunner().invoke(cli, [*home, "import", str(first)], obj={}).exit_code == 0
    said = CliRunner().invoke(cli, [*home, "import", "--verbose", str(second)], obj={}).output
    assert "lecun2015deep: " in said and "file note A note field" in said, said
    assert "withdrawn 1" not in said


def test_a_field_said_in_words_is_counted_by_its_name(tmp_path: Path) -> None:
    """Zotero's RIS after Embase's: one paper took its short journal title, said by its
    CSL name ("container-title-short (1 paper)"); a file note was counted as "file"."""
    from reader.library import Library

    tools = Path(__file__).parent / "data" / "ris-tools"
    library = Library(tmp_path / "lib")
    library.imports.write_files([tools / "embase.ris"])
    line = library.imports.write_files([tools / "zotero.ris"]).filled_line()
    library.close()
    assert "short journal title (1 paper)" in line and "container-title" not in line, line
    from reader.import_summary import _field_name

    assert _field_name("file note A note field") == "file note"
    assert _field_name("doi 10.1/x") == "doi"
