"""The library's own BibTeX and biblatex export imported into the library it came from is
no news: every paper unchanged, whatever the export wrote that reads back another way (an
arXiv preprint's entry type, the journal its listing names, a name with a comma)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reader.cite.export import export
from reader.library import Library


def _listing(arxiv_id: str, title: str, journal_ref: str | None) -> str:
    """A line of arXiv's metadata snapshot."""
    return json.dumps({
        "id": arxiv_id, "authors": "Ashot Minasyan", "title": title, "categories": "math.GR",
        "abstract": f"We study {title.lower()} and prove a theorem.", "journal-ref": journal_ref,
        "versions": [{"version": "v1", "created": "Sun, 1 Apr 2007 10:00:00 GMT"}],
        "update_date": "2009-05-01",
    }) + "\n"


@pytest.mark.parametrize("fmt", ["bibtex", "biblatex"])
def test_the_librarys_own_bibtex_export_reads_back_unchanged(tmp_path: Path, fmt: str) -> None:
    snapshot = tmp_path / "arxiv.jsonl"
    snapshot.write_text(
        _listing("0704.0091", "Groups with Finitely Many Conjugacy Classes",
                 "Comm. Math. Helv. 84 (2009), No. 2, pp. 259--296.")
        + _listing("2006.11239", "Denoising Diffusion Probabilistic Models", None),
        encoding="utf-8",
    )
    table = tmp_path / "preprints.csv"
    table.write_text("title,authors,venue,doi\nRetentive Networks,Yutao Sun,arXiv,"
                     "10.48550/arXiv.2307.08621\n", encoding="utf-8")
    listed = tmp_path / "iclr2017.json"
    listed.write_text(json.dumps([{
        "id": "S1HEBe_Jl", "title": "Learning to Protect Communications", "status": "Poster",
        "author": "Martín Abadi, David G. Andersen", "abstract": "Adversarial cryptography.",
    }]), encoding="utf-8")
    library = Library(tmp_path / "lib")
    try:
        library.import_files([snapshot, table, listed])
        path = tmp_path / "own.bib"
        path.write_text(export(list(library.store.iter_papers()), fmt), encoding="utf-8")
        again = library.imports.write_files([path])
        assert (again.new, again.merged, again.unchanged) == (0, 0, 4)
    finally:
        library.close()
