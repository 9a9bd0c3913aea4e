"""Where an export goes: the format a file name asks for, a folder that must exist, and a
file already there that only the user can agree to replace."""

from __future__ import annotations

from pathlib import Path

from reader.cite.formats import CitationError

__all__ = ["check_folder", "format_for_path", "replaces_file"]


def check_folder(path: Path) -> None:
    """Refuse a file whose folder does not exist: a mistyped path would otherwise make
    folders nobody asked for, and the export would land where nobody looks for it."""
    folder = Path(path).parent
    if not folder.is_dir():
        what = "is not a folder" if folder.exists() else "does not exist"
        raise CitationError(f"the folder {folder} {what}; nothing exported")


def replaces_file(path: Path) -> bool:
    """Whether writing ``path`` would replace a file that is there (one a link names too).

    A terminal or a pipe (``/dev/stdout``) is written to, not replaced: no file is lost.
    """
    return Path(path).is_file()


_SUFFIX_FORMATS = {
    ".bib": "bibtex",
    ".bibtex": "bibtex",
    ".csl.json": "csljson",
    ".json": "json",
    ".md": "markdown",
    ".markdown": "markdown",
    ".csv": "csv",
    ".ris": "ris",
}


def format_for_path(path: Path) -> str:
    """The export format a file name asks for (``.bib`` → bibtex, ``.csl.json`` → csljson …)."""
    name = path.name.lower()
    for suffix, fmt in _SUFFIX_FORMATS.items():
        if name.endswith(suffix):
            return fmt
    known = ", ".join(_SUFFIX_FORMATS)
    raise CitationError(f"{path.name}: no export format for this file name (known: {known})")
