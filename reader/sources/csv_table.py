"""CSV (and semicolon- or tab-separated) tables with a header row naming the columns.

Columns are recognised by their header, case-insensitively and under the names common exports
use (``Title``, ``Paper Title``, ``Abstract``, ``Author(s)``, ``Source title`` …). A table needs
a title or an abstract column; a row with the wrong number of fields is reported and skipped.

Lists of accepted papers carry conference signals: ratings (``avg_rating``, ``n_ratings``,
``ratings``), a decision (``status``, ``decision``), or a venue that names it ("ICLR 2026
Oral": venue ICLR, year 2026, decision oral). Columns of no known field (a room, a session
time) are kept verbatim in the record's ``extra["table"]``. The same names serve JSON lists
of paper objects (:mod:`reader.sources.jsontable`) through :func:`record_from_values`.
"""

from __future__ import annotations

import csv
import io
import re
from typing import Any

from reader.models import PaperRecord
from reader.record import iso_from_parts, keep_written_doi
from reader.sources import ImportFormatError, ParseResult
from reader.sources.csv_header import (
    choose_delimiter,
    column_field,
    excel_separator,
    header_key,
)
from reader.sources.dates import ISO_DATE, year_and_date
from reader.sources.jsonfields import moment_from_text
from reader.sources.name_cells import name_cell, split_authors
from reader.sources.own_export import (
    give_marks,
    is_own_export,
    own_decision,
    own_marks,
    tags_apart,
)
from reader.sources.paperlists import conference_of_file
from reader.sources.stand_ins import abstract_given
from reader.sources.table_csl import (
    csl_values,
    extra_lines,
    shown_names,
    table_kind,
    unread_columns,
)
from reader.sources.table_csl import fold_cell as _fold
from reader.sources.table_database import read_apart
from reader.sources.table_fields import SYNONYMS, ZOTERO_COLUMNS
from reader.sources.tablesignals import (
    kept_as_written,
    overrules,
    table_signals,
    venue_and_decision,
)
from reader.sources.zotero_extra import zotero_note
from reader.text.identifiers import (
    compared_doi,
    doi_as_written,
    linked_identifiers,
    normalize_arxiv_id,
    normalize_doi,
    openreview_forum_id,
    openreview_id,
)
from reader.text.render import to_plain
from reader.text.sanitize import clean_imported
from reader.text.tags import tags_as_written
from reader.text.titles import derive_title

__all__ = ["SYNONYMS", "parse", "record_from_values"]

TITLE_MAX = 160
# Abstracts of several megabytes exist (and whole papers pasted into a cell); the default limit
# of 128 KiB would reject them. The limit is process-wide, so it is only ever raised.
_FIELD_LIMIT = 64 * 1024 * 1024


def parse(text: str, source: str) -> ParseResult:
    """Records of a CSV table; ``source`` names the file in messages."""
    try:
        return _parse(text, source)
    except ImportFormatError:
        raise
    except Exception as exc:  # a bug here must not take the import down
        raise ImportFormatError(f"{source}: could not be read as CSV ({exc})") from exc


def _parse(text: str, source: str) -> ParseResult:
    # Cleaning drops the BOM and turns CRLF into LF, inside quoted cells too.
    text = clean_imported(text)
    lines = text.split("\n")
    first = next((n for n, line in enumerate(lines) if line.strip()), None)
    if first is None:
        raise ImportFormatError(f"{source}: the file is empty")
    named = excel_separator(lines[first])
    if named:
        # Excel's "sep=;" line: it names the delimiter, and is no row. Blanked, so that
        # the rows keep their line numbers in messages.
        text = "\n" * (first + 1) + text[sum(len(line) + 1 for line in lines[: first + 1]):]
        lines[first] = ""
        first = next((n for n, line in enumerate(lines) if line.strip()), None)
        if first is None:
            raise ImportFormatError(f"{source}: the file is empty")
    delimiter, header = choose_delimiter(text, lines[first], source, named)
    if csv.field_size_limit() < _FIELD_LIMIT:
        csv.field_size_limit(_FIELD_LIMIT)

    apart = tags_apart(header)  # a reader export's tags: not its keywords
    columns = _columns(header, apart)
    # A list of a conference's papers with no venue or year column: its file names them.
    named = "" if {f for f, _ in columns} & {"venue", "year"} else conference_of_file(source)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=False)
    result = ParseResult()
    header_read = False
    blank_rows = 0  # rows below the header with no cell filled
    trailing: bool | None = None  # whether the rows end with a delimiter (see below)
    while True:
        start = reader.line_num + 1
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            result.problems.append(f"{source}:{start}: {exc}; the rest of the file was not read")
            break
        if not any(cell.strip() for cell in row):
            # Blank lines separate nothing in a table; rows of empty cells are counted, so
            # a table of nothing else is refused rather than read as an empty success.
            blank_rows += header_read and len(row) > 1
            continue
        span = lines[start - 1 : reader.line_num]
        if len(span) > 1 and sum(line.count('"') for line in span) % 2:
            # An unclosed quote swallows every line after it into one cell. (A single line
            # with an odd count is fine: a quote inside an unquoted cell is literal.)
            result.problems.append(
                f"{source}:{start}: a quoted field is never closed (it runs to line"
                f" {reader.line_num}); skipped"
            )
            continue
        if not header_read:
            header_read = True
            continue
        extras = _only_blank_extras(row, len(header))
        if trailing is None:
            # A tool that ends every row with a delimiter does so from the first row; a
            # longer row among rows of the header's width has a delimiter inside a value
            # ("Dupré, Françoise; Müller, Jürgen"), and its cells are shifted.
            trailing = extras
        if len(row) != len(header) and not (extras and trailing):
            why = " (a delimiter inside a value?)" if len(row) > len(header) else ""
            result.problems.append(
                f"{source}:{start}: row has {len(row)} fields but the header has {len(header)}"
                f"{why}; skipped"
            )
            continue
        try:
            record = _record(row, columns, f"{source}:{start}", named)
        except Exception as exc:  # one odd row must not cost the others
            result.problems.append(f"{source}:{start}: row could not be read ({exc})")
            continue
        if record is None:
            result.problems.append(f"{source}:{start}: row has neither title nor abstract; skipped")
        else:
            result.records.append(record)
    if not result.records and not result.problems:
        raise ImportFormatError(_nothing_read(source, header, columns, blank_rows))
    result.warnings += unread_columns(source, columns, result.records)
    return result


_NEEDED = ("title", "abstract")


def _nothing_read(
    source: str, header: list[str], columns: list[tuple[str | None, str]], blank_rows: int
) -> str:
    """Why a table with a header and not one row to read is refused: its rows are empty or
    absent, said with the columns it has and those reader took for a paper's fields."""
    rows = (
        f"its {blank_rows} row{'s' if blank_rows != 1 else ''} below the header "
        f"{'are' if blank_rows != 1 else 'is'} empty"
        if blank_rows
        else "it has a header and no rows"
    )
    names = ", ".join(repr(cell.strip()[:40]) for cell in header[:12])
    more = f" and {len(header) - 12} more" if len(header) > 12 else ""
    known = " and ".join(f"{name!r}" for field, name in columns if field in _NEEDED)
    return (
        f"{source}: no paper to import: {rows} (columns: {names}{more}); a paper needs a "
        f"title or an abstract in its row, read from {known}"
    )


def _only_blank_extras(row: list[str], width: int) -> bool:
    """Whether a long row only has empty cells past the header (a trailing delimiter)."""
    return len(row) > width and not any(cell.strip() for cell in row[width:])


# A reader library's own CSV names the CSL number (a report's, a patent's) "number" too; in
# other tables a "number" is as often a poster's or a submission's, and is kept as it came.
_OWN_COLUMNS = {"number": "number"}


def _columns(header: list[str], apart: set[str]) -> list[tuple[str | None, str]]:
    """Each column's record field (None: of no known field) and its header."""
    zotero = any(header_key(cell) == "item type" for cell in header)
    own = _OWN_COLUMNS if is_own_export(header) else {}
    columns: list[tuple[str | None, str]] = []
    for cell in header:
        field = None if cell in apart else column_field(cell)
        if zotero and header_key(cell) in ZOTERO_COLUMNS:
            field = ZOTERO_COLUMNS[header_key(cell)]
        elif header_key(cell) in own:
            field = own[header_key(cell)]
        columns.append((field, cell.strip()))
    return columns


def _record(
    row: list[str], columns: list[tuple[str | None, str]], where: str, venue: str = ""
) -> PaperRecord | None:
    """The record of one row, or None when it has neither title nor abstract. A column of
    no known field, or a second one of a field another gave already (and saying something
    else), is kept in ``extra["table"]`` by its header; ``venue`` is the file's own."""
    values: dict[str, str] = {"venue": venue} if venue else {}
    names: dict[str, str] = {}
    other: dict[str, Any] = {}
    for (field, name), cell in zip(columns, row, strict=False):
        cell = clean_imported(cell).strip()
        if not cell:
            continue
        if field is not None and field not in values:
            values[field] = cell
            names[field] = name
        elif name and (field is None or values[field] != cell):
            other.setdefault(name, cell)
    return record_from_values(values, where, other, names)


# The author id Scopus writes after each full name.
_SCOPUS_ID = re.compile(r"\s*\([^()]*\)")


def record_from_values(
    values: dict[str, str], where: str, other: dict[str, Any] | None = None,
    names: dict[str, str] | None = None,
) -> PaperRecord | None:
    """The record of one row or object, given as record field → text (the fields of
    :data:`SYNONYMS`) and the values of no known field by their own names; None when it
    has neither title nor abstract. A reader library's own export gives its marks too.
    ``names``: the column (or key) each field was read from, by which a value kept as
    written is kept."""
    marks, other = own_marks(other or {})
    title = _fold(values.get("title", ""))
    abstract = _abstract(values.get("abstract", ""), as_stored=bool(marks))
    if not title and not abstract:
        return None
    title_derived = False
    if not title:
        title = derive_title(to_plain(abstract), max_len=TITLE_MAX)
        title_derived = True
    venue_text = _fold(values.get("venue", ""))
    venue, venue_year, venue_decision = venue_and_decision(venue_text)
    year, date = year_and_date(values.get("year", ""), values.get("date", ""))
    if year is not None and date == f"{year:04d}" and not values.get("date", "").strip():
        date = None  # the year column alone: the paper's year says it
    if year and venue_year and year != venue_year and not venue_decision:
        venue = venue_text  # "ICML 2025" beside a year 2024 is a name to keep whole
    year = year or venue_year
    if marks:
        # A reader library's own export: its venue and date as the library had them (an
        # OpenReview paper's date is its submission's, the year before the conference's;
        # "Proceedings of ACL 2024" is a name whose year is part of it).
        venue = venue_text
        written = values.get("date", "").strip()
        if ISO_DATE.fullmatch(written):
            date = written
    url = _fold(values.get("url", "")) or None
    # Links to the paper's pages in any column or key of no known field (an
    # "openreview_url", a "pdf") identify it as its id columns would.
    linked = linked_identifiers((url, *(other or {}).values()))
    extra = extra_lines(values)  # Zotero's Extra: "arXiv: 2305.18290", "DOI: 10.5281/…"
    arxiv_id = (normalize_arxiv_id(values.get("arxiv_id")) or linked.get("arxiv_id")
                or normalize_arxiv_id(extra.arxiv_id if extra else None))
    if arxiv_id is None and url and "arxiv.org/" in url:
        arxiv_id = normalize_arxiv_id(url)
    forum = (
        openreview_id(_fold(values.get("openreview_id", ""))) or openreview_forum_id(url)
        or linked.get("openreview_id")
    )
    # A forum column holding the link ("https://openreview.net/forum?id=…") gives it too.
    forum_link = _fold(values.get("openreview_id", ""))
    if not forum or not forum_link.startswith(("http://", "https://")):
        forum_link = ""
    url = url or linked.get("link") or forum_link or None
    # A short DOI (Zotero's 10/dkntrs) beside its doi.org link: the paper is known by the
    # full one, as BibTeX, RIS and CSL-JSON files give it; the short one is kept as written.
    written_doi = doi_as_written(values.get("doi") or (extra.csl.get("DOI") if extra else None))
    full = compared_doi(written_doi, url)
    doi = (written_doi if full == normalize_doi(written_doi) else full) or linked.get("doi")
    # Zotero's CSV: its first column, "Key", beside an item type.
    zotero = "Key" in (other or {}) and bool(values.get("kind"))
    csl = csl_values(values, own=bool(marks), zotero=zotero)
    issued = iso_from_parts(csl.get("issued"))
    if issued and not marks and (not date or issued.startswith(date)):
        date = issued  # ("15 March 2021", which the year column's reading left a year)
    keep_written_doi(csl, written_doi, doi)
    record = PaperRecord(
        abstract=abstract,
        title=title,
        title_derived=title_derived,
        authors=split_authors(_SCOPUS_ID.sub("", values.get("full_names", "")))
        or shown_names(csl.get("author"))
        # A library's own export braces a name kept whole ("{OpenAI}"): the name, unbraced.
        or (shown_names(name_cell(values.get("authors", ""))) if marks else [])
        or split_authors(values.get("authors", "")),
        venue=venue or None,
        year=year,
        keywords=_keywords(values.get("keywords", "")),
        url=url,
        doi=doi,
        source=where,
        arxiv_id=arxiv_id,
        openreview_id=forum,
        date=date,
        kind=table_kind(values.get("kind", ""), own=bool(marks)),
        tldr=_fold(values.get("tldr", "")) or None,
        primary_area=_fold(values.get("primary_area", "")) or None,
        csl=csl,
        extra={"table": other} if other else {},
        citekey=extra.citekey if extra else None,
    )
    record.modified = moment_from_text(values.get("modified", "")) or None
    if not marks:
        _user_marks(record, values)
    give_marks(record, marks)
    for field, text in kept_as_written(values).items():
        # "N/A", "-": not a number, or a mean its ratings contradict; what the source said.
        # Under the file's own name for it ("avg_rating"), as the summary says it is kept.
        record.extra.setdefault("table", {})[(names or {}).get(field, field)] = text
    # A reader library's own export says the paper's decision in its own column, and its
    # venue as the library had it: "NeurIPS 2019 Deep RL Workshop" is no decision then.
    if not marks and overrules(values.get("decision", ""), venue_decision):
        # "ICLR 2026 Oral" beside a decision column's "Reject": the column decides; the
        # venue's words are kept as written, and the import says its "Oral" was not kept.
        record.extra.setdefault("table", {})[(names or {}).get("venue", "venue")] = venue_text
    decision = own_decision(
        record, _fold(values.get("decision", "")) or ("" if marks else venue_decision))
    record.signals = table_signals(values, decision, record.venue, record.year)
    if record.signals is not None and record.signals.decision == "withdrawn":
        record.withdrawn = True
    read_apart(record, as_stored=bool(marks))  # (an original title, a copyright notice …)
    return record


def _user_marks(record: PaperRecord, values: dict[str, str]) -> None:
    """The tags and the note another tool's table gives as the user's (Zotero's CSV:
    "Manual Tags" joined by "; ", "Notes" in HTML): the new paper's first tags and note,
    as the same tool's JSON gives them."""
    record.tags, record.tags_rewritten = tags_as_written(
        re.split(r"\s*;\s*", values.get("user_tags", "")))
    # Zotero joins an item's notes with "; ", each an HTML note of its own.
    record.note = zotero_note(_NOTES_JOINED.split(values.get("user_note", "")))


_NOTES_JOINED = re.compile(r"(?<=>);\s*(?=<)")


def _abstract(value: str, *, as_stored: bool = False) -> str:
    """The abstract with each line of the cell as a paragraph.

    Line breaks inside a spreadsheet cell are typed on purpose (nobody wraps lines in a cell),
    so they are kept as paragraph breaks. A reader library's own export (``as_stored``)
    wrote the abstract as it stores it: its line breaks and spaces come back as they were.
    """
    if as_stored:
        # Its spaces too: a no-break space ("5\u00a0ms") is the stored text's, not a table's
        # stray whitespace to fold.
        return value.replace("\r\n", "\n").strip()
    lines = [_fold(line) for line in value.split("\n")]
    if not abstract_given(" ".join(lines)):
        return ""  # a database's placeholder (Scopus's "[No abstract available]")
    return "\n\n".join(line for line in lines if line)


def _keywords(value: str) -> list[str]:
    """Keywords split on ``;`` (or on ``,`` when there is none), without repeats."""
    separator = ";" if ";" in value else ","
    keywords: list[str] = []
    for part in value.split(separator):
        word = _fold(part)
        if word and word not in keywords:
            keywords.append(word)
    return keywords
