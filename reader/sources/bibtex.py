"""BibTeX and BibLaTeX files: entries become records, broken entries become problem lines.

bibtexparser 2 splits the file into blocks (entries, ``@string``, ``@preamble``, comments and
the blocks it could not read, each with its line). Field values are evaluated here rather than
by bibtexparser's middleware, because its string interpolation only replaces a value that is a
single ``@string`` name: ``"Proc. " # STOC``, references inside ``@string`` definitions and the
predefined month names need one evaluator that does all of it.

Title, authors and venue are converted from LaTeX to plain Unicode (``{\\'e}`` → ``é``, protective
braces dropped); the abstract keeps its LaTeX, which is rendered when it is shown.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from typing import Any

import bibtexparser
from bibtexparser.middlewares.names import (
    InvalidNameError,
    parse_single_name_into_parts,
    split_multiple_persons_names,
)
from bibtexparser.model import (
    DuplicateBlockKeyBlock,
    DuplicateFieldKeyBlock,
    Entry,
    ParsingFailedBlock,
    String,
)

from reader.models import PaperRecord
from reader.record import (
    csl_type_for_bibtex,
    date_parts,
    display_name,
    is_anonymous,
    keep_written_doi,
)
from reader.sources import ImportFormatError, ParseResult
from reader.text.identifiers import doi_as_written, normalize_arxiv_id, normalize_doi
from reader.text.render import to_plain
from reader.text.sanitize import clean_imported
from reader.text.titles import derive_title

__all__ = ["parse", "parse_names", "plain_field", "split_names", "tex_field"]

# bibtexparser logs every aborted block as a warning. With no handler configured, Python's
# last-resort handler would print them onto the terminal the UI draws on; the problems are
# reported as problem lines instead.
logging.getLogger("bibtexparser").addHandler(logging.NullHandler())

TITLE_MAX = 160

# The splitter only starts a block at ``@type{`` or ``@type(``; without one the text is not BibTeX.
_BLOCK_START = re.compile(r"^[ \t]*@[A-Za-z_]\w*[ \t]*[{(]", re.MULTILINE)
_FAILED_HEAD = re.compile(r"@\s*(\w*)\s*[{(]\s*([^\s,{}()=\"#]*)")
_BARE_TOKEN = re.compile(r"[^\s#]+")
_YEAR = re.compile(r"(?<!\d)(\d{4})(?!\d)")
_ISO_DATE = re.compile(r"^\s*(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?")
# ``{\noopsort{1973b}}1973``: a sort key hidden from the output, not the year.
_NOOPSORT = re.compile(r"\\noopsort\s*\{[^{}]*\}")
_AND = re.compile(r"\s+and\s+", re.IGNORECASE)
_COMMA = re.compile(r",")
_KEYWORD_SEP = re.compile(r"[,;]")
# A ``~`` not preceded by a backslash is a tie (non-breaking space); ``\~n`` is an accent.
_TIE = re.compile(r"(?<!\\)~")
_URL_MACRO = re.compile(r"^\\url\s*\{(.*)\}$", re.DOTALL)
# Mendeley writes ``10.1007/978-3-662-46803-6{\_}26``; identifiers are not LaTeX.
_ESCAPED = re.compile(r"\\([_%&#$~])")
_GROUP_BRACE = re.compile(r"(?<!\\)[{}]")
_SPACES = re.compile(r"\s+")
_BLANK_LINE = re.compile(r"\n[ \t]*\n\s*")
# Nesting deeper than this is not formatting but damage; pylatexenc would give up on it.
_MAX_BRACE_DEPTH = 40

_MONTHS = {
    "jan": "January",
    "feb": "February",
    "mar": "March",
    "apr": "April",
    "may": "May",
    "jun": "June",
    "jul": "July",
    "aug": "August",
    "sep": "September",
    "oct": "October",
    "nov": "November",
    "dec": "December",
}
_MONTH_NUMBERS = {abbr: n for n, abbr in enumerate(_MONTHS, start=1)}

# Crossref inheritance follows BibTeX (a child takes every field of its parent that it does
# not have; a field present but empty counts as had) with biblatex's mappings for the title
# fields below. A child never takes the links and labels biblatex leaves alone, nor what
# identifies or describes the parent alone: its DOI, eprint, URL, abstract and keywords would
# make the part look like the whole (and merge it with the whole by identifier).
_NOT_INHERITED = frozenset(
    "crossref xref ids entryset entrysubtype execute label options presort related "
    "relatedoptions relatedstring relatedtype shorthand shorthandintro sortkey "
    "doi eprint eprinttype archiveprefix primaryclass arxivid url abstract keywords keyword "
    "pmid file".split()
)
# Entry types whose own title is the book title of the parts that crossref them.
_BOOK_LIKE = frozenset("book proceedings collection reference".split())
_MULTIVOLUME = frozenset("mvbook mvproceedings mvcollection mvreference".split())
_PART_LIKE = frozenset(
    "inbook incollection inproceedings inreference bookinbook suppbook suppcollection".split()
)
_BOOK_PARTS = frozenset("inbook bookinbook suppbook".split())
# What becomes of a parent's title fields in a part (biblatex's default inheritance); a
# field mapped to None is not inherited at all.
_TITLE_FIELDS = ("title", "subtitle", "titleaddon", "shorttitle", "sorttitle", "indextitle",
                 "indexsorttitle")
_AS_BOOK_TITLE = dict(zip(_TITLE_FIELDS, ("booktitle", "booksubtitle", "booktitleaddon"),
                          strict=False))
_AS_MAIN_TITLE = dict(zip(_TITLE_FIELDS, ("maintitle", "mainsubtitle", "maintitleaddon"),
                          strict=False))
_AS_JOURNAL_TITLE = {"title": "journaltitle", "subtitle": "journalsubtitle"}


@dataclass(slots=True)
class _Entry:
    """One entry with its evaluated fields (lower-case names, first occurrence wins)."""

    kind: str
    key: str
    line: int
    fields: dict[str, str]


def parse(text: str, source: str) -> ParseResult:
    """Records of a BibTeX/BibLaTeX text; ``source`` names the file in messages."""
    try:
        return _parse(text, source)
    except ImportFormatError:
        raise
    except Exception as exc:  # a bug or a parser failure must not take the import down
        raise ImportFormatError(f"{source}: could not be read as BibTeX ({exc})") from exc


def _parse(text: str, source: str) -> ParseResult:
    # Cleaning first also turns lone CRs into LFs, so line numbers match what editors show.
    text = clean_imported(text)
    if not _BLOCK_START.search(text):
        raise ImportFormatError(f"{source}: not BibTeX (no @article{{…}}-style entry found)")
    library = bibtexparser.parse_string(text, parse_stack=[])

    strings = dict(_MONTHS)
    result = ParseResult()
    entries: list[_Entry] = []
    # Blocks in file order: an @string only applies to what follows it, as in BibTeX.
    for block in library.blocks:
        if isinstance(block, DuplicateBlockKeyBlock | DuplicateFieldKeyBlock):
            inner = block.ignore_error_block
            # A repeated key or field still describes a paper; keep it (first field wins).
            if isinstance(inner, Entry):
                entries.append(_evaluate_entry(inner, strings))
            elif isinstance(inner, String):
                strings[inner.key.lower()] = _evaluate(inner.value, strings)
        elif isinstance(block, ParsingFailedBlock):
            result.problems.append(_describe_failure(block, source))
        elif isinstance(block, String):
            strings[block.key.lower()] = _evaluate(block.value, strings)
        elif isinstance(block, Entry):
            entries.append(_evaluate_entry(block, strings))

    by_key: dict[str, _Entry] = {}
    for entry in entries:
        by_key.setdefault(entry.key.lower(), entry)
    for entry in entries:
        # A crossref may name its parent by one of the parent's aliases (biblatex's ids).
        for alias in _keys(entry.fields.get("ids", "")):
            by_key.setdefault(alias.lower(), entry)
    for entry in entries:
        try:
            record = _record(entry, by_key, source)
        except Exception as exc:  # one odd entry must not cost the others
            result.problems.append(
                f"{source}:{entry.line}: entry '{entry.key}' could not be read ({exc})"
            )
            continue
        if record is None:
            result.problems.append(
                f"{source}:{entry.line}: entry '{entry.key}' has neither title nor abstract;"
                " skipped"
            )
        else:
            result.records.append(record)
    return result


# --- blocks ----------------------------------------------------------------------------------


def _describe_failure(block: ParsingFailedBlock, source: str) -> str:
    """One problem line for a block bibtexparser could not read."""
    line = (block.start_line or 0) + 1
    raw = block.raw or ""
    head = _FAILED_HEAD.match(raw.lstrip())
    kind = head.group(1).lower() if head else ""
    key = head.group(2) if head else ""
    if kind in ("string", "preamble", "comment"):
        what = f"@{kind}"
    elif key:
        what = f"entry '{key}'"
    else:
        what = f"@{kind} entry" if kind else "entry"
    reason = str(getattr(block.error, "abort_reason", "") or block.error)
    if "end of file" in reason:
        detail = "has no closing brace (the file ends first)"
    elif "Unexpected block start" in reason:
        detail = "has no closing brace (the next entry starts first)"
    elif "comma after entry key" in reason:
        detail = "has no comma after its key"
    elif "Expected a `=`" in reason:
        detail = "has a field without '='"
    else:
        detail = f"could not be read ({reason.strip()})"
    return f"{source}:{line}: {what} {detail}; skipped"


def _evaluate_entry(entry: Entry, strings: dict[str, str]) -> _Entry:
    """An entry with its field values evaluated against the @strings defined so far."""
    fields: dict[str, str] = {}
    for field in entry.fields:
        name = str(field.key).strip().lower()
        if name and name not in fields:
            fields[name] = _evaluate(str(field.value), strings)
    line = (entry.start_line or 0) + 1
    return _Entry(str(entry.entry_type).strip().lower(), str(entry.key).strip(), line, fields)


def _evaluate(raw: str, strings: dict[str, str]) -> str:
    """The value of a field expression: ``{…}``, ``"…"``, numbers and @strings joined by ``#``.

    Lenient by design: anything unexpected is kept as text, and an unclosed delimiter runs to
    the end of the value.
    """
    parts: list[str] = []
    joined = True  # whether a ``#`` came since the last part
    i, n = 0, len(raw)
    while i < n:
        char = raw[i]
        if char == "#":
            joined = True
            i += 1
            continue
        if char.isspace():
            i += 1
            continue
        if char == "{":
            end = _closing_brace(raw, i)
            parts.append(raw[i + 1 : end])
            i = end + 1
        elif char == '"':
            end = _closing_quote(raw, i)
            parts.append(raw[i + 1 : end])
            i = end + 1
        else:
            match = _BARE_TOKEN.match(raw, i)
            token = match.group(0) if match else raw[i]
            i = match.end() if match else i + 1
            value = strings.get(token.lower())
            if value is None:
                # An undefined name (or an unquoted phrase): keep the words as written.
                value = token if joined or not parts else " " + token
            parts.append(value)
        joined = False
    return "".join(parts)


def _closing_brace(text: str, start: int) -> int:
    """Index of the brace closing the one at ``start``, or ``len(text)`` if it is never closed."""
    depth = 0
    i = start
    n = len(text)
    while i < n:
        char = text[i]
        if char == "\\":
            i += 2  # an escaped brace does not count
            continue
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return n


def _closing_quote(text: str, start: int) -> int:
    """Index of the quote closing the one at ``start`` (quotes inside braces do not count)."""
    depth = 0
    i = start + 1
    n = len(text)
    while i < n:
        char = text[i]
        if char == "\\":
            i += 2
            continue
        if char == "{":
            depth += 1
        elif char == "}":
            depth = max(depth - 1, 0)
        elif char == '"' and depth == 0:
            return i
        i += 1
    return n


# --- records ---------------------------------------------------------------------------------


def _record(entry: _Entry, by_key: dict[str, _Entry], source: str) -> PaperRecord | None:
    """The record of one entry, or None when it has neither title nor abstract."""
    fields = dict(entry.fields)
    inherited = _inherit(entry, fields, by_key)

    # The title is stored as TeX, as its source wrote it, and rendered where it is shown or
    # cited, so that an export writes it back unchanged ($\ell_1$, not ℓ₁).
    title = _tex_line(fields.get("title", ""))
    subtitle = _tex_line(fields.get("subtitle", ""))
    if title and subtitle:
        title = f"{title}: {subtitle}"
    abstract = _abstract(fields.get("abstract", ""))
    title_derived = False
    if not title and abstract:
        title = derive_title(to_plain(abstract), max_len=TITLE_MAX)
        title_derived = True
    elif not title:
        # A whole journal issue or a bare note: named by what it has, so that it is kept.
        stand_in = next(
            (fields[f] for f in ("booktitle", "journal", "journaltitle", "howpublished", "note")
             if fields.get(f, "").strip()),
            "",
        )
        title = _plain(stand_in)[:TITLE_MAX]
        if not title:
            return None
        title_derived = True

    venue_field = next(
        (name for name in ("journal", "journaltitle", "booktitle") if fields.get(name)), None
    )
    venue_raw = fields[venue_field] if venue_field else ""
    year, date = _year_and_date(fields)
    csl, extra = _csl_and_extra(entry, fields, date, venue_field, inherited)
    written_doi = doi_as_written(_identifier(fields.get("doi", "")))
    doi = normalize_doi(written_doi)
    keep_written_doi(csl, written_doi, doi)
    return PaperRecord(
        abstract=abstract,
        title=title,
        title_derived=title_derived,
        authors=[display_name(n) for n in csl.get("author", [])],
        venue=_plain(venue_raw) or None,
        year=year,
        keywords=_keywords(fields.get("keywords") or fields.get("keyword") or ""),
        url=_url(fields),
        doi=doi,
        source=f"{source}:{entry.line}",
        arxiv_id=_arxiv_id(fields),
        date=date,
        kind=entry.kind or None,
        citekey=entry.key or None,
        csl=csl,
        extra=extra,
        aliases=_keys(entry.fields.get("ids", "")),
    )


# Fields whose plain text is a CSL variable as it is.
_TEXT_VARIABLES = {
    "volume": "volume",
    "edition": "edition",
    "isbn": "ISBN",
    "issn": "ISSN",
    "language": "language",
    "note": "note",
    "series": "collection-title",
    "chapter": "chapter-number",
    "eventtitle": "event",
    "venue": "event-place",
    "pagetotal": "number-of-pages",
    "type": "genre",
    "pages": "page",
    "publisher": "publisher",
    "address": "publisher-place",
    "location": "publisher-place",
    # Who published a thesis, a report or a manual, when no publisher is named.
    "school": "publisher",
    "institution": "publisher",
    "organization": "publisher",
}
_NAME_FIELDS = {"author": "author", "editor": "editor", "translator": "translator",
                "bookauthor": "container-author"}
# Fields a record holds in its columns (title, abstract, identifiers, keywords, dates, key
# aliases).
_COLUMN_FIELDS = frozenset(
    "title subtitle abstract doi url keywords keyword year month date urldate number ids".split()
)
# Entry types whose ``number`` is the issue of a periodical.
_ISSUE_KINDS = frozenset({"article", "periodical", "suppperiodical"})
# The field an export writes each variable to when the source used no other name.
_DEFAULT_FIELD = {
    "publisher-place": "address",
    "publisher": "publisher",
    "issue": "number",
    "number": "number",
    "container-title": "journal",
    "keywords": "keywords",
}


def _csl_and_extra(
    entry: _Entry,
    fields: dict[str, str],
    date: str | None,
    venue_field: str | None,
    inherited: set[str],
) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """The CSL variables of an entry, and its own fields the record does not model (verbatim).

    ``@fields`` among the kept fields remembers the source's name for a variable that more
    than one field can hold (``location`` or ``address``, ``journaltitle`` or ``journal``), so
    that an export writes it back under the same name; ``@others`` the name lists that ended
    in ``and others``; ``@type`` the entry type; ``@inherited`` the variables whose values
    came from the crossref parent, which an export leaves to the parent.
    """
    csl: dict[str, Any] = {"type": csl_type_for_bibtex(entry.kind)}
    used = set(_COLUMN_FIELDS)
    names: dict[str, str] = {}
    others: list[str] = []
    from_parent: set[str] = set()
    for field, variable in _NAME_FIELDS.items():
        value = fields.get(field, "")
        if value.strip():
            parsed, has_others = parse_names(value)
            if parsed:
                csl[variable] = parsed
                used.add(field)
                if field in inherited:
                    from_parent.add(variable)
            if has_others and field not in inherited:
                others.append(field)
    for field, value in fields.items():
        target = _TEXT_VARIABLES.get(field)
        if target is None or not value.strip() or target in csl:
            continue
        variable = target
        text = _plain(value)
        if variable == "page":
            text = text.replace("–", "-")
        if text:
            csl[variable] = text
            used.add(field)
            if _DEFAULT_FIELD.get(variable, field) != field:
                names[variable] = field
            if field in inherited:
                from_parent.add(variable)
    number = fields.get("number", "").strip()
    if number:
        csl["issue" if entry.kind in _ISSUE_KINDS else "number"] = _plain(number)
        if "number" in inherited:
            from_parent.add("issue" if entry.kind in _ISSUE_KINDS else "number")
    if venue_field:
        used.add(venue_field)
        if venue_field != ("journal" if entry.kind in _ISSUE_KINDS else "booktitle"):
            names["container-title"] = venue_field
        if venue_field in inherited:
            from_parent.add("container-title")
    if inherited & {"year", "date"}:
        from_parent.add("issued")
    if fields.get("keyword") and not fields.get("keywords"):
        names["keywords"] = "keyword"
    parts = date_parts(date)
    if parts:
        csl["issued"] = {"date-parts": [parts]}
        if fields.get("date"):
            names["issued"] = "date"
    accessed = date_parts(clean_imported(fields.get("urldate", "")))
    if accessed:
        csl["accessed"] = {"date-parts": [accessed]}
    if _arxiv_id(fields):
        used.update(("eprint", "archiveprefix", "eprinttype"))
    # An empty field of a child keeps its parent's value out (xampl's organization = ""),
    # so it is kept too.
    crossref = bool(entry.fields.get("crossref", "").strip())
    kept: dict[str, Any] = {
        field: clean_imported(value)
        for field, value in entry.fields.items()
        if (value.strip() or crossref) and field not in used
    }
    raw_date = entry.fields.get("date", "").strip()
    if "/" in raw_date:
        kept["date"] = clean_imported(raw_date)  # a range ("1984/1986"): kept as written
    if entry.fields.get("subtitle", "").strip():
        # The title holds "Title: Subtitle"; an export writes them apart again.
        kept["subtitle"] = clean_imported(entry.fields["subtitle"])
    for field in ("year", "month"):
        raw = entry.fields.get(field, "").strip()
        understood = (raw.isdigit() if field == "year" else bool(parts and len(parts) > 1))
        if raw and not understood:
            # "{\noopsort{1973b}}1973", "jun # "-" # aug": what BibTeX prints, kept as written.
            kept[field] = clean_imported(raw)
    if names:
        kept["@fields"] = names
    if others:
        kept["@others"] = others
    if entry.kind:
        kept["@type"] = entry.kind
    if from_parent:
        kept["@inherited"] = sorted(from_parent)
    return csl, {"bibtex": kept}


def _inherit(entry: _Entry, fields: dict[str, str], by_key: dict[str, _Entry]) -> set[str]:
    """Copy what the crossref chain gives the entry into ``fields``; return those fields.

    Each ancestor in turn gives the fields the entry does not have yet, so the nearest one
    wins. A chain that loops back on itself simply ends.
    """
    inherited: set[str] = set()
    seen = {entry.key.lower()}
    parent_key = entry.fields.get("crossref", "").strip().lower()
    while parent_key and parent_key not in seen:
        seen.add(parent_key)
        parent = by_key.get(parent_key)
        if parent is None:
            break
        titles = _title_mapping(parent.kind, entry.kind)
        # Title fields last: a parent's own booktitle is the part's before its mapped title.
        for name, value in sorted(parent.fields.items(), key=lambda f: f[0] in _TITLE_FIELDS):
            if name in _NOT_INHERITED:
                continue
            if name in _TITLE_FIELDS:
                # Under their own names only to a child with no title of its own: a book's
                # subtitle is not that of a volume in it.
                targets = [titles.get(name) if titles else
                           (None if "title" in entry.fields else name)]
            else:
                targets = [name]
            if name == "author" and parent.kind == "book" and entry.kind in _BOOK_PARTS:
                targets.append("bookauthor")  # the book's author is also the part's
            for target in targets:
                if target and target not in fields:
                    fields[target] = value
                    inherited.add(target)
        parent_key = parent.fields.get("crossref", "").strip().lower()
    return inherited


def _title_mapping(parent: str, child: str) -> dict[str, str]:
    """How a parent's title fields reach a child of this type (empty: under their own names)."""
    if parent in _MULTIVOLUME and (child in _BOOK_LIKE or child in _PART_LIKE):
        return _AS_MAIN_TITLE
    if parent in _BOOK_LIKE and child in _PART_LIKE:
        return _AS_BOOK_TITLE
    if parent == "periodical" and child in ("article", "suppperiodical"):
        return _AS_JOURNAL_TITLE
    return {}


def _plain(value: str) -> str:
    """A LaTeX field value (title, name, venue) as plain single-spaced Unicode."""
    if not value:
        return ""
    value = clean_imported(value)
    value = _TIE.sub(" ", value)
    if _brace_depth(value) > _MAX_BRACE_DEPTH:
        # pylatexenc gives up on nesting this deep and the braces would be shown as written.
        value = re.sub(r"(?<!\\)[{}]", "", value)
    return _SPACES.sub(" ", to_plain(value)).strip()


def plain_field(value: str) -> str:
    """A LaTeX field value as the importer stores names and venues (plain, single-spaced
    Unicode)."""
    return _plain(value)


def _tex_line(value: str) -> str:
    """A field's TeX on one line, as the importer stores titles; "" when it says nothing."""
    if not value:
        return ""
    value = clean_imported(value)
    if _brace_depth(value) > _MAX_BRACE_DEPTH:
        return _plain(value)  # not formatting but damage: no renderer would read it
    value = _SPACES.sub(" ", value).strip()
    return value if value.strip("{} ") else ""


def tex_field(value: str) -> str:
    """A LaTeX field value as the importer stores titles (its TeX, single-spaced)."""
    return _tex_line(value)


def _brace_depth(value: str) -> int:
    """The deepest brace nesting in ``value``."""
    depth = deepest = 0
    for char in value:
        if char == "{":
            depth += 1
            deepest = max(deepest, depth)
        elif char == "}":
            depth = max(depth - 1, 0)
    return deepest


def _abstract(value: str) -> str:
    """The abstract as written, with hard line wraps joined and paragraph breaks kept."""
    value = clean_imported(value).strip()
    paragraphs = (_SPACES.sub(" ", p).strip() for p in _BLANK_LINE.split(value))
    return "\n\n".join(p for p in paragraphs if p)


def _keywords(value: str) -> list[str]:
    """Keywords split on commas and semicolons, plain text, without repeats."""
    keywords: list[str] = []
    for part in _KEYWORD_SEP.split(value):
        word = _plain(part)
        if word and word not in keywords:
            keywords.append(word)
    return keywords


def _keys(value: str) -> list[str]:
    """The citation keys of a biblatex ``ids`` field (other keys the entry answers to)."""
    return [key for key in (_identifier(k) for k in value.split(",")) if key]


def _url(fields: dict[str, str]) -> str | None:
    """The entry's URL: ``url``, or a ``\\url{…}`` in ``howpublished``."""
    for name in ("url", "howpublished"):
        value = clean_imported(fields.get(name, "")).strip()
        macro = _URL_MACRO.match(value)
        if macro:
            value = macro.group(1).strip()
        elif name == "howpublished":
            continue
        value = _identifier(value)
        if value:
            # Some tools put several URLs in the field; the first is the paper's.
            return value.split()[0]
    return None


def _arxiv_id(fields: dict[str, str]) -> str | None:
    """The arXiv id from ``eprint`` with ``archivePrefix``/``eprinttype`` arXiv, or elsewhere."""
    prefix = (fields.get("archiveprefix") or fields.get("eprinttype") or "").strip().lower()
    candidates = []
    if prefix == "arxiv":
        candidates.append(fields.get("eprint", ""))
    candidates.append(fields.get("arxivid", ""))
    url = fields.get("url", "")
    if "arxiv.org/" in url:
        candidates.append(url)
    journal = fields.get("journal", "")
    # Google Scholar's "arXiv preprint arXiv:2303.08774".
    if journal.lower().startswith("arxiv"):
        candidates.append(journal)
    for candidate in candidates:
        arxiv_id = normalize_arxiv_id(_identifier(candidate))
        if arxiv_id:
            return arxiv_id
    return None


def _identifier(value: str) -> str:
    """A DOI, URL or eprint with LaTeX escapes and grouping braces removed."""
    value = _ESCAPED.sub(r"\1", clean_imported(value))
    return _GROUP_BRACE.sub("", value).strip()


def _year_and_date(fields: dict[str, str]) -> tuple[int | None, str | None]:
    """Year (``year`` or BibLaTeX ``date``) and an ISO date as precise as the entry allows."""
    date_field = clean_imported(fields.get("date", ""))
    iso = _ISO_DATE.match(date_field)
    year_text = _NOOPSORT.sub("", fields.get("year", ""))
    year_match = _YEAR.search(year_text)
    year = int(year_match.group(1)) if year_match else None
    if iso:
        if year is None:
            year = int(iso.group(1))
        return year, iso.group(0).strip()
    if year is None:
        match = _YEAR.search(date_field)
        return (int(match.group(1)), match.group(1)) if match else (None, None)
    month = _month_number(fields.get("month", ""))
    return year, f"{year:04d}-{month:02d}" if month else f"{year:04d}"


def _month_number(value: str) -> int | None:
    """1–12 for ``jan``, ``January``, ``{7}`` …; None for ``10~jan`` ranges and the unknown."""
    text = value.strip().strip("{}").strip().lower()
    if text.isdigit():
        number = int(text)
        return number if 1 <= number <= 12 else None
    if text[:3] in _MONTH_NUMBERS and text.isalpha():
        return _MONTH_NUMBERS[text[:3]]
    return None


# --- names -----------------------------------------------------------------------------------


def split_names(value: str) -> list[str]:
    """Display names ("Given Family") of a BibTeX name list; ``others`` is dropped."""
    return [display_name(n) for n in parse_names(value)[0]]


def parse_names(value: str) -> tuple[list[dict[str, str]], bool]:
    """CSL names of a BibTeX name list, and whether it ended in ``and others``.

    bibtexparser splits the list at ``and`` outside braces and each name into First, von,
    Last and Jr by BibTeX's rules ("First von Last", "von Last, First", "von Last, Jr,
    First"); a name braced whole (``{National Cancer Institute}``) is a literal.
    """
    names: list[dict[str, str]] = []
    others = False
    for raw in split_multiple_persons_names(clean_imported(value)):
        raw = _TIE.sub(" ", raw).strip()
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
    if raw.startswith("{") and raw.endswith("}") and _closing_brace(raw, 0) == len(raw) - 1:
        literal = _plain(raw)
        return {"literal": literal} if literal else None
    try:
        parts = parse_single_name_into_parts(raw, strict=False)
    except (InvalidNameError, ValueError, IndexError):
        literal = _plain(raw)
        return {"literal": literal} if literal else None
    name: dict[str, str] = {}
    for variable, words in (
        ("given", parts.first),
        ("non-dropping-particle", parts.von),
        ("family", parts.last),
        ("suffix", parts.jr),
    ):
        text = _plain(" ".join(words))
        if text:
            name[variable] = text
    if "family" not in name and "given" in name:
        # A single word is a family name, whatever its case.
        name = {"family": name["given"], **{k: v for k, v in name.items() if k != "given"}}
    return name or None

