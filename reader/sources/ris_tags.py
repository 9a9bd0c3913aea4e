"""A RIS record's tags as read: each tag's values, cleaned once, and the look-ups every
reading of a record makes (a tag's values, the first of several tags, a value on one line,
a value's lines as paragraphs); its keywords, and the user's tags among them.
"""

from __future__ import annotations

import re

from reader.sources.ris_tools import ZOTERO, Tags
from reader.text.sanitize import clean_imported
from reader.text.tags import tags_as_written

__all__ = ["first", "fold_lines", "keywords_and_tags", "tag_table", "tag_values"]


def keywords_and_tags(
    tags: Tags, tool: str
) -> tuple[list[str], list[str], list[tuple[str, str]]]:
    """The record's keywords (its KW lines, each of words separated by ";"), and the user's
    tags among them: Zotero writes an item's tags as KW, one a line, so from Zotero each is
    a tag too, as its CSV's and JSON's tags are (its RIS does not tell the tags the user
    gave from those the source database did, so all stay keywords as well). Other tools'
    KW are the database's or the author's keywords, no tags of the user's. Third, the tags
    written otherwise than as the tags they became, for the import to name."""
    keywords: list[str] = []
    for value in tag_values(tags, "KW"):
        for word in value.split(";"):
            word = fold_lines(word)
            if word and word not in keywords:
                keywords.append(word)
    if tool != ZOTERO:
        return keywords, [], []
    return keywords, *tags_as_written(fold_lines(value) for value in tag_values(tags, "KW"))


def tag_table(parsed: dict[str, object]) -> Tags:
    """Every tag of a record rispy read, with all its values as cleaned strings (rispy gives
    lists for list tags, else a string; tags it does not know, BT in older files, are
    collected under "UK"). Cleaned once here, so that the many look-ups of a record's tags
    need no more work than a dict's."""
    table: Tags = {}
    unknown = parsed.get("UK")
    if isinstance(unknown, dict):
        for tag, value in unknown.items():
            if value is not None:
                table[tag] = _cleaned(value)
    for tag, value in parsed.items():
        if tag != "UK" and value is not None:
            table[tag] = _cleaned(value)
    return table


def _cleaned(value: object) -> list[str]:
    values = value if isinstance(value, list) else [value]
    # Printable ASCII has nothing clean_imported would change: most values skip it.
    return [
        text if text.isascii() and text.isprintable() else clean_imported(text)
        for text in (str(v) for v in values if v is not None)
    ]


_NONE: list[str] = []


def tag_values(tags: Tags, tag: str) -> list[str]:
    """All values of a tag (the table's own list: not to be changed)."""
    return tags.get(tag, _NONE)


def first(tags: Tags, *names: str) -> str:
    """The first non-empty value among ``names``."""
    for name in names:
        for value in tags.get(name, _NONE):
            if value.strip():
                return value
    return ""


def fold_lines(value: str) -> str:
    """``value`` on one line with single spaces."""
    if value.isascii() and value.isprintable() and "  " not in value:
        return value.strip()  # (a space is the only blank printable ASCII has)
    # split() and strip() know the same blanks as the regex ``\s``.
    return " ".join(value.split())


# A line that ends a paragraph: a sentence's end, or a heading's colon.
_PARAGRAPH_END = re.compile(r"[.!?:]$")
# A continuation line after a line this short is a section heading ("Results") or its text.
_MAX_HEADING = 40


def paragraphs(pieces: list[str]) -> str:
    """A value's lines (the tag's own, then its continuation lines) as paragraphs: a line
    starts a new paragraph when the line before it ends a sentence or is a short heading,
    and is otherwise a wrapped line of the same paragraph."""
    found: list[str] = []
    for piece in pieces:
        if not piece:
            continue
        last = found[-1] if found else ""
        heading = len(last) < _MAX_HEADING and piece[0].isupper()
        if not last or _PARAGRAPH_END.search(last) or heading:
            found.append(piece)
        else:
            found[-1] = f"{last} {piece}"
    return "\n\n".join(found)
