"""What an export leaves out of the papers it writes: the user's marks and the conference
signals a format has no place for, and the fields of a record it cannot write, said beside
every export ("Not in bibtex: ratings or decisions (400 papers), stars (3) …").

A bibliographic format's loss of a record's variables is found by reading the export of the
paper back, for the few papers with variables beyond those every export writes: a message
that names what is lost must not name what comes back.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from reader.cite.bibtex_text import bibtex_abstract, bibtex_source, tex_fields
from reader.cite.export import CSV_CSL, export
from reader.models import Paper
from reader.record import date_parts, split_name
from reader.signals import Signals, decision_field, export_state
from reader.sources import read_back
from reader.sources.bibtex_marks import manager_marks
from reader.text.render import plain_line, to_plain
from reader.text.tex_plain import escaped_plain

__all__ = ["left_out"]


#: What of a paper each format carries beyond its bibliographic record (see left_out).
_CARRIED: dict[str, frozenset[str]] = {
    "json": frozenset({"ratings or decisions", "stars", "read marks", "tags", "notes",
                       "highlights", "other fields"}),
    "csljson": frozenset({"other fields"}),
    "csv": frozenset({"ratings or decisions", "stars", "read marks", "tags", "notes",
                      "highlights"}),
    "markdown": frozenset({"notes", "other fields"}),  # a page to read, not a record
}
#: The source fields kept verbatim (Paper.extra) that a bibliographic format writes back.
_EXTRA_WRITTEN = {"bibtex": {"bibtex"}, "biblatex": {"bibtex"}, "ris": {"ris", "bibtex"}}


def _other_fields_left(
    paper: Paper, fmt: str, found: dict[frozenset[str], tuple[str, ...]]
) -> list[str]:
    """The names of the paper's fields the format has no place for (none: it writes them
    all): in a CSV, the source fields and CSL variables beyond its columns; in BibTeX and
    RIS, the fields kept from sources of other formats (``source fields``), and variables
    it cannot write (``found``: what reading back said for each set of such variables,
    asked once per set), each by its name (``original-date``)."""
    if fmt == "csv":
        return _csv_left_names(paper)
    names = ["source fields"] if set(paper.extra) - _EXTRA_WRITTEN.get(fmt, set()) else []
    if fmt not in _EXTRA_WRITTEN:
        return names
    odd = _odd_variables(paper, fmt)
    if not odd:
        return names
    # Read back once per kind of paper: a Zotero library's items share their variables
    # ("source", "accessed"), and reading each of 20,000 back took a millisecond apiece.
    # What comes back of a number RIS reads by its form and type is asked of each form.
    kind = frozenset(odd) | {
        f"{name}={re.sub(r'[0-9]', '0', str(paper.csl[name]))}" for name in odd
        if name in _READ_BY_FORM.get(fmt, ())
    }
    if _READ_BY_FORM.get(fmt, frozenset()) & set(odd):
        kind |= {f"type={paper.csl.get('type')}"}
    if kind not in found:
        found[kind] = _variables_lost(paper, fmt, odd)
    return names + list(found[kind])


#: The CSL variables every bibliographic export (BibTeX, biblatex, RIS) writes and reads back.
_WRITTEN_BY_ALL = frozenset({
    "type", "title", "author", "editor", "translator", "issued", "DOI", "URL",
    "container-title", "abstract", "keyword", "publisher", "publisher-place", "volume",
    "issue", "page", "number", "ISSN", "ISBN", "language", "edition", "collection-title",
    "genre", "note",
})
#: Of those, the ones a format writes where they read back by the value's form or the type:
#: RIS's SN holds an ISSN or an ISBN, told apart by the number; its M1 is a number of some
#: types only (a report's, a preprint's), C7 an article's.
_READ_BY_FORM = {"ris": frozenset({"ISSN", "ISBN", "number"})}


def _odd_variables(paper: Paper, fmt: str) -> dict[str, Any]:
    """The paper's variables that may not come back from ``fmt``: those beyond what every
    export writes, and those it writes where they may be read as another."""
    checked = _READ_BY_FORM.get(fmt, frozenset())
    return {name: value for name, value in paper.csl.items()
            if name not in _WRITTEN_BY_ALL or name in checked}


def _variables_lost(paper: Paper, fmt: str, odd: dict[str, Any]) -> tuple[str, ...]:
    """The variables of ``odd`` (a series number, a PMCID, the catalogue a Zotero item
    came from) lost in ``fmt``: found by reading the paper's export back. Each variable
    must come back as itself: a value found elsewhere in the record (a source named in
    the URL, a PMID kept only as a BibTeX field) is lost all the same."""
    # (A biblatex file is read back as BibTeX, which it is.)
    back = read_back(export([paper], fmt, compact=True), "bibtex" if fmt == "biblatex" else fmt)
    if len(back) != 1:
        return tuple(odd)
    lost = []
    for name, value in odd.items():
        text = json.dumps(back[0].csl.get(name), ensure_ascii=False)
        if any(json.dumps(leaf, ensure_ascii=False)[1:-1] not in text for leaf in _leaves(value)):
            lost.append(name)
    return tuple(lost)


def _leaves(value: Any) -> list[str]:
    """The words of a variable's value (a name's parts, a date's numbers), as text."""
    if isinstance(value, dict):
        return [leaf for v in value.values() for leaf in _leaves(v)]
    if isinstance(value, list):
        return [leaf for v in value for leaf in _leaves(v)]
    return [str(value)] if str(value).strip() else []


def _type_lost(paper: Paper, fmt: str, found: dict[tuple[str, ...], bool]) -> bool:
    """Whether the paper's item type does not come back from ``fmt``: classic BibTeX has
    no entry type for a patent, a program, a data set or a talk (written as ``@misc``,
    each came back a document); a CSV has CSL's types only (a @misc preprint, a Zotero
    preprint came back with no type of their source's). Found by reading an export back,
    once per type and source type (``found``)."""
    kind = paper.csl.get("type")
    if fmt == "csv":
        # A table's type column is CSL's: a source's own type (a @misc, Zotero's preprint)
        # with no CSL type of its own comes back as none.
        kind = kind if isinstance(kind, str) else ""
        if not paper.kind:
            return False
    # (RIS's types are written back from the record's own, or mapped one to one.)
    elif fmt not in ("bibtex", "biblatex") or not isinstance(kind, str) or not kind:
        return False
    sources = [str(fields.get("@type", "")) for name, fields in sorted(paper.extra.items())
               if name in _EXTRA_WRITTEN.get(fmt, ()) and isinstance(fields, dict)]
    # (What a type is written as may hang on an arXiv id or a venue: a preprint's @misc.)
    key = (fmt, kind, paper.kind or "", str(bool(paper.arxiv_id)), str(bool(paper.venue)),
           *sources)
    if key not in found:
        back = read_back(export([paper], fmt, compact=True),
                         "bibtex" if fmt == "biblatex" else fmt)
        found[key] = len(back) == 1 and (
            not back[0].kind if fmt == "csv" else back[0].csl.get("type") not in (kind, None))
    return found[key]


def _date_lost(paper: Paper, fmt: str) -> bool:
    """Whether the paper's date does not come back from ``fmt``: BibTeX says the paper's
    year, so a date of another year (OpenReview's submission day, the year before the
    conference's) is read back as the year; classic BibTeX says no day. RIS and CSL-JSON
    give a date of the paper's own back as one (a marked DA, CSL's submitted)."""
    if fmt not in ("bibtex", "biblatex") or not paper.date or not paper.year:
        return False
    if not paper.date.startswith(f"{paper.year:04d}"):
        return True
    return fmt == "bibtex" and paper.date.count("-") == 2 and "issued" not in paper.csl


def _markup_lost(paper: Paper, fmt: str) -> bool:
    """Whether RIS or CSL-JSON, whose titles and abstracts are plain text for the tools
    that read them (or a CSV, a .bib paper's title), write the paper's title or abstract
    rendered (``$\\lambda$`` as λ, ``*word*`` as word), so that a library made from the
    export holds other text. A paper from a .bib file keeps its TeX in the record's BibTeX
    fields, which come back (from RIS and CSL-JSON)."""
    if fmt == "csv":
        # A table holds a .bib title's text, not its TeX (see export's CSV).
        title = paper.title or ""
        return bool(bibtex_source(paper)) and plain_line(title) != " ".join(title.split())
    if fmt in ("bibtex", "biblatex"):
        return _underscores_escaped(paper)
    if fmt not in ("ris", "csljson") or bibtex_source(paper):
        return False
    # (An abstract's dashes stay as written: TeX's ligatures are rendered only in TeX's.)
    title, abstract = paper.title or "", paper.abstract or ""
    return " ".join(to_plain(title, groups=True).split()) != " ".join(title.split()) or (
        " ".join(to_plain(abstract, ligatures=False).split()) != " ".join(abstract.split())
    )


#: The formats whose keyword lists are one text, split again on "," and ";" by an import.
_KEYWORDS_JOINED = frozenset({"bibtex", "biblatex", "ris", "csljson", "csv"})
#: The formats that read a single line break in an abstract as a space, as TeX does (their
#: paragraph breaks come back).
_LINES_FOLDED = frozenset({"bibtex", "biblatex", "ris"})
_LINE_BREAK = re.compile(r"(?<!\n)\n(?!\n)")


def _keywords_split(paper: Paper, fmt: str) -> bool:
    """Whether a keyword of the paper holds a "," or ";" (OpenReview's "Diffusion
    models;RL"), which an import of ``fmt`` reads as two keywords; RIS, a keyword a line,
    splits a line on ";" alone (Scopus's "Models, Biological" comes back whole)."""
    marks = ";" if fmt == "ris" else ",;"
    return fmt in _KEYWORDS_JOINED and any(
        mark in keyword for keyword in paper.keywords or [] for mark in marks)


def _lines_folded(paper: Paper, fmt: str) -> bool:
    """Whether the paper's abstract breaks a line within a paragraph (OpenReview's often
    do), which BibTeX and RIS give back as a space. A .bib paper's abstract is TeX, where
    a line break is one."""
    abstract = (paper.abstract or "").strip()
    return fmt in _LINES_FOLDED and "\n" in abstract and not bibtex_source(paper) and bool(
        _LINE_BREAK.search(re.sub(r"[ \t]*\n[ \t]*", "\n", abstract)))


def _underscores_escaped(paper: Paper) -> bool:
    """Whether BibTeX writes the paper's abstract as the TeX its authors wrote it in
    (OpenReview's ``30\\%``) with a Markdown ``_emphasis_`` in it: TeX has no bare
    underscore outside math, so it goes out, and comes back, as ``\\_emphasis\\_``."""
    abstract = paper.abstract or ""
    if "_" not in abstract or bibtex_source(paper):
        return False
    written = bibtex_abstract(paper)
    if written.count("\\_") <= abstract.count("\\_"):
        return False
    # Read back as TeX (holding other TeX, or named so): the escapes stay; else as the
    # plain text it escaped, underscores and all.
    return escaped_plain(written) is None or "abstract" in tex_fields(paper)


def _marks_written(paper: Paper, fmt: str) -> set[str]:
    """The user's marks a BibTeX export writes back as the reference manager's fields the
    paper came with (JabRef's groups and comment, Mendeley's tags and annote), as an import
    of it reads them again."""
    source = paper.extra.get("bibtex") if isinstance(paper.extra, dict) else None
    if fmt not in ("bibtex", "biblatex") or not isinstance(source, dict):
        return set()
    marks = manager_marks({k: v for k, v in source.items() if isinstance(v, str)})
    written = set()
    if set(marks.get("tags", [])) == set(paper.tags) and paper.tags:
        written.add("tags")
    if isinstance(marks.get("note"), str) and marks["note"].strip() == paper.note.strip():
        written.add("notes")
    if marks.get("read") and paper.read:
        written.add("read marks")
    return written


def _csv_extra_left(paper: Paper) -> list[str]:
    """The source fields a CSV has no column for: a BibTeX source's by their names
    (``howpublished``: a reader knows them, and left unnamed as "source fields" one seemed
    kept), another source's as "source fields". A BibTeX source's entry type and the names
    of its fields only say how to write what the columns hold."""
    names: set[str] = set()
    for fmt, fields in (paper.extra or {}).items():
        if fmt != "bibtex" or not isinstance(fields, dict):
            names.add("source fields")
        else:
            names.update(name for name in fields if not name.startswith("@"))
    return sorted(names)


def _csv_left_names(paper: Paper) -> list[str]:
    """What of the paper a CSV has no column for, by name: its CSL variables beyond the
    columns (``note``, ``PMID``) and the fields kept from its source (above)."""
    names = sorted(set(paper.csl) - CSV_CSL - _csv_implied(paper))
    # Every author comes back, in the order of the column: what is lost is which part of
    # each name is the family name ("Lee, Kim" read back as Kim Lee).
    names = [_NAME_PARTS.get(name, name) for name in names]
    return names + _csv_extra_left(paper)


#: How a CSV's loss of a name variable's parts is said: its names come back, whole.
_NAME_PARTS = {"author": "authors' family names"}


def _named(left: Counter[str]) -> str:
    """The names of what a CSV leaves out, the most often left first: a reader sees what
    "other fields" are (``note``, ``PMID``, ``source fields``) and that a JSON export
    keeps them."""
    names = [name for name, _ in left.most_common()]
    shown = names[:_NAMES_SHOWN] + (["…"] if len(names) > _NAMES_SHOWN else [])
    return ", ".join(shown)


#: How many names of the fields a CSV leaves out are said.
_NAMES_SHOWN = 6


def _csv_implied(paper: Paper) -> set[str]:
    """The CSL variables a CSV row says in other columns: the date (year and date), and
    the authors where their names read back as the record has them."""
    implied = set()
    day = paper.date or ("" if paper.year is None else str(paper.year))
    if paper.csl.get("issued") == {"date-parts": [date_parts(day)]}:
        implied.add("issued")
    stored = paper.csl.get("author")
    if isinstance(stored, list) and stored == [split_name(a) for a in paper.authors or []]:
        implied.add("author")
    return implied


#: The bibliographic formats that say a submission's state (biblatex's pubstate, CSL's
#: status, a RIS note), which an import reads back as its decision.
_STATES_WRITTEN = frozenset({"bibtex", "biblatex", "ris", "csljson"})


def _decision_lost(paper: Paper, decision: str | None, fmt: str) -> bool:
    """Whether the paper's decision does not come back from the format: a state it writes
    (rejected, under review: :func:`reader.signals.export_state`) or an accepted or withdrawn
    paper's decision (:func:`reader.signals.decision_field`) does, but a decision pending only
    beside the venue it was submitted to, as the import reads it."""
    if not decision:
        return False
    if fmt in _STATES_WRITTEN and decision_field(decision, paper.withdrawn):
        return False  # in a field of its own (BibTeX's decision, CSL's custom)
    if fmt not in _STATES_WRITTEN or not export_state(decision) or paper.withdrawn:
        return True
    return decision == "pending" and not paper.venue


def left_out(
    papers: Sequence[Paper],
    fmt: str,
    signals: Mapping[int, Signals] | None = None,
    replied: Collection[int] | None = None,
) -> str:
    """What the papers have that an export in ``fmt`` does not write, with how many papers
    have it: ``"Not in bibtex: ratings or decisions (400 papers), notes (1); json keeps
    all but replies"``; empty when it writes everything they have. Replies are in no
    export (``reader reviews`` prints them); a CSV has no column for the source fields the
    library keeps verbatim, nor for CSL variables beyond its columns, and names them:
    ``other fields (56 papers: note, PMID, source fields)``; BibTeX and RIS name likewise
    the variables that do not come back from them (``original-date``)."""
    carried = _CARRIED.get(fmt, frozenset())
    counts: dict[str, int] = {}

    def count(name: str, has: object) -> None:
        if has and name not in carried and name not in written:
            counts[name] = counts.get(name, 0) + 1

    found: dict[frozenset[str], tuple[str, ...]] = {}
    types_found: dict[tuple[str, ...], bool] = {}
    left: Counter[str] = Counter()
    for paper in papers:
        written = _marks_written(paper, fmt)
        own = (signals or {}).get(paper.id)
        count("ratings or decisions", own is not None and (
            own.rating_mean is not None or _decision_lost(paper, own.decision, fmt)))
        # Every reply stored (``replied``): a decision, a withdrawal, a comment too; without
        # it, what the signals count (reviews and comments).
        count("replies", paper.id in replied if replied is not None else (
            own is not None and own.comments is not None and bool(own.reviews or own.comments)))
        count("stars", paper.starred)
        count("read marks", paper.read)
        count("tags", paper.tags)
        count("notes", paper.note.strip())
        count("highlights", paper.highlights)
        # Written with the id of their reply, which no export carries: an import cannot
        # place them again.
        count("highlights in replies", "highlights" in carried
              and any(h.reply_id for h in paper.highlights))
        count("dates", _date_lost(paper, fmt))
        count("TeX or Markdown of titles and abstracts", _markup_lost(paper, fmt))
        count("line breaks within abstracts' paragraphs", _lines_folded(paper, fmt))
        count("keywords split at ',' or ';'", _keywords_split(paper, fmt))
        count("item types", _type_lost(paper, fmt, types_found))
        other = _other_fields_left(paper, fmt, found)
        count("other fields", other)
        if "other fields" not in carried:
            left.update(other)
    if not counts:
        return ""
    parts = [f"{name} ({n:,} paper{'s' if n != 1 else ''})" if i == 0 else f"{name} ({n:,})"
             for i, (name, n) in enumerate(counts.items())]
    if left and "other fields" in counts:
        at = list(counts).index("other fields")
        parts[at] = parts[at][:-1] + f": {_named(left)})"
    rest = set(counts) - {"replies"}
    hint = ("; json keeps all but replies" if rest and fmt != "json"
            else "; reader reviews prints replies" if "replies" in counts else "")
    return f"Not in {fmt}: {', '.join(parts)}{hint}."
