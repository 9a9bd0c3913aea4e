"""What a BibTeX entry says of an OpenReview submission, as OpenReview's own entries and
the library's export write it: withdrawn or rejected (``pubstate``), still under review
(``pubstate`` or ``note``: "Under review"), accepted (the export's ``decision``: "poster"),
its TL;DR and its primary area."""

from __future__ import annotations

import re
from typing import Any

from reader.signals import EXPORT_STATES, UNDER_REVIEW, decision_field
from reader.sources.bibtex_fields import Evaluated
from reader.sources.bibtex_values import _tex_line, plain
from reader.text.tex_plain import MATH, as_read

__all__ = ["openreview_fields", "plain_of_grouped", "plain_title", "stated", "tex_kept"]

#: The export's field naming the text fields whose TeX is kept as written (read as
#: :func:`reader.text.tex_plain.as_read` says).
_TEX_FIELDS = "texfields"


def tex_kept(entry: Evaluated, extra: dict[str, dict[str, Any]]) -> set[str]:
    """The text fields (``abstract``, ``tldr``) the entry's ``texfields`` names as TeX kept
    as written, which an import would otherwise read as escaped plain text; the field is
    the export's word about the others, not a field of the paper's."""
    extra.get("bibtex", {}).pop(_TEX_FIELDS, None)
    return {name.strip().lower() for name in entry.fields.get(_TEX_FIELDS, "").split(",")}


#: The export's field naming the text fields written as plain text escaped (its title).
_PLAIN_FIELDS = "plainfields"


#: Math as the export protects it in a title (``{M{$^3$}E}``): braced, its brace unescaped.
_MATH_GROUP = re.compile(r"(?<!\\)\{(" + MATH + r")\}", re.DOTALL)
#: What stands for each math while the words around it are read: letters and a number,
#: which the reading leaves as they are.
_STAND_IN = "zqxmath{}zqx"


def plain_of_grouped(value: str) -> str:
    """:func:`plain` of a value whose braces can only group (no command: an export's title
    with its capitals protected, ``{SAIL}: {Self-Amplified} …``): the braces dropped
    first, so that words needing no rendering skip it (rendering the protected titles of a
    conference's export took two seconds of its import). Math the export braced stays the
    TeX it is (``{M{$^3$}E}`` is ``M$^3$E``, as the paper held it), the words around read."""
    if "$" in value and _MATH_GROUP.search(value):
        return _math_kept(value)
    return _grouped(value)


def _grouped(value: str) -> str:
    """:func:`plain_of_grouped` of a value of no braced math."""
    if "\\" in value or "$" in value:
        return plain(value)
    return plain(value.replace("{", "").replace("}", ""))


def _math_kept(value: str) -> str:
    """:func:`plain_of_grouped` of a value with braced math: each math stood in for by
    letters while the rest is read, then put back as written."""
    maths: list[str] = []

    def stand_in(match: re.Match[str]) -> str:
        maths.append(match.group(1))
        return _STAND_IN.format(len(maths) - 1)

    read = _grouped(_MATH_GROUP.sub(stand_in, value))
    for number, math in enumerate(maths):
        read = read.replace(_STAND_IN.format(number), math, 1)
    return read


def plain_title(entry: Evaluated, extra: dict[str, dict[str, Any]], title: str) -> str:
    """The entry's title as the importer stores it: its TeX as written, but for the plain
    text our export wrote escaped and protected (``{SAIL}: {Self-Amplified} …``), named in
    its ``plainfields``, read as that text. The field is the export's word, not a field of
    the paper's."""
    extra.get("bibtex", {}).pop(_PLAIN_FIELDS, None)
    named = {name.strip().lower() for name in entry.fields.get(_PLAIN_FIELDS, "").split(",")}
    return plain_of_grouped(title) if "title" in named and "subtitle" not in entry.fields else title


def openreview_fields(
    entry: Evaluated, extra: dict[str, dict[str, Any]]
) -> tuple[bool, str, str]:
    """Whether the entry is withdrawn, its TL;DR (as TeX) and primary area: its own
    ``pubstate = {withdrawn}`` (or ``retracted``), ``tldr`` and ``primaryarea``, as an
    export writes them, which are then no longer kept among its source fields. Another
    ``pubstate`` stays one, but "under review" or "rejected": an export's word for a
    decision, the library's to say."""
    own = entry.fields
    state = plain(own.get("pubstate", "")).lower()
    # A retracted paper is withdrawn too (as MEDLINE's is read), its pubstate kept.
    withdrawn = state in ("withdrawn", "retracted")
    kept = extra.get("bibtex", {})
    names: tuple[str, ...] = ("tldr", "primaryarea", "openreview")
    # A state an export writes (withdrawn, rejected, under review) is read as the paper's.
    # So is an accepted or withdrawn paper's decision, as the export writes it.
    names += ("decision",) if decision_field(plain(own.get("decision", ""))) else ()
    for name in names + (("pubstate",) if state in EXPORT_STATES else ()):
        kept.pop(name, None)
    tldr = as_read(_tex_line(own.get("tldr", "")), tex="tldr" in tex_kept(entry, extra))
    return withdrawn, tldr, plain(own.get("primaryarea", ""))


def stated(fields: dict[str, str]) -> tuple[str, str]:
    """The submission's state as the entry says it (:func:`reader.sources.withdrawn.decided`
    reads it): its ``pubstate``, or a ``note`` "Under review", as classic BibTeX exports
    and OpenReview's own entries for submissions say it; and the accepted paper's
    ``decision`` the library's export writes."""
    note = plain(fields.get("note", ""))
    state = plain(fields.get("pubstate", "")) or (note if note.lower() == UNDER_REVIEW else "")
    return state, plain(fields.get("decision", ""))
