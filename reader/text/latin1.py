"""Bytes that are not UTF-8, read as Latin-1 the way Windows writes it.

A file that is not UTF-8 is nearly always Windows-1252, the code page Excel and Windows
programs save text in: Latin-1, but for the 32 bytes Latin-1 gives to control characters,
where it has curly quotes, dashes, the euro sign and the ellipsis. Read as Latin-1 proper,
those became control characters, which the import's cleaning then deletes: "The “quoted”
title – with dash" lost its quotes and its dash without a word. The five bytes Windows-1252
leaves unassigned are read as Latin-1 reads them (and cleaned away likewise).
"""

from __future__ import annotations

import codecs

__all__ = ["latin1"]

_HANDLER = "reader-latin-1"


def _as_latin1(exc: UnicodeError) -> tuple[str, int]:
    if not isinstance(exc, UnicodeDecodeError):
        raise exc
    return exc.object[exc.start:exc.end].decode("latin-1"), exc.end


codecs.register_error(_HANDLER, _as_latin1)


def latin1(data: bytes) -> str:
    """``data`` as Windows-1252 text, its unassigned bytes as Latin-1's."""
    return data.decode("cp1252", _HANDLER)
