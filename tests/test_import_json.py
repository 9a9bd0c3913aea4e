"""The JSON importers (OpenReview, paperlists, Kaggle arXiv, CSL-JSON) and their detection.

Real samples live in tests/data; the full shared files are read too when they are present.
"""

from __future__ import annotations

import copy
import gzip
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from reader.library import Library, render_citation
from reader.models import PaperRecord
from reader.sources import (
    ImportFormatError,
    ParseResult,
    arxiv_kaggle,
    csljson,
    openreview,
    paperlists,
)
from reader.sources.jsonsniff import detect_json_format

DATA = Path(__file__).parent / "data"
SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"

Parser = Callable[[str, str], ParseResult]
PARSERS: dict[str, Parser] = {
    "openreview": openreview.parse,
    "paperlists": paperlists.parse,
    "arxiv-kaggle": arxiv_kaggle.parse,
    "csljson": csljson.parse,
}
ALL_PARSERS = pytest.mark.parametrize("parse", list(PARSERS.values()), ids=list(PARSERS))


def read(name: str) -> str:
    """A sample from tests/data."""
    return (DATA / name).read_text(encoding="utf-8")


def shared(relative: str) -> str:
    """A shared data file (gunzipped), or skip the test when the checkout has none."""
    path = SHARED / relative
    if not path.exists():
        pytest.skip(f"shared data {relative} not present")
    if path.suffix == ".gz":
        return gzip.decompress(path.read_bytes()).decode("utf-8")
    return path.read_text(encoding="utf-8")


def by_id(records: list[PaperRecord], **match: Any) -> PaperRecord:
    """The one record whose attributes equal ``match``."""
    found = [r for r in records if all(getattr(r, k) == v for k, v in match.items())]
    assert len(found) == 1, match
    return found[0]


def assert_clean(records: list[PaperRecord]) -> None:
    """Every record has a title and no control or zero-width characters in its text."""
    for record in records:
        assert record.title and record.title == " ".join(record.title.split())
        for text in (record.title, record.abstract, *record.authors, *record.keywords):
            assert not any(ch in text for ch in "\x02\u200b\u200c\u200d\ufeff\r"), text
        assert record.abstract == record.abstract.strip()


# --- OpenReview -----------------------------------------------------------------------------


def test_openreview_sample_records() -> None:
    result = openreview.parse(read("openreview-40.jsonl"), "openreview-40.jsonl")
    assert (len(result.records), result.problems) == (40, [])
    assert sum(r.withdrawn for r in result.records) == 6
    assert_clean(result.records)
    first = result.records[0]
    assert first.title == "Language Models Do Not Have Human-Like Working Memory"
    assert first.openreview_id == "SOxO7e6ySB"
    assert first.url == "https://openreview.net/forum?id=SOxO7e6ySB"
    assert (first.venue, first.year, first.date) == ("ICLR", 2026, "2025-09-01")
    assert first.keywords == ["Large Language Model", "Working Memory"]
    assert first.primary_area == "alignment, fairness, safety, privacy, and societal considerations"
    assert first.source == "openreview-40.jsonl:1"
    assert first.authors == [] and first.tldr is None and not first.title_derived
    # The abstract keeps its line break between paragraphs.
    assert "from external context.\nAcross seventeen frontier models" in first.abstract
    withdrawn = by_id(result.records, openreview_id="UhwbIblavX")
    assert withdrawn.withdrawn and withdrawn.source == "openreview-40.jsonl:11"
    tldr = by_id(result.records, openreview_id="EXFKk4Y3yc").tldr
    assert tldr and tldr.startswith("We recast the LLM softmax as an Energy-Based Model")


def test_openreview_control_characters_are_removed() -> None:
    result = openreview.parse(read("openreview-40.jsonl"), "openreview-40.jsonl")
    heart = by_id(result.records, openreview_id="vsqQ1Gnf0V")
    # U+0002 stood in the middle of a word copied from a PDF ("dy\x02namically").
    assert "to dynamically refine clinical decisions" in heart.abstract
    assert heart.source == "openreview-40.jsonl:40"


def test_openreview_v1_array_by_hand() -> None:
    result = openreview.parse(read("openreview-v1-array.json"), "v1.json")
    assert result.problems == ["v1.json:28: record 'B1xFxh0cKX' has no title or abstract; skipped"]
    schedule, flowlib = result.records
    assert schedule.title == "Learning to Schedule Communication"
    assert schedule.abstract == (
        "We study when agents should talk.\n\nSecond paragraph with $\\alpha$ and **bold**."
    )
    assert schedule.authors == ["Daewoo Kim", "Sangwoo Moon", "Jürgen Schmidhuber"]
    assert schedule.keywords == ["multi-agent", "communication"]
    assert schedule.tldr == "Agents learn a schedule for talking."
    assert (schedule.venue, schedule.year, schedule.date) == ("ICLR", 2019, "2018-09-27")
    assert schedule.source == "v1.json#1"
    assert flowlib.title_derived and flowlib.title.startswith("FlowLib: a library")
    assert flowlib.authors == ["Ada Lovelace", "Alan Turing"]
    assert flowlib.keywords == ["flows", "libraries"]


def _v2_note(**content: Any) -> dict[str, Any]:
    return {
        "id": "AbCdEf1234",
        "cdate": 1727740800000,  # 2024-10-01
        "content": {key: {"value": value} for key, value in content.items()},
    }


def test_openreview_v2_values_and_venue_spellings() -> None:
    notes = [
        _v2_note(
            title="A v2 title",
            abstract="Text.",
            authors=["Grace Hopper"],
            keywords=["compilers"],
            TLDR="Short.",
            venue="Submitted to ICLR 2026",
            venueid="ICLR.cc/2026/Conference/Submission",
        ),
        _v2_note(title="Poster", abstract="x", venue="ICLR 2026 Poster"),
        _v2_note(title="Journal", abstract="x", venue="TMLR"),
        _v2_note(title="Only an id", abstract="x", venueid="NeurIPS.cc/2025/Conference"),
        _v2_note(title="Withdrawn", abstract="x", venueid="ICLR.cc/2025/Withdrawn_Submission"),
    ]
    result = openreview.parse(json.dumps(notes), "v2.json")
    assert result.problems == []
    first, poster, journal, only_id, withdrawn = result.records
    assert (first.title, first.authors, first.keywords, first.tldr) == (
        "A v2 title",
        ["Grace Hopper"],
        ["compilers"],
        "Short.",
    )
    assert (first.venue, first.year, first.date) == ("ICLR", 2026, "2024-10-01")
    assert (poster.venue, poster.year) == ("ICLR", 2026)
    assert (journal.venue, journal.year) == ("TMLR", 2024)  # the year from cdate
    assert (only_id.venue, only_id.year) == ("NeurIPS", 2025)
    assert withdrawn.withdrawn and not first.withdrawn


def test_openreview_api_response_and_pretty_single_note() -> None:
    note = _v2_note(title="T", abstract="A")
    response = json.dumps({"notes": [note, note], "count": 2}, indent=2)
    result = openreview.parse(response, "api.json")
    assert [r.source for r in result.records] == ["api.json#1", "api.json#2"]
    single = openreview.parse(json.dumps(note, indent=2), "one.json")
    assert [r.title for r in single.records] == ["T"]


def test_openreview_full_shared_sample() -> None:
    result = openreview.parse(shared("iclr2026/submissions-sample.jsonl.gz"), "s.jsonl")
    assert (len(result.records), result.problems) == (3019, [])
    assert sum(r.withdrawn for r in result.records) == 394
    assert {(r.venue, r.year) for r in result.records} == {("ICLR", 2026)}
    assert_clean(result.records)
    assert len({r.openreview_id for r in result.records}) == 3019


# --- paperlists -----------------------------------------------------------------------------


def test_paperlists_colm_slice() -> None:
    result = paperlists.parse(read("colm2025-15.json"), "colm2025-15.json")
    assert (len(result.records), result.problems) == (15, [])
    assert_clean(result.records)
    first = result.records[0]
    assert first.title == "BEARCUBS: A benchmark for computer-using web agents"
    assert first.authors[:2] == ["Yixiao Song", "Katherine Thai"] and len(first.authors) == 6
    assert first.keywords == ["computer-use agent", "benchmark", "multimodal"]
    assert (first.venue, first.year, first.kind) == ("COLM", 2025, "inproceedings")
    assert first.openreview_id == "0JzWiigkUy"
    assert first.url == "https://openreview.net/forum?id=0JzWiigkUy"
    assert first.source == "colm2025-15.json#1"
    assert "Alexandre Piché" in {a for r in result.records for a in r.authors}


def test_paperlists_iclr2017_slice_skips_the_placeholder() -> None:
    result = paperlists.parse(read("iclr2017-20.json"), "iclr2017-20.json")
    assert len(result.records) == 19
    assert result.problems == [
        "iclr2017-20.json:470: record 'SJUdkecgx' has no title or abstract; skipped"
    ]
    assert {(r.venue, r.year) for r in result.records} == {("ICLR", 2017)}
    assert "Mickaël Chen" in {a for r in result.records for a in r.authors}
    actor = result.records[0]
    assert actor.title == "An Actor-Critic Algorithm for Sequence Prediction"
    assert actor.authors[-1] == "Yoshua Bengio" and actor.kind == "inproceedings"
    assert actor.openreview_id == "SJDaqqveg"
    assert (
        actor.tldr
        == "Adapting Actor-Critic methods from reinforcement learning to structured prediction"
    )


def test_paperlists_schema_drift_and_placeholders() -> None:
    entries = [
        # Older schema: "authors", ratings as a list, venue named by "conference".
        {"id": "x1", "title": "Old", "abstract": "A.", "authors": "Ann Bo;Cy Dee",
         "rating": [5, 6], "conference": "NeurIPS 2021", "keywords": "a; b;;a"},
        {"id": "x2", "title": "Gone", "abstract": "B.", "status": "Withdraw", "rating": 4.5},
        {"id": "x3", "title": "", "abstract": "", "status": "Withdrawn"},
        {"id": "x4", "title": " ", "abstract": "An abstract, no title.", "status": "Poster"},
        {"id": "x5", "title": "CVPR paper", "abstract": "C.",
         "site": "https://openaccess.thecvf.com/content/CVPR2023/html/X_CVPR_2023_paper.html"},
    ]  # fmt: skip
    text = json.dumps(entries, indent=1)
    lines = text.split("\n")
    # Each object opens on the line before its "id": the 0-based index of the "id" line is
    # the 1-based number of the line that opens the object.
    x3, x4 = (lines.index(f'  "id": "{i}",') for i in ("x3", "x4"))
    result = paperlists.parse(text, "icml2024.json")
    assert result.problems == [
        f"icml2024.json:{x3}: record 'x3' has no title or abstract; skipped",
        f"icml2024.json:{x4}: record 'x4' is a placeholder without a title; skipped",
    ]
    old, gone, cvpr = result.records
    assert old.authors == ["Ann Bo", "Cy Dee"] and old.keywords == ["a", "b"]
    assert (old.venue, old.year) == ("NeurIPS", 2021)
    assert gone.withdrawn and (gone.venue, gone.year) == ("ICML", 2024)  # from the file name
    assert (cvpr.venue, cvpr.year) == ("CVPR", 2023)
    assert cvpr.url and cvpr.openreview_id is None
    unnamed = paperlists.parse(json.dumps(entries[:1]), "list.json").records[0]
    assert (unnamed.venue, unnamed.year) == ("NeurIPS", 2021)


def test_paperlists_names_joined_with_commas_are_several_authors() -> None:
    """One of ICLR 2017's lists joins its two names with a comma, not ";"; a name with a
    comma of its own (a suffix) stays one."""
    entries = [
        {"id": "c1", "title": "Two", "abstract": "A.", "author": "Martín Abadi, David G. Andersen"},
        {"id": "c2", "title": "One", "abstract": "B.", "author": "Martin Luther King, Jr."},
    ]  # fmt: skip
    two, one = paperlists.parse(json.dumps(entries), "iclr2017.json").records
    assert two.authors == ["Martín Abadi", "David G. Andersen"]
    assert one.authors == ["Martin Luther King, Jr."]


@pytest.mark.parametrize(
    ("name", "count", "problems"), [("colm2025.json", 418, 0), ("iclr2017.json", 490 - 1, 1)]
)
def test_paperlists_full_shared_files(name: str, count: int, problems: int) -> None:
    result = paperlists.parse(shared(f"paperlists/{name}"), name)
    assert (len(result.records), len(result.problems)) == (count, problems)
    assert_clean(result.records)
    venue = "COLM" if name.startswith("colm") else "ICLR"
    assert {(r.venue, r.year) for r in result.records} == {(venue, int(name[-9:-5]))}


# --- arXiv (Kaggle snapshot) ----------------------------------------------------------------


def test_arxiv_sample_records() -> None:
    result = arxiv_kaggle.parse(read("arxiv-kaggle-30.jsonl"), "arxiv.jsonl")
    assert (len(result.records), result.problems) == (30, [])
    assert_clean(result.records)
    first = result.records[0]
    assert first.title == (
        "Calculation of prompt diphoton production cross sections at Tevatron and LHC energies"
    )
    assert first.authors == ["C. Balázs", "E. L. Berger", "P. M. Nadolsky", "C.-P. Yuan"]
    assert (first.date, first.year, first.venue, first.kind) == (
        "2007-04-02",
        2007,
        "arXiv",
        "article",
    )
    assert first.doi == "10.1103/PhysRevD.76.013009"  # as written; compared in lower case
    assert (first.arxiv_id, first.url) == ("0704.0001", "https://arxiv.org/abs/0704.0001")
    assert first.keywords == ["hep-ph"] and first.source == "arxiv.jsonl:1"
    assert "\n" not in first.abstract  # hard line breaks are joined
    second = result.records[1]
    assert second.keywords == ["math.CO", "cs.CG"] and second.doi is None
    assert by_id(result.records, arxiv_id="0704.0028").authors == ["Péter E. Frenkel"]
    cubes = by_id(result.records, arxiv_id="0704.0010")
    # An indented line starts a paragraph; the LaTeX stays for display time.
    assert cubes.abstract.count("\n\n") == 1 and "Djokovi\\'{c}'s" in cubes.abstract
    assert sum(1 for r in result.records if r.doi) == 15


def test_arxiv_tex_names_suffixes_and_fallbacks() -> None:
    entries = [
        {"id": "0704.0001", "title": "Waves", "abstract": "  x",
         "authors_parsed": [["Schr\\\"odinger", "Erwin", ""], ["Evans", "Neal J.", "II"],
                            ["{\\O}bro", "Mikkel", "", "Aarhus"]]},
        {"id": "hep-th/9901001v2", "title": "Old id", "abstract": "y",
         "authors": "Franz G\\\"ahler (Institut f\\\"ur Physik) and Tom\\'a\\v{s} Vina\\v{r},"
                    " et al",
         "versions": "not a list"},
    ]  # fmt: skip
    text = "\n".join(json.dumps(e) for e in entries)
    waves, old = arxiv_kaggle.parse(text, "a.jsonl").records
    assert waves.authors == ["Erwin Schrödinger", "Neal J. Evans II", "Mikkel Øbro"]
    assert (waves.date, waves.year) == ("2007-04", 2007)  # from the id: April 2007
    assert old.authors == ["Franz Gähler", "Tomáš Vinař"]
    assert (old.arxiv_id, old.date, old.year) == ("hep-th/9901001", "1999-01", 1999)


def test_arxiv_full_shared_file() -> None:
    result = arxiv_kaggle.parse(shared("arxiv/kaggle-snapshot-first200.jsonl"), "k.jsonl")
    assert (len(result.records), result.problems) == (200, [])
    assert_clean(result.records)
    assert by_id(result.records, arxiv_id="0704.0062").authors == [
        "Rastislav Šrámek",
        "Broňa Brejová",
        "Tomáš Vinař",
    ]
    assert by_id(result.records, arxiv_id="0704.0049").authors == ["Mikkel Øbro"]
    assert sum(1 for r in result.records if r.doi) == 117


# --- CSL-JSON -------------------------------------------------------------------------------


def test_csljson_file() -> None:
    result = csljson.parse(read("items-26.csl.json"), "items.json")
    assert (len(result.records), result.problems) == (26, [])
    assert_clean(result.records)
    first = result.records[0]
    assert first.title.startswith("Perceptions of disability and their impact")
    assert (first.authors, first.venue, first.year, first.date) == (
        ["Ian Brittain"],
        "Journal of Sport and Social Issues",
        2004,
        "2004",
    )
    # The DOI field holds a short DOI (10/fqd6hj); the doi.org URL gives the full one.
    assert first.doi == "10.1177/0193723504268729"
    assert (first.kind, first.source, first.abstract) == ("article-journal", "items.json#1", "")
    assert result.records[2].date == "2016-06-01"
    assert result.records[2].authors == ["Kieran Cody", "Steven J. Jackson"]
    court = result.records[3]
    assert court.authors == ["Court of Arbitration for Sport"] and court.kind == "webpage"
    # Two short DOIs have no doi.org URL: they are the papers' DOIs as written.
    assert sum(1 for r in result.records if r.doi) == 15
    if (SHARED / "csljson/items-26.csl.json").exists():
        full = csljson.parse(shared("csljson/items-26.csl.json"), "items.json")
        assert full == result


def test_csljson_single_object_and_variants() -> None:
    item = {
        "id": 7,
        "type": "paper-conference",
        "title": "A\n  paper",
        "author": [
            {"given": "Ludwig", "non-dropping-particle": "van", "family": "Beethoven"},
            {"literal": "The Team"},
            "Plain Name",
        ],
        "issued": {"raw": "2020-05-01"},
        "container-title": ["Proceedings of Something"],
        "DOI": "https://doi.org/10.1000/XYZ.",
        "URL": "https://arxiv.org/abs/2001.01234v3",
        "keyword": "alpha, beta;gamma",
        "abstract": "We show things.",
    }
    (record,) = csljson.parse(json.dumps(item, indent=2), "one.json").records
    assert record.title == "A paper"
    assert record.authors == ["Ludwig van Beethoven", "The Team", "Plain Name"]
    assert (record.date, record.year, record.venue) == (
        "2020-05-01",
        2020,
        "Proceedings of Something",
    )
    assert (record.doi, record.arxiv_id) == ("10.1000/xyz", "2001.01234")
    assert record.keywords == ["alpha", "beta", "gamma"] and record.kind == "paper-conference"
    literal = dict(item, issued={"literal": "Spring 2019"}, title="")
    (derived,) = csljson.parse(json.dumps([literal]), "l.json").records
    assert (derived.year, derived.date) == (2019, "2019")
    assert derived.title_derived and derived.title == "We show things"


# --- detection ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("openreview-40.jsonl", "openreview"),
        ("openreview-v1-array.json", "openreview"),
        ("colm2025-15.json", "paperlists"),
        ("iclr2017-20.json", "paperlists"),
        ("arxiv-kaggle-30.jsonl", "arxiv-kaggle"),
        ("items-26.csl.json", "csljson"),
    ],
)
def test_detect_samples(name: str, expected: str) -> None:
    assert detect_json_format(read(name)) == expected


@pytest.mark.parametrize(
    ("relative", "expected"),
    [
        ("iclr2026/submissions-sample.jsonl.gz", "openreview"),
        ("paperlists/colm2025.json", "paperlists"),
        ("paperlists/iclr2017.json", "paperlists"),
        ("arxiv/kaggle-snapshot-first200.jsonl", "arxiv-kaggle"),
        ("csljson/items-26.csl.json", "csljson"),
    ],
)
def test_detect_shared_files(relative: str, expected: str) -> None:
    assert detect_json_format(shared(relative)) == expected


def test_detect_variations() -> None:
    note = json.loads(read("openreview-40.jsonl").split("\n", 1)[0])
    assert detect_json_format(json.dumps([note], indent=2)) == "openreview"
    assert detect_json_format(json.dumps({"notes": [note]})) == "openreview"
    assert detect_json_format(json.dumps(_v2_note(title="t"))) == "openreview"
    csl = json.loads(read("items-26.csl.json"))[0]
    assert detect_json_format(json.dumps(csl, indent=2)) == "csljson"
    assert detect_json_format("\ufeff" + json.dumps([csl])) == "csljson"
    minimal = {"id": "k", "type": "article-journal", "title": "T"}
    assert detect_json_format(json.dumps(minimal)) == "csljson"
    arxiv_line = read("arxiv-kaggle-30.jsonl").split("\n", 1)[0]
    # Only the first line is parsed: garbage after it does not matter.
    assert detect_json_format(arxiv_line + "\n{not json at all") == "arxiv-kaggle"
    for text in ("", "[]", "42", '"s"', '{"foo": 1}', "[1, 2]", "{oops", "TY  - JOUR", "@article{"):
        assert detect_json_format(text) is None, text
    assert detect_json_format("[" * 10_000 + "]" * 10_000) is None
    assert detect_json_format('{"a":' * 10_000 + "1" + "}" * 10_000) is None


# --- errors ---------------------------------------------------------------------------------


@ALL_PARSERS
def test_not_json_at_all(parse: Parser) -> None:
    with pytest.raises(ImportFormatError, match=r"^bad\.json: the file is empty$"):
        parse(" \n\t", "bad.json")
    with pytest.raises(ImportFormatError, match=r"^bad\.json:4:1: not valid JSON"):
        parse('[\n {"id": "a"},\n {"id":\n]', "bad.json")
    with pytest.raises(ImportFormatError, match=r"^bad\.json:2:1: not valid JSON"):
        parse('{"id": "a",\n', "bad.json")
    with pytest.raises(ImportFormatError, match=r"^bad\.json:1:12: unexpected data after"):
        parse('[{"a": 1}] [', "bad.json")
    with pytest.raises(ImportFormatError, match=r"^bad\.json:1:2: unreadable JSON value"):
        parse("[" + "9" * 5000 + "]", "bad.json")


@ALL_PARSERS
@pytest.mark.parametrize(
    ("text", "what"),
    [("42", "a number"), ('"text"', "a string"), ("null", "null"), ("[1, 2]", "a number")],
)
def test_wrong_top_level_type(parse: Parser, text: str, what: str) -> None:
    with pytest.raises(ImportFormatError, match=f"^top.json: .*{what}"):
        parse(text, "top.json")


@ALL_PARSERS
def test_deep_nesting_is_a_format_error(parse: Parser) -> None:
    for text in (
        "[" * 10_000 + "]" * 10_000,
        '{"a":' * 10_000 + "1" + "}" * 10_000,
        '[{"title": ' + "[" * 10_000 + "]" * 10_000 + "}]",
    ):
        with pytest.raises(ImportFormatError, match="nested too deeply"):
            parse(text, "deep.json")


@ALL_PARSERS
def test_bad_records_are_problems_not_errors(parse: Parser) -> None:
    good = {"id": "AbCdEf12", "title": "Kept", "content": {"title": "Kept"}}
    one = json.dumps(good)
    result = parse(f"[\n{one},\n3,\nnull,\n{one}\n]", "mix.json")
    assert [r.source for r in result.records] == ["mix.json#1", "mix.json#4"]
    assert result.problems == [
        "mix.json:3: record #2 is a number, not an object; skipped",
        "mix.json:4: record #3 is null, not an object; skipped",
    ]
    lines = "\n".join([json.dumps(good), "{broken", "", "[1]", '{"a":' * 5000 + "}" * 5000])
    result = parse(lines, "mix.jsonl")
    assert [r.source for r in result.records] == ["mix.jsonl:1"]
    assert result.problems == [
        "mix.jsonl:2: not valid JSON (column 2: Expecting property name enclosed in double "
        "quotes); line skipped",
        "mix.jsonl:4: record #3 is an array, not an object; skipped",
        "mix.jsonl:5: JSON nested too deeply; line skipped",
    ]


def test_windows_line_endings_bom_and_broken_surrogates() -> None:
    sample = read("openreview-40.jsonl")
    crlf = openreview.parse("\ufeff" + sample.replace("\n", "\r\n"), "crlf.jsonl")
    assert crlf == openreview.parse(sample, "crlf.jsonl")
    note = '{"id": "AbCdEf12", "content": {"title": "Half \\ud800 pair", "abstract": "x"}}'
    (record,) = openreview.parse(note, "s.jsonl").records
    assert record.title == "Half \ufffd pair"


def test_a_failing_record_costs_only_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    def fail_on_second(record: Any) -> Any:
        if record.position == 2:
            raise KeyError("boom")
        return PaperRecord(abstract="", title="ok")

    monkeypatch.setattr(openreview, "_convert", fail_on_second)
    result = openreview.parse('{"id": "a"}\n{"id": "b"}\n{"id": "c"}\n', "x.jsonl")
    assert [r.title for r in result.records] == ["ok", "ok"]
    assert result.problems == [
        "x.jsonl:2: record 'b' could not be read (unexpected data: KeyError); skipped"
    ]


# --- robustness -----------------------------------------------------------------------------

_JUNK: list[Any] = [
    None, True, 0, -1, 2**70, 1e308, "", " ", "x", "\x00\u200b", [], {}, [1, "a"],
    {"value": 3}, {"value": {"value": []}}, [[[[]]]], {"a": {"b": [None]}}, "ICLR 2026", "2020",
]  # fmt: skip


def _mutate(value: Any, rng: random.Random) -> Any:
    """A random damage to one JSON record: a key deleted or retyped, a string cut short."""
    target = value
    # Walk a little way into nested objects and lists, where most of the fields are.
    for _ in range(rng.randrange(3)):
        children = list(target.values()) if isinstance(target, dict) else target
        containers = [c for c in children if isinstance(c, dict | list) and c]
        if not isinstance(target, dict | list) or not containers:
            break
        target = rng.choice(containers)
    if isinstance(target, dict) and target:
        key = rng.choice(list(target))
        action = rng.randrange(3)
        if action == 0:
            del target[key]
        elif action == 1:
            target[key] = copy.deepcopy(rng.choice(_JUNK))
        elif isinstance(target[key], str):
            target[key] = target[key][: rng.randrange(len(target[key]) + 1)]
        else:
            target[key] = [target[key]]
    elif isinstance(target, list) and target:
        index = rng.randrange(len(target))
        target[index] = copy.deepcopy(rng.choice(_JUNK))
    return value


_SAMPLES = {
    "openreview": "openreview-40.jsonl",
    "paperlists": "iclr2017-20.json",
    "arxiv-kaggle": "arxiv-kaggle-30.jsonl",
    "csljson": "items-26.csl.json",
}


@pytest.mark.parametrize("fmt", list(_SAMPLES))
def test_mutated_real_records_never_crash(fmt: str) -> None:
    text = read(_SAMPLES[fmt])
    if text.lstrip().startswith("["):
        originals = json.loads(text)
    else:
        originals = [json.loads(line) for line in text.splitlines() if line.strip()]
    rng = random.Random(20_260_101)
    parse = PARSERS[fmt]
    outcomes = {"records": 0, "errors": 0}
    for case in range(300):
        records = [copy.deepcopy(rng.choice(originals)) for _ in range(rng.randint(1, 3))]
        for record in records:
            for _ in range(rng.randint(1, 6)):
                _mutate(record, rng)
        if rng.random() < 0.15:
            records.append(rng.choice(_JUNK))
        if case % 2:
            dumped = "\n".join(json.dumps(r) for r in records)
        else:
            dumped = json.dumps(records, indent=1)
        if rng.random() < 0.2:
            dumped = dumped[: rng.randrange(len(dumped) + 1)]  # a download cut short
        try:
            result = parse(dumped, "fuzz.json")
        except ImportFormatError as exc:
            assert str(exc).startswith("fuzz.json")
            outcomes["errors"] += 1
            continue
        assert isinstance(result, ParseResult)
        # The per-record safety net is for the unforeseen: the fuzzer must not reach it.
        assert not [p for p in result.problems if "unexpected data" in p]
        for record in result.records:
            assert isinstance(record, PaperRecord)
            assert isinstance(record.title, str) and record.title
            assert isinstance(record.abstract, str)
            assert all(isinstance(a, str) and a for a in record.authors)
            assert all(isinstance(k, str) and k for k in record.keywords)
            assert record.year is None or isinstance(record.year, int)
        outcomes["records"] += len(result.records)
    assert outcomes["records"] > 150 and outcomes["errors"] > 0


def test_a_paper_withdrawn_from_arxiv_is_withdrawn_and_cited_as_the_preprint(
    empty_library: Library, tmp_path: Path
) -> None:
    line = {
        "id": "2101.00001", "authors": "Wei Li and Hong Zhang", "title": "An Example",
        "comments": None, "categories": "cs.LG", "abstract": "  Withdrawn.\n",
        "versions": [{"version": "v1", "created": "Fri, 1 Jan 2021 00:00:00 GMT"}],
    }
    commented = {**line, "id": "1805.04833", "abstract": "Withdrawn patients are studied.",
                 "comments": "This paper has been withdrawn by the author due to an error"}
    mentioned = {**line, "id": "1805.04834", "abstract": "We study things.",
                 "comments": "12 pages; the withdrawn version 1 had an error"}
    text = "\n".join(json.dumps(x) for x in (line, commented, mentioned)) + "\n"
    records = arxiv_kaggle.parse(text, "kaggle.jsonl").records
    assert [r.withdrawn for r in records] == [True, True, False]
    path = tmp_path / "kaggle.jsonl"
    path.write_text(text, encoding="utf-8")
    empty_library.import_files([path])
    paper = empty_library.resolve("2101.00001").paper
    assert paper is not None
    apa = render_citation([paper], "text", "apa")
    assert "(arXiv:2101.00001). arXiv." in apa and "(Withdrawn)" in apa


def test_a_paperlists_file_naming_one_paper_twice_gives_one_paper(
    empty_library: Library, tmp_path: Path
) -> None:
    # The second copy has fewer fields, as list makers' merges leave them; the open-access
    # link is OpenReview's forum, so the paper meets its reviews by id.
    full = {"id": "Qw34ErTyUi", "title": "Kernel Ridge Regression with Learned Features",
            "status": "Poster", "tldr": "KRR on learned features is competitive.",
            "abstract": "We revisit kernel ridge regression on top of pretrained features.",
            "author": "Sofia Rossi", "aff": "ETH Zurich", "rating": "6;5;6",
            "oa": "https://openreview.net/forum?id=Qw34ErTyUi"}
    short = {k: full[k] for k in ("id", "title", "status", "abstract", "author", "rating")}
    other = {"id": "Zx12", "title": "Another Paper", "abstract": "Something else entirely.",
             "author": "Ann Lee", "status": "Oral"}
    path = tmp_path / "icml2024.json"
    path.write_text(json.dumps([full, other, short]), encoding="utf-8")
    summary = empty_library.import_files([path])
    assert (summary.new, summary.unchanged + summary.merged) == (2, 1)
    assert "1 paper named twice in the file, read as one" in summary.text_line()
    [paper_id] = empty_library.search("kernel").ids
    paper = empty_library.paper(paper_id)
    assert paper is not None and paper.openreview_id == "Qw34ErTyUi"
    assert paper.tldr == "KRR on learned features is competitive."


def test_a_wrapped_list_names_its_authors_in_an_author_list(
    empty_library: Library, tmp_path: Path
) -> None:
    # Authors under "author_list", as objects with a name or as one string: not dropped.
    path = tmp_path / "results.json"
    path.write_text(json.dumps({"meta": {"n": 2}, "results": [
        {"title": "Graph transformers for molecules", "year": 2023,
         "author_list": [{"name": "Chen Li"}, {"name": "Maria Rossi"}]},
        {"title": "Diffusion for protein design", "year": 2024,
         "author_list": "Ana Souza, Bo Zhang"},
    ]}), encoding="utf-8")
    empty_library.import_files([path])
    papers = empty_library.papers(empty_library.all_ids())
    assert sorted(p.authors[0] for p in papers) == ["Ana Souza", "Chen Li"]
