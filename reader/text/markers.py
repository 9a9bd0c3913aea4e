"""The private-use alphabet rendering works in: style markers (U+E000–U+E005) and
one-character placeholders for text parked while pylatexenc runs (the supplementary
private-use planes). Input characters of this alphabet are replaced by U+FFFD first, so
none can be forged (:mod:`reader.text.render`)."""

from __future__ import annotations

import re

STYLES = ("bold", "italic", "code")

# --- private-use alphabet ---------------------------------------------------

# Style markers: open/close pairs, in the order of STYLES.
OPEN = {"bold": "\ue000", "italic": "\ue002", "code": "\ue004"}
CLOSE = {"bold": "\ue001", "italic": "\ue003", "code": "\ue005"}
MARKER_STYLE = {ch: (style, True) for style, ch in OPEN.items()}
MARKER_STYLE.update({ch: (style, False) for style, ch in CLOSE.items()})

# Placeholders: one character each, the table index added to a base in the
# supplementary private-use planes.  One character, because pylatexenc's cost
# is per character.  Literal ones are expanded after pylatexenc, raw ones put
# back just before it.  65,534 slots exceed what a paragraph of
# MAX_PARAGRAPH characters can need (each placeholder replaces >= 1 char).
LIT_BASE = 0xF0000
RAW_BASE = 0x100000
SLOTS = 0xFFFE
LIT_RE = re.compile("[\U000f0000-\U000ffffd]")
RAW_RE = re.compile("[\U00100000-\U0010fffd]")
# Everything of ours that must never reach the output (or come from the input).
PRIVATE_RE = re.compile("[\ue000-\ue005\U000f0000-\U0010ffff]")


def placeholder(table: list[str], value: str, base: int) -> str:
    if len(table) >= SLOTS:
        raise OverflowError("too many placeholders")  # caught per paragraph
    table.append(value)
    return chr(base + len(table) - 1)


def expand(text: str, pattern: re.Pattern[str], table: list[str], base: int) -> str:
    def sub(m: re.Match[str]) -> str:
        index = ord(m.group()) - base
        return table[index] if index < len(table) else ""

    return pattern.sub(sub, text)


# --- limits -----------------------------------------------------------------

# A paragraph longer than this is shown verbatim: no abstract is this long, and
# it bounds the cost of the emphasis search on hostile input.
MAX_PARAGRAPH = 50_000
# pylatexenc is slow and recursive; beyond this the skeleton is shown as is.
MAX_LATEX = 20_000
# Longest emphasised phrase considered; keeps the emphasis regexes linear.
MAX_EMPHASIS = 400
# Inputs up to this size are memoised by render().
MAX_CACHED = 20_000


