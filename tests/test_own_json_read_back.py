"""A library made from the library's own JSON export has the fields the library had: a
keyword holding "; " stays one keyword, and an abstract keeps its no-break spaces."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from reader.cli import cli

# An OpenReview note whose author wrote three keywords as one, and no-break spaces.
NOTE = {
    "id": "hxGdAUn3sB", "forum": "hxGdAUn3sB",
    "content": {
        "title": {"value": "Self-Consistency Improves GNNs"},
        "abstract": {"value": "Graph networks\u00a0explain. We show 30\u00a0% gains."},
        "keywords": {"value": ["Self-interpretble GNNs; Trustworthy; Consistency",
                               "Faithfulness"]},
        "venue": {"value": "ICLR 2026 Poster"},
        "authors": {"value": ["Ada Lovelace"]},
    },
}


def _invoke(root: Path, *args: str) -> Any:
    result = CliRunner().invoke(cli, ["--library", str(root), *args], obj={})
    assert result.exit_code == 0, result.output
    return result


def _papers(root: Path) -> list[dict[str, Any]]:
    papers = json.loads(_invoke(root, "export", "--format", "json").stdout)
    return [{k: v for k, v in p.items() if k not in ("id", "added_at")} for p in papers]


def test_a_json_export_read_back_keeps_keywords_and_no_break_spaces(tmp_path: Path) -> None:
    source = tmp_path / "notes.jsonl"
    source.write_text(json.dumps(NOTE) + "\n", encoding="utf-8")
    first = tmp_path / "first"
    _invoke(first, "import", str(source))
    out = tmp_path / "out.json"
    _invoke(first, "export", "-o", str(out))
    second = tmp_path / "second"
    _invoke(second, "import", str(out))
    [paper] = _papers(second)
    assert paper["keywords"] == ["Self-interpretble GNNs; Trustworthy; Consistency",
                                 "Faithfulness"]
    assert "networks\u00a0explain" in paper["abstract"]
    assert _papers(second) == _papers(first)
