"""The JSON family of import formats: which one a text is, and the reading they share.

:func:`detect_json_format` names the format of a JSON text (OpenReview notes, paperlists
arrays, the Kaggle arXiv snapshot or CSL-JSON) from its first record only.

The rest of the module is shared by the four JSON importers:

* :func:`load_records` reads a JSON array, JSON lines or concatenated objects into
  :class:`JsonRecord` values that know their line and index, and turns anything that is not
  JSON at all into :class:`~reader.sources.ImportFormatError` with line and column.
* :func:`build_result` runs an importer's per-record conversion, so that one strange record
  becomes one problem line rather than the end of the import.
* Small field helpers (:func:`text_value`, :func:`clean_title`, :func:`clean_abstract`,
  :func:`string_list` …) that accept any JSON value and never raise.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator
from datetime import UTC, date, datetime
from typing import Any, NamedTuple

from reader.models import PaperRecord
from reader.record import CSL_TYPES as _CSL_TYPES
from reader.sources import ImportFormatError, ParseResult
from reader.sources.seed import TITLE_MAX
from reader.text.render import to_plain
from reader.text.sanitize import clean_imported
from reader.text.titles import derive_title

__all__ = [
    "FORMATS",
    "JsonRecord",
    "Unreadable",
    "Outcome",
    "build_result",
    "clean_abstract",
    "clean_title",
    "date_from_epoch_ms",
    "detect_json_format",
    "finish_record",
    "iso_date",
    "load_records",
    "record_label",
    "string_list",
    "text_value",
    "venue_from_text",
    "year_value",
]

FORMATS = ("openreview", "paperlists", "arxiv-kaggle", "csljson", "zotero")

# Characters of an abstract rendered to derive a title: well past what derive_title reads.
_DERIVE_SOURCE = 20_000

_DECODER = json.JSONDecoder()
# JSON allows exactly these four whitespace characters between tokens.
_JSON_WS = re.compile(r"[ \t\n\r]*")


class Unreadable(NamedTuple):
    """Stands for a line of JSON lines that could not be read, and says why."""

    reason: str


class JsonRecord(NamedTuple):
    """One top-level value of a JSON file, with where it came from."""

    value: Any
    #: ``file:line`` for JSON lines and concatenated objects, ``file#index`` in an array.
    source: str
    #: The file name as given to the importer.
    file: str
    #: Line the value starts on (1-based).
    line: int
    #: Position among the file's records (1-based).
    position: int

    @property
    def location(self) -> str:
        """``file:line``, the prefix of every problem line about this record."""
        return f"{self.file}:{self.line}"


# --- detection ------------------------------------------------------------------------------

# Keys only the Kaggle arXiv snapshot uses.
_ARXIV_KEYS = frozenset({"authors_parsed", "submitter", "journal-ref", "report-no", "update_date"})
# Hyphenated keys are CSL's own spelling; no other format here uses them.
_CSL_KEYS = frozenset(
    {
        "container-title",
        "citation-key",
        "issued",
        "collection-title",
        "publisher-place",
        "title-short",
        "number-of-pages",
        "original-date",
        "event-place",
    }
)
# Keys of the paperlists schema (papercopilot), beside title and abstract.
_PAPERLISTS_KEYS = frozenset(
    {
        "site",
        "status",
        "track",
        "aff",
        "bibtex",
        "authorids",
        "author",
        "gs_citation",
        "or_profile",
        "aff_domain",
        "rating",
        "pdf_size",
        "position",
        "project",
        "github",
    }
)


def detect_json_format(text: str) -> str | None:
    """Which JSON paper format ``text`` is: ``openreview``, ``paperlists``, ``arxiv-kaggle``,
    ``csljson``, or None when it is none of them (or not JSON).

    Only the first record is parsed: the first element of an array, or the first object of
    JSON lines (or the whole object when there is just one).
    """
    try:
        first = _first_value(text)
    except (ValueError, RecursionError):
        return None
    return _classify(first)


def _first_value(text: str) -> Any:
    """The first record of a JSON text; raises ValueError when there is none."""
    pos = _skip_ws(text, 1 if text.startswith("\ufeff") else 0)
    if text.startswith("[", pos):
        pos = _skip_ws(text, pos + 1)
    if not text.startswith("{", pos):
        raise ValueError("no object")
    # raw_decode stops at the end of the first object, so the rest of the file is never read.
    value, _ = _DECODER.raw_decode(text, pos)
    return value


def _classify(value: Any) -> str | None:
    """The format a first record belongs to."""
    if not isinstance(value, dict):
        return None
    from reader.sources.zotero import looks_like_zotero

    if looks_like_zotero(value):
        return "zotero"
    notes = value.get("notes")
    if "content" not in value and isinstance(notes, list) and notes:
        return _classify(notes[0])  # an OpenReview API response: {"notes": [...]}
    keys = set(value)
    if isinstance(value.get("content"), dict):
        return "openreview"
    if (
        "authors_parsed" in keys
        or len(keys & _ARXIV_KEYS) >= 2
        or ({"versions", "categories"} <= keys and "id" in keys)
    ):
        return "arxiv-kaggle"
    if keys & _CSL_KEYS or (value.get("type") in _CSL_TYPES and "status" not in keys):
        return "csljson"
    if "title" in keys and len(keys & _PAPERLISTS_KEYS) >= 2:
        return "paperlists"
    return None


# --- loading --------------------------------------------------------------------------------


def load_records(text: str, source: str) -> list[JsonRecord]:
    """The top-level records of a JSON text, in file order.

    Accepts a JSON array, JSON lines, or objects one after another (a single pretty-printed
    object included). An unreadable line of JSON lines is kept as an :class:`Unreadable`
    value, which :func:`build_result` reports in its place. Raises :class:`ImportFormatError`
    naming ``source`` and the line and column when the text is not JSON, holds no objects,
    or nests too deeply to read.
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    start = _skip_ws(text, 0)
    if start >= len(text):
        raise ImportFormatError(f"{source}: the file is empty")
    first = text[start]
    if first == "[":
        records = _load_array(text, start, source)
    elif first == "{":
        records = _load_lines(text, source)
    else:
        value, _ = _decode(text, start, source)
        raise ImportFormatError(
            f"{source}: the file holds {_describe(value)}, not a list of paper records"
        )
    if records and not any(isinstance(r.value, dict | Unreadable) for r in records):
        raise ImportFormatError(
            f"{source}: the JSON holds no objects (the first value is "
            f"{_describe(records[0].value)}), so no paper records"
        )
    return records


def _skip_ws(text: str, pos: int) -> int:
    """The position of the first non-whitespace character at or after ``pos``."""
    match = _JSON_WS.match(text, pos)
    return match.end() if match else pos


def _line_col(text: str, pos: int) -> tuple[int, int]:
    """1-based line and column of ``pos``."""
    line = text.count("\n", 0, pos) + 1
    return line, pos - (text.rfind("\n", 0, pos) + 1) + 1


def _decode(text: str, pos: int, source: str) -> tuple[Any, int]:
    """One JSON value starting at ``pos``, with any failure as an ImportFormatError."""
    try:
        return _DECODER.raw_decode(text, pos)
    except json.JSONDecodeError as exc:
        raise ImportFormatError(
            f"{source}:{exc.lineno}:{exc.colno}: not valid JSON: {exc.msg}"
        ) from None
    except RecursionError:
        # The C decoder recurses once per nesting level; thousands of levels are garbage.
        line, col = _line_col(text, pos)
        raise ImportFormatError(
            f"{source}:{line}:{col}: JSON nested too deeply to be paper records"
        ) from None
    except ValueError as exc:  # e.g. an integer with more digits than Python converts
        line, col = _line_col(text, pos)
        reason = str(exc).split(":")[0]
        raise ImportFormatError(f"{source}:{line}:{col}: unreadable JSON value: {reason}") from None


def _load_array(text: str, start: int, source: str) -> list[JsonRecord]:
    """The elements of the array at ``start``, each with its line and index.

    Elements are decoded one by one (rather than with one ``json.loads``) to learn the line
    each starts on, which the problem lines name.
    """
    records: list[JsonRecord] = []
    pos = _skip_ws(text, start + 1)
    line = text.count("\n", 0, pos) + 1
    counted = pos
    if text.startswith("]", pos):
        return _expect_end(text, pos + 1, source, records)
    while True:
        line += text.count("\n", counted, pos)
        counted = pos
        value, end = _decode(text, pos, source)
        index = len(records) + 1
        records.append(JsonRecord(value, f"{source}#{index}", source, line, index))
        pos = _skip_ws(text, end)
        if pos >= len(text):
            line, col = _line_col(text, pos)
            raise ImportFormatError(f"{source}:{line}:{col}: the JSON array is not closed")
        if text[pos] == "]":
            return _expect_end(text, pos + 1, source, records)
        if text[pos] != ",":
            line, col = _line_col(text, pos)
            raise ImportFormatError(
                f"{source}:{line}:{col}: not valid JSON: expecting ',' or ']' in the array"
            )
        pos = _skip_ws(text, pos + 1)


def _expect_end(text: str, pos: int, source: str, records: list[JsonRecord]) -> list[JsonRecord]:
    """``records``, after checking nothing but whitespace follows the array."""
    pos = _skip_ws(text, pos)
    if pos < len(text):
        line, col = _line_col(text, pos)
        raise ImportFormatError(f"{source}:{line}:{col}: unexpected data after the JSON array")
    return records


def _load_lines(text: str, source: str) -> list[JsonRecord]:
    """Records of JSON lines; objects spread over several lines when the first line is not
    a complete JSON value.

    In JSON lines a bad line costs that line only (a download cut short, one corrupt record);
    a bad first line means the file is not JSON lines, and is read as a JSON stream instead.
    """
    records: list[JsonRecord] = []
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip(" \t\r"):
            continue
        try:
            value = json.loads(line)
        except (ValueError, RecursionError) as exc:
            if not records:
                return _load_stream(text, source)
            value = Unreadable(_line_error(exc))
        index = len(records) + 1
        records.append(JsonRecord(value, f"{source}:{number}", source, number, index))
    return records


def iter_lines(text: str, source: str) -> tuple[Iterator[JsonRecord], int] | None:
    """The records of a JSON-lines text, decoded one at a time as they are asked for, and
    how many lines it has (at most that many records); None when the text is not JSON
    lines (an array, a stream of objects over several lines), which load_records reads.

    What load_records gives for JSON lines, without holding every decoded record (or a
    copy of the text split into lines) at once.
    """
    start = _skip_ws(text, 0)
    if not text.startswith("{", start):
        return None
    first_end = text.find("\n", start)
    try:
        json.loads(text[start:] if first_end < 0 else text[start:first_end])
    except (ValueError, RecursionError):
        return None
    return _lines(text, source), text.count("\n") + (not text.endswith("\n"))


def _lines(text: str, source: str) -> Iterator[JsonRecord]:
    pos, number, index = 0, 0, 0
    if text.startswith("\ufeff"):
        pos = 1
    size = len(text)
    while pos < size:
        end = text.find("\n", pos)
        if end < 0:
            end = size
        number += 1
        line = text[pos:end]
        pos = end + 1
        if not line.strip(" \t\r"):
            continue
        try:
            value = json.loads(line)
        except (ValueError, RecursionError) as exc:
            value = Unreadable(_line_error(exc))
        index += 1
        yield JsonRecord(value, f"{source}:{number}", source, number, index)


def _line_error(exc: BaseException) -> str:
    """Why one JSON line could not be read, for a problem line."""
    if isinstance(exc, json.JSONDecodeError):
        return f"not valid JSON (column {exc.colno}: {exc.msg})"
    if isinstance(exc, RecursionError):
        return "JSON nested too deeply"
    return f"unreadable JSON value ({str(exc).split(':')[0]})"


def _load_stream(text: str, source: str) -> list[JsonRecord]:
    """Whitespace-separated JSON values, e.g. one pretty-printed object or several."""
    records: list[JsonRecord] = []
    pos = _skip_ws(text, 0)
    line, counted = 1, 0
    while pos < len(text):
        line += text.count("\n", counted, pos)
        counted = pos
        value, end = _decode(text, pos, source)
        index = len(records) + 1
        records.append(JsonRecord(value, f"{source}:{line}", source, line, index))
        pos = _skip_ws(text, end)
    return records


def _describe(value: Any) -> str:
    """``a number``, ``a string`` …: the JSON type of ``value`` for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    return "an object"


# --- per-record conversion ------------------------------------------------------------------

#: What an importer makes of one record: a paper, or the text of a problem line.
Outcome = PaperRecord | str


def build_result(
    records: Iterable[JsonRecord],
    convert: Callable[[JsonRecord], Outcome],
    id_keys: tuple[str, ...] = ("id",),
) -> ParseResult:
    """Convert each object record with ``convert``; everything else becomes a problem line,
    in file order.

    ``convert`` returns a record or a problem text (without location). A non-object record,
    or one that makes ``convert`` fail, is reported with its location and skipped, so that
    the records around it are kept.
    """
    result = ParseResult()
    result.records.extend(convert_records(records, convert, result.problems, id_keys))
    return result


def convert_records(
    records: Iterable[JsonRecord],
    convert: Callable[[JsonRecord], Outcome],
    problems: list[str],
    id_keys: tuple[str, ...] = ("id",),
) -> Iterator[PaperRecord]:
    """The papers ``convert`` makes of the records, one at a time, as build_result makes
    them; each problem line is added to ``problems`` as its record is met."""
    for record in records:
        if isinstance(record.value, Unreadable):
            problems.append(f"{record.location}: {record.value.reason}; line skipped")
            continue
        if not isinstance(record.value, dict):
            problems.append(
                f"{record.location}: record #{record.position} is {_describe(record.value)}, "
                "not an object; skipped"
            )
            continue
        try:
            outcome = convert(record)
        except Exception as exc:  # one odd record must not cost the user the whole file
            label = record_label(record, id_keys)
            problems.append(
                f"{record.location}: record {label} could not be read "
                f"(unexpected data: {type(exc).__name__}); skipped"
            )
            continue
        if isinstance(outcome, str):
            problems.append(f"{record.location}: {outcome}")
        else:
            yield outcome


def record_label(record: JsonRecord, keys: tuple[str, ...] = ("id",)) -> str:
    """How a problem line names a record: ``'B1-Hhnslg'`` by its id, else ``#3``."""
    value = record.value
    if isinstance(value, dict):
        for key in keys:
            ident = value.get(key)
            if isinstance(ident, int | str) and not isinstance(ident, bool):
                text = clean_title(ident)
                if text:
                    return f"'{text[:60]}'"
    return f"#{record.position}"


def finish_record(paper: PaperRecord, record: JsonRecord, label: str) -> Outcome:
    """``paper`` with a derived title when it has only an abstract; a problem when neither."""
    if not paper.title:
        if not paper.abstract:
            return f"record {label} has no title or abstract; skipped"
        # derive_title reads only the first few thousand characters; rendering more is waste.
        opening = paper.abstract[:_DERIVE_SOURCE]
        paper.title = derive_title(to_plain(opening), max_len=TITLE_MAX)
        paper.title_derived = True
    if paper.source is None:
        paper.source = record.source
    return paper


# --- field helpers --------------------------------------------------------------------------

# Only what needs replacing: a run of blanks or a tab (not every single space).
_H_SPACE = re.compile(r"[ \t]{2,}|\t")
_SURROGATE = re.compile("[\ud800-\udfff]")
_BLANK_LINES = re.compile(r"\n[ \t]*(?:\n[ \t]*)+")
_YEAR = re.compile(r"(?<!\d)(1[89]\d\d|20\d\d|21\d\d)(?!\d)")
# A venue acronym has at least two capitals: ICLR, NeurIPS, CoRL, TMLR, COLM.
_ACRONYM = re.compile(r"(?<![\w-])[A-Za-z]*[A-Z][a-z]*[A-Z][A-Za-z]*(?![\w-])")
# Acronym-shaped words that name a site or a status, not a venue.
_NOT_VENUES = frozenset({"OpenReview", "TL", "DR", "PDF", "URL", "DOI", "ID"})
_MIN_YEAR, _MAX_YEAR = 1800, 2199


def text_value(value: Any) -> str:
    """``value`` as text: strings as they are, integers as digits, anything else empty."""
    if isinstance(value, str):
        if value.isascii():
            return value  # no surrogate to check for (most values: a C check, no copy)
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            # JSON can escape half a surrogate pair ("\\ud800"), which UTF-8 cannot store.
            return _SURROGATE.sub("\ufffd", value)
        return value
    # Numbers do turn up where text belongs (an id, a numeric title); other types are junk.
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return ""


def clean_title(value: Any) -> str:
    """Imported single-line text (title, name, venue): cleaned, whitespace folded."""
    return " ".join(clean_imported(text_value(value)).split())


def _fold_blanks(line: str) -> str:
    """Runs of blanks and tabs as one space (the substring tests skip the regex for the
    usual line, which has neither)."""
    if "  " in line or "\t" in line:
        return _H_SPACE.sub(" ", line)
    return line


def clean_abstract(value: Any, *, unwrap: bool = False, indented_paragraphs: bool = False) -> str:
    """Imported abstract: cleaned, stripped, runs of spaces folded, paragraph breaks kept.

    ``unwrap`` joins hard-wrapped lines within a paragraph; ``indented_paragraphs`` also
    starts a paragraph at every indented line, as arXiv abstracts mark them.
    """
    text = clean_imported(text_value(value))
    if indented_paragraphs:
        text = re.sub(r"\n(?=[ \t]+\S)", "\n\n", text.strip("\n"))
    paragraphs = []
    for block in _BLANK_LINES.split(text):
        lines = [_fold_blanks(line).strip() for line in block.split("\n")]
        lines = [line for line in lines if line]
        if lines:
            paragraphs.append((" " if unwrap else "\n").join(lines))
    return "\n\n".join(paragraphs)


def string_list(value: Any, separator: str | None = None) -> list[str]:
    """Distinct non-empty cleaned strings from a list, or from a string split on the
    ``separator`` regex (the whole string when None)."""
    if isinstance(value, list):
        items = [text_value(item) for item in value]
    else:
        text = text_value(value)
        items = re.split(separator, text) if separator else [text]
    seen: dict[str, None] = {}
    for item in items:
        cleaned = clean_title(item)
        if cleaned:
            seen.setdefault(cleaned, None)
    return list(seen)


def year_value(value: Any) -> int | None:
    """A plausible year from an integer or a string that holds one, else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if _MIN_YEAR <= value <= _MAX_YEAR else None
    if isinstance(value, str):
        match = _YEAR.search(value)
        return int(match.group(1)) if match else None
    return None


def iso_date(year: Any, month: Any = None, day: Any = None) -> str | None:
    """``2020-05-01``, ``2020-05`` or ``2020`` from parts that may be numbers or digits."""
    y = _small_int(year)
    if y is None or not _MIN_YEAR <= y <= _MAX_YEAR:
        return None
    m = _small_int(month)
    if m is None or not 1 <= m <= 12:
        return f"{y:04d}"
    d = _small_int(day)
    if d is not None:
        try:
            return date(y, m, d).isoformat()
        except ValueError:
            pass  # 30 February: the month is still right
    return f"{y:04d}-{m:02d}"


def _small_int(value: Any) -> int | None:
    """An integer from an int or a short digit string (as CSL date parts often are)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isdigit() and len(value.strip()) <= 4:
        return int(value.strip())
    return None


def date_from_epoch_ms(value: Any) -> str | None:
    """ISO date (UTC) of a millisecond timestamp such as OpenReview's ``cdate``."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        moment = datetime.fromtimestamp(value / 1000, tz=UTC)
    except (OverflowError, OSError, ValueError):
        return None
    if not _MIN_YEAR <= moment.year <= _MAX_YEAR:
        return None
    return moment.date().isoformat()


def venue_from_text(text: str) -> tuple[str | None, int | None]:
    """Venue acronym and year named in text such as ``Submitted to ICLR 2026``."""
    year_match = _YEAR.search(text)
    candidates = [m for m in _ACRONYM.finditer(text) if m.group(0) not in _NOT_VENUES]
    year = int(year_match.group(1)) if year_match else None
    if not candidates:
        return None, year
    if year_match is None:
        return candidates[0].group(0), None
    # The venue is the acronym nearest the year, preferring one before it ("ICLR 2026 …").
    before = [m for m in candidates if m.end() <= year_match.start()]
    chosen = before[-1] if before else candidates[0]
    return chosen.group(0), year
