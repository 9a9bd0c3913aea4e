"""A JSON array read an item at a time from the pieces of its text, as
:func:`reader.sources.jsonload.load_records` reads an array whole: the same records, and the
same errors at the same line and column, without the text or the records held whole."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from typing import Any

from reader.sources import ImportFormatError
from reader.sources.jsonload import DECODER, TOO_DEEP, JsonRecord, skip_ws, too_deep
from reader.sources.limits import record_limit, record_refusal

__all__ = ["iter_array"]

# Characters that may go on a number.
_NUMBERISH = re.compile(r"[0-9.eE+-]*")


class _Window:
    """The part of a text not yet read, filled from its pieces as it is asked for, and
    where its first character stands in the whole text (for the lines and columns that
    messages name)."""

    def __init__(self, pieces: Iterable[str]) -> None:
        self._pieces = iter(pieces)
        self.text = ""
        #: Set once the last piece is in ``text``.
        self.ended = False
        self._line = 1  # of text[0]
        self._column = 0  # of text[0], counted from 0
        self._counted = 0  # text[:_counted] holds _newlines line ends
        self._newlines = 0

    def more(self, pos: int) -> int | None:
        """Read on, at least as much again as is left from ``pos`` (so that a long value
        is read in a few passes), dropping what lies before it: where ``pos`` is now, or
        None at the end of the text (nothing moved)."""
        if self.ended:
            return None
        added = []
        wanted = max(len(self.text) - pos, 1)
        for piece in self._pieces:
            added.append(piece)
            wanted -= len(piece)
            if wanted <= 0:
                break
        else:
            self.ended = True
        if not added:
            return None
        self._drop(pos)
        self.text += "".join(added)
        return 0

    def drop_bom(self) -> None:
        """Leave out a byte order mark at the start, as ``load_records`` does (the
        positions named are those of the text without it)."""
        if not self.text:
            self.more(0)
        if self.text.startswith("\ufeff"):
            self.text = self.text[1:]

    def _drop(self, pos: int) -> None:
        lines = self.line_of(pos) - self._line
        if lines:
            self._column = pos - self.text.rfind("\n", 0, pos) - 1
        else:
            self._column += pos
        self._line += lines
        self.text = self.text[pos:]
        self._counted = self._newlines = 0

    def line_of(self, pos: int) -> int:
        """The line ``pos`` is on (counted on from the last position asked about)."""
        if pos < self._counted:
            self._counted = self._newlines = 0
        self._newlines += self.text.count("\n", self._counted, pos)
        self._counted = pos
        return self._line + self._newlines

    def where(self, pos: int) -> str:
        """``line:column`` of ``pos`` (1-based), counted as ``load_records`` counts them."""
        line = self.line_of(pos)
        start = self.text.rfind("\n", 0, pos)
        column = pos - start if start >= 0 else self._column + pos + 1
        return f"{line}:{column}"


def iter_array(pieces: Iterable[str], source: str) -> Iterator[JsonRecord]:
    """The elements of a JSON array, decoded one at a time from the pieces of its text as
    they are asked for: what ``load_records`` gives for an array, with the same errors
    (named by line and column), without holding the text or the records whole. The text
    is the array (with whitespace, or a byte order mark, around it)."""
    window = _Window(pieces)
    window.drop_bom()
    pos = _next_token(window, 0)
    if not window.text.startswith("[", pos):
        raise ValueError("the text is not a JSON array")
    pos = _next_token(window, pos + 1)
    index = 0
    if window.text.startswith("]", pos):
        _end_of_array(window, pos + 1, source)
        return
    while True:
        line = window.line_of(pos)
        value, pos = _decode_in(window, pos, source)
        index += 1
        yield JsonRecord(value, f"{source}#{index}", source, line, index)
        pos = _next_token(window, pos)
        if pos >= len(window.text):
            raise ImportFormatError(f"{source}:{window.where(pos)}: the JSON array is not closed")
        if window.text[pos] == "]":
            _end_of_array(window, pos + 1, source)
            return
        if window.text[pos] != ",":
            raise ImportFormatError(
                f"{source}:{window.where(pos)}: not valid JSON: expecting ',' or ']' in the array"
            )
        pos = _next_token(window, pos + 1)


def _next_token(window: _Window, pos: int) -> int:
    """The position of the first character after whitespace at or after ``pos``, reading
    on as needed; the length of the text at its end."""
    while True:
        pos = skip_ws(window.text, pos)
        if pos < len(window.text):
            return pos
        moved = window.more(pos)
        if moved is None:
            return pos
        pos = moved


def _decode_in(window: _Window, pos: int, source: str) -> tuple[Any, int]:
    """The value at ``pos`` and the position after it, reading on while the value may go on
    past what is read; errors as ``jsonload._decode`` gives them for the whole text."""
    while True:
        try:
            value, end = DECODER.raw_decode(window.text, pos)
        except json.JSONDecodeError as exc:
            # Perhaps only cut short: an error stands once the whole text is read. One item
            # is read on only as far as one record may go.
            if len(window.text) - pos > record_limit():
                raise ImportFormatError(
                    record_refusal(source, window.line_of(pos), record_limit())
                ) from None
            moved = window.more(pos)
            if moved is None:
                where = window.where(exc.pos)
                raise ImportFormatError(f"{source}:{where}: not valid JSON: {exc.msg}") from None
            pos = moved
            continue
        except RecursionError:
            # A property of the value's start, which reading on cannot change.
            raise ImportFormatError(
                f"{source}:{window.where(pos)}: JSON nested too deeply to be paper records"
            ) from None
        except ValueError as exc:  # a number too long, whose digits are all read already
            reason = str(exc).split(":")[0]
            raise ImportFormatError(
                f"{source}:{window.where(pos)}: unreadable JSON value: {reason}"
            ) from None
        if isinstance(value, dict | list) and too_deep(value):
            raise ImportFormatError(f"{source}:{window.where(pos)}: {TOO_DEEP}")
        if isinstance(value, dict | list | str) or _number_end(window.text, end) < len(window.text):
            return value, end
        # A number read up to the end of what is read ("8.", "1e") may go on in the next piece.
        moved = window.more(pos)
        if moved is None:
            return value, end
        pos = moved


def _number_end(text: str, pos: int) -> int:
    """Where characters that may go on a number stop, from ``pos``."""
    match = _NUMBERISH.match(text, pos)
    return match.end() if match else pos


def _end_of_array(window: _Window, pos: int, source: str) -> None:
    """Check that nothing but whitespace follows the array."""
    pos = _next_token(window, pos)
    if pos < len(window.text):
        raise ImportFormatError(
            f"{source}:{window.where(pos)}: unexpected data after the JSON array"
        )
