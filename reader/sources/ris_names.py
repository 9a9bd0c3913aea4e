"""RIS names (``Last, First, Suffix``) as CSL names, and as people read them.

Tools write a RIS name with commas between its parts; a name without one (an institution,
"Plato") is a literal, but for Embase's family name and initials ("Singhal K."); a JSON null
spelled out ("null") is a part the tool had not got.
"""

from __future__ import annotations

import re

from reader.sources.ris_tags import fold_lines
from reader.text.names import initials_last
from reader.text.scripts import east_asian

SUFFIXES = frozenset("jr jr. sr sr. ii iii iv v".split())

# A name marked as an editor's, as Ovid marks them in A2: "Gross, James J [Ed]".
EDITOR_MARK = re.compile(r"\s*[\[(]\s*eds?\.?\s*[\])]\s*$", re.IGNORECASE)
# What a tool writes for a name part it has not got (a JSON null spelled out).
_NO_NAME = frozenset({"null", "undefined"})


def ris_name(raw: str) -> dict[str, str] | None:
    """A RIS name (``Last, First, Suffix``, or ``Last,``) as a CSL name; one without a
    comma is a literal."""
    parts = [fold_lines(p) for p in raw.split(",")]
    parts = [p for p in parts if p]
    if parts and parts[0] in _NO_NAME:
        # No family name: what is left, as written.
        known = " ".join(p for p in parts[1:] if p not in _NO_NAME)
        return {"literal": known} if known else None
    if not parts:
        return None
    if len(parts) == 1:
        # "Plato" is a literal; "van den Hoven," a family name without a given name;
        # "Singhal K." (Embase's) a family name and initials.
        if (initialled := initials_last(parts[0])) is not None:
            return {"family": initialled[0], "given": initialled[1]}
        return {"family": parts[0]} if raw.rstrip().endswith(",") else {"literal": parts[0]}
    # "van den Hoven, null": a family name whose given name the tool had not got.
    parts = [parts[0], *(p for p in parts[1:] if p not in _NO_NAME)]
    last, rest = parts[0], parts[1:]
    # "Debaille, V" (Web of Science): a lone initial first is a given name, though "V" is
    # a suffix's numeral too ("Doe, Jr." and "Smith, John, III" have suffixes).
    initial = [bool(not i and len(p.rstrip(".")) == 1) for i, p in enumerate(rest)]
    suffixes = [p for p, lone in zip(rest, initial, strict=True)
                if not lone and p.lower() in SUFFIXES]
    given = [p for p, lone in zip(rest, initial, strict=True)
             if lone or p.lower() not in SUFFIXES]
    name = {"family": last}
    if given:
        name["given"] = " ".join(given)
    if suffixes:
        name["suffix"] = " ".join(suffixes)
    return name


def display_name(name: str) -> str:
    """A name as "Given Family": ``Blomberg, Björn A.`` → ``Björn A. Blomberg``.

    ``Last, First, Suffix`` (the RIS form) becomes ``First Last Suffix``; ``Last, Suffix, First``
    is recognised by its suffix. A name without a comma is kept as written.
    """
    parts = [fold_lines(p) for p in name.split(",")]
    parts = [p for p in parts if p and p not in _NO_NAME]
    if len(parts) <= 1:
        initialled = initials_last(parts[0]) if parts else None
        return f"{initialled[1]} {initialled[0]}" if initialled else parts[0] if parts else ""
    last, rest = parts[0], parts[1:]
    if east_asian(last) and all(east_asian(p) for p in rest):
        return last + "".join(rest)  # "王, 伟": 王伟, family first, no space
    # "Debaille, V" (Web of Science): a lone initial first is a given name, though "V" is
    # a suffix's numeral too ("Doe, Jr." and "Smith, John, III" have suffixes).
    initial = [bool(not i and len(p.rstrip(".")) == 1) for i, p in enumerate(rest)]
    suffixes = [p for p, lone in zip(rest, initial, strict=True)
                if not lone and p.lower() in SUFFIXES]
    given = [p for p, lone in zip(rest, initial, strict=True)
             if lone or p.lower() not in SUFFIXES]
    return " ".join([*given, last, *suffixes])
