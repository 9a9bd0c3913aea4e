"""What one tool or database means by a field another means otherwise: PubMed's preprint,
Zotero's blog post and dataset version, Better BibTeX's annotation, Web of Science's open
page range. Each is read as the tool means it, and cited so."""

from __future__ import annotations

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
