"""The import summary's line of conference signals reads as a sentence: parts that count
nothing are left out, and each count agrees with its noun."""

from __future__ import annotations

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
    assert summary.signals_line() == "1 paper with changed ratings; 1 edited reply"


def test_every_part_at_many() -> None:
    summary = ImportSummary(
        ratings_changed=300, new_decisions=41, replies_new=1_643, reply_versions=23,
        replies_waiting=2, ratings_unreadable=3,
    )
    assert summary.signals_line() == (
        "300 papers with changed ratings, 41 new decisions; 1,643 new replies and 23 edited "
        "replies; 2 replies kept for papers not in the library; 3 ratings not a number, "
        "kept as written"
    )


def test_texts_a_newer_file_replaced_are_said() -> None:
    summary = ImportSummary(newer_abstracts=2, newer_titles=3)
    assert summary.text_line() == (
        "2 abstracts and 3 titles replaced by the file's newer text, the old kept as "
        "revisions (reader revisions REF)"
    )
