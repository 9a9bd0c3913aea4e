"""Tags as a user wrote them: words joined by one "-" (the colon or dash between them too),
symbols kept, and a JSON table's ``tags`` the tags of the papers it adds."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from reader.cli import cli
from reader.text.tags import normalize_tag


def test_words_are_joined_by_one_hyphen_and_symbols_stay() -> None:
    assert normalize_tag("Chapter 2: Background") == "chapter-2-background"
    assert normalize_tag("Computer Science - Computation and Language") == (
        "computer-science-computation-and-language")
    assert normalize_tag("⭐ must-read") == "⭐-must-read"
    # What was right stays so: a tag typed as one word, a colon inside one, punctuation.
    assert normalize_tag("to-read") == "to-read"
    assert normalize_tag("project:x") == "project:x"
    assert normalize_tag("#ML  Ops") == "ml-ops"
    assert normalize_tag("health, digital") == "health-digital"


def test_a_json_tables_tags_are_tags_found_by_search(tmp_path: Path) -> None:
    papers = tmp_path / "papers.json"
    papers.write_text(json.dumps({"status": "ok", "data": {"items": [
        {"title": "Retentive Network", "authors": "Yutao Sun", "year": "2023",
         "tags": ["architectures", "Chapter 2: Background", "⭐ must-read"]},
    ]}}), encoding="utf-8")
    root = tmp_path / "lib"

    def run(*args: str) -> str:
        result = CliRunner().invoke(cli, ["--library", str(root), *args], obj={})
        assert result.exit_code == 0, result.output
        return str(result.output)

    run("import", str(papers))
    [paper] = json.loads(run("export", "--format", "json"))
    assert paper["tags"] == ["architectures", "chapter-2-background", "⭐-must-read"]
    for query in ("tag:chapter-2-background", 'tag:"Chapter 2: Background"', "tag:⭐-must-read"):
        assert "Retentive Network" in run("search", query), query
