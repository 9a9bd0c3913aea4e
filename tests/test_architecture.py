"""The architecture holds: the import contracts in pyproject.toml (the layers, one door into
the core, sources apart from the library, the store apart from the index and the import
logic, text at the bottom)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_import_contracts_are_kept() -> None:
    """`lint-imports` finds every contract kept (it exits 1 and names the import if not)."""
    script = "import sys; from importlinter.cli import lint_imports_command; lint_imports_command()"
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


#: A module longer than this says in its docstring why it must be one piece.
MODULE_LINES = 400
KEPT_WHOLE = "Kept whole:"


def test_modules_are_short_or_say_why() -> None:
    """No module of reader is over about 400 lines unless its docstring has a paragraph
    starting "Kept whole:" that says why it cannot be split."""
    import ast

    long = []
    for path in sorted((ROOT / "reader").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        lines = text.count("\n")
        if lines <= MODULE_LINES:
            continue
        doc = ast.get_docstring(ast.parse(text)) or ""
        if KEPT_WHOLE not in doc:
            long.append(f"{path.relative_to(ROOT)}: {lines} lines")
    assert not long, "modules over 400 lines that do not say why:\n" + "\n".join(long)
