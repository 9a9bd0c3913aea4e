"""BibTeX name lists: split at their ``and``s, each name split by BibTeX's rules (through
bibtexparser) or given part by part in biblatex's extended name format (``family=Werra,
given=Leandro, prefix=von, useprefix=true``, as Better BibTeX writes names with
particles)."""

from __future__ import annotations

import re

from bibtexparser.middlewares.names import InvalidNameError, parse_single_name_into_parts

from reader.record import is_anonymous
from reader.sources.bibtex_values import TIE, closing_brace, plain
from reader.text.names import LINEAGE_PARTICLES
from reader.text.sanitize import clean_imported

#: A tilde accent and the letter under it: ``\~{n}``, ``\~n``.
_TILDE_ACCENT = re.compile(r"\\~\s*(\{[^{}]*\}|[^\s{}\\])")
#: The word that parts two names: ``and`` between whitespace, in any case.
_AND = re.compile(r"[ \t\r\n]+and[ \t\r\n]+", re.IGNORECASE)


def split_names(value: str) -> list[str]:
    """The names of a BibTeX name list, split at each ``and`` outside braces, as BibTeX
    splits them.

    bibtexparser's own splitter drops the first command of a name after an ``and``
    (``Smith, John and \\v{S}koda, Emil`` gave ``{S}koda``, ``\\L ukasiewicz`` gave
    ``ukasiewicz``): a co-author's accented initial was lost without a word. Here a
    command is a part of its word like any letter.
    """
    value = value.strip(" \t\r\n")
    if not value:
        return []
    names: list[str] = []
    start = depth = at = 0
    while at < len(value):
        char = value[at]
        if char == "\\":
            at += 2  # an escaped brace neither opens nor closes a group
            continue
        if char == "{":
            depth += 1
        elif char == "}":
            depth = max(depth - 1, 0)
        elif depth == 0 and char in " \t\r\n" and (parted := _AND.match(value, at)):
            names.append(value[start:at])
            start = at = parted.end()
            continue
        at += 1
    return [*names, value[start:]]


def parse_names(value: str) -> tuple[list[dict[str, str]], bool]:
    """CSL names of a BibTeX name list, and whether it ended in ``and others``.

    The list is split at ``and`` outside braces (split_names), and bibtexparser splits
    each name into First, von, Last and Jr by BibTeX's rules ("First von Last", "von Last,
    First", "von Last, Jr, First"); a name braced whole (``{National Cancer Institute}``)
    is a literal.
    """
    names: list[dict[str, str]] = []
    others = False
    for raw in split_names(clean_imported(value)):
        raw = TIE.sub(" ", raw).strip()
        if not raw:
            continue
        if raw.lower() == "others":
            others = True
            continue
        if raw.lower() == "and":
            continue  # an empty list between two "and"s
        name = _parse_name(raw)
        if name and not is_anonymous(name):
            names.append(name)
    return names, others


def _parse_name(raw: str) -> dict[str, str] | None:
    """One BibTeX name as a CSL name (plain Unicode parts)."""
    extended = _extended_name(raw)
    if extended is not None:
        return extended or None
    if raw.startswith("{") and raw.endswith("}") and closing_brace(raw, 0) == len(raw) - 1:
        literal = plain(raw)
        return {"literal": literal} if literal else None
    try:
        # bibtexparser takes the ``~`` of a tilde accent for a tie even behind its
        # backslash (``\~{n}u`` came out "nu"): braced, the accent is one letter.
        parts = parse_single_name_into_parts(_TILDE_ACCENT.sub(r"{\\~\1}", raw), strict=False)
    except (InvalidNameError, ValueError, IndexError):
        literal = plain(raw)
        return {"literal": literal} if literal else None
    first, von = list(parts.first), list(parts.von)
    while len(first) > 1 and parts.last and plain(first[-1]) in LINEAGE_PARTICLES:
        # BibTeX's rules make a capitalised word a given name: "Ahmad Ibn Hanbal" was
        # cited "Hanbal, A. I."; Arabic's "Ibn" leads the family name as "ibn" does.
        von.insert(0, first.pop())
    name: dict[str, str] = {}
    for variable, words in (
        ("given", first),
        ("non-dropping-particle", von),
        ("family", parts.last),
        ("suffix", parts.jr),
    ):
        text = plain(" ".join(words))
        if text:
            name[variable] = text
    if "family" not in name and "given" in name:
        # A single word is a family name, whatever its case.
        name = {"family": name["given"], **{k: v for k, v in name.items() if k != "given"}}
    return name or None


# A part of a name in biblatex's extended name format: "family=Werra", "given={Jean Paul}".
_NAME_PART = re.compile(r"^\s*([a-z]+(?:-i)?)\s*=(.*)$", re.DOTALL | re.IGNORECASE)
# The parts of it a CSL name has ("useprefix" says which particle the prefix is).
_EXTENDED_PARTS = {"family": "family", "given": "given", "suffix": "suffix"}


def _extended_name(raw: str) -> dict[str, str] | None:
    """A name in biblatex's extended name format as a CSL name; None for a name in
    BibTeX's own forms. The prefix is a particle kept with the family name when
    ``useprefix=true``, else one dropped before it (biblatex's default)."""
    if "=" not in raw:
        return None
    parts: dict[str, str] = {}
    for piece in _top_level_commas(raw):
        found = _NAME_PART.match(piece)
        if not found:
            return None
        value = found.group(2).strip()
        if len(value) > 1 and value[0] == value[-1] == '"':
            value = value[1:-1]
        parts[found.group(1).lower()] = value
    if not ({"family", "given"} & set(parts)):
        return None
    name = {
        variable: text
        for key, variable in _EXTENDED_PARTS.items()
        if key in parts and (text := plain(parts[key]))
    }
    prefix = plain(parts.get("prefix", ""))
    if prefix:
        useprefix = plain(parts.get("useprefix", "")).lower() in ("true", "1", "yes")
        name["non-dropping-particle" if useprefix else "dropping-particle"] = prefix
    return name


def _top_level_commas(text: str) -> list[str]:
    """``text`` split at the commas outside braces."""
    pieces, depth, start = [], 0, 0
    for found in re.finditer(r"\\.|[{},]", text, re.DOTALL):
        mark = found.group(0)
        if mark == "{":
            depth += 1
        elif mark == "}":
            depth = max(depth - 1, 0)
        elif mark == "," and depth == 0:
            pieces.append(text[start:found.start()])
            start = found.end()
    return [*pieces, text[start:]]
