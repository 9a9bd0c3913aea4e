"""What BibTeX's own example file (xampl.bib) holds beside its entries' plain fields: who
published a paper where an entry names a publisher and an organization; a @preamble."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from reader.cite.export import export
from reader.cli import cli
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


def test_a_preamble_left_out_is_said(tmp_path: Path) -> None:
    # xampl's @preamble defines \\noopsort, which its years use: it went without a word, and
    # the export called a macro the file no longer defined.
    source = tmp_path / "with-preamble.bib"
    source.write_text('@preamble{ "\\newcommand{\\noopsort}[1]{} " }\n\n' + ENTRY,
                      encoding="utf-8")
    runner = CliRunner()
    root = str(tmp_path / "lib")
    said = runner.invoke(cli, ["--library", root, "import", str(source)], obj={})
    assert said.exit_code == 0, said.output
    assert "1 new" in said.output
    assert "1 remark on how the file was read (see --verbose)" in said.output
    listed = runner.invoke(cli, ["--library", str(tmp_path / "lib2"), "import", "--verbose",
                                 str(source)], obj={})
    assert ("with-preamble.bib:1: its @preamble is not kept, and an export writes none"
            in listed.output), listed.output
    assert "\\noopsort" in listed.output
