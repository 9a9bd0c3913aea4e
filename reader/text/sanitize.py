"""Text hygiene for imported abstracts and for anything handed to the terminal.

Three jobs, kept apart on purpose:

* :func:`clean_imported` is applied once, when text enters the library, and
  decides what is *stored*: normalised, without control or zero-width junk.
* :func:`visible` is applied at display time.  Stored text should already be
  clean, but the display is the last line of defence against escape sequences
  and bidi tricks, so it never trusts its input.
* :func:`normalize_for_identity` builds comparison keys (duplicate detection,
  title matching); its output is never shown.

This module is part of the headless core and imports nothing from the UI.
"""

from __future__ import annotations

import re
import unicodedata

from reader.text.pattern import Pattern

__all__ = ["clean_imported", "normalize_for_identity", "visible"]

# Zero-width characters that carry no visible content but break search and
# identity comparisons (ZWSP, ZWNJ, ZWJ, WORD JOINER, BOM/ZWNBSP).
_ZERO_WIDTH = "\u200b\u200c\u200d\u2060\ufeff"

# Explicit bidi embeddings/overrides/isolates and the implicit marks: each can
# reorder how the surrounding text is drawn, so they are never shown raw.
_BIDI = (
    [chr(c) for c in range(0x202A, 0x202F)]
    + [chr(c) for c in range(0x2066, 0x206A)]
    + ["\u200e", "\u200f", "\u061c"]
)


def _is_removable_control(code: int) -> bool:
    """True for C0 (minus \\n and \\t), DEL and C1 code points."""
    if code < 0x20:
        return code not in (0x09, 0x0A)
    return 0x7F <= code <= 0x9F


# Deletion table for clean_imported: controls and zero-width characters.
_IMPORT_TABLE: dict[int, None] = {
    code: None for code in range(0xA0) if _is_removable_control(code)
}
_IMPORT_TABLE.update({ord(ch): None for ch in _ZERO_WIDTH})
_IMPORT_CHARS = Pattern("[" + "".join(re.escape(chr(c)) for c in _IMPORT_TABLE) + "]")

# Replacement table for visible: C0 controls map onto the Control Pictures
# block (U+2400 + code), DEL onto its picture, C1 (which has no pictures) onto
# U+FFFD, and bidi controls onto a bracketed code-point label.
_VISIBLE_TABLE: dict[int, str] = {}
for _code in range(0xA0):
    if _is_removable_control(_code):
        if _code < 0x20:
            _VISIBLE_TABLE[_code] = chr(0x2400 + _code)
        elif _code == 0x7F:
            _VISIBLE_TABLE[_code] = "\u2421"  # ␡
        else:
            _VISIBLE_TABLE[_code] = "\ufffd"
for _ch in _BIDI:
    _VISIBLE_TABLE[ord(_ch)] = f"\u27e8U+{ord(_ch):04X}\u27e9"
del _code, _ch

_IDENTITY_ZW_TABLE = {ord(ch): None for ch in _ZERO_WIDTH}
_ZERO_WIDTH_CHARS = Pattern("[" + "".join(_ZERO_WIDTH) + "]")
_NEWLINES_RE = Pattern(r"\r\n?")


# ECMA-48 control sequences (CSI: colours, cursor moves) and operating system commands
# (OSC: window titles, links), as a terminal would read them.
_ESCAPE_SEQUENCE = Pattern(
    r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-Z\\-_]"
)


def clean_imported(text: str) -> str:
    """Return *text* as it should be stored: NFC, LF newlines, no controls or zero-widths."""
    # Newlines first, so that a lone CR becomes LF instead of being deleted as a
    # control character.
    if "\r" in text:
        text = _NEWLINES_RE.sub("\n", text)
    # Delete before normalising: removing a character from between a base and a
    # combining mark can change the composed form. The search finds the (rare) text that
    # needs it in one pass; translate() with a table is slow on non-ASCII text.
    if _IMPORT_CHARS.search(text):
        # A terminal's escape sequence goes whole ("\x1b[31m"): its ESC alone left "[31m".
        if "\x1b" in text:
            text = _ESCAPE_SEQUENCE.sub("", text)
        text = text.translate(_IMPORT_TABLE)
    if text.isascii() or unicodedata.is_normalized("NFC", text):
        return text
    return unicodedata.normalize("NFC", text)


def visible(text: str) -> str:
    """Return *text* with every control and bidi character replaced by a visible stand-in."""
    return text.translate(_VISIBLE_TABLE)


#: Texts longer than this are normalised a piece at a time: the list of every word of a text
#: of megabytes (a file that is one long line) takes ten times its size.
_LONG = 1 << 20
_WHITESPACE = Pattern(r"\s")


def _long_for_identity(text: str) -> str:
    """:func:`normalize_for_identity` of a long text, in pieces cut before a whitespace
    (where no normalisation reaches across)."""
    pieces = []
    start = 0
    while start < len(text):
        cut = _WHITESPACE.search(text, start + _LONG)
        end = cut.start() if cut else len(text)
        if piece := _short_for_identity(text[start:end]):
            pieces.append(piece)
        start = end
    return " ".join(pieces)


def normalize_for_identity(text: str) -> str:
    """Return a comparison key: NFKC, case-folded, whitespace collapsed, zero-widths removed."""
    if len(text) > _LONG:
        return _long_for_identity(text)
    return _short_for_identity(text)


def _short_for_identity(text: str) -> str:
    if text.isascii():
        # NFKC and casefold are the identity and lower() on ASCII: skip the Unicode work.
        return " ".join(text.lower().split())
    if _ZERO_WIDTH_CHARS.search(text):
        text = text.translate(_IDENTITY_ZW_TABLE)
    # casefold() can yield strings that are no longer NFKC-normal (e.g. some
    # Greek and ligature cases), so normalise on both sides of it.
    text = unicodedata.normalize("NFKC", text)
    text = unicodedata.normalize("NFKC", text.casefold())
    return " ".join(text.split())
