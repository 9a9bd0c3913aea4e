"""Citations that print what the record means, not what a tool wrote beside it: Better
BibLaTeX's "prepublished" state of a preprint, which the preprint's citation says already,
and a paper of NeurIPS's Datasets and Benchmarks track, cited as that track's proceedings."""

from __future__ import annotations

import json
from pathlib import Path

from reader.cite.export import export
from reader.cite.formats import render
from reader.library import Library
from reader.models import Paper

BETTER_BIBLATEX = r"""@online{touvron2023llama,
  title = {{{LLaMA}}: {{Open}} and {{Efficient Foundation Language Models}}},
  author = {Touvron, Hugo and Lavril, Thibaut},
  date = {2023-02-27},
  eprint = {2302.13971},
  eprinttype = {arXiv},
  publisher = {arXiv},
  number = {arXiv:2302.13971},
  doi = {10.48550/arXiv.2302.13971},
  pubstate = {prepublished}
}
"""


def _papers(tmp_path: Path, name: str, text: str) -> dict[str, Paper]:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    library = Library(tmp_path / f"lib-{name}")
    try:
        library.imports.write_files([path])
        return {p.citekey or "": p for p in library.papers(library.all_ids())}
    finally:
        library.close()


def test_a_prepublished_preprint_is_cited_as_a_preprint_only(tmp_path: Path) -> None:
    paper = _papers(tmp_path, "bbt.bib", BETTER_BIBLATEX)["touvron2023llama"]
    apa = render([paper], "text", "apa")
    assert apa.rstrip().endswith(
        "(arXiv:2302.13971). arXiv. https://doi.org/10.48550/arXiv.2302.13971")
    for style in ("apa", "chicago-author-date", "mla", "ieee"):
        assert "republished" not in render([paper], "text", style), style
    assert "pubstate = {prepublished}" in export([paper], "biblatex")  # (kept as it came)


def _note(forum: str, title: str, venue: str, venueid: str) -> dict[str, object]:
    return {
        "id": forum, "forum": forum, "cdate": 1715731200000,
        "invitations": ["NeurIPS.cc/2024/Conference/-/Submission"],
        "content": {
            "title": {"value": title}, "authors": {"value": ["Yuki Sato", "Ana Popescu"]},
            "abstract": {"value": f"We release {title.lower()}."},
            "venue": {"value": venue}, "venueid": {"value": venueid},
        },
    }


def test_a_datasets_and_benchmarks_paper_is_cited_as_the_tracks(tmp_path: Path) -> None:
    notes = [
        _note("qQ1wW2eE3r", "A Benchmark for Code Repair",
              "NeurIPS 2024 Datasets and Benchmarks Track",
              "NeurIPS.cc/2024/Conference/Datasets_and_Benchmarks_Track"),
        _note("nAa1Bb2Cc3", "Selective Attention Sinks", "NeurIPS 2024 poster",
              "NeurIPS.cc/2024/Conference"),
    ]
    text = json.dumps({"notes": notes, "count": 2})
    papers = {p.title: p for p in _papers(tmp_path, "notes.json", text).values()}
    track, main = papers["A Benchmark for Code Repair"], papers["Selective Attention Sinks"]
    assert track.venue == "NeurIPS Datasets and Benchmarks Track" and main.venue == "NeurIPS"
    assert "NeurIPS Datasets and Benchmarks Track." in render([track], "text", "apa")
    assert ("booktitle = {Advances in Neural Information Processing Systems (NeurIPS), "
            "Datasets and Benchmarks Track}") in export([track], "bibtex")
    assert "booktitle = {Advances in Neural Information Processing Systems (NeurIPS)}" in export(
        [main], "bibtex")


def test_paperlists_names_the_track_as_openreview_does(tmp_path: Path) -> None:
    items = [{"id": "dB5nM6bV7c", "title": "WebShop-XL", "track": "Datasets & Benchmarks",
              "status": "Spotlight", "abstract": "We present a benchmark.",
              "author": "Fatima Al-Zahra"},
             {"id": "aB1cD2eF3g", "title": "Sparse Autoencoders", "track": "main",
              "status": "Oral", "abstract": "We find features.", "author": "Ken Kobayashi"}]
    papers = {p.title: p for p in _papers(
        tmp_path, "nips2024.json", json.dumps(items)).values()}
    assert papers["WebShop-XL"].venue == "NeurIPS Datasets and Benchmarks Track"
    assert papers["Sparse Autoencoders"].venue == "NeurIPS"


JOURNAL_AND_PROCEEDINGS = json.dumps([
    {"id": "a", "type": "article-journal", "title": "Mindfulness training and working memory",
     "container-title": "Psychological Bulletin", "publisher-place": "US", "volume": "147",
     "issue": "8", "page": "801-829", "author": [{"family": "Okafor", "given": "Ngozi"}],
     "issued": {"date-parts": [[2021]]}},
    {"id": "b", "type": "paper-conference", "title": "BERT: Pre-training of deep transformers",
     "container-title": "Proceedings of the 2019 Conference of the North American Chapter of "
     "the Association for Computational Linguistics, Volume 1 (Long and Short Papers)",
     "volume": "1", "page": "4171-4186", "author": [{"family": "Devlin", "given": "Jacob"}],
     "issued": {"date-parts": [[2019]]}},
])


def test_a_journal_is_cited_without_its_publishers_place(tmp_path: Path) -> None:
    [paper] = [p for p in _papers(tmp_path, "items.json", JOURNAL_AND_PROCEEDINGS).values()
               if p.title.startswith("Mindfulness")]
    assert paper.csl["publisher-place"] == "US"  # (kept: an export writes it)
    chicago = render([paper], "text", "chicago-author-date")
    assert "Psychological Bulletin 147 (8): 801–29." in chicago
    assert "Psychological Bulletin, vol. 147" in render([paper], "text", "mla")


def test_proceedings_named_by_their_volume_are_not_given_it_twice(tmp_path: Path) -> None:
    [paper] = [p for p in _papers(tmp_path, "items.json", JOURNAL_AND_PROCEEDINGS).values()
               if p.title.startswith("BERT")]
    apa = render([paper], "text", "apa")
    assert apa.rstrip().endswith("Volume 1 (Long and Short Papers), 4171–4186.")
