"""The command line, run through click's runner on a real library."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from reader.cite.keys import citekey_base
from reader.cli import cli
from tests.conftest import SEEDS


@pytest.fixture
def run(tmp_path: Path):
    runner = CliRunner()
    lib = tmp_path / "clilib"

    def invoke(*args: str, ok: bool = True):
        result = runner.invoke(cli, ["--library", str(lib), *args], obj={})
        if ok:
            assert result.exit_code == 0, result.output
        else:
            assert result.exit_code != 0, result.output
        return result

    return invoke


def test_import_prints_a_summary_and_reimport_adds_nothing(run) -> None:
    # stdout alone: a slow machine adds a progress bar on stderr after a second.
    first = run("import", *map(str, SEEDS)).stdout.strip()
    assert first == "38 read: 38 new, 0 merged, 0 unchanged, 0 skipped"
    again = run("import", str(SEEDS[0])).stdout.strip().splitlines()
    assert again[0] == "19 read: 0 new, 0 merged, 19 unchanged, 0 skipped"
    assert again[1].startswith("Since the import of iclr2026-abstracts-1.txt on ")
    assert again[1].endswith(": nothing.")


def test_search_json(run) -> None:
    run("import", *map(str, SEEDS))
    hits = json.loads(run("search", "gdpval", "--json").output)
    assert hits[0]["title"].startswith("GDPval")
    assert {"id", "title", "title_derived", "venue", "year", "starred", "score"} <= set(hits[0])
    assert hits[0]["venue"] == "ICLR" and hits[0]["year"] == 2026
    assert len(json.loads(run("search", "model", "--json", "--limit", "3").output)) == 3


def test_a_query_may_start_with_a_minus(run) -> None:
    """`reader search -is:starred` (a README example) is a query, not an unknown option."""
    run("import", *map(str, SEEDS))
    run("star", "gdpval2026")
    hits = json.loads(run("search", "-is:starred", "--json", "--limit", "50").output)
    assert len(hits) == 37 and "gdpval2026" not in {h["citekey"] for h in hits}


def test_search_counts_and_refuses_an_option_it_does_not_know(run) -> None:
    """`--count` prints the number of matches; a mistyped option after the query is an
    error, never a word of the query (which would answer "No papers match")."""
    run("import", *map(str, SEEDS))
    assert run("search", "-is:starred", "--count").stdout.strip() == "38"
    none = run("search", "zyzzyva", "--count", ok=False)
    assert none.exit_code == 1 and none.stdout.strip() == "0"
    wrong = run("search", "-is:starred", "--cuont", ok=False)
    assert wrong.exit_code == 2 and "No such option: --cuont (did you mean --count?)" in (
        wrong.output)


def test_search_exits_1_when_nothing_matches_like_grep(run) -> None:
    run("import", *map(str, SEEDS))
    assert run("search", "gdpval").exit_code == 0
    missing = run("search", "zyzzyva", ok=False)
    assert missing.exit_code == 1 and "No papers match." in missing.output
    as_json = run("search", "zyzzyva", "--json", ok=False)
    assert as_json.exit_code == 1 and json.loads(as_json.stdout) == []


def test_search_suggests_the_word_a_typo_meant(run) -> None:
    run("import", *map(str, SEEDS))
    result = run("search", "machine", "unlearnign", ok=False)
    assert result.exit_code == 1
    assert "Did you mean: machine unlearning" in result.stderr
    assert "Did you mean" not in run("search", "zyzzyva", ok=False).stderr


def test_search_says_when_it_searched_a_broken_query_as_words(run) -> None:
    run("import", *map(str, SEEDS))
    result = run("search", '"optimal transport')
    assert "searched its words instead" in result.stderr
    assert "Entropic Optimal Transport" in result.stdout
    assert "searched its words" not in run("search", '"optimal transport"').stderr


def test_star_note_stats_and_cite(run) -> None:
    run("import", *map(str, SEEDS))
    run("star", "gdpval")
    run("note", "gdpval", "--text", "great benchmark")
    stats = json.loads(run("stats", "--json").output)
    assert stats == {"papers": 38, "starred": 1, "with_notes": 1}
    starred = json.loads(run("search", "is:starred", "--json").output)
    assert [h["title"][:6] for h in starred] == ["GDPval"]
    bib = run("cite", "gdpval2026").output
    assert bib.startswith("@inproceedings{gdpval2026,")
    run("unstar", "gdpval2026")
    assert json.loads(run("stats", "--json").output)["starred"] == 0


def test_several_keys_act_on_each_paper_and_words_stay_one_query(run) -> None:
    run("import", *map(str, SEEDS))
    starred = run("star", "gdpval2026", "sc2026").output.splitlines()
    assert [line.split()[3] for line in starred] == ["gdpval2026", "sc2026"]
    assert json.loads(run("stats", "--json").output)["starred"] == 2
    shown = json.loads(run("show", "--json", "gdpval2026", "sc2026").output)
    assert [p["citekey"] for p in shown] == ["gdpval2026", "sc2026"]
    run("unstar", "gdpval2026", "sc2026")
    assert json.loads(run("stats", "--json").output)["starred"] == 0
    # The words of a query name one paper, as before; a command of one paper says so.
    assert run("show", "gdpval", "benchmark").output.startswith("GDPval")
    one = run("note", "gdpval2026", "sc2026", "--text", "x", ok=False).output
    assert "names 2 papers" in one and "takes one" in one
    # Its usage says one paper, not REF... (several, as star's).
    for command in ("note", "reviews", "highlights", "revisions"):
        usage = run(command, "--help").output.splitlines()[0]
        assert usage.endswith(f" {command} [OPTIONS] PAPER"), usage
    # One key mistyped among them: that word is named, not the words as a query.
    typo = run("star", "gdpval2026", "sc2062", ok=False).output
    assert "no paper has the id or key 'sc2062'" in typo
    assert json.loads(run("stats", "--json").output)["starred"] == 0
    # A star asked for twice, or taken from a paper without one, says nothing changed.
    run("star", "gdpval2026")
    assert run("star", "gdpval2026").output.startswith("Already starred: ")
    assert run("unstar", "sc2026").output.startswith("Not starred: ")


def test_a_tables_date_added_is_shown_as_written_not_taken_for_a_date(
    run, tmp_path: Path
) -> None:
    table = tmp_path / "zotero.csv"
    table.write_text('Title,Author,Date Added\nA Paper Only Added,"Smith, John",'
                     "2024-03-15 09:12:00\n", encoding="utf-8")
    run("import", str(table))
    shown = run("show", "smithpaper").output
    assert "file cells Date Added: 2024-03-15 09:12:00" in shown
    whole = json.loads(run("show", "--json", "smithpaper").output)
    assert whole["date"] is None and "accessed" not in whole["csl"]


def test_ambiguous_and_missing_references_fail_clearly(run) -> None:
    run("import", *map(str, SEEDS))
    many = run("star", "model", ok=False)
    assert "several papers" in many.output
    none = run("star", "xyzzyplugh", ok=False)
    assert "no paper matches" in none.output
    assert "Traceback" not in many.output + none.output


def test_import_errors_are_one_line(run, tmp_path: Path) -> None:
    result = run("import", str(tmp_path / "nope.txt"), ok=False)
    assert "cannot read" in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_an_import_that_brings_nothing_in_exits_1(run, tmp_path: Path) -> None:
    """Every record read was skipped (one paragraph too long to be an abstract): the summary
    is printed and the status is 1, not 0 as for an import done; beside a paper that comes
    in, the same skipped record leaves the status 0."""
    long = tmp_path / "long.txt"
    long.write_text("ICLR 2026 list\n\n" + "word " * 30_000 + "\n", encoding="utf-8")
    nothing = run("import", str(long), ok=False)
    assert nothing.exit_code == 1
    assert nothing.stdout.strip() == (
        "1 read: 0 new, 0 merged, 0 unchanged, 1 skipped (see --verbose)"
    )
    some = run("import", str(long), str(SEEDS[0]))
    assert some.stdout.startswith("20 read: 19 new, 0 merged, 0 unchanged, 1 skipped")


def test_reader_home_chooses_the_library(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("READER_HOME", str(tmp_path / "home"))
    result = CliRunner().invoke(cli, ["import", str(SEEDS[0])], obj={})
    assert result.exit_code == 0, result.output
    assert (tmp_path / "home" / "library.sqlite").exists()


def test_library_option_after_the_subcommand(tmp_path: Path) -> None:
    lib = tmp_path / "after"
    result = CliRunner().invoke(cli, ["import", str(SEEDS[0]), "--library", str(lib)], obj={})
    assert result.exit_code == 0, result.output
    assert (lib / "library.sqlite").exists()


def test_note_append_and_replace_says_what_it_replaced(run) -> None:
    run("import", *map(str, SEEDS))
    run("note", "gdpval2026", "--text", "first thought")
    run("note", "gdpval2026", "--text", "second thought", "--append")
    hits = json.loads(run("search", "has:notes", "--json").output)
    assert len(hits) == 1
    replaced = run("note", "gdpval2026", "--text", "fresh")
    assert "first thought\n\nsecond thought" in replaced.output


def test_cite_ends_with_a_newline_and_search_says_when_it_cuts(run) -> None:
    run("import", *map(str, SEEDS))
    assert run("cite", "gdpval2026").output.endswith("}\n")
    result = run("search", "model", "--limit", "2")
    assert "Showing 2 of" in result.output


def test_star_confirms_the_new_state(run) -> None:
    run("import", *map(str, SEEDS))
    assert "★" in run("star", "gdpval2026").output
    assert "★" not in run("unstar", "gdpval2026").output


def test_cite_in_styles_and_formats(run) -> None:
    run("import", *map(str, SEEDS))
    apa = run("cite", "gdpval2026", "--format", "text", "--style", "apa").output
    assert "GDPval" in apa and "2026" in apa and "None" not in apa
    keys = run("cite", "gdpval2026", "sc2026", "--format", "pandoc").output.strip()
    assert keys == "[@gdpval2026; @sc2026]"
    bad = run("cite", "gdpval2026", "--format", "text", "--style", "no-such-style", ok=False)
    assert "no-such-style" in bad.output
    # A style alone is a bibliography in it; with another format, an error, not BibTeX.
    assert run("cite", "gdpval2026", "--style", "apa").output == apa
    assert run("cite", "gdpval2026").output.startswith("@inproceedings{gdpval2026,")
    mixed = run("cite", "gdpval2026", "--format", "bibtex", "--style", "mla", ok=False)
    assert "--format bibtex has none" in mixed.output


def test_cite_copy_without_a_clipboard_writes_the_file(run, tmp_path: Path) -> None:
    run("import", *map(str, SEEDS))
    result = run("cite", "gdpval2026", "--copy")
    # Said on stderr: `--copy > refs.bib` wrote the status line into the file.
    assert "clipboard.txt" in result.stderr and result.stdout == ""
    assert (tmp_path / "clilib" / "clipboard.txt").read_text().startswith("@inproceedings")


def test_export_and_notes_export(run, tmp_path: Path) -> None:
    run("import", *map(str, SEEDS))
    run("star", "gdpval2026")
    run("note", "gdpval2026", "--text", "A note.")
    out = tmp_path / "starred.json"
    run("export", "--starred", "-o", str(out))
    data = json.loads(out.read_text(encoding="utf-8"))
    assert [p["citekey"] for p in data] == ["gdpval2026"] and data[0]["note"] == "A note."
    bib = run("export", "--query", "benchmark").output
    assert bib.count("@inproceedings{") > 5
    # A query that matches nothing says so, and writes nothing (not an empty file).
    none = tmp_path / "none.bib"
    nothing = run("export", "--query", "quokkazzz", "-o", str(none), ok=False)
    assert "no paper matches 'quokkazzz'; nothing exported" in nothing.output
    assert not none.exists()
    # A query not searched as written (a misspelt filter, an OR beside a filter) exports
    # nothing: the file would hold other papers than those asked for.
    for query in ("is:stared", "is:bogus benchmark", "is:starred OR benchmark"):
        odd = tmp_path / "odd.bib"
        refused = run("export", "--query", query, "-o", str(odd), ok=False)
        assert "nothing exported" in refused.output and not odd.exists(), query
    assert "Ignored unknown filter is:stared" in run(
        "export", "--query", "is:stared", ok=False).output
    notes_dir = tmp_path / "notes"
    first = run("notes", "export", str(notes_dir)).output
    assert first.startswith("1 written")
    assert (notes_dir / "gdpval2026.md").read_text(encoding="utf-8").count("A note.") == 1


def test_rekey_keeps_notes_and_marks(run) -> None:
    run("import", *map(str, SEEDS))
    run("star", "gdpval2026")
    run("note", "gdpval2026", "--text", "kept")
    assert "gdpval2026 is now patwardhan2025gdpval" in run(
        "rekey", "gdpval2026", "patwardhan2025gdpval").output
    hit = json.loads(run("search", "has:notes", "--json").output)[0]
    assert hit["citekey"] == "patwardhan2025gdpval" and hit["starred"]
    assert "already belongs" in run("rekey", "sc2026", "patwardhan2025gdpval", ok=False).output
    assert "not a usable" in run("rekey", "sc2026", "bad key{", ok=False).output


def test_a_command_runs_with_the_collector_on(tmp_path: Path) -> None:
    """The entry point turns the collector off while the modules are imported (it made a
    quarter of the reader's start); a command turns it on again before it runs."""
    import gc
    import subprocess
    import sys

    script = (
        "import gc, sys\n"
        "from reader.entry import main\n"
        "sys.argv = ['reader', '--library', sys.argv[1], 'stats']\n"
        "try:\n"
        "    main()\n"
        "except SystemExit:\n"
        "    pass\n"
        "print('collector on' if gc.isenabled() else 'collector off')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path / "lib")],
        capture_output=True, text=True, timeout=60,
    )
    assert "collector on" in done.stdout, done.stdout + done.stderr
    assert gc.isenabled()


def test_a_papers_whole_title_names_it_among_others_its_words_find(run, tmp_path: Path) -> None:
    bib = tmp_path / "dl.bib"
    bib.write_text(
        "@article{lecun2015deep, title = {Deep Learning}, author = {LeCun, Yann}, year = 2015}\n"
        "@article{a1, title = {Deep Learning for Cats}, author = {Doe, Jane}, year = 2020}\n"
        "@article{a2, title = {Learning Deep Things}, author = {Roe, Jim}, year = 2021}\n",
        encoding="utf-8",
    )
    run("import", str(bib))
    assert run("show", "deep", "learning").output.startswith("Deep Learning\n")
    assert "matches several papers" in run("show", "deep", ok=False).output
    # A field with its value left out named every paper that has one.
    assert "'key:' names no key" in run("show", "key:", ok=False).output


def test_a_number_that_is_one_papers_id_and_anothers_key_is_refused(run, tmp_path: Path) -> None:
    """A BibTeX file's ``@article{2,`` and the library's paper 2: `reader cite 2` gave the
    paper of id 2 without a word; an empty reference found every paper."""
    bib = tmp_path / "numbers.bib"
    bib.write_text("@article{x9, title = {First}, author = {Poe, Edgar}, year = {2022}}\n"
                   "@article{1, title = {Keyed one}, author = {Roe, Rick}, year = {2021}}\n")
    run("import", str(bib))
    refused = run("cite", "1", ok=False)
    assert "'1' is the id of one paper and the citation key of another" in refused.stderr
    assert "key:x9" in refused.stderr and "key:1" in refused.stderr
    assert run("cite", "key:1").stdout.startswith("@article{1,")
    assert run("cite", "x9").stdout.startswith("@article{x9,")
    assert "no paper named" in run("show", "", ok=False).stderr


def test_a_generated_key_is_never_digits_alone() -> None:
    assert citekey_base("[1] arXiv:2401.00001", [], None) == "paper1"
    assert citekey_base("1984 revisited", [], 2020) == "paper19842020"
