"""Citation keys and BibTeX entries for papers in the library.

Part of the headless core: plain string work, no Textual, no I/O.

Keys are readable (``smith2024gdpval``, ``gdpval2026``), ASCII-only and unique within the
library. Entries are written for both classic BibTeX and biber: special characters are
escaped, non-ASCII text stays Unicode, title acronyms are brace-protected from case
changes, and any input, however hostile, still yields one well-formed entry.
"""

from __future__ import annotations

import re

from reader.cite.bibtex_names import other_names, record_names
from reader.cite.bibtex_text import (
    LOCAL_FIELDS,
    PLAIN_FIELDS,
    TEX_FIELDS,
    bibtex_abstract,
    bibtex_source,
    bibtex_title,
    plain_fields,
    tex_fields,
)
from reader.cite.bibtex_types import biblatex_type_words
from reader.cite.keys import entry_key
from reader.cite.tex_escape import (
    ascii_field,
    braces_nest,
    escape_doi,
    escape_name,
    escape_text,
    escape_url,
    fold,
    unligatured,
)
from reader.cite.venues import openreview_fields, published_in, unpublished, workshop_track
from reader.models import Paper
from reader.sources.venue_names import SPELLED, spelled_out

__all__ = ["bibtex_entry", "bibtex_month", "bibtex_type"]


# Source entry types (BibTeX, CSL) whose venue is a journal.
_JOURNAL_KINDS = frozenset({"article", "article-journal", "journal-article"})
_YEAR_MONTH = re.compile(r"(\d{4})-(\d{2})(?!\d)")
_ISO_DATE = re.compile(r"(\d{4})(?:-(?:0[1-9]|1[0-2])(?:-(?:0[1-9]|[12]\d|3[01]))?)?(?!\d)")



def bibtex_entry(
    paper: Paper, *, unicode: bool = True, biblatex: bool = False, files: bool = True
) -> str:
    """A BibTeX entry for the paper, valid for bibtex/biber and parseable by bibtexparser.

    ``unicode`` keeps non-ASCII text as it is (biber, or bibtex with a UTF-8 document); without
    it every non-ASCII character becomes a LaTeX command, for classic 8-bit BibTeX.
    ``biblatex`` writes biblatex's entry types and fields (``date``, ``journaltitle``,
    ``eprinttype``) instead of classic BibTeX's. The source's entry type, every variable of
    the record and the source's own unmodelled fields are written back (an export's
    entry). Without ``files``, a citation's entry: not the fields naming local files
    (``file = {/home/…/paper.pdf}``), which a citation copied into a document must not
    carry, and as classic BibTeX, a biblatex source's types and names in classic BibTeX's.
    """
    source = paper.extra.get("bibtex", {}) if isinstance(paper.extra, dict) else {}
    aliases: dict[str, str] = source.get("@fields", {}) if isinstance(source, dict) else {}
    classic = not biblatex and not files
    if classic:
        # A biblatex source's names for fields classic BibTeX names otherwise: its styles
        # print no `journaltitle` (the journal went missing) nor `location`.
        aliases = {variable: _CLASSIC_NAMES.get(name, name) for variable, name in aliases.items()}
    csl_type = paper.csl.get("type") if isinstance(paper.csl.get("type"), str) else None
    # A submission turned down is cited as OpenReview cites it: a @misc naming no venue.
    venue = "" if unpublished(paper) else published_in(paper, fold(paper.venue or ""))
    entry_type = _entry_type(paper, source, csl_type, venue, biblatex, classic=classic)
    if classic and entry_type in _CLASSIC_THESES and aliases.get("publisher") == "institution":
        aliases = {**aliases, "publisher": "school"}  # (a classic thesis's institution)
    journal = bool(venue) and entry_type in _JOURNAL_ENTRY_TYPES
    if biblatex and venue.lower().startswith("arxiv") and not source:
        # "arXiv preprint arXiv:…" is no venue: biblatex says it with eprint fields.
        venue = ""
    fields: list[tuple[str, str]] = []
    # What the source's crossref parent gave the entry is the parent's to say: the entry is
    # written with its own fields and the crossref, as its source wrote it.
    inherited = (
        set(source.get("@inherited", []))
        if isinstance(source, dict) and source.get("crossref") else set()
    )

    title = bibtex_title(paper)
    if title:
        fields.append(("title", title))
    others = source.get("@others", []) if isinstance(source, dict) else []
    authors = record_names(paper, "author")
    if authors is None:
        authors = [escape_name(n) for n in (fold(a) for a in (paper.authors or [])) if n]
    if "author" in inherited:
        authors = []
    if authors or "author" in others:
        fields.append(("author", " and ".join(authors + (["others"] if "author" in others
                                                         else []))))
    fields += other_names(paper, others, inherited)
    if venue and "container-title" not in inherited:
        default = ("journaltitle" if biblatex else "journal") if journal else "booktitle"
        name = aliases.get("container-title", default)
        if biblatex and name == "journal":
            name = "journaltitle"
        # A record's own venue as it came, but one its file spelled out (SPELLED).
        own = (source or csl_type) and "container-title" not in source.get(SPELLED, [])
        value = venue if own else spelled_out(venue)
        value = workshop_track(paper, value)
        fields.append((name, escape_text(value)))
    if entry_type == "article" and csl_type in ("article-newspaper", "article-magazine"):
        fields.append(("entrysubtype", csl_type.removeprefix("article-")))
    fields += _record_fields(paper, source, entry_type, aliases, biblatex, inherited, classic)
    date = "" if "date" in source or "issued" in inherited else _iso_date(paper)
    if not (biblatex or aliases.get("issued") == "date"
            or (date.count("-") == 2 and "issued" in paper.csl)):
        date = ""  # classic BibTeX says year and month; a day needs biblatex's date
    if date:
        fields.append(("date", date))
    own_date = "issued" not in inherited
    if (paper.year is not None and not (biblatex and date) and "year" not in source
            and own_date):
        fields.append(("year", escape_text(fold(str(paper.year)))))
    month = _month(paper) if own_date else ""
    if month and not (biblatex and date) and "month" not in source:
        fields.append(("month", month))
    from reader.record import source_doi

    doi = escape_doi(fold(source_doi(paper.csl, paper.doi) or ""))
    if doi:
        fields.append(("doi", doi))
    url = escape_url(fold(paper.url or ""))
    written_url = source.get("url") if isinstance(source, dict) else None
    if isinstance(written_url, str) and paper.url and braces_nest(written_url):
        from reader.sources.bibtex_values import url_of

        if url_of({"url": written_url}) == paper.url:
            url = written_url  # as the source wrote it, unless the URL was edited since
    if url:
        fields.append(("url", url))
    arxiv_id = escape_doi(fold(paper.arxiv_id or ""))
    if arxiv_id and "eprint" not in source:
        fields.append(("eprint", arxiv_id))
        fields.append(("eprinttype", "arxiv") if biblatex else ("archivePrefix", "arXiv"))
    keywords = [k for k in (fold(k) for k in (paper.keywords or [])) if k]
    if keywords:
        name = aliases.get("keywords", "keywords")
        fields.append((name, ", ".join(unligatured(escape_text(k)) for k in keywords)))
    abstract = bibtex_abstract(paper)
    if abstract:
        fields.append(("abstract", abstract))
    fields += openreview_fields(paper, biblatex)
    kept_tex = tex_fields(paper)
    if kept_tex:
        fields.append((TEX_FIELDS, ", ".join(kept_tex)))
    kept_plain = plain_fields(paper) if files else []  # (an export's word, not a citation's)
    if kept_plain:
        fields.append((PLAIN_FIELDS, ", ".join(kept_plain)))
    if paper.aliases:
        # biblatex's key aliases: \cite{alias} finds the entry; classic BibTeX ignores them.
        fields.append(("ids", ", ".join(paper.aliases)))
    written = {name for name, _ in fields}
    for name, value in source.items() if isinstance(source, dict) else ():
        if name.startswith("@") or name in written or not isinstance(value, str):
            continue
        if not files and name in LOCAL_FIELDS:
            continue
        # As the source wrote it (LaTeX and all): reader does not know what it means.
        fields.append((name, value if braces_nest(value) else escape_text(value)))

    if not unicode:
        fields = [(name, ascii_field(name, value)) for name, value in fields]
    body = ",\n".join(
        f"  {name} = {value}" if name == "month" and value in _MONTH_MACROS
        else f"  {name} = {{{value}}}"
        for name, value in fields
    )
    head = f"@{entry_type}{{{entry_key(paper)}"
    return f"{head},\n{body}\n}}" if body else f"{head},\n}}"


# Entry types whose container is a journal (``journal`` / ``journaltitle``).
_JOURNAL_ENTRY_TYPES = frozenset({"article", "periodical", "suppperiodical"})
# Record variables and the BibTeX fields they are written to, in the order written.
_BIBTEX_FIELDS = (
    ("collection-title", "series"),
    ("volume", "volume"),
    ("issue", "number"),
    ("number", "number"),
    # BibTeX's number beside a series is the number in it (read back as such: see csl_items).
    ("collection-number", "number"),
    ("chapter-number", "chapter"),
    ("page", "pages"),
    ("edition", "edition"),
    ("publisher", "publisher"),
    ("publisher-place", "address"),
    ("event", "eventtitle"),
    ("event-place", "venue"),
    ("number-of-pages", "pagetotal"),
    ("genre", "type"),
    ("ISBN", "isbn"),
    ("ISSN", "issn"),
    ("language", "language"),
    ("note", "note"),
    # Where the work is in being published ("in press", "submitted"): biblatex's pubstate.
    ("status", "pubstate"),
    ("title-short", "shorttitle"),
    ("container-title-short", "shortjournal"),
    ("PMID", "pmid"),
    ("PMCID", "pmcid"),
    ("original-title", "origtitle"),
    ("original-publisher", "origpublisher"),
    ("original-publisher-place", "origlocation"),
    ("version", "version"),
)
_THESIS_TYPES = frozenset({"phdthesis", "mastersthesis", "thesis"})
# biblatex's field names and the classic ones for the same fields.
_CLASSIC_NAMES = {"journaltitle": "journal", "location": "address"}
# biblatex's entry types classic BibTeX has not, and its own for them (a thesis's depends
# on its kind).
_BIBLATEX_ONLY = {"thesis": "phdthesis", "report": "techreport", "online": "misc"}
_CLASSIC_THESES = frozenset({"phdthesis", "mastersthesis"})
_REPORT_TYPES = frozenset({"techreport", "report"})
_MONTH_MACROS = "jan feb mar apr may jun jul aug sep oct nov dec".split()


def bibtex_type(paper: Paper, *, biblatex: bool = False) -> str:
    """The entry type of the paper's classic BibTeX entry (``inproceedings``, ``misc`` …),
    or with ``biblatex`` of its biblatex entry (``online`` …)."""
    csl_type = paper.csl.get("type") if isinstance(paper.csl.get("type"), str) else None
    venue = "" if unpublished(paper) else fold(paper.venue or "")
    return _entry_type(paper, bibtex_source(paper), csl_type, venue, biblatex)


def bibtex_month(paper: Paper) -> str:
    """The month macro of the paper's BibTeX entry (``nov``), or ""."""
    return _month(paper)


def _entry_type(
    paper: Paper, source: dict[str, object], csl_type: str | None, venue: str, biblatex: bool,
    *, classic: bool = False,
) -> str:
    """The source's entry type (``classic``: in classic BibTeX's types), else the one for
    the record's CSL type, else from the venue."""
    from reader.record import bibtex_type_for

    kind = source.get("@type") if isinstance(source, dict) else None
    genre = str(paper.csl.get("genre", "")).lower()
    if isinstance(kind, str) and kind and classic and kind.lower() in _BIBLATEX_ONLY:
        # Classic BibTeX has no @thesis, @report or @online: its own entry for each.
        if kind.lower() == "thesis":
            return "mastersthesis" if "ma" in genre[:2] or "master" in genre else "phdthesis"
        return _BIBLATEX_ONLY[kind.lower()]
    if isinstance(kind, str) and kind:
        return kind
    if csl_type == "thesis" and not biblatex and "master" in genre:
        return "mastersthesis"  # classic BibTeX's entry for it ("Master's thesis" as genre)
    if csl_type:
        return bibtex_type_for(csl_type, biblatex=biblatex)
    if venue and (paper.kind or "").strip().lower() in _JOURNAL_KINDS:
        return "article"
    if venue and not (biblatex and venue.lower().startswith("arxiv")):
        return "inproceedings"
    if biblatex and (paper.url or paper.arxiv_id):
        return "online"
    return "misc"


def _record_fields(
    paper: Paper,
    source: dict[str, object],
    entry_type: str,
    aliases: dict[str, str],
    biblatex: bool,
    inherited: set[str],
    classic: bool = False,
) -> list[tuple[str, str]]:
    """The record's variables as BibTeX fields (under the source's own names where known),
    but for those ``inherited`` from a crossref parent; ``classic``: a biblatex type key
    as its words."""
    fields: list[tuple[str, str]] = []
    written: set[str] = set()
    for variable, default in _BIBTEX_FIELDS:
        value = paper.csl.get(variable)
        if value in (None, "") or isinstance(value, dict | list) or variable in inherited:
            continue
        name = aliases.get(variable, default)
        if isinstance(source, dict) and isinstance(source.get(name), str):
            continue  # the source's own field, written as it came with the others
        if variable == "publisher" and variable not in aliases:
            if entry_type in _THESIS_TYPES:
                name = "institution" if biblatex else "school"
            elif entry_type in _REPORT_TYPES:
                name = "institution"
        if variable == "publisher-place" and biblatex and variable not in aliases:
            name = "location"
        if variable == "number" and entry_type in _JOURNAL_ENTRY_TYPES and (
            variable not in aliases
        ):
            # An article's number ("Article 23"): an @article's number is its issue, which
            # it came back as; biblatex's eid is the article's.
            name = "eid"
        if name in written:
            continue
        text = fold(str(value))
        if variable == "page":
            text = re.sub(r"\s*[-\u2013\u2014]+\s*", "--", text)
        if variable == "genre" and classic:
            # biblatex's localisation key ("mathesis"), which classic BibTeX prints as is.
            text = biblatex_type_words(text) or text
        fields.append((name, escape_text(text)))
        written.add(name)
    from reader.record import iso_from_parts

    for variable, name in (("accessed", "urldate"), ("original-date", "origdate"),
                           ("event-date", "eventdate")):
        iso = iso_from_parts(paper.csl.get(variable))
        if iso and variable not in inherited and not isinstance(source.get(name), str):
            fields.append((name, iso))
    return fields


def _month(paper: Paper) -> str:
    """The month of the record's date as a BibTeX macro (``nov``), or ""."""
    issued = paper.csl.get("issued")
    parts = issued.get("date-parts") if isinstance(issued, dict) else None
    if not (isinstance(parts, list) and parts and isinstance(parts[0], list)):
        # No date of the record's own: the paper's date (a table's "1935-11-29"), when it
        # is of the paper's year (OpenReview's is the submission's, a year before).
        match = _YEAR_MONTH.match(fold(paper.date or ""))
        if not match or paper.year is None or match.group(1) != f"{paper.year:04d}":
            return ""
        parts = [[int(match.group(1)), int(match.group(2))]]
    if len(parts[0]) < 2:
        return ""
    try:
        month = int(parts[0][1])
    except (TypeError, ValueError):
        return ""
    return _MONTH_MACROS[month - 1] if 1 <= month <= 12 else ""


def _iso_date(paper: Paper) -> str:
    """The paper's ISO date for biblatex when it agrees with its year, else just the year."""
    match = _ISO_DATE.match(fold(paper.date or ""))
    if match and (paper.year is None or match.group(1) == f"{paper.year:04d}"):
        return match.group(0)
    return f"{paper.year:04d}" if paper.year is not None and 0 <= paper.year <= 9999 else ""
