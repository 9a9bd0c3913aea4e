"""A derived title survives a BibTeX round trip into another library: it is exported,
marked as derived, and the library that reads the file cites and exports it the same."""

from __future__ import annotations

from pathlib import Path

from reader.cite.export import export
from reader.cite.formats import DERIVED_MARK
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
        first.imports.write_files([seed], "seed")
        exported = _export(first, tmp_path / "a.bib")
        assert "[title derived from the abstract]}" in exported

        second.imports.write_files([tmp_path / "a.bib"])

        assert _export(second, tmp_path / "b.bib") == exported
        [paper] = list(second.store.iter_papers())
        assert paper.title_derived and paper.title == next(iter(first.store.iter_papers())).title
        assert second.imports.write_files([tmp_path / "b.bib"]).unchanged == 1
    finally:
        first.close()
        second.close()


def test_a_derived_title_goes_through_ris_marked_and_comes_back_derived(
    tmp_path: Path,
) -> None:
    """RIS, like the other exports, marks a title reader derived; read into another library
    it is derived there too, and read back into its own library it is no news."""
    seed = tmp_path / "seed.txt"
    seed.write_text(
        "ICLR 2026\n\nWe propose SparseFlow, a method that trains sparse networks by routing "
        "gradients through a learned mask, and show it matches dense accuracy.\n",
        encoding="utf-8",
    )
    first = Library(tmp_path / "first")
    first.imports.write_files([seed], "seed")
    (paper,) = list(first.store.iter_papers())
    assert paper.title_derived
    text = export([paper], "ris", tmp_path / "a.ris")
    assert DERIVED_MARK in text
    again = first.imports.write_files([tmp_path / "a.ris"])
    assert (again.new, again.merged, again.unchanged) == (0, 0, 1)
    second = Library(tmp_path / "second")
    second.imports.write_files([tmp_path / "a.ris"])
    (copy,) = list(second.store.iter_papers())
    assert copy.title_derived and copy.title == paper.title
    first.close()
    second.close()
