"""Locate the files that ship with the package: Textual CSS, SQL migrations, the sample.

Installed from a wheel, ``styles/`` and ``db/`` live inside the package (hatchling
force-include); in a source checkout they sit beside it. This module is the one place that
knows both layouts.
"""

from __future__ import annotations

from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent


def _shipped_dir(name: str) -> Path:
    """Return the directory ``name`` inside the package, else beside it in a checkout."""
    inside = PACKAGE_DIR / name
    if inside.is_dir():
        return inside
    beside = PACKAGE_DIR.parent / name
    if beside.is_dir():
        return beside
    raise FileNotFoundError(f"reader is installed without its {name}/ directory")


def styles_dir() -> Path:
    """Directory holding the Textual CSS files."""
    return _shipped_dir("styles")


def migrations_dir() -> Path:
    """Directory holding the numbered SQL migrations."""
    return _shipped_dir("db") / "migrations"


def sample_files() -> list[Path]:
    """The bundled ICLR 2026 sample lists, in order."""
    return sorted((PACKAGE_DIR / "sample").glob("*.txt"))


def is_sample_path(path: str) -> bool:
    """Whether an import's recorded ``path`` is one of the bundled sample lists, wherever
    the reader that imported it was installed."""
    where = Path(path)
    return where.parent.name == "sample" and where.name in {p.name for p in sample_files()}
