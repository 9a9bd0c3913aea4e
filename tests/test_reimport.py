"""The library's own export imported again: papers that did not change are unchanged, are
not written again, and are not re-indexed; a real change still shows."""

from __future__ import annotations

from pathlib import Path

from reader.library import Library


def test_a_bibtex_openreview_url_gives_the_papers_id(
    empty_library: Library, tmp_path: Path
) -> None:
    bib = tmp_path / "a.bib"
    bib.write_text(
        "@inproceedings{a2026,\n  title = {A},\n"
        "  url = {https://openreview.net/forum?id=Ab-c_12}\n}\n"
        "@misc{b2026,\n  title = {B},\n  url = {https://example.org/forum?id=Ab}\n}\n",
        encoding="utf-8",
    )
    empty_library.import_files([bib], sync=False)
    ids = {p.title: p.openreview_id for p in empty_library.store.iter_papers()}
    assert ids == {"A": "Ab-c_12", "B": None}
