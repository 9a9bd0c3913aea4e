"""The README's quick start is what CI runs."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_ci_runs_the_readme_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()
    command = ci[-1]
    assert command.startswith("pip install") and command.endswith("pytest")
    assert command in (ROOT / "README.md").read_text(encoding="utf-8")


def test_wheel_layout_is_declared() -> None:
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '"styles" = "reader/styles"' in pyproject
    assert '"db" = "reader/db"' in pyproject
