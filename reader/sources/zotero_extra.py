"""Zotero's Extra field, as Zotero and Better BibTeX use it: one field a line for what an item
type has no slot for.

* ``Citation Key: smith2020`` (``bibtex: smith2020`` in older Better BibTeX) pins the key;
* ``tex.options= usetranslator=false`` or ``tex.howpublished: online`` is a BibTeX field for
  the export (``bibtex.`` and ``biblatex.`` say the same for one flavour); ``=`` gives the
  value as TeX, ``:`` as text;
* ``original-date: 1950``, ``Original Date: 1950``, ``DOI: 10.1/x``, ``editor: Smith || Jane``
  or the older ``{:original-date: 1950}`` is a CSL variable: a date, a name (``Family ||
  Given``, or one literal) or text.

Every other line is a note and stays one.

Zotero's child notes, HTML in every export of Zotero's (JSON, CSV, RIS), are the paper's
note in Markdown (:func:`zotero_note`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from reader.record import CSL_TYPES, DATE_VARIABLES, NAME_VARIABLES

__all__ = ["ExtraFields", "read_extra", "zotero_note"]

#: An HTML element, as Zotero writes its notes.
_HTML = re.compile(r"<(p|div|h[1-6]|ul|ol|li|br|strong|em|b|i|a|span|blockquote)\b[^>]*>", re.I)

# CSL 1.0.2's text and number variables, by their folded names (the columns' too: DOI, URL).
_TEXT_VARIABLES = {
    v.lower(): v
    for v in (
        "abstract annote archive archive_collection archive_location archive-place authority "
        "call-number chapter-number citation-label collection-number collection-title "
        "container-title container-title-short dimensions division DOI edition event "
        "event-title event-place genre ISBN ISSN issue jurisdiction language license medium "
        "note number number-of-pages number-of-volumes original-publisher "
        "original-publisher-place original-title page page-first part-number part-title "
        "PMCID PMID printing publisher publisher-place references reviewed-genre "
        "reviewed-title scale section source status supplement-number title-short URL "
        "version volume volume-title year-suffix"
    ).split()
}
_DATES = frozenset((*DATE_VARIABLES, "available-date"))
_NAMES = frozenset(NAME_VARIABLES)
_LINE = re.compile(r"^([A-Za-z][A-Za-z0-9 _.\-]*?)\s*(:|=)\s*(.*)$")
_TEX_PREFIXES = ("tex.", "bibtex.", "biblatex.")
_KEY_NAMES = frozenset({"citation key", "citation-key", "bibtex"})


@dataclass(slots=True)
class ExtraFields:
    """What an Extra field says: the key, CSL variables, BibTeX fields, an arXiv id, and
    the lines that are notes."""

    citekey: str | None = None
    csl: dict[str, Any] = field(default_factory=dict)
    bibtex: dict[str, str] = field(default_factory=dict)
    arxiv_id: str | None = None
    notes: list[str] = field(default_factory=list)


def read_extra(value: Any, parse_date: Any) -> ExtraFields:
    """The fields of an Extra value (a text, or a list of lines as some exports give it);
    ``parse_date`` turns a date as Zotero writes it into ISO (None when it cannot)."""
    lines = value if isinstance(value, list) else str(value or "").split("\n")
    out = ExtraFields()
    for raw in lines:
        line = " ".join(str(raw).split())
        if not line:
            continue
        # Zotero's older form of a CSL variable: "{:original-date: 1950}".
        bare = line[2:-1].strip() if line.startswith("{:") and line.endswith("}") else line
        match = _LINE.match(bare)
        if not match:
            out.notes.append(line)
            continue
        name, sign, text = match.group(1), match.group(2), match.group(3).strip()
        if _read_line(out, name, sign, text, parse_date):
            continue
        out.notes.append(line)
    return out


def _read_line(out: ExtraFields, name: str, sign: str, text: str, parse_date: Any) -> bool:
    """Take one ``name: text`` line into ``out``; False when it names no field."""
    folded = name.lower()
    if folded in _KEY_NAMES and sign == ":" and text and " " not in text:
        out.citekey = out.citekey or text
        return True
    prefix = next((p for p in _TEX_PREFIXES if folded.startswith(p)), None)
    if prefix is not None:
        field_name = folded[len(prefix):]
        if not field_name or not text or " " in field_name:
            return False
        out.bibtex.setdefault(field_name, text)
        return True
    if sign != ":" or not text:
        return False
    variable = folded.replace(" ", "-")
    if variable == "arxiv":
        out.arxiv_id = out.arxiv_id or text
        return True
    if variable == "type":
        if text in CSL_TYPES:
            out.csl["type"] = text
            return True
        return False
    if variable in _DATES:
        iso = parse_date(text)
        out.csl.setdefault(variable, {"date-parts": [_parts(iso)]} if iso else {"literal": text})
        return True
    if variable in _NAMES:
        family, bars, given = text.partition("||")
        name_value = (
            {"family": family.strip(), **({"given": given.strip()} if given.strip() else {})}
            if bars else {"literal": text}
        )
        out.csl.setdefault(variable, []).append(name_value)
        return True
    canonical = _TEXT_VARIABLES.get(variable) or _TEXT_VARIABLES.get(folded.replace(" ", "_"))
    if canonical is None:
        return False
    out.csl.setdefault(canonical, text)
    return True


def _parts(iso: str) -> list[int]:
    return [int(p) for p in iso.split("-")]


def zotero_note(notes: list[str]) -> str | None:
    """Zotero's child notes as the paper's one note: each in Markdown (its HTML converted,
    plain text as it is), a rule between them; None for none."""
    parts = []
    for note in (n.strip() for n in notes):
        if note and _HTML.search(note):
            from markdownify import markdownify

            note = markdownify(note, heading_style="ATX", bullets="-").strip()
        if note:
            parts.append(re.sub(r"\n{3,}", "\n\n", note))
    return "\n\n---\n\n".join(parts) or None
