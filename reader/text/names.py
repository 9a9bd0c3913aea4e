"""People's names as CSL writes them: a display name ("Given von Family Jr.") split into
its parts or kept whole as a ``literal``, the parts shown again, and the one editable line
of many names (``Family, Given; {Literal}``). Pure string work, used by the record
(:mod:`reader.record`, which names them for the rest of reader) and the sources."""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from reader.text.pattern import Pattern
from reader.text.scripts import east_asian

__all__ = [
    "LINEAGE_PARTICLES",
    "display_name",
    "family_key",
    "group_words",
    "initials_last",
    "is_anonymous",
    "is_group_name",
    "names_text",
    "parse_names_text",
    "split_name",
]

# Lower-case words that belong to the family name that follows them ("Vincent van Gogh").
_PARTICLES = frozenset(
    "van von der den de del della dei degli di da das dos du le la les ter ten zu zur bin ibn "
    "bint al el".split()
    # Arabic's, capitalised as many write them ("Mohammed bin Rashid Al Maktoum", "Ahmed Abu
    # Zaid"): only before a family name, so a given name "Bin" or "Al" stays one.
) | frozenset("Al El Abu Bin Ibn Bint".split())
#: Arabic's "son of" and "daughter of", which lead the family name that follows them
#: whatever their case ("Ahmad Ibn Hanbal" is Ibn Hanbal, A.; never "Hanbal, A. I.").
LINEAGE_PARTICLES = frozenset("ibn bin bint Ibn Bin Bint".split())
_NAME_SUFFIXES = frozenset({"jr", "jr.", "sr", "sr.", "ii", "iii", "iv"})
_NAME_PARTS = ("given", "dropping-particle", "non-dropping-particle", "family")
_ANONYMOUS = frozenset({"anonymous", "anonymous author", "anonymous authors",
                        "anonymous author(s)", "anon.", "anon"})
_WORD = Pattern(r"\w+")
# The last word of a group that authors a paper as one ("ATLAS Collaboration", "Gemini
# Team", "The Tabula Muris Consortium"), or the "et al." a list left in one name: no
# person's family name, so never split and initialised ("Collaboration, A.").
_GROUP_WORDS = frozenset(
    "collaboration collaborations consortium group team collective committee "
    "initiative network project alliance".split()
)
_ET_AL = Pattern(r"\bet\.?\s*al\.?$", re.IGNORECASE)


def display_name(name: dict[str, Any]) -> str:
    """A CSL name as shown: ``Given von Family Jr.``, or the literal."""
    literal = _text(name.get("literal"))
    if literal:
        return literal
    family, given = _text(name.get("family")), _text(name.get("given"))
    if family and given and east_asian(family) and east_asian(given):
        return family + given  # "李, 飞飞": 李飞飞, family first, no space (as RIS reads it)
    parts = [_text(name.get(part)) for part in _NAME_PARTS]
    text = " ".join(p for p in parts if p)
    suffix = _text(name.get("suffix"))
    if suffix:
        text = f"{text}, {suffix}" if name.get("comma-suffix") else f"{text} {suffix}"
    return text


# "Zhang Y.", "Müller K.-R." (Scopus, PubMed, Embase): a family name, then the given
# names' initials, each with its full stop.
_INITIALS_LAST = Pattern(r"(?P<family>[^.]+?)\s+(?P<initials>(?:[A-Z]\.(?:-?[A-Z]\.)*\s*)+)")


def initials_last(name: str) -> tuple[str, str] | None:
    """A name written family first, then initials ("Singhal K.") as its family name and
    initials (``("Singhal", "K.")``); None for any other."""
    match = _INITIALS_LAST.fullmatch(name.strip())
    if not match:
        return None
    return match.group("family").strip(), match.group("initials").strip()


def is_anonymous(name: str | dict[str, Any]) -> bool:
    """Whether a name says only that the authors are not given (OpenReview's "Anonymous")."""
    text = display_name(name) if isinstance(name, dict) else name
    return " ".join(text.split()).casefold() in _ANONYMOUS


def is_group_name(name: str) -> bool:
    """Whether a display name is a group's ("ATLAS Collaboration", "CMS Collaboration et
    al."), cited as written."""
    name = " ".join(name.split())
    if _ET_AL.search(name) and len(name.split()) > 2:
        return True  # "G. Aad et al.": the many authors of one name, no person's
    words = name.split()
    return len(words) > 1 and words[-1].casefold().strip(".,") in _GROUP_WORDS


def group_words(name: str) -> str:
    """A group's name without the word that says it is one ("ATLAS Collaboration" →
    "ATLAS"), which is what its people call it; any other name as it is."""
    words = _ET_AL.sub("", " ".join(name.split())).split()
    if len(words) > 1 and words[-1].casefold().strip(".,") in _GROUP_WORDS:
        words.pop()
    return " ".join(words)


def family_key(name: str) -> str:
    """A display name's family name folded for comparison (case, accents, punctuation)."""
    split = split_name(name)
    if split is None:
        return ""
    family = split.get("literal") or split.get("family", "")
    decomposed = unicodedata.normalize("NFKD", family.casefold())
    words = _WORD.findall("".join(c for c in decomposed if not unicodedata.combining(c)))
    return words[-1] if words else ""


def split_name(name: str) -> dict[str, str] | None:
    """A "Given Family" display name as a CSL name: given, family, particle, suffix.

    "Family, Given" (BibTeX order) is understood too. A single word, or a name in a script
    without spaces, becomes a ``literal`` so that no style splits or initialises it.
    """
    name = " ".join(name.split())
    if not name:
        return None
    if "," in name:
        parts = [p.strip() for p in name.split(",")]
        if len(parts) == 2 and parts[1].lower() in _NAME_SUFFIXES and " " in parts[0]:
            # "Given Family, Jr.": a display name with its suffix after a comma.
            split = split_name(parts[0])
            if split is not None and "literal" not in split:
                split["suffix"] = parts[1]
                return split
        family, rest = parts[0], [p for p in parts[1:] if p]
        if family and rest:
            result = {"family": family, "given": rest[-1]}
            if len(rest) > 1:
                result["suffix"] = rest[0]
            return _particle_from_family(result)
        name = " ".join(p for p in parts if p)
    if is_group_name(name):
        return {"literal": name}
    tokens = name.split(" ")
    suffix = ""
    if len(tokens) > 2 and tokens[-1].lower() in _NAME_SUFFIXES:
        suffix = tokens.pop()
    if len(tokens) == 1:
        return {"literal": name}
    start = len(tokens) - 1
    while start > 1 and tokens[start - 1] in _PARTICLES:
        start -= 1
    result = {"given": " ".join(tokens[:start]), "family": tokens[-1]}
    if start < len(tokens) - 1:
        result["non-dropping-particle"] = " ".join(tokens[start:-1])
    if suffix:
        result["suffix"] = suffix
    return result


def _particle_from_family(name: dict[str, str]) -> dict[str, str]:
    """Move a leading particle out of a family name ("van Gogh" → particle "van")."""
    words = name["family"].split(" ")
    lead = 0
    while lead < len(words) - 1 and words[lead] in _PARTICLES:
        lead += 1
    if lead:
        name["non-dropping-particle"] = " ".join(words[:lead])
        name["family"] = " ".join(words[lead:])
    return name


def names_text(names: list[dict[str, Any]]) -> str:
    """Names as one editable line: ``Family, Given; von Family, Jr., Given; {Literal}``."""
    out = []
    for n in names:
        if n.get("literal"):
            out.append("{" + _text(n["literal"]) + "}")
            continue
        family = " ".join(
            p for p in (_text(n.get("non-dropping-particle")), _text(n.get("family"))) if p
        )
        given = " ".join(p for p in (_text(n.get("given")), _text(n.get("dropping-particle")))
                         if p)
        suffix = _text(n.get("suffix"))
        parts = [family, suffix, given] if suffix else [family, given]
        out.append(", ".join(p for p in parts if p) if given or suffix else family)
    return "; ".join(out)


def parse_names_text(text: str) -> list[dict[str, str]]:
    """The names of a line written as :func:`names_text` writes it."""
    names: list[dict[str, str]] = []
    for part in text.split(";"):
        part = " ".join(part.split())
        if not part:
            continue
        if part.startswith("{") and part.endswith("}"):
            names.append({"literal": part[1:-1].strip()})
            continue
        pieces = [p.strip() for p in part.split(",")]
        if len(pieces) == 1:
            split = split_name(part)
            if split:
                names.append(split)
            continue
        family = pieces[0]
        suffix = pieces[1] if len(pieces) >= 3 else ""
        given = pieces[-1]
        name = _particle_from_family({"family": family})
        if given:
            name["given"] = given
        if suffix:
            name["suffix"] = suffix
        names.append(name)
    return names


def _text(value: Any) -> str:
    return " ".join(str(value).split()) if isinstance(value, str | int) and value != "" else ""
