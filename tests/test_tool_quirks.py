"""What one tool or database means by a field another means otherwise: PubMed's preprint,
Zotero's blog post and dataset version, Better BibTeX's annotation, Web of Science's open
page range. Each is read as the tool means it, and cited so."""

from __future__ import annotations

import json
from pathlib import Path

from reader.cite.formats import render
from reader.library import Library
from reader.models import Paper

STYLES = ("apa", "chicago-author-date", "mla", "ieee", "nature")

PUBMED_PREPRINT = """PMID- 38000002
STAT- Publisher
DP  - 2023 Oct 12
TI  - Scaling laws for clinical foundation models.
LID - 10.1101/2023.10.11.23296800 [doi]
AB  - We study how clinical foundation models scale.
FAU - Zhou, Mei
AU  - Zhou M
PT  - Preprint
TA  - medRxiv
JT  - medRxiv : the preprint server for health sciences
"""


def papers(tmp_path: Path, name: str, text: str) -> list[Paper]:
    """The papers a file of ``text`` named ``name`` imports as, in a new library."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    library = Library(tmp_path / "library")
    library.imports.write_files([path])
    found = library.papers(library.all_ids())
    library.close()
    return found


def test_a_pubmed_preprint_is_cited_as_a_preprint(tmp_path: Path) -> None:
    (paper,) = papers(tmp_path, "pubmed.nbib", PUBMED_PREPRINT)
    assert paper.csl["type"] == "article"
    assert paper.csl["publisher"] == "medRxiv"
    apa = render([paper], "text", "apa")
    assert "Preprint Server" not in apa and "In medRxiv" not in apa
    assert apa.count("medRxiv") == 1
    nature = render([paper], "text", "nature")
    assert nature.count("10.1101/2023.10.11.23296800") == 1, nature


ZOTERO_RIS = """TY  - DATA
TI  - Common Voice: A Massively-Multilingual Speech Corpus
AU  - Ardila, Rosana
DA  - 2020///
PY  - 2020
PB  - Mozilla
ET  - 17.0
Y2  - 2024/06/12/09:15:00
ER  - 

TY  - BLOG
TI  - The Illustrated Transformer
AU  - Alammar, Jay
T2  - Jay Alammar's blog
DA  - 2018/06/27/
PY  - 2018
UR  - https://jalammar.github.io/illustrated-transformer/
ER  - 
"""


def test_zotero_s_blog_post_and_dataset_version(tmp_path: Path) -> None:
    found = {p.csl["type"]: p for p in papers(tmp_path, "zotero.ris", ZOTERO_RIS)}
    assert set(found) == {"dataset", "post-weblog"}
    dataset = found["dataset"]
    assert dataset.csl["version"] == "17.0" and "edition" not in dataset.csl
    assert "(Version 17.0) [Dataset]" in render([dataset], "text", "apa")
    apa = render([found["post-weblog"]], "text", "apa")
    assert "(2018, June 27)" in apa and "In Jay" not in apa


BBT = """@comment{Exported by Better BibTeX for Zotero}

@misc{karpathy2015unreasonable,
  title = {The {{Unreasonable Effectiveness}} of {{Recurrent Neural Networks}}},
  author = {Karpathy, Andrej},
  year = {2015},
  journal = {Andrej Karpathy blog},
  howpublished = {\\url{https://karpathy.github.io/2015/05/21/rnn-effectiveness/}},
  annotation = {Classic blog post; char-rnn.}
}

@article{hochreiter1997long,
  title = {Long {{Short-Term Memory}}},
  author = {Hochreiter, Sepp and Schmidhuber, J{\\"u}rgen},
  year = {1997},
  journal = {Neural Computation},
  annotation = {PMID: 9377276}
}
"""


def test_better_bibtex_annotation_and_blog_post(tmp_path: Path) -> None:
    path = tmp_path / "zotero.bib"
    path.write_text(BBT, encoding="utf-8")
    library = Library(tmp_path / "library")
    try:
        library.imports.write_files([path])
        found = {p.citekey: p for p in library.store.iter_papers()}
        lstm, blog = found["hochreiter1997long"], found["karpathy2015unreasonable"]
        assert lstm.csl["PMID"] == "9377276" and not lstm.note
        assert blog.note == "Classic blog post; char-rnn."
        assert library.search("char-rnn").ids == [blog.id]  # a note is searched
        assert blog.csl["type"] == "post-weblog"
        assert "In Andrej" not in render([blog], "text", "apa")
    finally:
        library.close()


WOS = """FN Clarivate Analytics Web of Science
VR 1.0
PT J
AU Garcia-Lopez, M
TI Deteccion automatica de noticias falsas
SO PROCESAMIENTO DEL LENGUAJE NATURAL
PY 2021
VL 67
UT WOS:000698765400010
ER

PT C
AU Radford, A
TI Learning Transferable Visual Models From Natural Language Supervision
SO INTERNATIONAL CONFERENCE ON MACHINE LEARNING, VOL 139
PU JMLR-JOURNAL MACHINE LEARNING RESEARCH
PY 2021
VL 139
UT WOS:000683104608020
ER

PT J
AU Obermeyer, Z
TI Dissecting racial bias in an algorithm
SO SCIENCE
PY 2019
VL 366
BP 447
EP +
PM 31649194
UT WOS:000493400400047
ER

EF
"""


def test_web_of_science_pages_pmid_and_names_in_capitals(tmp_path: Path) -> None:
    found = {p.title.split()[0]: p for p in papers(tmp_path, "wos.txt", WOS)}
    bias = found["Dissecting"]
    assert (bias.csl["page"], bias.csl["PMID"]) == ("447", "31649194")
    for style in STYLES:
        assert "+" not in render([bias], "text", style), style
    assert found["Deteccion"].venue == "Procesamiento del Lenguaje Natural"
    clip = found["Learning"]
    assert clip.venue == "International Conference on Machine Learning"
    assert clip.csl["publisher"] == "JMLR-Journal Machine Learning Research"
    assert render([clip], "text", "apa").count("139") == 1


CITAVI = """TY  - CONF
AU  - Meier, Lukas
TI  - Effizientes Fine-Tuning mit LoRA für deutsche Rechtstexte
PY  - 2024
T2  - Proceedings der KONVENS 2024
CY  - Wien
SP  - 201
EP  - 210
ER  - 
"""


def test_a_venue_s_minor_words_in_another_language_stay_in_lower_case(tmp_path: Path) -> None:
    (paper,) = papers(tmp_path, "citavi.ris", CITAVI)
    for style in STYLES:
        text = render([paper], "text", style)
        assert "Proceedings der KONVENS 2024" in text, style


def _kaggle_line(arxiv_id: str, journal_ref: str) -> str:
    return json.dumps({
        "id": arxiv_id, "submitter": "A. Author", "authors": "A. Author",
        "title": f"Paper {arxiv_id}", "abstract": "An abstract.", "journal-ref": journal_ref,
        "versions": [{"version": "v1", "created": "Mon, 2 Apr 2007 19:18:42 GMT"}],
    })


def test_the_kaggle_warning_names_a_journal_ref_only_when_not_read(tmp_path: Path) -> None:
    read = tmp_path / "read.jsonl"
    read.write_text(_kaggle_line("0704.0001", "Ann. Probab. 35 (2007) 1124-1150") + "\n"
                    + _kaggle_line("0704.0002", "") + "\n", encoding="utf-8")
    unread = tmp_path / "unread.jsonl"
    unread.write_text(_kaggle_line(
        "0704.0003", "to appear in the proceedings of a workshop held somewhere in the spring "
        "of the year after the one before") + "\n", encoding="utf-8")
    library = Library(tmp_path / "library")
    try:
        summary = library.imports.write_files([read, unread])
        said = {w.split(":")[0]: w for w in summary.warnings}
        assert "submitter and versions have no field" in said["read.jsonl"]
        assert "journal-ref" in said["unread.jsonl"]
        cited = [p for p in library.store.iter_papers() if p.arxiv_id == "0704.0001"]
        assert "Ann. Probab., 35, 1124–1150" in render(cited, "text", "apa")
    finally:
        library.close()


ACCEPTED = (
    "paper_id,title,authors,track,decision,openreview_url,ratings,arxiv\n"
    '7001,Toolformer: Language Models Can Teach Themselves to Use Tools,"Timo Schick, Jane'
    ' Dwivedi-Yu",Main,Oral,https://openreview.net/forum?id=Yacmpz84TH,"7, 8, 8, 6",'
    "2302.04761\n"
)


def test_an_accepted_papers_table_takes_its_conference_from_its_file_name(
    tmp_path: Path,
) -> None:
    (paper,) = papers(tmp_path, "neurips2023-accepted.csv", ACCEPTED)
    assert (paper.venue, paper.year, paper.decision) == ("NeurIPS", 2023, "oral")
    assert paper.citekey == "schick2023toolformer"
    assert "(n.d.)" not in render([paper], "text", "apa")


def test_a_table_named_for_no_conference_gets_no_venue(tmp_path: Path) -> None:
    (paper,) = papers(tmp_path, "reading-list-2023.csv", ACCEPTED)
    assert (paper.venue, paper.year) == (None, None)


HF_ROWS = json.dumps({
    "features": [{"feature_idx": 0, "name": "title", "type": {"dtype": "string"}}],
    "rows": [
        {"row_idx": 0, "row": {"title": "Mamba: Linear-Time Sequence Modeling",
                               "abstract": "Foundation models.", "authors": ["Albert Gu"],
                               "year": 2023, "arxiv_id": "2312.00752"},
         "truncated_cells": []},
        {"row_idx": 1, "row": {"title": "RWKV: Reinventing RNNs",
                               "abstract": "Transformers.", "authors": ["Bo Peng"],
                               "year": 2023, "arxiv_id": "2305.13048"},
         "truncated_cells": []},
    ],
    "num_rows_total": 2, "partial": False,
})


def test_the_hugging_face_datasets_server_rows_are_papers(tmp_path: Path) -> None:
    found = {p.title: p for p in papers(tmp_path, "rows.json", HF_ROWS)}
    assert set(found) == {"Mamba: Linear-Time Sequence Modeling", "RWKV: Reinventing RNNs"}
    mamba = found["Mamba: Linear-Time Sequence Modeling"]
    assert (mamba.authors, mamba.year, mamba.arxiv_id) == (["Albert Gu"], 2023, "2312.00752")
