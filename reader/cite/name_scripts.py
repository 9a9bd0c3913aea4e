"""Names in East Asian scripts as citeproc-py can print them: written whole, family name
first, where it would initialise and invert them into stray periods; names in other scripts
without capitals (Arabic) initialised here, which citeproc-py cannot do."""

from __future__ import annotations

import re
from typing import Any

from reader.text.scripts import EAST_ASIAN_CHARS, east_asian, has_east_asian, uncased

__all__ = ["citable_name"]


# A name in East Asian script written in parentheses after its romanisation ("Wei (王伟)").
_SCRIPT_ALIAS = re.compile(rf"\s*[(（][^)）]*[{EAST_ASIAN_CHARS}][^)）]*[)）]")


def citable_name(name: Any) -> Any:
    """A name citeproc-py can print: one all in an East Asian script as the literal its
    script writes ("李, 雷" → "李雷"), as citeproc-py initialised and inverted it ("李. 雷 .");
    a given name in such a script beside a romanised family name likewise ("Tanaka 太郎",
    not "Tanaka. 太郎 ."); a romanised given name without the script's form in parentheses
    after it ("Wei (王伟)" → "Wei", not "W. (王伟) ."). Any other name as it is."""
    if not isinstance(name, dict) or "literal" in name:
        return name
    family, given = str(name.get("family") or ""), str(name.get("given") or "")
    if family and east_asian(family) and (not given or east_asian(given)):
        return {"literal": family + given}
    if given and has_east_asian(given):
        romanised = _SCRIPT_ALIAS.sub("", given).strip()
        if romanised and not has_east_asian(romanised):
            return {**name, "given": romanised}
        if family:
            return {"literal": f"{family} {given}"}
    if family and given and uncased(given):
        # Arabic, Hebrew, Devanagari …: citeproc-py cannot initialise a script without
        # capitals ("الحسن. محمد ."); cited family first with the given names' initials, as
        # a name in Latin letters is.
        initials = " ".join(f"{word[0]}." for word in given.split())
        return {"literal": f"{_family_with_particle(name)}, {initials}"}
    return name


def _family_with_particle(name: dict[str, Any]) -> str:
    """The family name with the particle that goes before it ("Al Maktoum")."""
    particle = str(name.get("non-dropping-particle") or "")
    return f"{particle} {name['family']}" if particle else str(name["family"])
