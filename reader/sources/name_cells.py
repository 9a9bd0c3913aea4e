"""Names as a table's cells give them: an authors cell ("Ann Lee, Bob Ray, and Cy Doe",
"Lee, Ann; Ray, Bob") as display names, and a cell of editors or translators (Zotero's
"Smith, Jane; Doe, John") as CSL names."""

from __future__ import annotations

import re

from reader.record import parse_names_text, split_name
from reader.sources.ris_names import display_name as comma_name
from reader.text.names import initials_last

__all__ = ["name_cell", "split_authors"]

_SPACES = re.compile(r"\s+")
_AND = re.compile(r"\s+and\s+|\s*&\s*")
# One word of a personal name: starts with a letter; letters, marks, dots, apostrophes, hyphens.
_NAME_WORD = re.compile(r"[^\W\d_][^\s\d,;()\[\]{}<>@/\\|]*")
_SUFFIXES = frozenset("jr jr. sr sr. ii iii iv".split())


def split_authors(value: str) -> list[str]:
    """Display names from an authors cell, splitting conservatively.

    ``;`` always separates authors (each may be "Last, First"). Without one, ``and``/``&``
    separate authors, and commas only when every comma-separated part looks like a
    "First Last" name: "Ann Lee, Bob Ray" is two authors, "Lee, Ann" is one.
    """
    value = _SPACES.sub(" ", value).strip()
    if not value:
        return []
    if ";" in value:
        parts = value.split(";")
    else:
        parts = []
        for piece in _AND.split(value):
            commas = [p.strip() for p in piece.split(",")]
            commas = [p for p in commas if p]
            if len(commas) > 1 and all(_is_full_name(p) for p in commas):
                parts.extend(commas)
            else:
                parts.append(piece)
    names: list[str] = []
    for part in parts:
        part = part.strip().strip(",").strip()
        # "and Cy Doe" remains from "Ann Lee, Bob Ray, and Cy Doe".
        if part.lower().startswith("and "):
            part = part[4:].strip()
        if part.startswith("[") and part.endswith("]"):
            continue  # a database's placeholder ("[No author name available]", "[Anonymous]")
        name = comma_name(part) if "," in part else _initials_first(part)
        if name and name.lower() not in ("et al", "et al.", "others") and name not in names:
            names.append(name)
    return names


def _initials_first(name: str) -> str:
    """A name written family first, then initials ("Zhang Y.") as "Y. Zhang"; any other
    as it is."""
    parts = initials_last(name)
    return f"{parts[1]} {parts[0]}" if parts else name


def name_cell(value: str, *, family_first: bool = False) -> list[dict[str, str]]:
    """CSL names from a cell: ``Smith, Jane; Doe, John`` (Zotero, and the library's own
    export, whose ``{…}`` is a name kept whole), else written as an authors cell is; a
    cell with a ``{…}`` name is the library's own, each other name in it a person's."""
    value = _SPACES.sub(" ", value).strip()
    parts = [p.strip() for p in value.split(";") if p.strip()]
    if any(p.startswith("{") and p.endswith("}") for p in parts):
        # The library's own export writes a literal name (an institution's, "National
        # Institute of Standards and Technology") in braces, so that no "and" splits it.
        return [name for part in parts for name in _braced_or_split(part)]
    if (";" in value and "," in value) or (family_first and value):
        # "Lee, Ann; World Health Organization" (Zotero's CSV, ``family_first``, writes
        # every two-field name so): one without a comma is a single-field name, an
        # institution's.
        parts = [p.strip() for p in value.split(";") if p.strip()]
        return [
            name for part in parts
            for name in (parse_names_text(part) if "," in part else [{"literal": part}])
        ]
    names = split_authors(value)
    if len(names) == 1 and "," in value:
        # One name, family first ("Martínez Cámara, Eugenio"): its parts as written, not
        # as the last word of its display name would make them.
        return parse_names_text(value)
    # Names without a comma between family and given name: "Bouamor H.; Pino J." (Scopus's
    # editors, written as its authors are) or "Jane Smith; John Doe".
    return [name for name in map(split_name, names) if name]


def _braced_or_split(part: str) -> list[dict[str, str]]:
    """One name of a cell the library's own export wrote: ``{Literal}``, else a person's
    name in either order ("Ann Lee", "Lee, Ann")."""
    if part.startswith("{") and part.endswith("}"):
        literal = part[1:-1].strip()
        return [{"literal": literal}] if literal else []
    name = split_name(part)
    return [name] if name else []


def _is_full_name(text: str) -> bool:
    """Whether ``text`` looks like one "First Last" name (two to five words, capitalised)."""
    words = text.split()
    if words and words[0].lower() == "and":
        words = words[1:]
    if not 2 <= len(words) <= 5 or words[-1].lower() in _SUFFIXES:
        return False
    return words[0][:1].isupper() and all(_NAME_WORD.fullmatch(w) for w in words)
