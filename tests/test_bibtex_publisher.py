"""Who published a paper, from a BibTeX entry that names a publisher and an organization."""

from __future__ import annotations

from pathlib import Path

from reader.cite.export import export
from reader.library import Library

# As BibTeX's own xampl.bib writes it: the organization first, then the publisher.
ENTRY = """@INPROCEEDINGS{inproceedings-full,
   author = "Alfred V. Oaho and Jeffrey D. Ullman",
   title = "On Notions of Information Transfer in {VLSI} Circuits",
   booktitle = "Proc. Fifteenth Annual ACM Symposium on the Theory of Computing",
   year = 1983,
   organization = "The OX Association for Computing Machinery",
   publisher = "Academic Press",
   address = "Boston",
}
"""


def test_the_publisher_is_the_one_named_so_wherever_it_stands(
    empty_library: Library, tmp_path: Path
) -> None:
    # The organization came first in the entry and was taken for the publisher: `reader
    # show` and the citations that name a publisher named it, not "Academic Press".
    source = tmp_path / "full.bib"
    source.write_text(ENTRY, encoding="utf-8")
    empty_library.import_files([source])
    paper = empty_library.paper(empty_library.all_ids()[0])
    assert paper.csl["publisher"] == "Academic Press"
    # Both go back out as written.
    written = export([paper], "bibtex")
    assert "publisher = {Academic Press}" in written
    assert "organization = {The OX Association for Computing Machinery}" in written
