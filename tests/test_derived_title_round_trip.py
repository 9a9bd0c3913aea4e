"""A derived title survives a BibTeX round trip into another library: it is exported,
marked as derived, and the library that reads the file cites and exports it the same."""

from __future__ import annotations

from pathlib import Path

from reader.cite.export import export
from reader.library import Library

SEED = "ICLR 2026\n\nWe cut 50% of GPU costs with a simple model-agnostic schedule for training.\n"


def _export(library: Library, path: Path) -> str:
    text = export(list(library.store.iter_papers()), "bibtex")
    path.write_text(text, encoding="utf-8")
    return text


def test_a_derived_title_comes_back_from_bibtex_into_a_new_library(tmp_path: Path) -> None:
    seed = tmp_path / "mine.txt"
    seed.write_text(SEED, encoding="utf-8")
    first, second = Library(tmp_path / "a"), Library(tmp_path / "b")
    try:
        first.import_files([seed], "seed", sync=False)
        exported = _export(first, tmp_path / "a.bib")
        assert "[title derived from the abstract]}" in exported

        second.import_files([tmp_path / "a.bib"], sync=False)

        assert _export(second, tmp_path / "b.bib") == exported
        [paper] = list(second.store.iter_papers())
        assert paper.title_derived and paper.title == next(iter(first.store.iter_papers())).title
        assert second.import_files([tmp_path / "b.bib"], sync=False).unchanged == 1
    finally:
        first.close()
        second.close()
