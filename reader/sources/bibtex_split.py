"""BibTeX entries of the plain shape most files have, split without bibtexparser.

bibtexparser's splitter steps from mark to mark (every comma, quote and line break of an
abstract is one), which makes it most of the cost of reading a long .bib file. Entries
of the shape ``@type{key, name = {value}, name = 1999, …}`` are split here by jumping from
brace to brace instead; anything else in a stretch of the file (a quoted value, an
@string, @comment or @preamble, parentheses as delimiters, a block start cutting an entry
short, any syntax error) gives None, and bibtexparser reads that stretch. What this gives is what
bibtexparser gives for the same text: the same entries, types, keys and raw field values
(a test compares the two on the shared files and on random entries).
"""

from __future__ import annotations

import re

from bibtexparser.model import Entry, Field

# Where bibtexparser starts a block: "@type" before "{" or "(".
_BLOCK = re.compile(r"@\w*[ \t]*(?=[{(])")
# bibtexparser's marks inside an entry (a brace, quote, comma or equals sign not after a
# backslash), or a block start, which ends an entry early.
_MARK = re.compile(r'(?<!\\)[{}",=]|@\w*[ \t]*(?=[{(])')
# Inside braces only braces count (and a block start at the beginning of a line still
# ends the entry).
_BRACE = re.compile(r"(?<!\\)[{}]|@\w*[ \t]*(?=[{(])")
_SPECIAL_BLOCKS = ("@comment", "@preamble", "@string")
# A brace as depth counts it (a brace after a backslash is a character, not a group).
_GROUP = re.compile(r"(?<!\\)[{}]")


def brace_depth(value: str) -> int:
    """How deep the braces of a field value nest (``{a {b}}`` is 2)."""
    depth = deepest = 0
    for mark in _GROUP.finditer(value):
        if mark.group() == "{":
            depth += 1
            deepest = max(deepest, depth)
        elif depth:
            depth -= 1
    return deepest


def flatten_braces(value: str, limit: int) -> str:
    """``value`` with the braces nested deeper than ``limit`` left out: a group inside a
    group only protects what the outer one protects already, so the text is the same, and
    what reads it recurses no deeper than ``limit``."""
    kept: list[str] = []
    depth = start = 0
    for mark in _GROUP.finditer(value):
        opening = mark.group() == "{"
        deeper = depth + 1 if opening else depth
        if deeper > limit:
            kept.append(value[start : mark.start()])
            start = mark.end()
        depth = deeper if opening else max(depth - 1, 0)
    kept.append(value[start:])
    return "".join(kept)


def split_plain(text: str) -> list[Entry] | None:
    """The entries of ``text`` as bibtexparser splits them (start lines counted from 0 at
    its first line), or None when it holds anything but plain entries."""
    entries: list[Entry] = []
    pos = line = 0
    while True:
        block = _BLOCK.search(text, pos)
        if block is None:
            return entries
        kind = block.group().lower()
        if kind.startswith(_SPECIAL_BLOCKS) or text[block.end()] != "{":
            return None
        line += text.count("\n", pos, block.start())
        entry = _entry(text, block.end() + 1, kind[1:].strip())
        if entry is None:
            return None
        fields, key, end = entry
        entries.append(Entry(kind[1:].strip(), key, fields, start_line=line))
        line += text.count("\n", block.start(), end)
        pos = end


def _entry(text: str, start: int, kind: str) -> tuple[list[Field], str, int] | None:
    """The fields and key of the entry whose key starts at ``start``, and where it ends."""
    mark = _MARK.search(text, start)
    if mark is None or mark.group() not in ",}":
        return None
    key = text[start : mark.start()].strip()
    fields: list[Field] = []
    if mark.group() == "}":
        return fields, key, mark.end()
    name_start = mark.end()
    while True:
        mark = _MARK.search(text, name_start)
        if mark is None:
            return None
        if mark.group() == "}":
            if text[name_start : mark.start()].strip():
                return None  # a name without "=" before the end
            return fields, key, mark.end()
        if mark.group() != "=":
            return None
        name = text[name_start : mark.start()].strip()
        end = _value_end(text, mark.end())
        if end is None:
            return None
        fields.append(Field(name, text[mark.end() : end].strip()))
        if text[end] == "}":
            return fields, key, end + 1
        name_start = end + 1


def _value_end(text: str, start: int) -> int | None:
    """Where the value starting at ``start`` ends: the comma after it or the brace closing
    the entry, outside braces; None for anything bibtexparser must judge."""
    depth = 0
    pos = start
    while True:
        mark = (_BRACE if depth else _MARK).search(text, pos)
        if mark is None:
            return None
        char = mark.group()
        if char == "{":
            depth += 1
        elif char == "}":
            if not depth:
                return mark.start()
            depth -= 1
        elif char == ",":
            return mark.start()
        elif char == '"' or (char != "=" and _at_line_start(text, mark.start())):
            return None  # a quote, or a block start that ends the entry early
        pos = mark.end()


def _at_line_start(text: str, pos: int) -> bool:
    """Whether only whitespace comes between the line's start and ``pos`` (bibtexparser
    takes a block start there, and only there, for the end of an entry left open)."""
    line_start = text.rfind("\n", 0, pos) + 1
    return text[line_start:pos].isspace() or line_start == pos
