"""Tagged-line records shared by MEDLINE and Web of Science exports.

Both write one field per line, a tag at the start and the value after it, continuation lines
indented, and records separated by a blank line (MEDLINE) or an ``ER`` line (Web of Science).
This module splits a text into records of (tag, values, line) so that each importer only maps
tags to the record.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

__all__ = ["TaggedRecord", "split_records"]


@dataclass(slots=True)
class TaggedRecord:
    """One record: its first line, and each tag's values in order (a value per tag line)."""

    line: int
    fields: dict[str, list[str]] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)

    def first(self, *tags: str) -> str:
        """The first non-empty value of the first of ``tags`` that has one."""
        for tag in tags:
            for value in self.fields.get(tag, []):
                if value.strip():
                    return value.strip()
        return ""

    def all(self, tag: str) -> list[str]:
        """Every value of a tag."""
        return [v for v in self.fields.get(tag, []) if v.strip()]


def split_records(
    lines: list[str],
    tag_line: re.Pattern[str],
    *,
    end_tag: str | None = None,
    each_line_a_value: frozenset[str] = frozenset(),
    skip_tags: frozenset[str] = frozenset(),
) -> list[TaggedRecord]:
    """The records of a text's lines.

    ``tag_line`` matches a tag line with groups (tag, value). A record ends at ``end_tag``
    when given, else at a blank line. An indented line continues the last value, joined by a
    space, or is a value of its own for the tags in ``each_line_a_value`` (Web of Science
    lists one author per line under one ``AU``). Tags in ``skip_tags`` (file headers) start
    no record.
    """
    records: list[TaggedRecord] = []
    current: TaggedRecord | None = None
    last: str | None = None
    for number, raw in enumerate(lines, start=1):
        line = raw.rstrip()
        if not line.strip():
            if end_tag is None and current is not None:
                records.append(current)
                current = None
            continue
        match = tag_line.match(line)
        if match:
            tag, value = match.group(1), (match.group(2) or "").strip()
            if tag in skip_tags:
                continue
            if end_tag is not None and tag == end_tag:
                if current is not None:
                    records.append(current)
                current = None
                continue
            if current is None:
                current = TaggedRecord(number)
            current.fields.setdefault(tag, []).append(value)
            if tag not in current.order:
                current.order.append(tag)
            last = tag
        elif current is not None and last is not None and line[:1].isspace():
            values = current.fields[last]
            if last in each_line_a_value:
                values.append(line.strip())
            else:
                values[-1] = f"{values[-1]} {line.strip()}".strip()
    if current is not None:
        records.append(current)
    return records
