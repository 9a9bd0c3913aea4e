"""Ratings a table gives: each review's rating written as a list (pandas writes a Python
list, ``"[8, 8, 7]"``), and the table's own mean beside them, used when it gives no
ratings and named in the import's summary when the ratings it gives say otherwise."""

from __future__ import annotations

from pathlib import Path

from reader.library import Library
from reader.signals import number_list
from tests.parsing import parse_file

HEADER = "title,authors,venue,rating_avg,ratings\n"


def test_a_list_in_brackets_is_every_number_of_it() -> None:
    assert number_list("[8, 8, 7]") == [8.0, 8.0, 7.0]
    assert number_list("[6,7]") == [6.0, 7.0]
    assert number_list("(5, 6)") == [5.0, 6.0]
    assert number_list("['8', '6']") == [8.0, 6.0]
    assert number_list("[7]") == [7.0]
    assert number_list("[]") is None
    # As before: joined by ";" or ",", or alone.
    assert number_list("8;8;7") == number_list("8, 8, 7") == [8.0, 8.0, 7.0]


def test_ratings_written_as_python_lists_keep_their_first_number(tmp_path: Path) -> None:
    path = tmp_path / "accepted.csv"
    path.write_text(
        HEADER
        + '"Levels of AGI",Meredith Morris,ICML 2024 Oral,7.67,"[8, 8, 7]"\n'
        + '"Sparse Autoencoders",Hana Kobayashi,ICML 2024 Poster,6.5,"[6,7]"\n'
        + '"Genie",Jake Bruce,ICML 2024 Poster,7.25,"[8, 6, 7, 8]"\n',
        encoding="utf-8",
    )
    result = parse_file(path)
    ratings = [record.signals.ratings for record in result.records if record.signals]
    assert ratings == [(8.0, 8.0, 7.0), (6.0, 7.0), (8.0, 6.0, 7.0, 8.0)]
    # The file's means agree with its ratings (7.67 is 23/3 to two places): nothing to say.
    assert result.warnings == []
    assert all("rating_avg" not in record.extra.get("table", {}) for record in result.records)


def test_a_mean_the_ratings_contradict_is_kept_and_said(
    empty_library: Library, tmp_path: Path
) -> None:
    path = tmp_path / "accepted.csv"
    path.write_text(
        HEADER
        + '"Levels of AGI",Meredith Morris,ICML 2024 Oral,6.1,"[8, 8, 7]"\n'
        + '"Only a Mean",Jake Bruce,ICML 2024 Poster,7.25,\n',
        encoding="utf-8",
    )
    summary = empty_library.import_files([path])
    assert summary.signals_line() == (
        "1 paper whose mean rating in the file disagrees with the ratings it gives: the "
        "ratings' mean taken, the file's kept as written"
    )
    named = [line for line in summary.problems if "rating_avg" in line]
    assert named == [
        "accepted.csv:2: rating_avg 6.1 but the ratings it gives (8, 8, 7) make 7.7; "
        "their mean taken, the file's kept as written"
    ]
    assert summary.skipped == 0
    result = parse_file(path)
    agi, only = result.records
    assert agi.signals is not None and agi.signals.rating_mean is not None
    assert round(agi.signals.rating_mean, 2) == 7.67  # the ratings' own mean
    assert agi.extra["table"]["rating_avg"] == "6.1"  # the file's, kept as written
    # A mean with no ratings beside it is the paper's mean.
    assert only.signals is not None and only.signals.rating_mean == 7.25


def test_a_mean_is_rounded_alike_in_the_list_and_the_reviews(tmp_path: Path) -> None:
    """6.25 and 7.25 are 6.3 and 7.3 wherever a mean is shown: `reader search` rounded a
    half to even (6.2, 7.2) where `reader reviews` and the detail rounded it up."""
    from click.testing import CliRunner

    from reader.cli import cli

    path = tmp_path / "accepted.csv"
    path.write_text(
        HEADER
        + '"Scaling Things",Ana Iyer,ICLR 2025 Poster,,"[6, 6, 6, 7]"\n'
        + '"Genie",Jake Bruce,ICML 2024 Poster,,"[8, 6, 7, 8]"\n',
        encoding="utf-8",
    )
    runner = CliRunner()
    base = ["--library", str(tmp_path / "lib")]
    assert runner.invoke(cli, [*base, "import", str(path)], obj={}).exit_code == 0
    listed = runner.invoke(cli, [*base, "search", ""], obj={}).output
    assert " 6.3 " in listed and " 7.3 " in listed, listed
    reviews = runner.invoke(cli, [*base, "reviews", "iyer2025scaling"], obj={}).output
    assert "mean 6.3" in reviews, reviews


def test_a_mean_under_another_name_is_kept_under_it_and_an_overruled_venue_said(
    empty_library: Library, tmp_path: Path
) -> None:
    # "Kept as written": under the file's own column name, and not named as unread; a
    # venue's "Oral" beside a decision column's "Reject" is said not kept, not dropped.
    path = tmp_path / "conflict.csv"
    path.write_text('title,venue,decision,ratings,avg_rating,abstract\n'
                    '"Conflict paper","ICLR 2026 Oral","Reject","8;8",3.0,"Abs."\n',
                    encoding="utf-8")
    summary = empty_library.import_files([path])
    [paper] = empty_library.store.iter_papers()
    assert paper.extra["table"] == {"avg_rating": "3.0", "venue": "ICLR 2026 Oral"}
    assert paper.venue == "ICLR"
    assert not any("read as no field" in warning for warning in summary.warnings)
    assert "conflict.csv:2: avg_rating 3.0 but the ratings it gives (8, 8) make 8.0; " \
        "their mean taken, the file's kept as written" in summary.problems
    assert summary.signals_line().endswith(
        "1 paper whose venue names another decision than the decision column: the column's "
        "decision taken, not the venue's (its words kept as written among the source fields)")
