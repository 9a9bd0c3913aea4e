"""A paper's names as BibTeX name lists: the record's structured names written back, and
every role biblatex has a list for (``editora`` … with their ``…type``) in it; the roles
biblatex has none for go to an ``extra`` field, one ``role: Family || Given`` line each,
the form Zotero and Better BibTeX read such names in."""

from __future__ import annotations

from reader.cite.tex_escape import escape_name_part, escape_text, fold
from reader.models import Paper
from reader.record import NAME_VARIABLES

__all__ = ["other_names", "record_names"]


def record_names(paper: Paper, variable: str) -> list[str] | None:
    """The record's names of one variable as BibTeX names, None when it has none stored."""
    names = paper.csl.get(variable)
    if not isinstance(names, list) or not names:
        return None
    if variable == "author" and len(names) != len(paper.authors or []):
        return None  # the names were edited since: the display names are the truth
    out = []
    for name in names:
        if not isinstance(name, dict):
            continue
        literal = fold(str(name.get("literal", "")))
        if literal:
            out.append("{" + escape_text(literal) + "}")
            continue
        given = " ".join(
            fold(str(name.get(p, ""))) for p in ("given", "dropping-particle") if name.get(p)
        )
        suffix = fold(str(name.get("suffix", "")))
        family = _family(fold(str(name.get("non-dropping-particle", ""))),
                         fold(str(name.get("family", ""))), alone=not (given or suffix))
        parts = [family, escape_name_part(suffix), escape_name_part(given)] if suffix else [
            family, escape_name_part(given)]
        out.append(", ".join(p for p in parts if p) if given or suffix else family)
    return [n for n in out if n]


def _family(particle: str, family: str, *, alone: bool = False) -> str:
    """The particle and family name as BibTeX reads them back: a family name of several
    words, one of them in lower case (``van der Berg`` with no particle, as
    ``{van der Berg}`` in the file), braced whole, which BibTeX would otherwise split into
    a particle and a family name, changing how the name sorts and is cited; and one of
    several words ``alone`` (no given name: an organisation's, ``World Health
    Organization``), which BibTeX would read as a person's given and family names."""
    written = escape_name_part(family)
    words = family.split()
    if len(words) > 1 and (alone or any(_lower_case(word) for word in words)) and (
        written[:1] != "{"
    ):
        written = "{" + written + "}"
    return " ".join(part for part in (escape_name_part(particle), written) if part)


def _lower_case(word: str) -> bool:
    """Whether BibTeX takes ``word`` for a word in lower case (by its first letter)."""
    return next((c for c in word if c.isalpha()), "").islower()


# The record's other name variables and the biblatex name lists that hold them: a role of
# editora, editorb or editorc is named by its ``…type`` field (biblatex's standard roles).
_NAME_LISTS = (
    ("editor", "editor", ""),
    ("translator", "translator", ""),
    ("container-author", "bookauthor", ""),
    ("contributor", "editora", "collaborator"),
    ("compiler", "editorb", "compiler"),
    ("organizer", "editorc", "organizer"),
)
_LISTED = frozenset(("author", *(variable for variable, _, _ in _NAME_LISTS)))


def other_names(paper: Paper, others: list[str], inherited: set[str]) -> list[tuple[str, str]]:
    """The names beyond the authors: in biblatex's name lists where it has one for the
    role, else as lines of an ``extra`` field (``collection-editor: Family || Given``), the
    form Zotero and Better BibTeX read such names in."""
    fields: list[tuple[str, str]] = []
    for variable, name, role in _NAME_LISTS:
        names = record_names(paper, variable) or []
        if names and variable not in inherited:
            fields.append((name, " and ".join(names + (["others"] if name in others else []))))
            if role:
                fields.append((f"{name}type", role))
    lines = []
    for variable in NAME_VARIABLES:
        stored = paper.csl.get(variable)
        if variable in _LISTED or variable in inherited or not isinstance(stored, list):
            continue
        for person in stored:
            if not isinstance(person, dict):
                continue
            literal = escape_text(fold(str(person.get("literal", ""))))
            family = escape_text(" ".join(
                fold(str(person[p])) for p in ("non-dropping-particle", "family") if person.get(p)
            ))
            given = escape_text(fold(str(person.get("given", ""))))
            text = literal or (f"{family} || {given}" if given else family)
            if text:
                lines.append(f"{variable}: {text}")
    if lines:
        fields.append(("extra", "\n".join(lines)))
    return fields
