"""A write made from the command line reaches the index with the write itself: a key
given (`reader rekey`) and a title put back (`reader revisions --restore`) are searchable
by the next process at once, before any sync."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from reader.cli import cli
from reader.library import Library
from reader.models import IndexState
from tests.conftest import paper_id_with
from tests.test_never_backwards import CAMERA_READY, SUBMITTED, A, _key, _snapshot


def _run(root: Path, *args: str) -> str:
    result = CliRunner().invoke(cli, ["--library", str(root), *args], obj={})
    assert result.exit_code == 0, result.output
    return result.output


def test_a_key_given_from_the_command_line_is_searchable_at_once(library: Library) -> None:
    gdpval = paper_id_with(library, "GDPval")
    root = library.paths.root
    library.close()
    _run(root, "rekey", "gdpval2026", "brandnewkey2026")
    reopened = Library(root)
    try:
        assert reopened.index_state() is IndexState.OK  # nothing left for a sync
        assert reopened.search("brandnewkey2026").ids == [gdpval]
        # The old key, kept as an alias, still finds it.
        assert reopened.search("gdpval2026").ids == [gdpval]
    finally:
        reopened.close()
    assert "brandnewkey2026" in _run(root, "search", "brandnewkey2026")


def test_a_title_put_back_from_the_command_line_is_searchable_at_once(
    empty_library: Library, tmp_path: Path
) -> None:
    library = empty_library
    library.import_files([_snapshot(tmp_path / "jan.jsonl", CAMERA_READY, None)])
    library.import_files([_snapshot(tmp_path / "nov.jsonl", SUBMITTED, None)])
    paper_id, key = _key(library, A)
    root = library.paths.root
    library.close()
    assert _run(root, "revisions", key, "--show", "1").strip() == CAMERA_READY[A][0]
    _run(root, "revisions", key, "--restore", "1")  # the camera-ready title
    reopened = Library(root)
    try:
        assert reopened.index_state() is IndexState.OK
        assert paper_id in reopened.search('title:"mixtures of experts"').ids
    finally:
        reopened.close()
