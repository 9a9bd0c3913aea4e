"""RIS notes (``N1``) that carry what RIS has no tag for: the BibTeX fields, other keys,
TL;DR, primary area, a submission's state and an item type RIS has no type for (a preprint)
our own export writes as ``tex.`` lines, read back; and the arXiv id, from those notes or
the links.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from reader.models import PaperRecord
from reader.record import CSL_TYPES, TEX_PREFIX
from reader.signals import EXPORT_STATES, decision_field
from reader.sources.ris_tags import fold_lines, tag_values
from reader.sources.ris_tools import Tags
from reader.sources.withdrawn import decided, unpublished_venue
from reader.text.identifiers import normalize_arxiv_id

_IDS = f"{TEX_PREFIX}ids:"
_PUBSTATE, _TLDR, _AREA, _EVENT, _CSL_TYPE, _DECISION = (
    f"{TEX_PREFIX}{name}"
    for name in ("pubstate", "tldr", "primaryarea", "eventtitle", "csltype", "decision"))


def continued_notes(lines: Iterable[tuple[str | None, str]]) -> list[str]:
    """A record's N1 notes, each with the continuation lines after it: EndNote writes a note
    of many lines so ("N1  - 1476-4687", then "Esteva, Andre", "Journal Article"), and the
    first line was taken for the note, the others for notes of their own."""
    notes: list[str] = []
    last = None
    for tag, value in lines:
        if tag == "N1":
            notes.append(value)
        elif tag is None and last == "N1" and value.strip():
            notes[-1] = f"{notes[-1]}\n{value}"
            continue
        last = tag
    return notes


def ris_aliases(tags: Tags) -> list[str]:
    """The paper's other citation keys, which our export carried in a ``tex.ids`` note."""
    for raw in tag_values(tags, "N1"):
        value = fold_lines(raw)
        if value.startswith(_IDS):
            return [k for k in (p.strip() for p in value[len(_IDS):].split(",")) if k]
    return []


def ris_openreview(tags: Tags) -> tuple[bool, str, str]:
    """Whether the record is a withdrawn submission, its TL;DR and its primary area, which
    our export carried in ``tex.pubstate: withdrawn``, ``tex.tldr`` and ``tex.primaryarea``
    notes."""
    withdrawn, tldr, area = False, "", ""
    for raw in tag_values(tags, "N1"):
        name, _, text = fold_lines(raw).partition(":")
        text = text.strip()
        if name == _PUBSTATE and text.lower() == "withdrawn":
            withdrawn = True
        elif name == _TLDR:
            tldr = tldr or text
        elif name == _AREA:
            area = area or text
    return withdrawn, tldr, area


def ris_withdrawn(record: PaperRecord, tags: Tags) -> PaperRecord:
    """The record with the decision (rejected, under review) our export carried in a
    ``tex.pubstate`` note (an accepted one in a ``tex.decision`` note), its CSL type where
    RIS has none for it in a ``tex.csltype`` note (a preprint, which RIS's UNPB read back
    as a manuscript), and the venue of a submission withdrawn or rejected in a
    ``tex.eventtitle`` note (:func:`reader.sources.withdrawn.unpublished_venue`)."""
    notes = [fold_lines(raw).partition(":") for raw in tag_values(tags, "N1")]
    accepted = next((text for name, _, text in notes if name == _DECISION), "")
    for name, _, text in notes:
        if name == _PUBSTATE:
            record.signals = decided(record, text.strip())
        elif name == _CSL_TYPE and text.strip() in CSL_TYPES and not record.extra.get("bibtex"):
            # The type the paper had, as a CSL-JSON file of it says its kind.
            record.csl["type"] = record.kind = text.strip()
    if accepted:
        record.signals = decided(record, "", accepted)  # (a tex.decision note: "poster")
    event = next((text for name, _, text in notes if name == _EVENT), "")
    return unpublished_venue(record, event)


def _openreview_note(value: str) -> bool:
    """Whether a note is one that :func:`ris_openreview` or :func:`ris_withdrawn` reads."""
    name, _, text = value.partition(":")
    return name in (_TLDR, _AREA, _EVENT, _CSL_TYPE) or (
        name == _DECISION and bool(decision_field(text))) or (
        name == _PUBSTATE and text.strip().lower() in EXPORT_STATES)


def notes_and_bibtex(values: list[str]) -> tuple[list[str], dict[str, Any]]:
    """A record's notes, and the BibTeX fields our export carried in ``tex.`` note lines."""
    notes: list[str] = []
    bibtex: dict[str, Any] = {}
    # See ris_aliases and ris_openreview.
    values = [
        v for v in values
        if not (fold_lines(v).startswith(_IDS) or _openreview_note(fold_lines(v)))
    ]
    for raw in values:
        value = fold_lines(raw)
        name, colon, text = value.partition(":")
        text = text.strip()
        if not (colon and name.startswith(TEX_PREFIX) and " " not in name):
            if value:
                notes.append(value)
            continue
        name = name[len(TEX_PREFIX):]
        if name == "entrytype":
            bibtex["@type"] = text
        elif name == "@fields":
            pairs = (p.partition("=") for p in text.split(", "))
            bibtex["@fields"] = {k: v for k, eq, v in pairs if eq and k and v}
        elif name.startswith("@"):
            bibtex[name] = [v for v in text.split(", ") if v]
        elif name:
            bibtex[name] = text
    if bibtex and "@type" not in bibtex:  # not written by us: notes like any other
        return [v for v in (fold_lines(raw) for raw in values) if v], {}
    return notes, bibtex


def ris_arxiv(bibtex: dict[str, Any], urls: list[str]) -> tuple[str | None, list[str]]:
    """The record's arXiv id and its links without the one our export wrote for it alone.

    A BibTeX record's arXiv id comes in ``tex.eprint`` and ``tex.archiveprefix`` notes (as
    the BibTeX importer has it), and the first link is then the export's link to it, unless
    a ``tex.url`` note says it is the paper's own: the two read alike, and a paper whose own
    link was its arXiv page lost it. Else the id is read from the links: the first, or
    after its own for a paper found elsewhere (OpenReview, a DOI), as our export writes it.
    """
    if str(bibtex.get("archiveprefix", "")).lower() == "arxiv" and bibtex.get("eprint"):
        arxiv_id = normalize_arxiv_id(str(bibtex.pop("eprint")))
        bibtex.pop("archiveprefix")
        own = bibtex.pop("url", None)
        if urls and urls[0] == f"https://arxiv.org/abs/{arxiv_id}" != own:
            urls = urls[1:]
        return arxiv_id, urls
    if urls and "arxiv.org/" in urls[0]:
        return normalize_arxiv_id(urls[0]), urls
    return next((normalize_arxiv_id(u) for u in urls[1:] if "arxiv.org/abs/" in u), None), urls
