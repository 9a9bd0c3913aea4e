"""A paper's arXiv preprint and its published version in one reference manager's export:
one paper, cited as published whichever came first, its arXiv id kept as its arXiv id, its
text the newer of the two; from Zotero's JSON and its CSV alike."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from reader.cite.formats import render
from reader.library import Library
from reader.models import Paper

_AUTHORS = [{"creatorType": "author", "firstName": "Edward J.", "lastName": "Hu"},
            {"creatorType": "author", "firstName": "Yelong", "lastName": "Shen"}]
CONFERENCE = {
    "itemType": "conferencePaper", "title": "LoRA: Low-Rank Adaptation of Large Language Models",
    "creators": _AUTHORS, "date": "2022-04-25", "citationKey": "hu2022lora",
    "abstractNote": "We propose Low-Rank Adaptation, or LoRA, which freezes the pretrained "
                    "model weights and injects trainable rank decomposition matrices.",
    "proceedingsTitle": "International Conference on Learning Representations",
    "conferenceName": "ICLR 2022", "url": "https://openreview.net/forum?id=nZeVKeeFYf9",
    "extra": "arXiv: 2106.09685", "dateModified": "2022-05-02T10:00:00Z",
}
PREPRINT = {
    "itemType": "preprint", "title": CONFERENCE["title"], "creators": _AUTHORS,
    "date": "2021-10-16", "citationKey": "hu2021lora",
    "abstractNote": "An important paradigm of natural language processing consists of "
                    "large-scale pre-training on general domain data.",
    "repository": "arXiv", "archiveID": "arXiv:2106.09685",
    "DOI": "10.48550/arXiv.2106.09685", "url": "http://arxiv.org/abs/2106.09685",
    "dateModified": "2021-10-20T10:00:00Z",
}
PUBLISHED_APA = (
    "Hu, E. J., & Shen, Y. (2022, April 25). LoRA: Low-Rank Adaptation of Large Language "
    "Models. International Conference on Learning Representations. ICLR 2022. "
    "https://openreview.net/forum?id=nZeVKeeFYf9"
)


def _only(library: Library) -> Paper:
    [paper] = library.papers(library.all_ids())
    return paper


def _zotero_json(tmp_path: Path, items: list[dict[str, Any]]) -> Path:
    path = tmp_path / "zotero.json"
    path.write_text(json.dumps({"config": {}, "items": items}), encoding="utf-8")
    return path


@pytest.mark.parametrize("order", [(CONFERENCE, PREPRINT), (PREPRINT, CONFERENCE)],
                         ids=["published-first", "preprint-first"])
def test_a_preprint_and_its_published_version_are_cited_as_published(
    empty_library: Library, tmp_path: Path, order: tuple[dict[str, Any], ...]
) -> None:
    """The two became one paper with a mixed record: the conference paper cited as
    "Article arXiv:2106.09685" with arXiv's DOI, the preprint's older abstract put over
    the newer one; the other way round, a 2021 preprint "In" the proceedings."""
    empty_library.import_files([_zotero_json(tmp_path, list(order))])
    paper = _only(empty_library)
    assert render([paper], "text", style="apa").strip() == PUBLISHED_APA
    assert paper.arxiv_id == "2106.09685"
    assert paper.doi is None
    assert (paper.venue, paper.year) == ("International Conference on Learning "
                                         "Representations", 2022)
    assert paper.abstract.startswith("We propose Low-Rank Adaptation")
    assert {paper.citekey, *paper.aliases} == {"hu2022lora", "hu2021lora"}


_CSV_HEADER = ('"Key","Item Type","Publication Year","Author","Title","Publication Title",'
               '"DOI","Url","Abstract Note","Date","Date Modified","Pages","Volume",'
               '"Publisher","Extra"\n')
_NEURIPS = ('"CF34","conferencePaper","2024","Rafailov, Rafael; Sharma, Archit",'
            '"Direct Preference Optimization","Advances in Neural Information Processing '
            'Systems 36","","https://proceedings.neurips.cc/paper/2023/hash/a85b.html","",'
            '"2024","2024-05-10 09:00:00","53728–53741","36","Curran Associates, Inc.",'
            '"arXiv: 2305.18290"\n')
_ARXIV = ('"PP78","preprint","2023","Rafailov, Rafael; Sharma, Archit",'
          '"Direct Preference Optimization","","10.48550/arXiv.2305.18290",'
          '"http://arxiv.org/abs/2305.18290","While large-scale unsupervised language models '
          'learn broad world knowledge, precise control of their behavior is difficult.",'
          '"2023-05-29","2023-06-01 09:00:00","","","arXiv",""\n')


@pytest.mark.parametrize("rows", [(_NEURIPS, _ARXIV), (_ARXIV, _NEURIPS)],
                         ids=["published-first", "preprint-first"])
def test_zotero_csv_extra_arxiv_line_makes_the_preprint_the_same_paper(
    empty_library: Library, tmp_path: Path, rows: tuple[str, str]
) -> None:
    """Zotero's CSV gives the published paper's arXiv id in Extra, as its JSON does: it was
    not read, and the pair stayed two papers."""
    path = tmp_path / "zotero.csv"
    path.write_text(_CSV_HEADER + "".join(rows), encoding="utf-8")
    empty_library.import_files([path])
    paper = _only(empty_library)
    assert paper.arxiv_id == "2305.18290"
    assert paper.doi is None
    assert paper.abstract.startswith("While large-scale")  # (the only text there is)
    cited = render([paper], "text", style="apa")
    assert "Advances in Neural Information Processing Systems 36" in cited
    assert "53728–53741" in cited
    assert "arXiv" not in cited.replace("https://proceedings", "")
