"""Every paper an import merges is named in its summary with what it took: a .bib read
again over its papers merged twelve and named five (those that lacked a number or a DOI),
leaving those given tags, a note or other fields unsaid."""

from __future__ import annotations

from pathlib import Path

from reader.library import Library

FIRST = """@article{ada2020numbers,
  title = {Counting Numbers Carefully},
  author = {Lovelace, Ada},
  journal = {Journal of Counting},
  year = {2020},
  volume = {3}
}
@article{turing2021machines,
  title = {Machines That Count},
  author = {Turing, Alan},
  journal = {Journal of Counting},
  year = {2021}
}
@article{hopper2022compilers,
  title = {Compilers for Counting},
  author = {Hopper, Grace},
  journal = {Journal of Counting},
  year = {2022}
}
"""

SECOND = """@article{ada2020numbers,
  title = {Counting Numbers Carefully},
  author = {Lovelace, Ada},
  journal = {Journal of Counting},
  year = {2020},
  volume = {3},
  number = {7}
}
@article{turing2021machines,
  title = {Machines That Count},
  author = {Turing, Alan},
  journal = {Journal of Counting},
  year = {2021},
  keywords = {computing, history}
}
@article{hopper2022compilers,
  title = {Compilers for Counting},
  author = {Hopper, Grace},
  journal = {Journal of Counting},
  year = {2022},
  annote = {Read the second section first.}
}
"""


def test_every_merged_paper_is_named_with_what_it_took(tmp_path: Path) -> None:
    first, second = tmp_path / "first.bib", tmp_path / "second.bib"
    first.write_text(FIRST, encoding="utf-8")
    second.write_text(SECOND, encoding="utf-8")
    library = Library(tmp_path / "lib")
    try:
        library.imports.write_files([first])
        summary = library.imports.write_files([second])
        assert summary.merged == 3
        named = dict(summary.filled)
        assert set(named) == {"ada2020numbers", "turing2021machines", "hopper2022compilers"}
        assert named["ada2020numbers"] == ["issue 7"]
        assert named["turing2021machines"] == ["keywords computing, history"]
        assert "note" in named["hopper2022compilers"]
        assert summary.filled_line().startswith("3 papers already in the library took ")
    finally:
        library.close()
