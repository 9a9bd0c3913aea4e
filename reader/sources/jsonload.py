"""Reading JSON import files: a JSON array, JSON lines or concatenated objects, as
:class:`JsonRecord` values that know their line and index; text that is not JSON at all
raises :class:`~reader.sources.ImportFormatError` with the line and column."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any, NamedTuple

import msgspec

from reader.sources import ImportFormatError
from reader.sources.limits import DEPTH_MAX

if TYPE_CHECKING:
    from reader.sources.textfile import TextFile

DECODER = json.JSONDecoder()
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
    #: When the file was made, as the object wrapping the list says (``generated_at``):
    #: the date of a record that gives none of its own.
    dated: str | None = None

    @property
    def location(self) -> str:
        """``file:line``, the prefix of every problem line about this record."""
        return f"{self.file}:{self.line}"


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
    start = skip_ws(text, 0)
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
            f"{source}: the file holds {describe(value)}, not a list of paper records"
        )
    if records and not any(isinstance(r.value, dict | Unreadable) for r in records):
        raise ImportFormatError(
            f"{source}: the JSON holds no objects (the first value is "
            f"{describe(records[0].value)}), so no paper records"
        )
    return records


def skip_ws(text: str, pos: int) -> int:
    """The position of the first non-whitespace character at or after ``pos``."""
    match = _JSON_WS.match(text, pos)
    return match.end() if match else pos


_NESTED = frozenset({dict, list})


def too_deep(value: Any, limit: int = DEPTH_MAX) -> bool:
    """Whether arrays and objects nest more than ``limit`` deep in ``value`` (paper records
    nest a handful deep; what code reading them recurses over must stay shallow)."""
    # Level by level, each in one comprehension: a record with its replies holds hundreds
    # of small objects, and a loop pushing each one cost more than decoding the line. The
    # decoder makes plain dicts and lists: their types are looked up, a third faster than
    # asking isinstance of each of a conference's millions of values.
    level: list[Any] = [value]
    for _ in range(limit):
        level = [
            child
            for item in level
            for child in (item.values() if type(item) is dict else item)
            if type(child) in _NESTED
        ]
        if not level:
            return False
    return True


#: Why a value nested too deeply is not read.
TOO_DEEP = f"JSON nested more than {DEPTH_MAX} deep, too deeply to be paper records"


def _line_col(text: str, pos: int) -> tuple[int, int]:
    """1-based line and column of ``pos``."""
    line = text.count("\n", 0, pos) + 1
    return line, pos - (text.rfind("\n", 0, pos) + 1) + 1


def _decode(text: str, pos: int, source: str) -> tuple[Any, int]:
    """One JSON value starting at ``pos``, with any failure as an ImportFormatError."""
    try:
        value, end = DECODER.raw_decode(text, pos)
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
    if isinstance(value, dict | list) and too_deep(value):
        line, col = _line_col(text, pos)
        raise ImportFormatError(f"{source}:{line}:{col}: {TOO_DEEP}")
    return value, end


def _load_array(text: str, start: int, source: str) -> list[JsonRecord]:
    """The elements of the array at ``start``, each with its line and index.

    Elements are decoded one by one (rather than with one ``json.loads``) to learn the line
    each starts on, which the problem lines name.
    """
    records: list[JsonRecord] = []
    pos = skip_ws(text, start + 1)
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
        pos = skip_ws(text, end)
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
        pos = skip_ws(text, pos + 1)


def _expect_end(text: str, pos: int, source: str, records: list[JsonRecord]) -> list[JsonRecord]:
    """``records``, after checking nothing but whitespace follows the array."""
    pos = skip_ws(text, pos)
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
            value = _loads(line)
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
    start = skip_ws(text, 0)
    if not text.startswith("{", start):
        return None
    first_end = text.find("\n", start)
    try:
        json.loads(text[start:] if first_end < 0 else text[start:first_end])
    except (ValueError, RecursionError):
        return None
    return _lines(text, source), text.count("\n") + (not text.endswith("\n"))


def _lines(text: str, source: str) -> Iterator[JsonRecord]:
    return _records_of_lines(_text_lines(text), source)


def _text_lines(text: str) -> Iterator[str]:
    """The text's lines, sliced one at a time (a list of them all would hold the text
    twice), as a file's are read (:meth:`reader.sources.textfile.TextFile.lines`); a
    leading BOM dropped."""
    pos = 1 if text.startswith("\ufeff") else 0
    size = len(text)
    while pos < size:
        end = text.find("\n", pos)
        if end < 0:
            end = size
        yield text[pos:end]
        pos = end + 1


def iter_byte_lines(file: TextFile, source: str) -> Iterator[JsonRecord]:
    """The records of :func:`iter_lines` for a file read a line at a time, each decoded
    from its bytes by msgspec: twice the json module's speed on text, which need not be
    decoded first. A line msgspec refuses (not UTF-8, NaN, a lone surrogate) is read by
    the json module, so every value and message is as the json module has it."""
    index = 0
    decode = msgspec.json.Decoder().decode
    for number, raw in enumerate(file.byte_lines(), start=1):
        if not raw.strip(b" \t\r"):
            continue
        try:
            value = decode(raw)
            if (isinstance(value, dict | list)
                    and raw.count(b"{") + raw.count(b"[") > DEPTH_MAX and too_deep(value)):
                value = Unreadable(TOO_DEEP)
        except (msgspec.DecodeError, RecursionError):
            try:
                value = _loads(file.decoded(raw, number))
            except (ValueError, RecursionError) as exc:
                value = Unreadable(_line_error(exc))
        index += 1
        yield JsonRecord(value, f"{source}:{number}", source, number, index)


def _records_of_lines(lines: Iterable[str], source: str) -> Iterator[JsonRecord]:
    """One record per line that is not blank, numbered by its line."""
    index = 0
    for number, line in enumerate(lines, start=1):
        if not line.strip(" \t\r"):
            continue
        try:
            value = _loads(line)
        except (ValueError, RecursionError) as exc:
            value = Unreadable(_line_error(exc))
        index += 1
        yield JsonRecord(value, f"{source}:{number}", source, number, index)


class _TooDeep(ValueError):
    """A JSON line nested more deeply than records are."""


def _loads(line: str) -> Any:
    """One line's value, refused when it nests too deeply."""
    value = json.loads(line)
    # Nesting deeper than DEPTH_MAX takes more brackets than that: counting them in C spares
    # the walk for the usual record (its cost was a tenth of reading a conference list).
    if (
        isinstance(value, dict | list)
        and line.count("{") + line.count("[") > DEPTH_MAX
        and too_deep(value)
    ):
        raise _TooDeep(TOO_DEEP)
    return value


def _line_error(exc: BaseException) -> str:
    """Why one JSON line could not be read, for a problem line."""
    if isinstance(exc, _TooDeep):
        return TOO_DEEP
    if isinstance(exc, json.JSONDecodeError):
        return f"not valid JSON (column {exc.colno}: {exc.msg})"
    if isinstance(exc, RecursionError):
        return "JSON nested too deeply"
    return f"unreadable JSON value ({str(exc).split(':')[0]})"


def _load_stream(text: str, source: str) -> list[JsonRecord]:
    """Whitespace-separated JSON values, e.g. one pretty-printed object or several."""
    records: list[JsonRecord] = []
    pos = skip_ws(text, 0)
    line, counted = 1, 0
    while pos < len(text):
        line += text.count("\n", counted, pos)
        counted = pos
        value, end = _decode(text, pos, source)
        index = len(records) + 1
        records.append(JsonRecord(value, f"{source}:{line}", source, line, index))
        pos = skip_ws(text, end)
    return records


def describe(value: Any) -> str:
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


