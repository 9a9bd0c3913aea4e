"""Renderings remembered: the index build notes the plain text of every TeX abstract, an
import of the library's own RIS or CSL-JSON export recalls it instead of rendering again,
and a memo that is missing, unusable or made by another renderer is only time lost."""

from __future__ import annotations

import ast
import json
import sqlite3
from pathlib import Path

import pytest

from reader.cite.export import export
from reader.library import Library
from reader.search.renderings import MEMO_FILE, Renderings
from reader.text import renderer as renderings_module
from reader.text.render import rendered_as, to_plain
from reader.text.renderer import RENDERER_MODULES

TEX = "We bound $\\mathcal{O}(n^2)$ steps with \\emph{tight} limits."


def test_a_rendering_noted_and_saved_is_recalled_by_another_process(tmp_path: Path) -> None:
    memo = Renderings(tmp_path / MEMO_FILE)
    assert memo.recall(TEX) is None
    memo.note(TEX, to_plain(TEX))
    memo.note("plain prose", "plain prose")  # renders as itself: no row
    memo.save()
    memo.close()

    again = Renderings(tmp_path / MEMO_FILE)
    assert again.recall(TEX) == to_plain(TEX) == "We bound 𝒪(n²) steps with tight limits."
    assert again.recall("plain prose") is None
    with sqlite3.connect(tmp_path / MEMO_FILE) as conn:
        assert conn.execute("SELECT count(*) FROM renderings").fetchone() == (1,)


def test_renderings_of_another_renderer_are_never_recalled_and_are_replaced(
    tmp_path: Path,
) -> None:
    memo = Renderings(tmp_path / MEMO_FILE)
    memo.note(TEX, "what an older renderer made")
    memo.save()
    memo.close()
    with sqlite3.connect(tmp_path / MEMO_FILE) as conn:
        conn.execute("UPDATE renderer SET digest = x'00'")

    older = Renderings(tmp_path / MEMO_FILE)
    assert older.recall(TEX) is None
    older.note("$x$ and $y$", "x and y")
    older.save()
    assert older.recall(TEX) is None
    assert Renderings(tmp_path / MEMO_FILE).recall("$x$ and $y$") == "x and y"


def test_a_memo_that_cannot_be_opened_is_passed_over(tmp_path: Path) -> None:
    (tmp_path / MEMO_FILE).mkdir()  # a directory where the file should be
    memo = Renderings(tmp_path / MEMO_FILE)
    memo.note(TEX, to_plain(TEX))
    memo.save()
    assert memo.recall(TEX) is None
    missing = Renderings(tmp_path / "no such directory" / MEMO_FILE)
    missing.note(TEX, to_plain(TEX))
    missing.save()
    assert missing.recall(TEX) is None


def test_a_memo_that_is_no_database_is_made_anew_when_written(tmp_path: Path) -> None:
    (tmp_path / MEMO_FILE).write_bytes(b"not a database, but garbage " * 100)
    assert Renderings(tmp_path / MEMO_FILE).recall(TEX) is None
    memo = Renderings(tmp_path / MEMO_FILE)
    memo.note(TEX, to_plain(TEX))
    memo.save()
    assert Renderings(tmp_path / MEMO_FILE).recall(TEX) == to_plain(TEX)


def test_a_memo_damaged_inside_is_let_go_and_made_anew(tmp_path: Path) -> None:
    memo = Renderings(tmp_path / MEMO_FILE)
    for n in range(300):  # pages enough that damage past the first one is met by a read
        memo.note(f"$x_{{{n}}}$ " + "words " * 200, f"x{n} " + "words " * 200)
    memo.save()
    memo.close()
    with open(tmp_path / MEMO_FILE, "r+b") as fh:
        fh.seek(4096)
        fh.write(b"\xff" * 65536)

    damaged = Renderings(tmp_path / MEMO_FILE)
    assert damaged.recall("$x_{7}$ " + "words " * 200) is None
    damaged.note(TEX, to_plain(TEX))
    damaged.save()
    again = Renderings(tmp_path / MEMO_FILE)
    assert again.recall(TEX) == to_plain(TEX)
    with sqlite3.connect(tmp_path / MEMO_FILE) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)


def test_to_plain_answers_with_a_rendering_made_before() -> None:
    with rendered_as({TEX: "made before"}):
        assert to_plain(TEX) == "made before"
        assert to_plain("$z$") == "z"
    assert to_plain(TEX) != "made before"


RECORDS = [
    {
        "id": f"tex{n:04d}",
        "content": {
            "title": {"value": f"Bounds, part {n}"},
            "abstract": {"value": f"We prove $\\mathcal{{O}}(n^{n})$ bounds, \\emph{{tight}}."},
            "authors": {"value": ["Ada Lovelace"]},
        },
    }
    for n in range(6)
]


@pytest.fixture
def tex_library(library: Library, tmp_path: Path) -> Library:
    source = tmp_path / "submissions.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in RECORDS), encoding="utf-8")
    library.import_files([source])
    return library


def test_the_index_build_remembers_the_rendering_of_each_tex_abstract(
    tex_library: Library,
) -> None:
    memo = Renderings.in_index(tex_library.paths.index)
    tex = [p for p in tex_library.store.iter_papers() if "\\emph" in p.abstract]
    assert len(tex) >= len(RECORDS)
    for paper in tex:
        assert memo.recall(paper.abstract) == to_plain(paper.abstract)


@pytest.mark.parametrize("memo", ["remembered", "missing", "another renderer's"])
@pytest.mark.parametrize(("fmt", "suffix"), [("ris", ".ris"), ("csljson", ".csl.json")])
def test_the_own_export_again_is_unchanged_whatever_the_memo(
    tex_library: Library, tmp_path: Path, memo: str, fmt: str, suffix: str
) -> None:
    path = tmp_path / f"again{suffix}"
    path.write_text(export(list(tex_library.store.iter_papers()), fmt), encoding="utf-8")
    memo_path = tex_library.paths.index / MEMO_FILE
    if memo == "missing":
        memo_path.unlink()
    elif memo == "another renderer's":
        with sqlite3.connect(memo_path) as conn:
            conn.execute("UPDATE renderings SET plain = 'not what it renders as'")
            conn.execute("UPDATE renderer SET digest = x'00'")

    summary = tex_library.imports.write_files([path])

    assert (summary.new, summary.merged, summary.unchanged) == (0, 0, summary.read)
    # What the import rendered itself is remembered for the next time.
    again = Renderings.in_index(tex_library.paths.index)
    for paper in tex_library.store.iter_papers():
        if "\\emph" in paper.abstract:
            assert again.recall(paper.abstract) == to_plain(paper.abstract)


def test_the_renderers_digest_is_made_of_every_module_rendering_runs_on() -> None:
    """A change to any module the renderer imports must retire the renderings it made."""
    folder = Path(renderings_module.__file__).parent
    found: set[str] = set()
    waiting = ["render"]
    while waiting:
        name = waiting.pop()
        found.add(name)
        tree = ast.parse((folder / f"{name}.py").read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("reader.text."):
                module = node.module.rsplit(".", 1)[1]
                if module not in found:
                    waiting.append(module)
    assert found == set(RENDERER_MODULES)
