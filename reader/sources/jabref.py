"""What JabRef writes of its user's reading into a ``.bib`` file, as the user's marks on a
new paper: its groups (``groups = {Reading, Causality}``) as tags, ``readstatus = {read}``
as the read mark, and its comments (``comment``, and JabRef 5's per-user
``comment-<user>``) as the note. The fields stay among the entry's own, verbatim, so that a
BibTeX export writes them back for JabRef."""

from __future__ import annotations

import re
from typing import Any

from reader.sources.bibtex_values import plain
from reader.text.tags import normalize_tag

__all__ = ["jabref_marks"]

# JabRef separates groups (and keywords) with commas; a hierarchy's levels with " > ".
_GROUP_SEPARATOR = re.compile(r"\s*[,;]\s*")


def jabref_marks(fields: dict[str, str]) -> dict[str, Any]:
    """The marks an entry's JabRef fields give (see the module), as
    :func:`reader.sources.own_export.give_marks` sets them; {} for an entry without."""
    marks: dict[str, Any] = {}
    groups = [normalize_tag(plain(g)) for g in _GROUP_SEPARATOR.split(fields.get("groups", ""))]
    if any(groups):
        marks["tags"] = list(dict.fromkeys(g for g in groups if g))
    # "skimmed" is JabRef's other status: seen, not read.
    if plain(fields.get("readstatus", "")).lower() == "read":
        marks["read"] = True
    comments = [
        plain(value) if name == "comment" else f"{name.removeprefix('comment-')}: {plain(value)}"
        for name, value in fields.items()
        if (name == "comment" or name.startswith("comment-")) and plain(value)
    ]
    if comments:
        marks["note"] = "\n\n".join(comments)
    return marks
