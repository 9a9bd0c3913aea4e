"""Zotero's automatic tags (a database's subject terms) stay keywords and its user's tags
become tags, in every export: BBT JSON marks them ``"type": 1``, the CSV puts them under
"Automatic Tags", and a Better BibTeX .bib, which marks nothing, is read by their form; a
.bib without an attachment or a comment is still known for Better BibTeX's."""

from __future__ import annotations

from pathlib import Path

from reader.library import Library

# Better BibTeX's .bib of an item imported from a database, tagged by its user too: no
# attachment, no comment; its title's capitals kept in double braces, as BBT writes them.
BBT_BIB = """@article{esteva2017dermatologist,
  title = {Dermatologist-Level Classification of {{Skin Cancer}} with Deep Neural Networks},
  author = {Esteva, Andre and Kuprel, Brett},
  year = {2017},
  journal = {Nature},
  langid = {english},
  keywords = {Algorithms,Computer Science - Computer Vision and Pattern Recognition,Humans,\
Skin Neoplasms/diagnosis,dermatology,to-read}
}
"""


def test_a_bbt_bib_without_an_attachment_gives_the_users_tags_not_the_databases(
    tmp_path: Path
) -> None:
    bib = tmp_path / "bbt.bib"
    bib.write_text(BBT_BIB, encoding="utf-8")
    library = Library(tmp_path / "lib")
    try:
        library.import_files([bib])
        (paper,) = (library.paper(pid) for pid in library.all_ids())
        assert paper is not None
        assert paper.tags == ["dermatology", "to-read"]
        assert "Humans" in paper.keywords and "Skin Neoplasms/diagnosis" in paper.keywords
    finally:
        library.close()
