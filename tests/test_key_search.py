"""A paper is found by its citation key, as a user types it: a plain word, ``key:`` (or
``citekey:``), in a search and in an export's query; an alias too; and an index built
before keys were indexed is rebuilt rather than left without them."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from click.testing import CliRunner
from whoosh import index as whoosh_index
from whoosh.fields import Schema

from reader.cli import cli
from reader.library import Library
from reader.models import IndexState
from reader.search.index_base import INDEX_VERSION
from tests.conftest import paper_id_with


def test_a_key_typed_as_a_word_or_a_field_finds_its_paper(library: Library) -> None:
    gdpval = paper_id_with(library, "GDPval")
    assert library.search("gdpval2026").ids == [gdpval]
    assert library.search("key:gdpval2026").ids == [gdpval]
    assert library.search("citekey:GDPval2026").ids == [gdpval]
    assert library.search("key:gdpval").ids == []  # a key is one word, not its parts
    # A new key is found, and the old one, now an alias, still is.
    library.queries.set_citekey(gdpval, "patwardhan2025gdpval")
    library.sync_index()
    assert library.search("patwardhan2025gdpval").ids == [gdpval]
    assert library.search("key:gdpval2026").ids == [gdpval]


def test_export_and_search_take_a_key(library: Library) -> None:
    root = library.paths.root
    library.close()
    runner = CliRunner()
    result = runner.invoke(cli, ["--library", str(root), "export", "-q", "sc2026",
                                 "--format", "json"], obj={})
    assert result.exit_code == 0, result.output
    assert [p["citekey"] for p in json.loads(result.stdout)] == ["sc2026"]
    result = runner.invoke(cli, ["--library", str(root), "search", "sc2026"], obj={})
    assert result.exit_code == 0 and "sc2026" in result.stdout


def test_an_index_without_the_key_field_is_rebuilt(library: Library, tmp_path: Path) -> None:
    # An index as the previous version built it: every field but the key.
    path = library.index.path
    generation = library.store.generation()
    library.close()
    old_fields = {name: field for name, field in library.index.schema.items() if name != "key"}
    shutil.rmtree(path)
    path.mkdir()
    whoosh_index.create_in(str(path), Schema(**old_fields))
    (path / "reader-generation.json").write_text(
        json.dumps({"version": INDEX_VERSION, "generation": generation})
    )
    reopened = Library(library.paths.root)
    try:
        assert reopened.index_state() is IndexState.MISSING
        reopened.sync_index()
        assert reopened.index_state() is IndexState.OK
        assert len(reopened.search("sc2026").ids) == 1
    finally:
        reopened.close()


def test_an_openreview_or_arxiv_id_typed_as_a_word_finds_its_paper(
    empty_library: Library, tmp_path: Path
) -> None:
    source = tmp_path / "ids.json"
    source.write_text(json.dumps([
        {"title": "Sparse routers", "abstract": "We route tokens sparsely.",
         "forum": "Rt8kLm2QxA", "authors": "Ann Lee", "year": 2026},
        {"title": "Dense routers", "abstract": "We route tokens densely.",
         "arxiv_id": "2401.01234", "authors": "Bo Li", "year": 2024},
    ]), encoding="utf-8")
    empty_library.import_files([source])
    titles = {p.id: p.title for p in empty_library.papers(empty_library.all_ids())}
    assert [titles[i] for i in empty_library.search("Rt8kLm2QxA").ids] == ["Sparse routers"]
    assert [titles[i] for i in empty_library.search("2401.01234").ids] == ["Dense routers"]
