"""A submission is cited as what its decision made it: turned down, it is no paper of the
venue (OpenReview's own entry for it is a @misc); invited to the workshop track, it appeared
there. Each export of such a paper, imported again, changes nothing."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from reader.cli import cli

SAMPLE = Path(__file__).parent / "data" / "openreview-replies-3.jsonl"
REF = "DkHt2K1g2Y"


def _invoke(root: Path, *args: str) -> Result:
    result = CliRunner().invoke(cli, ["--library", str(root), *args], obj={})
    assert result.exit_code == 0, result.output
    return result


def _decide(root: Path, decision: str, raw: str) -> None:
    conn = sqlite3.connect(root / "library.sqlite")
    with conn:
        conn.execute(
            "UPDATE paper_signals SET decision = ?, decision_raw = ? WHERE paper_id = "
            "(SELECT id FROM papers WHERE openreview_id = ?)", (decision, raw, REF),
        )
    conn.close()


@pytest.fixture
def lib(tmp_path: Path) -> Path:
    """The three sample submissions (pending and withdrawn) of ICLR 2026."""
    root = tmp_path / "lib"
    _invoke(root, "import", str(SAMPLE))
    return root


@pytest.mark.parametrize("decision", ["reject", "desk-rejected"])
def test_a_rejected_submission_is_cited_as_no_paper_of_the_venue(
    lib: Path, decision: str
) -> None:
    _decide(lib, decision, "Reject")
    bibtex = _invoke(lib, "cite", "--format", "bibtex", REF).stdout
    assert bibtex.startswith("@misc{") and "booktitle" not in bibtex, bibtex
    assert "openreview.net/forum?id=DkHt2K1g2Y" in bibtex
    [item] = json.loads(_invoke(lib, "cite", "--format", "csljson", REF).stdout)
    assert item["type"] == "manuscript" and "container-title" not in item
    assert item["event-title"] == "ICLR"  # where it was submitted, for a reader of the item
    for style in ("apa", "ieee", "mla", "chicago-author-date"):
        shown = _invoke(lib, "cite", "--format", "text", "--style", style, REF).stdout
        assert "ICLR" not in shown and "Learning Representations" not in shown, (style, shown)
    ris = _invoke(lib, "export", "--format", "ris", "-q", REF).stdout
    assert "TY  - UNPB" in ris and "T2  -" not in ris, ris


def test_a_workshop_track_paper_is_cited_in_the_workshop_track(lib: Path) -> None:
    _decide(lib, "workshop", "Invite to Workshop Track")
    bibtex = _invoke(lib, "cite", "--format", "bibtex", REF).stdout
    assert ("booktitle = {International Conference on Learning Representations (ICLR), "
            "Workshop Track}") in bibtex, bibtex
    shown = _invoke(lib, "cite", "--format", "text", "--style", "apa", REF).stdout
    assert "ICLR, Workshop Track" in shown, shown


@pytest.mark.parametrize("fmt", ["bibtex", "biblatex", "csljson", "ris", "csv", "json"])
def test_each_export_of_decided_submissions_reads_back_unchanged(
    lib: Path, tmp_path: Path, fmt: str
) -> None:
    """Our own export, imported again: nothing merged (the biblatex export of an OpenReview
    paper came back "merged", its date field and @online type taken as news)."""
    _decide(lib, "reject", "Reject")
    out = tmp_path / f"all.{fmt}"
    _invoke(lib, "export", "--format", fmt, "-o", str(out))
    summary = _invoke(lib, "import", str(out)).stdout
    assert "0 new, 0 merged, 3 unchanged" in summary, summary
    shown = _invoke(lib, "cite", "--format", "text", "--style", "apa", REF).stdout
    assert "ICLR" not in shown, shown


def test_biblatex_type_keys_are_printed_as_words(tmp_path: Path) -> None:
    """biblatex's ``type = {mathesis}`` is a key biblatex prints as "Master's thesis": a
    style printed "[Mathesis]". The key itself goes back out as it came."""
    bib = tmp_path / "theses.bib"
    bib.write_text(
        "@thesis{lee2021, title = {Small Models}, author = {Lee, Ann},\n"
        "  institution = {ETH}, type = {mathesis}, date = {2021}}\n"
        "@report{ray2018, title = {Numbers}, author = {Ray, Bob}, institution = {CERN},\n"
        "  type = {techreport}, number = {TH-1}, date = {2018}}\n", encoding="utf-8")
    root = tmp_path / "lib"
    _invoke(root, "import", str(bib))
    thesis = _invoke(root, "cite", "--format", "text", "--style", "apa", "lee2021").stdout
    assert "[Master's thesis]" in thesis, thesis
    report = _invoke(root, "cite", "--format", "text", "--style", "chicago-author-date",
                     "ray2018").stdout
    assert "Technical report TH-1" in report or "Technical Report TH-1" in report, report
    assert "type = {mathesis}" in _invoke(root, "cite", "--format", "biblatex", "lee2021").stdout


@pytest.mark.parametrize("fmt", ["ris", "csljson", "bibtex"])
def test_the_arxiv_id_of_a_paper_found_on_openreview_survives_an_export(
    lib: Path, tmp_path: Path, fmt: str
) -> None:
    """A paper's link is its OpenReview forum; its arXiv id went with no export but BibTeX's
    (RIS writes it as a second link, CSL-JSON in ``custom``)."""
    conn = sqlite3.connect(lib / "library.sqlite")
    with conn:
        conn.execute("UPDATE papers SET arxiv_id = '2510.01234' WHERE openreview_id = ?", (REF,))
    conn.close()
    out = tmp_path / f"one.{fmt}"
    _invoke(lib, "export", "--format", fmt, "-o", str(out))
    assert "0 merged, 3 unchanged" in _invoke(lib, "import", str(out)).stdout
    other = tmp_path / "other"
    _invoke(other, "import", str(out))
    conn = sqlite3.connect(other / "library.sqlite")
    row = conn.execute("SELECT arxiv_id, url, extra FROM papers WHERE openreview_id = ?",
                       (REF,)).fetchone()
    conn.close()
    assert row[:2] == ("2510.01234", f"https://openreview.net/forum?id={REF}")
    assert "arxiv.org" not in row[2]  # the link is the id, not a source field kept besides


def test_a_copied_citation_names_no_local_file_but_an_export_keeps_it(tmp_path: Path) -> None:
    """JabRef's ``file`` field is a path on the user's machine: a citation (``y``,
    ``reader cite``) leaves it out; an export of the library writes it back."""
    bib = tmp_path / "jabref.bib"
    bib.write_text("@article{lee2021, title = {Small Models}, author = {Lee, Ann},\n"
                   "  journal = {J}, year = {2021}, file = {:/home/ann/papers/lee.pdf:PDF}}\n",
                   encoding="utf-8")
    root = tmp_path / "lib"
    _invoke(root, "import", str(bib))
    for fmt in ("bibtex", "biblatex", "csljson"):
        assert "lee.pdf" not in _invoke(root, "cite", "--format", fmt, "lee2021").stdout
    assert "file = {:/home/ann/papers/lee.pdf:PDF}" in _invoke(
        root, "export", "--format", "bibtex").stdout


@pytest.mark.parametrize("style", ["mla", "harvard-cite-them-right", "nature",
                                   "association-for-computing-machinery", "apa"])
def test_no_style_cites_a_withdrawn_or_pending_submission_as_published(
    lib: Path, style: str
) -> None:
    """Styles that print no status (MLA, Harvard, Nature, ACM) cited a withdrawn or pending
    submission as a paper of ICLR: withdrawn, it names no venue; pending, it was
    "Submitted to ICLR", as OpenReview's own entries say."""
    conn = sqlite3.connect(lib / "library.sqlite")
    withdrawn = conn.execute("SELECT citekey FROM papers WHERE withdrawn = 1").fetchone()[0]
    conn.close()
    shown = _invoke(lib, "cite", "--format", "text", "--style", style, withdrawn).stdout
    assert "ICLR" not in shown, (style, shown)
    pending = _invoke(lib, "cite", "--format", "text", "--style", style, REF).stdout
    assert "Submitted to ICLR" in pending, (style, pending)
    bibtex = _invoke(lib, "cite", "--format", "bibtex", withdrawn).stdout
    assert bibtex.startswith("@misc{") and "booktitle" not in bibtex, bibtex


def test_classic_bibtex_of_a_biblatex_source_uses_classic_names(tmp_path: Path) -> None:
    """A biblatex entry cited as classic BibTeX: `journaltitle` (which classic styles do not
    print: the journal went missing), @thesis and `type = {mathesis}` became classic
    BibTeX's journal, @mastersthesis and "Master's thesis"; as biblatex, as it came."""
    root = tmp_path / "lib"
    _invoke(root, "import", str(Path(__file__).parent / "data" / "biblatex-source.bib"))
    article = _invoke(root, "cite", "--format", "bibtex", "velickovic2023graph").stdout
    assert "journal = {Journal of Graphs}" in article and "address = {London}" in article
    thesis = _invoke(root, "cite", "--format", "bibtex", "lee2021").stdout
    assert thesis.startswith("@mastersthesis{") and "school = {ETH}" in thesis, thesis
    assert "type = {Master's thesis}" in thesis
    biblatex = _invoke(root, "cite", "--format", "biblatex", "lee2021").stdout
    assert biblatex.startswith("@thesis{") and "type = {mathesis}" in biblatex
    for fmt in ("bibtex", "biblatex"):
        out = tmp_path / f"again.{fmt}"
        _invoke(root, "export", "--format", fmt, "-o", str(out))
        assert "0 merged, 2 unchanged" in _invoke(root, "import", str(out)).stdout


def test_a_missing_file_among_several_says_none_was_imported(tmp_path: Path) -> None:
    """Every file is opened before any is written: one missing stops them all, which the
    error did not say."""
    root = tmp_path / "lib"
    result = CliRunner().invoke(
        cli, ["--library", str(root), "import", str(SAMPLE), str(tmp_path / "missing.bib")],
        obj={})
    assert result.exit_code == 1
    assert "none of the 2 files named was imported" in result.output


def test_a_zotero_item_uri_is_no_citation_key(tmp_path: Path) -> None:
    """Zotero's CSL-JSON ids are its items' URIs: one became the paper's key."""
    item = {"id": "http://zotero.org/users/1/items/IJKL9012", "type": "article-journal",
            "title": "Zotero Id Paper", "author": [{"family": "Ng", "given": "Lo"}],
            "issued": {"date-parts": [[2019]]}}
    path = tmp_path / "zotero.json"
    path.write_text(json.dumps([item]), encoding="utf-8")
    root = tmp_path / "lib"
    _invoke(root, "import", str(path))
    assert _invoke(root, "cite", "--format", "key", "zotero").stdout.strip() == "ng2019zotero"


def test_an_export_counts_every_paper_with_replies_as_losing_them(
    lib: Path, tmp_path: Path
) -> None:
    """A paper whose only reply is its withdrawal (or a decision) has replies no export
    writes: "replies (2 papers)" undercounted them."""
    conn = sqlite3.connect(lib / "library.sqlite")
    with conn:
        conn.execute("DELETE FROM replies WHERE kind != 'Withdrawal' AND paper_id = "
                      "(SELECT id FROM papers WHERE withdrawn = 1)")
    conn.close()
    said = _invoke(lib, "export", "--format", "json", "-o", str(tmp_path / "all.json")).stderr
    assert "replies (3 papers)" in said, said


@pytest.mark.parametrize("fmt", ["bibtex", "biblatex"])
def test_a_submission_under_review_is_one_again_after_a_bibtex_round_trip(
    lib: Path, tmp_path: Path, fmt: str
) -> None:
    """Read into another library, the export's "Under review" made no decision, and the
    submission was cited as a paper of ICLR; the venue the export spelled out came back
    spelled out ("Submitted to International Conference on …"), not as the library held it."""
    out = tmp_path / f"all.{fmt}"
    _invoke(lib, "export", "--format", fmt, "-o", str(out))
    other = tmp_path / "other"
    _invoke(other, "import", str(out))
    cite = ("cite", "--format", "text", "--style", "mla", "reasoning2026")
    cited = _invoke(other, *cite).stdout
    assert "Submitted to ICLR" in cited, cited
    assert cited == _invoke(lib, *cite).stdout


def test_an_export_names_the_dates_it_cannot_give_back(lib: Path, tmp_path: Path) -> None:
    """An OpenReview paper's date is its submission's, the year before the conference's:
    BibTeX says the paper's year, and the date came back as it, unnamed. RIS (a DA marked
    as a submission's) and CSL-JSON (its submitted date) give it back."""
    said = _invoke(lib, "export", "--format", "bibtex", "-o", str(tmp_path / "a.bib")).stderr
    assert "dates (3)" in said, said
    dates = {p["citekey"]: p["date"] for p in _shown(lib)}
    assert all(d.startswith("2025-") for d in dates.values()), dates
    for fmt in ("ris", "csljson", "json"):
        out = tmp_path / f"a.{fmt}"
        said = _invoke(lib, "export", "--format", fmt, "-o", str(out)).stderr
        assert "dates" not in said, (fmt, said)
        other = tmp_path / f"other-{fmt}"
        _invoke(other, "import", str(out))
        assert {p["citekey"]: p["date"] for p in _shown(other)} == dates, fmt
        # Still cited as the conference's year, not as a day of 2025.
        for key in dates:
            cited = _invoke(
                other, "cite", "--format", "text", "--style", "chicago-author-date", key
            ).stdout
            assert "2025" not in cited, cited


def _shown(root: Path) -> list[dict[str, Any]]:
    keys = [r["citekey"] for r in json.loads(_invoke(root, "search", "*", "--json").stdout)]
    return [json.loads(_invoke(root, "show", "--json", key).stdout) for key in keys]


@pytest.mark.parametrize("style,said", [
    ("ieee", "Assessment,” submitted to ICLR, 2026"),
    ("nature", "Assessment. Submitted to ICLR (2026)."),
])
def test_a_submission_under_review_is_submitted_to_the_venue_not_in_it(
    lib: Path, style: str, said: str
) -> None:
    cited = _invoke(lib, "cite", "--format", "text", "--style", style, REF).stdout
    assert said in cited and "in Submitted" not in cited, cited


@pytest.mark.parametrize("fmt", ["bibtex", "biblatex", "csljson", "ris"])
def test_an_accepted_papers_decision_comes_back_in_a_fresh_library(
    lib: Path, tmp_path: Path, fmt: str
) -> None:
    """An accepted paper has no publication state to go out as: read into another library,
    it had no decision, and ``decision:poster`` found none of those it found before."""
    _decide(lib, "poster", "Accept (Poster)")
    out = tmp_path / f"all.{fmt}"
    said = _invoke(lib, "export", "--format", fmt, "-o", str(out)).stderr
    fresh = tmp_path / "fresh"
    _invoke(fresh, "import", "--format", "bibtex" if fmt == "biblatex" else fmt, str(out))
    found = _invoke(fresh, "search", "decision:poster", "--json").stdout
    assert [p["openreview_id"] for p in json.loads(found)] == [REF], said
    assert (_invoke(fresh, "cite", "--format", "text", "--style", "apa", REF).stdout
            == _invoke(lib, "cite", "--format", "text", "--style", "apa", REF).stdout)
    assert "0 new, 0 merged, 3 unchanged" in _invoke(lib, "import", str(out)).stdout
