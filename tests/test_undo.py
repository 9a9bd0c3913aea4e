"""Undoing an import, as the user sees it after: the papers it added leave the search
index and the index of review text (no longer found, and the indexes shrink), and an
import that only merged into papers already there is undone too (its changes reverted)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from whoosh import index as whoosh_index

from reader.library import Library, parse_query

DATA = Path(__file__).parent / "data"


def _documents(path: Path) -> tuple[int, int]:
    """Live documents, and all documents the index's files hold (deleted ones too)."""
    ix = whoosh_index.open_dir(str(path))
    try:
        return ix.doc_count(), ix.doc_count_all()
    finally:
        ix.close()


def _size(path: Path) -> int:
    return sum(f.stat().st_size for f in path.iterdir() if f.is_file())


def test_undone_papers_leave_the_index_and_it_shrinks(library: Library) -> None:
    before = _size(library.index.path)
    library.import_files([DATA / "openreview-40.jsonl"])
    grown = _size(library.index.path)
    assert _documents(library.index.path) == (78, 78)
    title = library.papers(library.search("is:new").ids[:1])[0].title
    result = library.imports.undo_last_import()
    assert result is not None and result.removed == 40
    assert library.search(f'title:"{title}"').ids == []
    assert _documents(library.index.path) == (38, 38)
    assert _size(library.index.path) < before + (grown - before) / 2


def test_undone_papers_leave_the_index_of_review_text(library: Library) -> None:
    library.import_files([DATA / "openreview-replies-3.jsonl"])
    reviews = library.paths.root / "index-reviews"
    live, _ = _documents(reviews)
    assert live == 3 and library.reviews.search_reviews(parse_query("review:model"))[0]
    library.imports.undo_last_import()
    assert library.reviews.search_reviews(parse_query("review:model"))[0] == []
    assert _documents(reviews) == (0, 0)


def _merge_only_file(library: Library, tmp_path: Path) -> Path:
    """A CSV of two papers the library has: one given a real title, authors, a DOI and a
    URL, one with a revised abstract."""
    import csv

    gdpval = library.resolve("gdpval2026").paper
    sc = library.resolve("sc2026").paper
    assert gdpval is not None and sc is not None
    path = tmp_path / "richer.csv"
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["title", "abstract", "authors", "doi", "url"])
        writer.writerow(["GDPval: Evaluating AI Model Performance on Real-World Tasks",
                         gdpval.abstract, "Tejal Patwardhan; Rachel Dias",
                         "10.1234/gdpval", "https://example.org/gdpval"])
        writer.writerow(["", sc.abstract + " We release our code.", "", "", ""])
    return path


def test_undo_reverts_an_import_that_only_merged(library: Library, tmp_path: Path) -> None:
    earlier = tmp_path / "more.txt"
    earlier.write_text("NeurIPS 2025\n\nAn abstract about quokka behaviour in the wild.\n",
                       encoding="utf-8")
    library.import_files([earlier])
    keys = ("gdpval2026", "sc2026")
    before = {k: library.resolve(k).paper for k in keys}  # type: ignore[misc]
    summary = library.import_files([_merge_only_file(library, tmp_path)])
    assert summary.new == 0 and summary.merged == 2
    gdpval = library.resolve("gdpval2026").paper
    assert gdpval is not None and gdpval.doi == "10.1234/gdpval" and not gdpval.title_derived
    assert library.search("patwardhan").ids == [gdpval.id]
    assert [r.field for r in library.queries.text_revisions(before["sc2026"].id)] == ["abstract"]  # type: ignore[union-attr]

    result = library.imports.undo_last_import()
    assert result is not None and result.removed == 0 and result.reverted == 2
    for key, paper in before.items():
        now = library.resolve(key).paper
        assert now is not None and paper is not None
        for name in ("title", "title_derived", "abstract", "authors", "doi", "url",
                     "citekey"):
            assert getattr(now, name) == getattr(paper, name), (key, name)
    assert library.search("patwardhan").ids == []
    assert library.search("quokka").ids  # the import before it is still there
    # Its revision went with it; nothing is left to undo of it.
    assert library.queries.text_revisions(before["sc2026"].id) == []  # type: ignore[union-attr]
    again = library.imports.undo_last_import()
    assert again is not None and again.removed == 1 and library.search("quokka").ids == []


def test_undo_leaves_a_column_changed_again_since(library: Library, tmp_path: Path) -> None:
    library.import_files([_merge_only_file(library, tmp_path)])
    gdpval = library.resolve("gdpval2026").paper
    assert gdpval is not None
    library.queries.set_citekey(gdpval.id, "mine2026")  # not a merged column: no matter
    library.store.conn.execute("UPDATE papers SET url = 'https://mine.example' WHERE id = ?",
                               (gdpval.id,))
    library.store.conn.commit()
    result = library.imports.undo_last_import()
    assert result is not None and result.reverted == 2
    assert result.changed_since == [(gdpval.id, "mine2026", ["url"])]
    now = library.resolve("mine2026").paper
    assert now is not None and now.url == "https://mine.example" and now.doi is None


def test_the_cli_says_what_undo_put_back(library: Library, tmp_path: Path) -> None:
    from click.testing import CliRunner

    from reader.cli import cli

    path = _merge_only_file(library, tmp_path)
    root = library.paths.root
    library.close()
    runner = CliRunner()
    assert runner.invoke(cli, ["--library", str(root), "import", str(path)],
                         obj={}).exit_code == 0
    result = runner.invoke(cli, ["--library", str(root), "import", "--undo"], obj={})
    assert result.exit_code == 0, result.output
    assert f"Undid the import of {path} (it added no papers)." in result.stdout
    assert "Put back 2 papers it had merged into as they were before." in result.stdout


def _paper(library: Library, ref: str) -> int:
    paper = library.resolve(ref).paper
    assert paper is not None
    return paper.id


def _title(note: dict[str, Any]) -> str:
    title = note["content"]["title"]
    return str(title["value"] if isinstance(title, dict) else title)


def _orals(path: Path, forums: list[tuple[str, str]], venue: str) -> Path:
    """A wrapped list of papers by OpenReview forum id, each with ``venue``."""
    papers = [{"title": title, "forum": forum, "venue": venue} for forum, title in forums]
    path.write_text(json.dumps({"generated_at": "2026-04-01", "papers": papers}))
    return path


def test_undoing_a_merge_only_import_puts_its_decisions_back(
    empty_library: Library, tmp_path: Path
) -> None:
    library = empty_library
    library.import_files([DATA / "openreview-40.jsonl"])
    rows = [json.loads(line) for line in (DATA / "openreview-40.jsonl").open()][:3]
    forums = [(row["id"], _title(row)) for row in rows]
    ids = [_paper(library, forum) for forum, _ in forums]
    before = library.signals(ids)

    summary = library.import_files([_orals(tmp_path / "orals.json", forums, "ICLR 2026 Oral")])
    assert (summary.new, summary.merged, summary.new_decisions) == (0, 3, 3)
    assert {s.decision for s in library.signals(ids).values()} == {"oral"}
    assert len(library.search("decision:oral").ids) == 3

    result = library.imports.undo_last_import()
    assert result is not None and result.reverted == 3 and not result.changed_since
    # As they were: no decision where there was none, the rest untouched.
    assert library.signals(ids) == before
    assert library.search("decision:oral").ids == []


def test_undo_leaves_a_decision_changed_since_and_says_so(
    empty_library: Library, tmp_path: Path
) -> None:
    library = empty_library
    library.import_files([DATA / "openreview-40.jsonl"])
    row = json.loads((DATA / "openreview-40.jsonl").open().readline())
    forums = [(row["id"], _title(row))]
    paper_id = _paper(library, row["id"])
    library.import_files([_orals(tmp_path / "orals.json", forums, "ICLR 2026 Oral")])
    # Another list, with its own undo record, changes it again: the first import's undo
    # finds the decision is no longer what it wrote.
    library.import_files([_orals(tmp_path / "posters.json", forums, "ICLR 2026 Poster")])
    with library.session() as store:
        store.conn.execute("UPDATE imports SET undone_at = 'x' WHERE path LIKE '%posters%'")
    result = library.imports.undo_last_import()
    assert result is not None and result.reverted == 0
    assert [(p, fields) for p, _, fields in result.changed_since] == [(paper_id, ["signals"])]
    assert library.signals([paper_id])[paper_id].decision == "poster"


def test_a_dry_run_of_undo_changes_nothing_and_says_what_it_would_do(
    library: Library,
) -> None:
    """`reader import --undo --dry-run` says what the undo would remove, and removes
    nothing: the papers stay and the import can still be undone."""
    from click.testing import CliRunner

    from reader.cli import cli

    before = library.store.count()
    library.import_files([DATA / "openreview-40.jsonl"])
    added = library.store.count() - before
    starred = max(library.store.all_ids())
    library.set_starred(starred, True)
    root = str(library.paths.root)
    result = CliRunner().invoke(cli, ["--library", root, "import", "--undo", "--dry-run"],
                                obj={})
    assert result.exit_code == 0, result.output
    assert "Dry run: nothing was changed" in result.output
    assert f"Would remove {added - 1:,} of the {added:,} papers" in result.output
    # Said as what it would do: nothing was kept, nothing put back.
    assert "Would keep 1 that carry your stars or notes" in result.output
    assert "Kept" not in result.output and "Put back" not in result.output
    assert library.store.count() == before + added
    library.set_starred(starred, False)
    undone = library.imports.undo_last_import()
    assert undone is not None and undone.removed == added
    assert library.store.count() == before


def test_the_sample_is_undone_whenever_it_was_imported(
    library: Library, tmp_path: Path
) -> None:
    """The window loads the sample into an empty library; the user's own imports follow.
    Undone by name, the sample goes, but for the papers a later file brought too and those
    carrying the user's work; the later file's own papers stay."""
    from click.testing import CliRunner

    from reader.cli import cli

    sample = library.store.papers(library.store.all_ids())
    merged, starred = sample[0], sample[1]
    table = tmp_path / "mine.csv"
    rows = [("A Title of My Own", merged.abstract), ("Another Paper", "Nothing like the rest.")]
    table.write_text("title,abstract\n" + "".join(
        f'"{title}","{abstract.replace(chr(34), chr(34) * 2)}"\n' for title, abstract in rows
    ), encoding="utf-8")
    summary = library.import_files([table])
    assert (summary.new, summary.merged) == (1, 1)
    library.set_starred(starred.id, True)
    root = str(library.paths.root)
    library.close()
    result = CliRunner().invoke(cli, ["--library", root, "import", "--undo", "sample"], obj={})
    assert result.exit_code == 0, result.output
    assert "Removed 19 papers" in result.output and "Removed 17 of the 19 papers" in result.output
    assert f"Kept 1 that carry your stars or notes: {starred.citekey}." in result.output
    assert (f"Kept 1 that a later import of another file brought too: {merged.citekey}."
            in result.output)
    reopened = Library(library.paths.root)
    try:
        titles = sorted(p.title for p in reopened.store.papers(reopened.store.all_ids()))
        assert titles == sorted(["A Title of My Own", "Another Paper", starred.title])
        assert reopened.search("nothing like the rest").ids  # the index followed
    finally:
        reopened.close()
    again = CliRunner().invoke(cli, ["--library", root, "import", "--undo", "sample"], obj={})
    assert again.exit_code == 1
    assert "no import of sample is there to undo" in again.output


def test_a_sample_taken_away_is_not_loaded_again(empty_library: Library) -> None:
    summary = empty_library.imports.import_sample_if_empty()
    assert summary is not None and summary.new == 38
    results = empty_library.imports.undo_imports_of(sample=True)
    assert sum(r.removed for r in results) == 38 and empty_library.store.count() == 0
    # The window loads the sample into an empty library; not into one emptied of it.
    assert empty_library.imports.import_sample_if_empty() is None
    assert empty_library.store.count() == 0


def test_a_sample_paper_another_file_holds_unchanged_is_kept_by_the_samples_undo(
    library: Library, tmp_path: Path
) -> None:
    """A list of one's own holding some of the sample's papers as they are: its import
    finds them unchanged, and kept no record of them, so undoing the sample removed them
    though the README says a paper a later file brought too stays."""
    paper = library.store.papers(library.store.all_ids())[2]
    mine = tmp_path / "mine.txt"
    mine.write_text(f"{paper.venue} {paper.year} papers\n\n{paper.abstract}\n", encoding="utf-8")
    summary = library.import_files([mine])
    assert (summary.new, summary.unchanged) == (0, 1)
    again = library.import_files([mine])  # the same file again still adds no history rows
    assert again.unchanged == 1
    from click.testing import CliRunner

    from reader.cli import cli

    said = CliRunner().invoke(cli, ["--library", str(library.paths.root), "import", "--undo",
                                    "sample", "--dry-run"], obj={})
    assert (f"Would keep 1 that a later import of another file brought too: {paper.citekey}."
            in said.output), said.output
    assert "Would remove 18 of the 19 papers" in said.output, said.output
    assert "Would remove 0 papers" not in said.output, said.output
    results = library.imports.undo_imports_of(sample=True)
    result = next(r for r in results if r.brought_later)
    assert [key for _, key in result.brought_later] == [paper.citekey]
    assert library.store.paper(paper.id) is not None
    # The list is now all that holds it: undoing the list takes it (it said "no import of
    # … is there to undo", and no undo could remove the paper).
    [mine_undone] = library.imports.undo_imports_of([mine])
    assert mine_undone.removed == 1
    assert library.store.paper(paper.id) is None
