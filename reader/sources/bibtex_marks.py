"""What reference managers write of their user's reading into a ``.bib`` file, as the
user's marks on a new paper. JabRef: its groups (``groups = {Reading, Causality}``) as
tags, ``readstatus = {read}`` as the read mark, its comments (``comment``, and JabRef 5's
per-user ``comment-<user>``) as the note. Mendeley: ``mendeley-groups`` (folders,
``Physics/Classics``) and ``mendeley-tags`` as tags, ``annote`` as the note. Better
BibTeX: an item's Zotero tags, which it writes as ``keywords`` (:func:`zotero_tags`). The
fields stay among the entry's own, verbatim, so that a BibTeX export writes them back."""

from __future__ import annotations

import re
from typing import Any

from reader.models import PaperRecord
from reader.sources.bibtex_values import plain
from reader.text.tags import normalize_tag, tags_as_written

__all__ = ["manager_marks", "zotero_bib", "zotero_tags"]

# JabRef and Mendeley separate groups (and keywords) with commas.
_GROUP_SEPARATOR = re.compile(r"\s*[,;]\s*")
#: The fields whose values are the user's groups or tags.
_TAG_FIELDS = ("groups", "mendeley-groups", "mendeley-tags")
# What tells a Better BibTeX export from Zotero: an attachment in Zotero's storage, a
# comment naming it, or, in a file with neither, how it keeps a title's capitals: in double
# braces within the title ("Chain-of-{{Thought Prompting}}", "Af {{Dansk}}"), which other
# tools do not write (JabRef and Mendeley brace a whole title, "{{Title}}", or one brace).
_ZOTERO_BIB = re.compile(
    r"(?im)^\s*file\s*=\s*[{\"][^\n]*[/\\]zotero[/\\]storage[/\\]"
    r"|^\s*@comment\s*[{(][^\n]*better\s*bib(?:la)?tex"
    r"|^\s*title\s*=\s*\{[^{\n][^\n]*\{\{\S"
)
# Zotero's automatic tags, which a database gave on import (a .bib does not mark them, as
# Zotero's JSON ("type": 1) and CSV ("Automatic Tags") do), told by their form: arXiv's
# subjects ("Computer Science - Artificial Intelligence"), MeSH headings with a qualifier
# or starred ("Skin Neoplasms/diagnosis", "*Deep Learning"), and MeSH's check tags and
# most given headings as a database writes them (capitalised: a user's own "algorithms"
# stays a tag).
_SUBJECT = re.compile(r"\A(?:[A-Z][\w ]+ - [A-Z][\w ,]+|\*.+|[A-Z][^/]*/[a-z][\w ]*)\Z")
_CHECK_TAGS = frozenset({
    "Humans", "Animals", "Male", "Female", "Adult", "Aged", "Aged, 80 and over",
    "Middle Aged", "Young Adult", "Adolescent", "Child", "Child, Preschool", "Infant",
    "Infant, Newborn", "Pregnancy", "Mice", "Rats", "Algorithms",
})
#: The fields that hold the user's own notes on the paper.
_NOTE_FIELDS = ("comment", "annote")


def manager_marks(fields: dict[str, str]) -> dict[str, Any]:
    """The marks an entry's fields of a reference manager give (see the module), as
    :func:`reader.sources.own_export.give_marks` sets them; {} for an entry without."""
    marks: dict[str, Any] = {}
    groups = [normalize_tag(plain(g)) for name in _TAG_FIELDS
              for g in _GROUP_SEPARATOR.split(fields.get(name, ""))]
    if any(groups):
        marks["tags"] = list(dict.fromkeys(g for g in groups if g))
    # "skimmed" is JabRef's other status: seen, not read.
    if plain(fields.get("readstatus", "")).lower() == "read":
        marks["read"] = True
    comments = [
        plain(value) if name in _NOTE_FIELDS
        else f"{name.removeprefix('comment-')}: {plain(value)}"
        for name, value in fields.items()
        if (name in _NOTE_FIELDS or name.startswith("comment-")) and plain(value)
    ]
    if comments:
        marks["note"] = "\n\n".join(comments)
    return marks


def zotero_bib(text: str) -> bool:
    """Whether a .bib text is Better BibTeX's export of a Zotero library: an entry's file in
    Zotero's storage (``/home/u/Zotero/storage/ABCD/…pdf``), a comment naming it, or a
    title's capitals kept in double braces within it."""
    return _ZOTERO_BIB.search(text) is not None


def _automatic(word: str) -> bool:
    """Whether a keyword of a Better BibTeX .bib is a database's subject term (a Zotero
    automatic tag): it stays a keyword and is no tag of the user's."""
    return bool(_SUBJECT.match(word)) or word in _CHECK_TAGS


def zotero_tags(record: PaperRecord) -> None:
    """Better BibTeX writes an item's Zotero tags as its ``keywords``: they are the user's
    tags, as Zotero's CSV and JSON give them, but for those a database gave (its automatic
    tags, told by their form: see :func:`_automatic`); all stay keywords too."""
    own, rewritten = tags_as_written(
        word for word in record.keywords if not _automatic(word.strip()))
    record.tags = list(dict.fromkeys([*record.tags, *own]))
    record.tags_rewritten += rewritten
