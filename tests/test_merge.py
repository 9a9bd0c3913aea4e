"""Identity and merging: ids, exact and revised abstracts, diffs, undo, dry runs."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from rapidfuzz import fuzz

from reader.intake.identity import MERGE_THRESHOLD, Matcher, abstract_key
from reader.intake.merge import import_records
from reader.library import Library
from reader.models import PaperRecord
from reader.text.sanitize import normalize_for_identity
from tests.conftest import paper_id_with

GDPVAL_START = "We introduce GDPval, a benchmark"


def revised(abstract: str) -> str:
    """The kind of revision a camera-ready abstract gets: a few words changed."""
    return abstract.replace("roughly linearly", "approximately linearly").replace(
        "We also demonstrate", "We further demonstrate"
    )


def richer(library: Library, paper_id: int, **fields: object) -> PaperRecord:
    """The record another source would give for a paper of the library."""
    paper = library.store.paper(paper_id)
    assert paper is not None
    values: dict[str, object] = {"abstract": paper.abstract, "title": "", "title_derived": False}
    values.update(fields)
    return PaperRecord(**values)  # type: ignore[arg-type]


def revised_down_to(abstract: str, ratio: float, rng: random.Random) -> str:
    """A revision made of random word edits for as long as it stays ``ratio`` similar: the
    hardest revision the merge must still find."""
    words = abstract.split()
    pool = abstract.split()
    norm = normalize_for_identity(abstract)
    last = abstract
    while True:
        at = rng.randrange(len(words))
        edit = rng.random()
        if edit < 0.4:
            words[at] = rng.choice(pool)
        elif edit < 0.7:
            words.insert(at, rng.choice(pool))
        else:
            del words[at]
        text = " ".join(words)
        if fuzz.ratio(normalize_for_identity(text), norm) < ratio:
            return last
        last = text


def test_a_revision_at_the_threshold_is_still_found(library: Library) -> None:
    """The sketch that picks candidates must not miss what the threshold would merge."""
    papers = [p for p in library.store.iter_papers() if len(p.abstract) > 200]
    matcher = Matcher([], [(p.id, p.abstract) for p in papers])
    rng = random.Random(7)
    for paper in papers:
        for _ in range(5):
            text = revised_down_to(paper.abstract, MERGE_THRESHOLD, rng)
            assert matcher.similar(text) == paper.id


def test_a_richer_record_merges_and_keeps_the_users_work(library: Library) -> None:
    gdpval = paper_id_with(library, GDPVAL_START)
    library.set_starred(gdpval, True)
    library.save_note(gdpval, "check the grading service")
    before = library.store.paper(gdpval)
    assert before is not None
    record = richer(
        library,
        gdpval,
        abstract=revised(before.abstract),
        title="GDPval: Evaluating AI Model Performance on Real-World Economically Valuable Tasks",
        openreview_id="abc123XYZ",
        authors=["Tejal Patwardhan", "Rachel Dias"],
        url="https://openreview.net/forum?id=abc123XYZ",
    )
    summary = import_records(library.store, [record], "openreview.jsonl", "openreview")
    assert (summary.new, summary.merged, summary.revised) == (0, 1, 1)
    after = library.store.paper(gdpval)
    assert after is not None
    assert after.title.startswith("GDPval: Evaluating") and not after.title_derived
    assert after.authors == ["Tejal Patwardhan", "Rachel Dias"]
    assert after.openreview_id == "abc123XYZ"
    assert after.starred and after.note == "check the grading service"
    assert after.citekey == before.citekey  # keys never change under a merge
    assert library.store.count() == 38


def test_ids_win_over_abstracts(library: Library) -> None:
    gdpval = paper_id_with(library, GDPVAL_START)
    import_records(
        library.store,
        [richer(library, gdpval, doi="10.1234/GDPVAL", title="GDPval")], "a.bib", "bibtex"
    )
    # Same DOI (spelled differently), entirely different abstract: still the same paper.
    record = PaperRecord(abstract="Something else entirely.", title="GDPval v2",
                         doi="https://doi.org/10.1234/gdpval")
    summary = import_records(library.store, [record], "b.bib", "bibtex")
    assert summary.new == 0 and summary.retitled == 1
    assert library.store.paper(gdpval).title == "GDPval v2"  # type: ignore[union-attr]


def test_duplicates_within_one_import_collapse(empty_library: Library) -> None:
    record = PaperRecord(abstract="A long enough abstract about graphs and words. " * 3,
                         title="T", arxiv_id="2401.01234")
    again = PaperRecord(abstract="Different text.", title="T", arxiv_id="arXiv:2401.01234v3")
    summary = import_records(empty_library.store, [record, again], "x", "arxiv-kaggle")
    assert (summary.read, summary.new, summary.unchanged + summary.merged) == (2, 1, 1)
    assert empty_library.store.count() == 1


def test_a_shared_boilerplate_opening_does_not_merge(empty_library: Library) -> None:
    opening = (
        "Large language models have achieved remarkable success across a wide range of natural "
        "language processing tasks, yet their reliability remains a concern. "
    )
    first = opening + "We study calibration of confidence under distribution shift in detail."
    second = opening + "We propose a retrieval method for multilingual code search at scale."
    import_records(empty_library.store, [PaperRecord(abstract=first, title="A")], "a", "seed")
    summary = import_records(
        empty_library.store,
        [PaperRecord(abstract=second, title="B")], "b", "seed"
    )
    assert summary.new == 1
    assert empty_library.store.count() == 2


def test_the_threshold_separates_revisions_from_distinct_papers(library: Library) -> None:
    papers = list(library.store.iter_papers())
    matcher = Matcher([], [(p.id, p.abstract) for p in papers])
    gdpval = next(p for p in papers if GDPVAL_START in p.abstract)
    assert matcher.similar(revised(gdpval.abstract)) == gdpval.id
    # No sample abstract is a revision of another.
    for paper in papers[:10]:
        others = Matcher([], [(p.id, p.abstract) for p in papers if p.id != paper.id])
        assert others.similar(paper.abstract) is None
    assert 50 < MERGE_THRESHOLD < 96


def test_reimport_reports_changes_and_filters_find_them(library: Library) -> None:
    gdpval = paper_id_with(library, GDPVAL_START)
    first = richer(library, gdpval, title="GDPval", openreview_id="id1")
    import_records(library.store, [first], "list.jsonl", "openreview")
    changed = richer(library, gdpval, title="GDPval: Renamed", openreview_id="id1",
                     withdrawn=True)
    brand_new = PaperRecord(abstract="A brand new paper about quokkas.", title="Quokkas")
    summary = import_records(library.store, [changed, brand_new], "list.jsonl", "openreview")
    library.sync_index()
    assert summary.withdrawn == 1 and summary.new == 1
    assert "1 withdrawn" in summary.changes()
    assert library.search("is:new").ids == [max(library.store.all_ids())]
    assert library.search("is:changed").ids == [gdpval]
    assert library.search("is:withdrawn").ids == [gdpval]


def test_undo_removes_what_the_last_import_added_but_keeps_starred(
    library: Library, tmp_path: Path
) -> None:
    path = tmp_path / "more.txt"
    path.write_text(
        "NeurIPS 2025\n\nFirst new abstract about quokka behaviour in the wild.\n\n"
        "Second new abstract about wombat burrows and soil.\n",
        encoding="utf-8",
    )
    library.import_files([path])
    wombat = paper_id_with(library, "wombat")
    library.set_starred(wombat, True)
    result = library.imports.undo_last_import()
    assert result is not None and result.removed == 1
    assert [key for _, key in result.kept] == [library.store.paper(wombat).citekey]  # type: ignore[union-attr]
    assert library.store.count() == 39
    assert library.search("quokka").ids == []
    assert library.search("wombat").ids == [wombat]


def test_undo_passes_over_an_import_that_added_nothing(library: Library, tmp_path: Path) -> None:
    path = tmp_path / "more.txt"
    path.write_text("NeurIPS 2025\n\nAn abstract about quokka behaviour in the wild.\n",
                    encoding="utf-8")
    library.import_files([path])
    again = library.import_files([path])
    assert again.new == 0 and again.unchanged == 1
    result = library.imports.undo_last_import()
    assert result is not None and result.removed == 1  # the first import's paper
    assert library.search("quokka").ids == []


def test_dry_run_writes_nothing(empty_library: Library, tmp_path: Path) -> None:
    from tests.conftest import SEEDS

    summary = empty_library.import_files(SEEDS, dry_run=True)
    assert summary.new == 38 and summary.dry_run
    assert empty_library.store.count() == 0
    assert empty_library.store.db["imports"].count == 0


def test_abstract_key_normalises() -> None:
    assert abstract_key("A  b\nC") == abstract_key("a b c")
    assert abstract_key("   ") is None


@pytest.mark.parametrize("strict", [False, True])
def test_strict_refuses_a_file_with_bad_records(
    empty_library: Library, tmp_path: Path, strict: bool
) -> None:
    from reader.sources import ImportFormatError

    bib = tmp_path / "mixed.bib"
    bib.write_text(
        "@article{good, title={Good paper}, year={2020}, abstract={Fine.}}\n\n"
        "@article{bad, title={Broken\n\n@article{alsogood, title={Also good}, year={2021}}\n",
        encoding="utf-8",
    )
    if strict:
        with pytest.raises(ImportFormatError, match="--strict"):
            empty_library.import_files([bib], strict=True)
        assert empty_library.store.count() == 0
    else:
        summary = empty_library.import_files([bib])
        assert summary.skipped >= 1 and summary.new >= 1


SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"


def test_seed_list_then_openreview_sample_keeps_marks_and_gets_real_titles(
    empty_library: Library,
) -> None:
    sample = SHARED / "iclr2026" / "submissions-sample.jsonl.gz"
    if not sample.exists():
        pytest.skip("shared data not present")
    from tests.conftest import SEEDS

    library = empty_library
    library.imports.write_files([SEEDS[0]])
    seed_ids = library.store.all_ids()
    gdpval = paper_id_with(library, GDPVAL_START)
    library.set_starred(gdpval, True)
    library.save_note(gdpval, "grading service")
    summary = library.imports.write_files([sample])
    assert str(summary) == "3,019 read: 3,000 new, 19 merged, 0 unchanged, 0 skipped"
    assert library.store.count() == 3019
    seeds = library.store.papers(seed_ids)
    assert all(not p.title_derived and p.openreview_id for p in seeds)
    paper = library.store.paper(gdpval)
    assert paper is not None and paper.starred and paper.note == "grading service"
    assert paper.title.startswith("GDPval: Evaluating AI Model Performance")


def test_entries_without_abstract_or_ids_are_known_by_title_and_year(
    empty_library: Library,
) -> None:
    record = PaperRecord(abstract="", title="On the Electrodynamics of Moving Bodies", year=1905)
    import_records(empty_library.store, [record], "a.bib", "bibtex")
    again = import_records(empty_library.store, [record], "a.bib", "bibtex")
    assert (again.new, again.unchanged) == (0, 1)
    other_year = PaperRecord(abstract="", title=record.title, year=1906)
    assert import_records(empty_library.store, [other_year], "b.bib", "bibtex").new == 1


@pytest.mark.parametrize("stand_in", ["N/A", ".", "No abstract available.", "TBD"])
def test_papers_sharing_a_stand_in_for_an_abstract_stay_apart(
    empty_library: Library, tmp_path: Path, stand_in: str
) -> None:
    """Sources write a stand-in where a paper has no abstract: two unrelated papers with
    the same one, imported one after the other, are two papers, each as its source said."""
    first = tmp_path / "a.bib"
    first.write_text(
        "@article{alpha2020, title={Quantum Entropy Bounds}, author={Smith, Alice},"
        f" journal={{Phys Rev}}, year={{2020}}, abstract={{{stand_in}}}}}\n",
        encoding="utf-8",
    )
    second = tmp_path / "b.bib"
    second.write_text(
        "@inproceedings{beta2023, title={Deep Learning for Protein Folding},"
        " author={Jones, Bob}, booktitle={NeurIPS}, year={2023},"
        f" abstract={{{stand_in}}}}}\n",
        encoding="utf-8",
    )
    empty_library.imports.write_files([first])

    summary = empty_library.imports.write_files([second])

    assert (summary.new, summary.merged) == (1, 0)
    papers = {p.citekey: p for p in empty_library.store.iter_papers()}
    assert papers["alpha2020"].title == "Quantum Entropy Bounds"
    assert papers["alpha2020"].authors == ["Alice Smith"]
    assert papers["beta2023"].title == "Deep Learning for Protein Folding"
    assert papers["beta2023"].year == 2023


def test_the_same_stand_in_under_the_same_title_is_still_one_paper(
    empty_library: Library, tmp_path: Path
) -> None:
    entry = (
        "@article{alpha2020, title={Quantum Entropy Bounds}, author={Smith, Alice},"
        " journal={Phys Rev}, year={2020}, abstract={N/A}}\n"
    )
    (tmp_path / "a.bib").write_text(entry, encoding="utf-8")
    (tmp_path / "b.bib").write_text(entry.replace("Phys Rev", "Physical Review"), "utf-8")
    empty_library.imports.write_files([tmp_path / "a.bib"])
    summary = empty_library.imports.write_files([tmp_path / "b.bib"])
    assert summary.new == 0
    assert empty_library.store.count() == 1


def test_an_initial_with_its_stop_and_without_is_one_spelling(
    empty_library: Library, tmp_path: Path
) -> None:
    # Mendeley writes "Boisvert, C", EndNote "Boisvert, C.": neither is the fuller, and
    # each import of one after the other took the authors back ("authors in full").
    record = "TY  - JOUR\nAU  - Boisvert, {}\nTI  - Description of a dinosaur\nPY  - 2024\n"
    for name, initial in (("mendeley.ris", "C"), ("endnote.ris", "C.")):
        (tmp_path / name).write_text(record.format(initial) + "ER  - \n", encoding="utf-8")
    empty_library.import_files([tmp_path / "mendeley.ris"])
    for name in ("endnote.ris", "mendeley.ris", "endnote.ris"):
        assert empty_library.import_files([tmp_path / name]).unchanged == 1, name


def test_initials_give_way_to_the_same_names_in_full(empty_library: Library,
                                                     tmp_path: Path) -> None:
    # Scopus's RIS gives initials, its CSV the same authors in full: the paper takes the
    # full names, keeps its structured family names ("Le Scao"), and says so.
    abstract = ("We introduce LLaMA, a collection of foundation language models ranging "
                "from 7B to 65B parameters, trained on trillions of tokens.")
    ris = tmp_path / "scopus.ris"
    ris.write_text("TY  - JOUR\nAU  - Touvron, H.\nAU  - Le Scao, J.-P.\nTI  - LLaMA\n"
                   f"PY  - 2023\nAB  - {abstract}\nER  - \n", encoding="utf-8")
    table = tmp_path / "scopus.csv"
    table.write_text("Author full names,Title,Year,Abstract\n"
                     '"Touvron, Hugo (1); Le Scao, Jean-Pierre (2)",LLaMA,2023,'
                     f'"{abstract}"\n', encoding="utf-8")
    empty_library.import_files([ris])
    summary = empty_library.import_files([table])
    assert summary.merged == 1
    assert "authors in full (the library's given names were initials)" in str(summary.filled)
    [paper] = empty_library.papers(empty_library.all_ids())
    assert paper.authors == ["Hugo Touvron", "Jean-Pierre Le Scao"]
    assert paper.csl["author"][1] == {"family": "Le Scao", "given": "Jean-Pierre"}
    # The initials again change nothing; other names are no fuller spelling of these.
    assert empty_library.import_files([ris]).unchanged == 1
    table.write_text(table.read_text(encoding="utf-8").replace("Hugo", "Henri Paul"),
                     encoding="utf-8")
    assert empty_library.import_files([table]).merged == 0


def test_a_files_own_key_for_a_paper_is_said_as_a_key_not_as_a_column(
    empty_library: Library,
) -> None:
    """A file's key replacing the one the library made up was said "took citekey_origin
    from the file", the column that notes where a key came from."""
    store = empty_library.store
    abstract = "A long enough abstract about graphs and the words that name them. " * 3
    import_records(store, [PaperRecord(abstract=abstract, title="Graphs", doi="10.1/g")],
                   "a.json", "csl-json")
    summary = import_records(store, [PaperRecord(abstract=abstract, title="Graphs",
                                                 doi="10.1/g", citekey="lee2020graphs")],
                             "b.json", "csl-json")
    assert summary.merged == 1
    assert summary.aliased_keys and summary.aliased_keys[0][1] == "lee2020graphs"
    assert not any("citekey" in " ".join(said) for _, said in summary.filled), summary.filled
