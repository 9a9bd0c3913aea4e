"""What a file says of a paper already in the library that the library says otherwise:
the year, the authors, a journal's name, the volume, issue, pages, publisher, genre and DOI. The
library's values stay (they may be the user's own corrections, or a better source's); the
import summary names the fields, so that a file's correction is not silently taken for
nothing."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from reader.cite.bibtex_types import biblatex_type_words
from reader.intake.identity import DASHES
from reader.models import PaperRecord
from reader.record import family_key
from reader.text.identifiers import normalize_doi

if TYPE_CHECKING:
    from reader.intake.echo import BibtexEcho, ExportEcho

__all__ = ["Difference", "completes", "differing", "in_full", "in_full_names", "taken"]

#: The CSL variables compared: numbers a citation prints, which sources seldom word apart,
#: and a thesis's or report's kind ("PhD thesis" against "Master's thesis").
_VARIABLES = ("volume", "issue", "page", "publisher", "genre")
# Page ranges written "1--10", "1–10", "1-10" are one range.


@dataclass(frozen=True, slots=True)
class Difference:
    """One field a file gives otherwise: as said (``volume 1 (the file: 12)``), and the
    paper column or CSL variable the file's value is for, to take it."""

    said: str
    column: str | None
    variable: str | None
    value: Any


def differing(
    record: PaperRecord,
    current: dict[str, Any],
    csl: dict[str, Any],
    echo: BibtexEcho | ExportEcho | None = None,
) -> list[Difference]:
    """The fields the record gives otherwise than the paper ``current`` (its merge
    columns, ``csl`` its CSL variables as read from them) has them, each as ``volume 1 (the
    file: 12)``; none when they agree or either side is silent. ``echo`` is what the
    paper's own export reads back as: a value it implies is the paper's, said another way."""
    found: list[Difference] = []
    if record.year and current["year"] and record.year != current["year"] and not (
        echo and echo.implies("year", record.year)
    ):
        found.append(Difference(f"year {current['year']} (the file: {record.year})", "year",
                                None, record.year))
    stored = json.loads(current["authors"] or "[]")
    if record.authors and stored and _families(record.authors) != _families(stored) and not (
        completes(record, current)
    ):
        found.append(Difference(f"authors {_names(stored)} (the file: {_names(record.authors)})",
                                "authors", "author", record.authors))
    # Found on arXiv, published in a journal its listing names: its journal is that one
    # (as an export names it), not "arXiv".
    journal, where = current["venue"], "venue"
    if str(journal or "").lower().startswith("arxiv") and csl.get("container-title"):
        journal, where = csl["container-title"], "container-title"
    theirs = record.venue  # (the file's, likewise: a JSON export has both)
    if str(theirs or "").lower().startswith("arxiv") and record.csl.get("container-title"):
        theirs = record.csl["container-title"]
    if (
        # (A file of no types, a table, naming another journal for one is said too.)
        _journal(csl.get("type")) and _journal(record.csl.get("type") or "article-journal")
        and theirs and journal and not _same(theirs, journal)
        and not (echo and echo.implies("venue", record.venue))
    ):
        # A journal's name: a conference's is written a dozen ways ("ICLR 2026", its full
        # name), a journal's seldom, so only a journal's is named as differing.
        found.append(Difference(
            f"journal {journal} (the file: {theirs})",
            "venue" if where == "venue" else None,
            None if where == "venue" else where, theirs,
        ))
    for variable in _VARIABLES:
        ours, theirs = csl.get(variable), record.csl.get(variable)
        if ours in (None, "") or theirs in (None, "") or _same(ours, theirs):
            continue
        if variable == "genre" and _same(_words(ours), _words(theirs)):
            continue  # "techreport" is biblatex's key for "Technical report"
        if echo and echo.implies_variable(variable, theirs):
            continue
        name = "pages" if variable == "page" else variable
        found.append(Difference(f"{name} {ours} (the file: {theirs})", None, variable, theirs))
    doi = normalize_doi(record.doi)
    if doi and current["doi"] and doi != current["doi"]:
        found.append(Difference(f"doi {current['doi']} (the file: {doi})", "doi", "DOI", doi))
    return found


def completes(record: PaperRecord, current: dict[str, Any]) -> bool:
    """Whether the record's authors are the paper's whole list, where the paper's source
    cut it short (BibTeX's ``and others``): the same names first, then the rest."""
    stored = json.loads(current["authors"] or "[]")
    if not stored or len(record.authors) <= len(stored):
        return False
    bibtex = json.loads(current["extra"] or "{}").get("bibtex")
    others = bibtex.get("@others") if isinstance(bibtex, dict) else None
    return (
        isinstance(others, list) and "author" in others
        and _families(record.authors)[: len(stored)] == _families(stored)
    )


def in_full(record: PaperRecord, current: dict[str, Any]) -> bool:
    """Whether the record's authors are the paper's, written in full where the paper's
    source gave initials ("Hugo Touvron" for Scopus's RIS "H. Touvron"): the same family
    names in order, every given name of the paper's its initials, one at least longer."""
    stored = json.loads(current["authors"] or "[]")
    if not stored or len(stored) != len(record.authors):
        return False
    if _families(record.authors) != _families(stored):
        return False
    fuller = False
    for ours, theirs in zip(stored, record.authors, strict=True):
        words, full = ours.split(), theirs.split()
        if len(words) != len(full):
            return False
        for word, spelt in zip(words, full, strict=True):
            if word.rstrip(".") == spelt.rstrip("."):
                continue  # the same, or one initial with its stop and one without
            if word.rstrip(".") not in (_initials(spelt), _initials(spelt).rstrip(".")):
                return False
            fuller = True
    return fuller


def in_full_names(names: Any, authors: list[str]) -> list[dict[str, Any]] | None:
    """CSL names given the given names of ``authors`` (display names that spell out what
    the names' given names abbreviate), their other parts kept; None where they do not
    line up."""
    if not isinstance(names, list) or len(names) != len(authors):
        return None
    spelt = []
    for name, author in zip(names, authors, strict=True):
        family = " ".join(
            str(name.get(part, "")) for part in ("non-dropping-particle", "family")
            if isinstance(name, dict) and name.get(part)
        )
        if not family or not author.endswith(f" {family}"):
            return None
        spelt.append({**name, "given": author[: -len(family)].strip()})
    return spelt


def _initials(given: str) -> str:
    """A given name's initials as a style writes them ("Jean-Pierre" → "J.-P.")."""
    return "-".join(f"{part[0]}." for part in given.split("-") if part)


def taken(
    found: list[Difference], record: PaperRecord, csl: dict[str, Any]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The file's values of ``found`` as column updates and the paper's CSL variables with
    them (its structured names where it gives them; a DOI as the file wrote it)."""
    columns: dict[str, Any] = {}
    variables = dict(csl)
    for difference in found:
        if difference.column == "authors":
            columns["authors"] = json.dumps(difference.value, ensure_ascii=False)
            if record.csl.get("author"):
                variables["author"] = record.csl["author"]
            else:
                variables.pop("author", None)
        elif difference.column == "year":
            # The date with it: kept, every style cited the old year the date said.
            columns["year"] = difference.value
            columns["date"] = record.date or f"{difference.value:04d}"
            if record.csl.get("issued"):
                variables["issued"] = record.csl["issued"]
            else:
                variables.pop("issued", None)
        elif difference.column == "doi":
            columns["doi"] = difference.value
            variables.pop("DOI", None)
            if record.csl.get("DOI"):
                variables["DOI"] = record.csl["DOI"]
        elif difference.column is not None:
            columns[difference.column] = difference.value
        elif difference.variable is not None:
            variables[difference.variable] = difference.value
    return columns, variables


def _names(names: list[str]) -> str:
    """Up to three names, then how many more ("Ann Lee, Bo Li, Cy Ng and 2 more")."""
    shown = ", ".join(names[:3])
    return f"{shown} and {len(names) - 3} more" if len(names) > 3 else shown


def _words(genre: Any) -> str:
    """A genre as biblatex prints its type keys ("techreport": "Technical report")."""
    return biblatex_type_words(str(genre)) or str(genre)


def _journal(kind: Any) -> bool:
    return bool(kind == "article-journal")


def _families(names: list[str]) -> list[str]:
    return [family_key(name) for name in names]


def _same(ours: Any, theirs: Any) -> bool:
    """Whether two values of a variable say the same, dashes and spacing apart."""
    def fold(value: Any) -> str:
        return DASHES.sub("-", " ".join(str(value).split())).casefold()

    return fold(ours) == fold(theirs)
