"""The architecture holds: the import contracts in pyproject.toml (one door into the core,
sources apart from the library, the store apart from the index, text at the bottom)."""

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
