"""TeX that OpenReview authors wrote in their abstracts (``\\textbf{…}``, ``20\\%``, ``\\aa``,
``$…$``) goes out in a BibTeX export as it came, and an import of the export into a fresh
library reads the same abstracts back: real abstracts from the ICLR 2026 sample."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from reader.cite.tex_escape import TEX_KEPT, tex_braces_nest
from reader.library import Library, export

SAMPLE = Path(__file__).resolve().parents[2] / "shared" / "data" / "iclr2026" / \
    "submissions-sample.jsonl.gz"
# What a plain-text character means literally outside TeX, which BibTeX needs escaped (a
# TeX reader takes a bare % for a comment): such an abstract comes back with `\%`.
_BARE = set("%&_#$^\\")


def _folded(text: str) -> str:
    # A BibTeX value is one line per paragraph: a single line break comes back a space.
    return " ".join(text.split())


def _bare_specials(text: str) -> bool:
    return bool(_BARE & set(TEX_KEPT.sub(" ", text)))


@pytest.mark.skipif(not SAMPLE.exists(), reason="the shared ICLR 2026 sample is not here")
def test_tex_in_openreview_abstracts_comes_back_from_a_bibtex_export(tmp_path: Path) -> None:
    with gzip.open(SAMPLE, "rt", encoding="utf-8") as handle:
        records = [json.loads(line) for line in handle]
    chosen = [r for r in records if any(c in r["content"].get("abstract", "") for c in "\\$")]
    chosen = chosen[:200]
    source = tmp_path / "tex.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in chosen), encoding="utf-8")
    first, second = Library(tmp_path / "a"), Library(tmp_path / "b")
    try:
        first.import_files([source])
        bib = tmp_path / "all.bib"
        export(first.papers(first.all_ids()), "bibtex", bib)
        assert second.import_files([bib]).new == len(chosen)
        back = {p.citekey: p.abstract for p in second.papers(second.all_ids())}
        same = carried = 0
        for paper in first.papers(first.all_ids()):
            written, read = paper.abstract, back[paper.citekey]
            if not tex_braces_nest(written):
                continue  # braces BibTeX cannot count: escaped whole (see the README)
            # Every command, control symbol and math span comes back as it was written.
            wanted = [_folded(t) for t in TEX_KEPT.findall(written)]
            got = iter(_folded(t) for t in TEX_KEPT.findall(read))
            assert all(any(t == g for g in got) for t in wanted), paper.citekey
            carried += bool(wanted)
            if not _bare_specials(written):
                assert _folded(read) == _folded(written), paper.citekey
                same += 1
        assert carried >= 150 and same >= 100, (carried, same)
    finally:
        first.close()
        second.close()
