"""ICLR 2017's "Invite to Workshop Track" (paperlists: "Workshop"): not an acceptance to
the main conference, and not a plain rejection either: an invitation to its workshop track.
It is its own normalised decision, ``workshop`` (as is a venue "ICLR 2026 Workshop"), and the
source's own word is kept and shown beside it in the detail pane, the CLI and the JSON rows
(``decision_raw``)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from reader.cli import cli
from reader.library import Library
from reader.signals import normalize_decision
from reader.ui.app import ReaderApp
from reader.ui.widgets.paper_detail import PaperDetail
from tests.test_app import SIZE, settle
from tests.test_signals_ui import go_to, paper_of

#: Four entries of the ICLR 2017 paperlists file: two invited to the workshop track, a
#: poster and an oral.
ICLR2017 = Path(__file__).parent / "data" / "iclr2017-workshop-4.json"
WORKSHOP = "B16Jem9xe"


def test_the_invitation_to_the_workshop_is_a_decision_of_its_own() -> None:
    for raw in ("Invite to Workshop Track", "Workshop", "ICLR 2017 workshop"):
        assert normalize_decision(raw) == "workshop", raw
    assert normalize_decision("Reject") == "reject"


def test_the_raw_decision_is_kept_and_shown_in_the_cli(tmp_path: Path) -> None:
    root = tmp_path / "lib"
    runner = CliRunner()
    imported = runner.invoke(cli, ["--library", str(root), "import", str(ICLR2017)], obj={})
    assert imported.exit_code == 0, imported.output
    shown = runner.invoke(cli, ["--library", str(root), "reviews", WORKSHOP], obj={})
    assert shown.exit_code == 0, shown.output
    assert "decision workshop (Workshop)" not in shown.stdout  # said once, not twice
    assert "decision workshop" in shown.stdout
    found = runner.invoke(
        cli, ["--library", str(root), "search", "--json", "decision:workshop"], obj={}
    )
    assert found.exit_code == 0, found.output
    rows = json.loads(found.stdout)
    assert {(row["openreview_id"], row["decision"], row["decision_raw"]) for row in rows} == {
        (WORKSHOP, "workshop", "Workshop"), ("B1jnyXXJx", "workshop", "Workshop")
    }


async def test_the_detail_pane_shows_the_raw_decision(empty_library: Library) -> None:
    empty_library.import_files([ICLR2017])
    empty_library.sync_index()
    signals = empty_library.signals([paper_of(empty_library, WORKSHOP)])
    (stored,) = signals.values()
    assert (stored.decision, stored.decision_raw) == ("workshop", "Workshop")
    app = ReaderApp(empty_library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await go_to(app, pilot, paper_of(empty_library, WORKSHOP))
        text = app.query_one(PaperDetail).text
        assert "Decision   workshop" in text, text
        await go_to(app, pilot, paper_of(empty_library, "BkbY4psgg"))
        assert "Decision   oral" in app.query_one(PaperDetail).text


def test_what_a_paperlists_entry_says_beyond_the_paper_is_kept(empty_library: Library) -> None:
    """Affiliations, authors' ids, review word counts, the entry's BibTeX: kept verbatim
    under the format's name, not dropped without a word."""
    entries = json.loads(ICLR2017.read_text(encoding="utf-8"))
    empty_library.import_files([ICLR2017])
    first = entries[0]
    paper = empty_library.paper(paper_of(empty_library, first["id"]))
    assert paper is not None
    kept = paper.extra["paperlists"]
    assert kept["bibtex"] == first["bibtex"]
    for key in ("aff", "authorids", "track"):
        if first.get(key):
            assert kept[key] == first[key]
    assert "title" not in kept and "rating" not in kept
