"""Identity from links: an OpenReview, arXiv or DOI link in any column of a CSV or key of
a JSON object identifies the paper, so a list of accepted papers merges into the papers
already there instead of standing beside them."""

from __future__ import annotations

import csv
import json
import sqlite3
from pathlib import Path

from reader.library import Library
from tests.parsing import parse_file
from tests.test_never_backwards import CAMERA_READY, JAN, SUBMITTED, _snapshot


def _accepted_csv(path: Path) -> Path:
    with path.open("w", encoding="utf-8", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(["title", "abstract", "venue", "openreview_url"])
        for forum, (title, abstract) in CAMERA_READY.items():
            writer.writerow([title, abstract, "ICLR 2026 Poster",
                             f"https://openreview.net/forum?id={forum}"])
    return path


def test_an_accepted_list_with_openreview_urls_merges_into_the_papers_there(
    empty_library: Library, tmp_path: Path
) -> None:
    library = empty_library
    library.import_files([_snapshot(tmp_path / "nov.jsonl", SUBMITTED, None)])
    before = library.queries.stats()["papers"]
    summary = library.import_files([_accepted_csv(tmp_path / "accepted.csv")])
    assert summary.new == 0
    assert library.queries.stats()["papers"] == before == 3
    with sqlite3.connect(library.paths.database) as conn:
        rows = dict(conn.execute("SELECT openreview_id, abstract FROM papers").fetchall())
        years = {r[0] for r in conn.execute("SELECT year FROM papers")}
    assert rows == {forum: abstract for forum, (_, abstract) in CAMERA_READY.items()}
    assert years == {2026}
    # The submission abstracts, undated on both sides, are kept as revisions.
    assert summary.revisions_kept == 3


def test_a_title_kept_apart_by_another_openreview_id_is_said(
    empty_library: Library, tmp_path: Path
) -> None:
    """Different OpenReview ids are never one paper (a resubmission has a forum of its
    own); a row with a known title and another id (mistyped) stood beside it unsaid."""
    library = empty_library
    library.import_files([_snapshot(tmp_path / "nov.jsonl", SUBMITTED, None)])
    forum, (title, _) = next(iter(SUBMITTED.items()))
    table = tmp_path / "accepted.csv"
    with table.open("w", encoding="utf-8", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(["title", "venue", "openreview_url"])
        writer.writerow([title, "ICLR 2026 Oral", "https://openreview.net/forum?id=Zz9Zz9Zz9Z"])
    summary = library.import_files([table])
    assert summary.new == 1
    key = library.papers([library.search(f"openreview:{forum}").ids[0]])[0].citekey
    assert summary.key_changes() == (
        f"1 new paper shares its title with a paper already here but not an id, and was kept "
        f"apart (a resubmission, or a mistyped id): \"{title}\" (not {key}: another "
        "OpenReview id)"
    )


def test_the_csv_row_reads_its_venue_year_decision_and_forum(tmp_path: Path) -> None:
    records = parse_file(_accepted_csv(tmp_path / "accepted.csv")).records
    first = records[0]
    assert (first.venue, first.year) == ("ICLR", 2026)
    assert first.signals is not None and first.signals.decision == "poster"
    assert [r.openreview_id for r in records] == list(CAMERA_READY)
    assert first.url == f"https://openreview.net/forum?id={next(iter(CAMERA_READY))}"


def test_arxiv_and_doi_links_under_any_key_identify_the_paper(tmp_path: Path) -> None:
    items = [
        {"title": "One", "abstract": "The first paper.", "pdf": "https://arxiv.org/pdf/2401.01234v2"},
        {"title": "Two", "abstract": "The second paper.", "links": "http://arxiv.org/abs/2402.00001",
         "resolver": "https://dx.doi.org/10.18653/v1/2023.acl-long.1"},
        {"title": "Three", "abstract": "The third paper.", "landing": "https://doi.org/10.1145/3580305.3599"},
        # A link inside prose names no paper; two different forums name neither.
        {"title": "Four", "abstract": "Builds on https://arxiv.org/abs/2301.00001 directly.",
         "a": "https://openreview.net/forum?id=Rt8kLm2QxA",
         "b": "https://openreview.net/pdf?id=Fw3nZp9VbC"},
    ]
    path = tmp_path / "papers.json"
    path.write_text(json.dumps({"generated_at": "2026-01-01", "papers": items}), encoding="utf-8")
    records = parse_file(path).records
    assert [(r.arxiv_id, r.doi, r.openreview_id) for r in records] == [
        ("2401.01234", None, None),
        ("2402.00001", "10.18653/v1/2023.acl-long.1", None),
        (None, "10.1145/3580305.3599", None),
        (None, None, None),
    ]


def test_an_older_dated_openreview_list_after_the_csv(
    empty_library: Library, tmp_path: Path
) -> None:
    library = empty_library
    library.import_files([_snapshot(tmp_path / "jan.jsonl", CAMERA_READY, JAN)])
    library.import_files([_accepted_csv(tmp_path / "accepted.csv")])
    assert library.queries.stats()["papers"] == 3


def test_a_proceedings_title_with_a_year_is_no_decision(tmp_path: Path) -> None:
    # Scopus's source title of an ACL paper: a name to keep whole, not ACL 2016's "accept".
    path = tmp_path / "scopus.csv"
    venue = "54th Annual Meeting of the Association for Computational Linguistics, " \
        "ACL 2016 - Long Papers"
    with path.open("w", newline="", encoding="utf-8") as out:
        csv.writer(out).writerows([["Title", "Year", "Source title"],
                                   ["Neural machine translation", "2016", venue]])
    [record] = parse_file(path).records
    assert record.venue == venue
    assert record.signals is None or record.signals.decision is None


def test_a_proceedings_title_with_a_year_and_a_paper_type_is_kept_whole(
    tmp_path: Path,
) -> None:
    # ACL Anthology's names, as Zotero exports them: the year in the middle, "Long Papers"
    # after it. Not "Proceedings of the" with a decision "accept".
    venues = [
        "Proceedings of the 2019 Conference of the North American Chapter of the Association "
        "for Computational Linguistics: Human Language Technologies, Volume 1 (Long and Short "
        "Papers)",
        "Proceedings of the 2023 Conference on EMNLP: Main Track",
        "Proceedings of the 2021 Workshop on Trustworthy NLP",
        "Advances in Neural Information Processing Systems 2020 Oral",
    ]
    path = tmp_path / "zotero.csv"
    with path.open("w", newline="", encoding="utf-8") as out:
        csv.writer(out).writerows([["Title", "Publication Year", "Publication Title"]]
                                  + [[f"Paper {n}", "2019", v] for n, v in enumerate(venues)])
    records = parse_file(path).records
    assert [r.venue for r in records] == venues
    assert all(r.signals is None or r.signals.decision is None for r in records)
    # A conference's name, its year and its decision are still read as such.
    path.write_text("Title,Venue\nA,ICLR 2026 Poster\nB,NeurIPS 2024 Datasets and Benchmarks"
                    " Spotlight\n", encoding="utf-8")
    first, second = parse_file(path).records
    assert (first.venue, first.year) == ("ICLR", 2026) and first.signals is not None
    assert second.venue == "NeurIPS" and second.signals is not None


def test_a_scopus_record_without_authors_is_cited_by_its_editors(tmp_path: Path) -> None:
    path = tmp_path / "scopus.csv"
    with path.open("w", newline="", encoding="utf-8") as out:
        csv.writer(out).writerows([
            ["Authors", "Title", "Year", "Source title", "Editors", "Document Type"],
            ["[No author name available]", "Proceedings of EMNLP 2023", "2023",
             "EMNLP 2023", "Bouamor H.; Pino J.; Bali K.", "Conference Review"],
        ])
    [record] = parse_file(path).records
    # The placeholder is nobody's name; the editors are written as Scopus writes authors.
    assert record.authors == []
    assert record.csl["editor"][:2] == [
        {"given": "H.", "family": "Bouamor"}, {"given": "J.", "family": "Pino"}
    ]


def test_a_wrapped_list_gives_its_papers_its_venue_and_each_its_forum_link(
    tmp_path: Path,
) -> None:
    path = tmp_path / "orals.json"
    path.write_text(json.dumps({
        "generated_at": "2026-04-10T08:00:00Z",
        "conference": "ICLR 2026",
        "papers": [{
            "title": "Scaling Laws for Mixture-of-Experts Routing",
            "authors": ["Chen Li"],
            "forum": "https://openreview.net/forum?id=Hh7UvW2xYz",
            "decision": "Accept (Oral)",
            "room": "Hall 1",
        }],
    }), encoding="utf-8")
    [record] = parse_file(path).records
    # An accepted oral is no undated manuscript: the list's venue and year are its own.
    assert (record.venue, record.year) == ("ICLR", 2026)
    assert record.openreview_id == "Hh7UvW2xYz"
    assert record.url == "https://openreview.net/forum?id=Hh7UvW2xYz"
    assert record.extra["table"]["room"] == "Hall 1"


def _chapters(path: Path, *volumes: int) -> Path:
    with path.open("w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow(["Key", "Item Type", "Publication Year", "Author", "Title",
                         "Publication Title", "Pages"])
        for volume in volumes:
            writer.writerow([f"K{volume}", "bookSection", "2021", "Engel, Uwe", "Introduction",
                             f"Handbook of Computational Social Science, Volume {volume}",
                             f"1–{10 + volume}"])
    return path


def test_chapters_of_one_title_in_two_books_stay_two_papers(
    empty_library: Library, tmp_path: Path
) -> None:
    """An editor's "Introduction" to each volume: the second import of the same file made a
    third paper, the Vol. 2 chapter being taken for the Vol. 1 one."""
    library = empty_library
    assert library.import_files([_chapters(tmp_path / "both.csv", 1, 2)]).new == 2
    again = library.import_files([_chapters(tmp_path / "again.csv", 1, 2)])
    assert (again.new, again.unchanged) == (0, 2)
    alone = library.import_files([_chapters(tmp_path / "vol2.csv", 2)])
    assert (alone.new, alone.unchanged, alone.kept_differing) == (0, 1, [])
    assert library.queries.stats()["papers"] == 2


def test_a_lists_ratings_do_not_outrank_the_reviews_held(
    empty_library: Library, tmp_path: Path
) -> None:
    library = empty_library
    library.import_files([Path(__file__).parent / "data" / "openreview-replies-3.jsonl"])
    ids = library.all_ids()
    before = library.signals(ids)
    reviewed = next(i for i, s in before.items() if s.ratings)
    forum = library.paper(reviewed).openreview_id  # type: ignore[union-attr]
    listed = tmp_path / "accepted.csv"
    listed.write_text(
        "title,openreview_url,ratings,venue\n"
        f"x,https://openreview.net/forum?id={forum},2;2;2;2;2,ICLR 2026 Poster\n",
        encoding="utf-8",
    )
    library.import_files([listed])
    after = library.signals(ids)[reviewed]
    # The reviews' own ratings stay (the header showed the list's above reviews rated
    # otherwise); the list's decision is taken.
    assert after.ratings == before[reviewed].ratings
    assert after.decision == "poster"


def test_scopus_full_names_are_the_authors(tmp_path: Path) -> None:
    path = tmp_path / "scopus.csv"
    with path.open("w", newline="", encoding="utf-8") as out:
        csv.writer(out).writerows([
            ["Authors", "Author full names", "Title", "Year"],
            ["Li J.; 王 伟", "Li, Jing (57000000001); 王, 伟 (57000000002)",
             "面向低资源语言的神经机器翻译综述", "2023"],
        ])
    [record] = parse_file(path).records
    # Written out, not "J. Li"; a name in Han family name first, as it is written.
    assert record.authors == ["Jing Li", "王伟"]


def test_a_lists_decision_does_not_outrank_a_decision_note(
    empty_library: Library, tmp_path: Path
) -> None:
    library = empty_library
    forum = "PaperDec01"
    note = {
        "id": forum, "forum": forum, "mdate": 1_760_000_000_000,
        "content": {"title": {"value": "A Decided Paper"}, "abstract": {"value": "Text."}},
        "replies": [{
            "id": "Decision01", "forum": forum, "replyto": forum,
            "invitations": ["ICLR.cc/2026/Conference/Submission1/-/Decision"],
            "signatures": ["ICLR.cc/2026/Conference/Program_Chairs"],
            "cdate": 1_760_000_000_000, "mdate": 1_760_000_000_000,
            "content": {"decision": {"value": "Reject"}},
        }],
    }
    notes = tmp_path / "notes.jsonl"
    notes.write_text(json.dumps(note) + "\n", encoding="utf-8")
    library.import_files([notes])
    [paper_id] = library.all_ids()
    assert library.signals([paper_id])[paper_id].decision == "reject"
    listed = tmp_path / "orals.csv"
    listed.write_text("title,openreview_url,venue\n"
                      f"A Decided Paper,https://openreview.net/forum?id={forum},ICLR 2026 Oral\n",
                      encoding="utf-8")
    summary = library.import_files([listed])
    assert library.signals([paper_id])[paper_id].decision == "reject"
    assert summary.new_decisions == 0


def test_a_placeholder_abstract_and_a_nested_venue(tmp_path: Path) -> None:
    table = tmp_path / "scopus.csv"
    table.write_text("Title,Year,Abstract\nA Review,2023,[No abstract available]\n",
                     encoding="utf-8")
    assert parse_file(table).records[0].abstract == ""
    ris = tmp_path / "scopus.ris"  # Scopus writes it in its RIS as well
    ris.write_text("TY  - JOUR\nTI  - A Review\nPY  - 2023\nAB  - [No abstract available]\n"
                   "DB  - Scopus\nER  - \n", encoding="utf-8")
    assert parse_file(ris).records[0].abstract == ""
    listed = tmp_path / "orals.json"
    listed.write_text(json.dumps({"meta": {"venue": "ICLR 2026"}, "papers": [
        {"title": "An Oral", "forum": "https://openreview.net/forum?id=Hh7UvW2xYz"}]}),
        encoding="utf-8")
    [oral] = parse_file(listed).records
    assert (oral.venue, oral.year) == ("ICLR", 2026)


def test_an_arxiv_doi_names_the_arxiv_paper(empty_library: Library, tmp_path: Path) -> None:
    listed = tmp_path / "accepted.csv"
    listed.write_text("title,authors,year,doi\nA Preprint Paper,Ann Lee,2025,"
                      "https://doi.org/10.48550/arXiv.2503.07777\n", encoding="utf-8")
    empty_library.import_files([listed])
    [paper_id] = empty_library.all_ids()
    assert empty_library.paper(paper_id).arxiv_id == "2503.07777"  # type: ignore[union-attr]


def test_lists_named_for_decisions_and_a_list_one_object_down(
    empty_library: Library, tmp_path: Path
) -> None:
    split = tmp_path / "iclr2024.json"
    split.write_text(json.dumps({
        "conference": "ICLR 2024",
        "accepted": [{"title": "An Accepted Paper", "abstract": "We accept."}],
        "rejected": [{"title": "A Rejected Paper", "abstract": "We reject."}],
        "organisers": [{"name": "Ann Lee"}],  # a list of people, not of papers
    }), encoding="utf-8")
    records = parse_file(split).records
    assert [(r.title, r.venue, r.year) for r in records] == [
        ("An Accepted Paper", "ICLR", 2024), ("A Rejected Paper", "ICLR", 2024),
    ]
    empty_library.import_files([split])
    ids = empty_library.all_ids()
    signals = empty_library.signals(ids)
    decisions = {
        paper.title: signals[paper.id].decision for paper in empty_library.papers(ids)
    }
    assert decisions == {"An Accepted Paper": "accept", "A Rejected Paper": "reject"}
    page = tmp_path / "page.json"  # an API's page: the list inside its results
    page.write_text(json.dumps({"count": 1, "next": None, "results": {"papers": [
        {"title": "A Paper On A Page", "abstract": "Paged."}]}}), encoding="utf-8")
    assert [r.title for r in parse_file(page).records] == ["A Paper On A Page"]
