"""The README's quick start is what CI runs, and the wheel it installs ships its files."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_ci_runs_the_readme_test_command() -> None:
    """In a fresh virtualenv, failing on the first command that fails: the README's test
    command verbatim, then the linter, the type checker and the import contracts."""
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    (command,) = [line for line in ci if line.startswith("pip install")]
    assert command == "pip install '.[test]' && pytest"
    assert f"\n{command}\n" in (ROOT / "README.md").read_text(encoding="utf-8")
    assert "set -euo pipefail" in ci
    assert any(line.startswith("python3 -m venv ") for line in ci)
    after = ci[ci.index(command) + 1:]
    assert [line for line in after if line and not line.startswith("#")] == [
        "ruff check .", "mypy", "lint-imports",
    ]


def test_the_wheel_ships_styles_and_migrations_and_finds_them(tmp_path: Path) -> None:
    """Built as `pip install .` builds it, the wheel holds every file of ``styles/`` and
    ``db/`` inside the package, and the installed package finds them there."""
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir",
         str(tmp_path / "dist"), str(ROOT)],
        check=True, capture_output=True, timeout=300,
    )
    (wheel,) = (tmp_path / "dist").glob("reader-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        archive.extractall(tmp_path / "site")
    for shipped in ("styles", "db"):
        files = [p for p in (ROOT / shipped).rglob("*") if p.is_file()]
        assert files, shipped
        for path in files:
            assert f"reader/{path.relative_to(ROOT).as_posix()}" in names, path
    # Run from elsewhere, so that only the unpacked wheel is importable as `reader`.
    found = subprocess.run(
        [sys.executable, "-c",
         "import reader.resources as r; print(r.styles_dir()); print(r.migrations_dir())"],
        cwd=tmp_path, env={"PYTHONPATH": str(tmp_path / "site"), "PATH": ""},
        check=True, capture_output=True, text=True, timeout=60,
    ).stdout.split()
    package = tmp_path / "site" / "reader"
    assert found == [str(package / "styles"), str(package / "db" / "migrations")]
