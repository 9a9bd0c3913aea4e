"""Regular expressions compiled when first used.

Most of the reader's patterns serve importers, citations, notes and the doctor, yet their
modules are imported as the window starts: compiled there, some fifty of them cost the first
paint about 8 ms for nothing. :class:`Pattern` keeps the source and compiles it on first
use; after that a call costs one more Python call than the compiled pattern's own.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator


class Pattern:
    """A regular expression over text, compiled the first time it is used."""

    __slots__ = ("_compiled", "_flags", "_source")

    def __init__(self, source: str, flags: int = 0) -> None:
        self._source = source
        self._flags = flags
        self._compiled: re.Pattern[str] | None = None

    @property
    def compiled(self) -> re.Pattern[str]:
        """The compiled pattern (two threads compiling at once both get an equal one)."""
        compiled = self._compiled
        if compiled is None:
            compiled = self._compiled = re.compile(self._source, self._flags)
        return compiled

    @property
    def pattern(self) -> str:
        """The source of the pattern."""
        return self._source

    def search(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        """As :meth:`re.Pattern.search`."""
        return self.compiled.search(string, pos, endpos)

    def match(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        """As :meth:`re.Pattern.match`."""
        return self.compiled.match(string, pos, endpos)

    def fullmatch(
        self, string: str, pos: int = 0, endpos: int = sys.maxsize
    ) -> re.Match[str] | None:
        """As :meth:`re.Pattern.fullmatch`."""
        return self.compiled.fullmatch(string, pos, endpos)

    def finditer(
        self, string: str, pos: int = 0, endpos: int = sys.maxsize
    ) -> Iterator[re.Match[str]]:
        """As :meth:`re.Pattern.finditer`."""
        return self.compiled.finditer(string, pos, endpos)

    def findall(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> list[str]:
        """As :meth:`re.Pattern.findall` (for patterns of at most one group)."""
        return self.compiled.findall(string, pos, endpos)

    def split(self, string: str, maxsplit: int = 0) -> list[str]:
        """As :meth:`re.Pattern.split` (a group that took no part gives ``None``)."""
        return self.compiled.split(string, maxsplit)

    def sub(self, repl: str | Callable[[re.Match[str]], str], string: str, count: int = 0) -> str:
        """As :meth:`re.Pattern.sub`."""
        return self.compiled.sub(repl, string, count)

    def subn(
        self, repl: str | Callable[[re.Match[str]], str], string: str, count: int = 0
    ) -> tuple[str, int]:
        """As :meth:`re.Pattern.subn`."""
        return self.compiled.subn(repl, string, count)
