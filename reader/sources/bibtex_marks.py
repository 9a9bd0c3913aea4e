"""What reference managers write of their user's reading into a ``.bib`` file, as the
user's marks on a new paper. JabRef: its groups (``groups = {Reading, Causality}``) as
tags, ``readstatus = {read}`` as the read mark, its comments (``comment``, and JabRef 5's
per-user ``comment-<user>``) as the note. Mendeley: ``mendeley-groups`` (folders,
``Physics/Classics``) and ``mendeley-tags`` as tags, ``annote`` as the note. Better
BibTeX: an item's Zotero tags, which it writes as ``keywords`` (:func:`zotero_tags`). The
fields stay among the entry's own, verbatim, so that a BibTeX export writes them back."""

from __future__ import annotations

import bisect
import re
from typing import Any

from reader.models import PaperRecord
from reader.sources.bibtex_values import plain
from reader.sources.zotero import zotero_date
from reader.sources.zotero_extra import read_extra
from reader.text.tags import tags_as_written

__all__ = ["manager_marks", "zotero_bib", "zotero_entry", "zotero_extra", "zotero_tags"]

# JabRef and Mendeley separate groups (and keywords) with commas.
_GROUP_SEPARATOR = re.compile(r"\s*[,;]\s*")
#: The fields whose values are the user's groups or tags.
_TAG_FIELDS = ("groups", "mendeley-groups", "mendeley-tags")
# What tells a Better BibTeX export from Zotero: a comment naming it; an attachment in
# Zotero's storage; or how it keeps a title's capitals: in double braces within the title
# ("Chain-of-{{Thought Prompting}}", "Af {{Dansk}}"), which other tools do not write
# (JabRef and Mendeley brace a whole title, "{{Title}}", or one brace).
_BBT_COMMENT = re.compile(r"(?im)^\s*@comment\s*[{(][^\n]*better\s*bib(?:la)?tex")
_ZOTERO_STORAGE = re.compile(r"[/\\]zotero[/\\]storage[/\\]", re.IGNORECASE)
_ENTRY_MARK = re.compile(
    r"(?im)^\s*file\s*=\s*[{\"][^\n]*[/\\]zotero[/\\]storage[/\\]"
    r"|^\s*title\s*=\s*\{[^{\n][^\n]*\{\{\S"
)
_ENTRY_START = re.compile(r"(?im)^\s*@(?!comment\b|string\b|preamble\b)\w+\s*[{(]")
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
    groups, rewritten = tags_as_written(
        plain(g) for name in _TAG_FIELDS for g in _GROUP_SEPARATOR.split(fields.get(name, ""))
    )
    if groups:
        marks["tags"] = groups
    if rewritten:
        marks["tags_rewritten"] = rewritten  # (named by the import: "To Read" → to-read)
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
    """Whether a .bib text is Better BibTeX's export of a Zotero library, every entry of it
    Zotero's: a comment says so, or at least half its entries carry Zotero's marks (an
    attachment in its storage, a title's capitals in double braces). A file that mixes a
    few of Zotero's entries with others' (the library's own export of papers from many
    sources) is not: there only the marked entries are Zotero's (:func:`zotero_entry`)."""
    if _BBT_COMMENT.search(text):
        return True
    first = _ENTRY_MARK.search(text)
    if first is None:
        return False  # (most files: one pass over the text, no count of entries)
    starts = [m.start() for m in _ENTRY_START.finditer(text)]
    marked = {bisect.bisect(starts, m.start()) for m in _ENTRY_MARK.finditer(text)}
    return bool(starts) and 2 * len(marked) >= len(starts)


def zotero_entry(fields: dict[str, str]) -> bool:
    """Whether an entry (its fields as written) is Better BibTeX's, in a file that does
    not say so: its file is in Zotero's storage, or its title keeps capitals in double
    braces within it."""
    title = fields.get("title", "")
    return bool(_ZOTERO_STORAGE.search(fields.get("file", ""))) or (
        not title.startswith("{") and "{{" in title
    )


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


def zotero_extra(record: PaperRecord, fields: dict[str, str]) -> None:
    """What Better BibTeX writes of a Zotero item that BibTeX has no field for, read as
    Zotero means it. Its Extra field goes to ``annotation``: a line naming a variable
    ("PMID: 9377276") is the record's, the others the paper's note, searched as a note is
    (they stay in the field too, for the export). A blog post is a ``@misc`` with the blog
    as its ``journal``: a blog post, not a document "in" the blog."""
    lines = [plain(line) for line in fields.get("annotation", "").splitlines()]
    extra = read_extra([line for line in lines if line], zotero_date)
    for variable, value in extra.csl.items():
        if variable != "type":
            record.csl.setdefault(variable, value)
    if extra.notes:
        record.note = "\n\n".join(filter(None, [record.note, "\n".join(extra.notes)]))
    journal = plain(fields.get("journal", "")).lower()
    if record.kind == "misc" and "blog" in journal and record.csl.get("type") == "document":
        record.csl["type"] = "post-weblog"
