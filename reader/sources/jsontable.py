"""JSON lists of paper objects whose keys are named as a CSV table's headers are: a list of
accepted papers (``[{"title": …, "authors": […], "avg_rating": 6.5, "venue": "ICLR 2026
Oral", "room": …}, …]``), bare or wrapped in an object (``{"generated_at": …, "papers":
[…]}``).

Keys are recognised by the synonyms of :mod:`reader.sources.csv_table` (so one list of
names serves both), and an object becomes a record as a table row does; keys of no known
field (a room, a session time) are kept verbatim in the record's ``extra["table"]``.
"""

from __future__ import annotations

import re
from typing import Any

from reader.models import PaperRecord
from reader.sources import ParseResult
from reader.sources.csv_header import column_field
from reader.sources.csv_table import record_from_values
from reader.sources.jsonfields import modified_of, text_value
from reader.sources.jsonload import JsonRecord, load_records
from reader.sources.jsonsniff import Outcome, build_result, record_label
from reader.sources.jsonwrap import unwrap_lists
from reader.sources.own_export import is_own_export
from reader.text.sanitize import clean_imported
from reader.text.tags import tags_as_written

__all__ = ["looks_like_table", "parse"]

# A list of names joined for the one text a field holds ("; " splits authors and keywords).
_JOIN = "; "


def looks_like_table(value: Any) -> bool:
    """Whether a first JSON record is a paper object of this kind: a title (or an
    abstract) and at least one other field, under names a table's headers use."""
    if not isinstance(value, dict):
        return False
    fields = {column_field(str(key)) for key in value}
    return bool(fields & {"title", "abstract"}) and len(fields - {None}) >= 2


def parse(text: str, source: str) -> ParseResult:
    """Records of a JSON list of paper objects; ``source`` names the file."""
    records = load_records(text, source)
    listed = _list_fields(records[0].value) if len(records) == 1 else {}
    return build_result(unwrap_lists(records), lambda record: _convert(record, listed))


def _list_fields(wrapper: Any) -> dict[str, str]:
    """What the object wrapping a list says of every paper in it: its venue and year
    (``{"conference": "ICLR 2026", "papers": [...]}``), by the table's field names."""
    if not isinstance(wrapper, dict):
        return {}
    found: dict[str, str] = {}
    # Said at the top, or in an object of what the list is ({"meta": {"venue": …}}).
    nested = [v for v in wrapper.values() if isinstance(v, dict)]
    for key, value in [*wrapper.items(), *(i for n in nested for i in n.items())]:
        field = column_field(str(key))
        if field in ("venue", "year") and isinstance(value, str | int):
            found.setdefault(field, _text(value))
    return found


def _convert(record: JsonRecord, listed: dict[str, str] | None = None) -> Outcome:
    """One object as a paper, or the problem that keeps it out; ``listed``: the fields its
    list gives every paper, where the object gives none of its own."""
    item: dict[str, Any] = record.value
    values: dict[str, str] = {}
    names: dict[str, str] = {}  # the key each field was read from
    other: dict[str, Any] = {}
    own = is_own_export(item)
    mine: dict[str, Any] = {}
    for key, value in item.items():
        if own and key in _OWN_KEYS:
            mine[key] = value  # the record as the library held it, read back below
            continue
        # A reader library's own export has keywords and tags apart.
        field = None if own and key == "tags" else column_field(str(key))
        if field is None:
            if value not in (None, "", [], {}):
                other[str(key)] = value
            continue
        text = _text(value)
        if text and field not in values:
            values[field] = text
            names[field] = str(key)
    for field, text in (listed or {}).items():
        values.setdefault(field, text)
    if "openreview_id" not in values and _looks_like_forum(item.get("id")):
        # A list of a conference's papers keyed by OpenReview's ids (papercopilot's,
        # paperlists'): the id says which paper, as a forum column would.
        values["openreview_id"] = str(item["id"])
    paper = record_from_values(values, record.source, other, names)
    if paper is None:
        return f"record {record_label(record)} has no title or abstract; skipped"
    if mine:
        _read_back(paper, mine)
    authors = item.get("authors") if own else None
    if isinstance(authors, list) and all(isinstance(a, str) for a in authors):
        # The library's own names, exactly: "Food and Drug Administration" is one author,
        # which a table's "and" would make two.
        paper.authors = [n for n in (" ".join(clean_imported(a).split()) for a in authors) if n]
    if own:
        _own_texts(paper, item)
    else:
        _user_tags(paper, item)
    # Dated as the object says it was last changed, else as its list was made.
    paper.modified = paper.modified or modified_of(item) or record.dated
    return paper


def _user_tags(paper: PaperRecord, item: dict[str, Any]) -> None:
    """An object's ``tags`` (``["architectures", "to-read"]``, or one text): the user's
    tags, which the paper the import adds is given, as a reference manager's tags are; they
    stay its keywords too, the words the table gives it."""
    tags = next((v for k, v in item.items() if str(k).strip().lower() == "tags"), None)
    if isinstance(tags, list):
        words = [_text(t.get("tag") or t.get("name") if isinstance(t, dict) else t)
                 for t in tags]
    elif isinstance(tags, str):
        words = re.split(r"[;,]", tags)
    else:
        return
    paper.tags, paper.tags_rewritten = tags_as_written(w for w in words if w.strip())


def _own_texts(paper: PaperRecord, item: dict[str, Any]) -> None:
    """The keywords and abstract of a library's own export as the library held them: a
    keyword holding "; " is one keyword (a table's cell would be split there), and an
    abstract keeps its no-break spaces, which a table's cell folds."""
    keywords = item.get("keywords")
    if isinstance(keywords, list) and all(isinstance(k, str) for k in keywords):
        words = (" ".join(clean_imported(k).split()) for k in keywords)
        paper.keywords = list(dict.fromkeys(w for w in words if w))
    abstract = item.get("abstract")
    if isinstance(abstract, str) and paper.abstract:
        paper.abstract = clean_imported(abstract).strip()


def _text(value: Any) -> str:
    """A field's value as the text a table cell would hold: numbers as digits, lists
    joined (names given as objects by their ``name``), other values left out."""
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, list):
        parts = [_text(item.get("name") if isinstance(item, dict) else item) for item in value]
        return _JOIN.join(part for part in parts if part)
    # Cleaned as a table's cells are: no control or zero-width characters.
    return clean_imported(text_value(value)).strip()


# OpenReview's ids: ten characters of letters (both cases), digits, "_" and "-". A
# citation key ("lee2026cam") or a row number is never taken for one.
_FORUM_ID = re.compile(r"(?=.*[a-z])(?=.*[A-Z])[A-Za-z0-9_-]{10}")


def _looks_like_forum(value: Any) -> bool:
    """Whether an object's ``id`` is an OpenReview forum id."""
    return isinstance(value, str) and _FORUM_ID.fullmatch(value) is not None


# What a reader library's own JSON export holds beyond a table's columns: the record whole
# (its CSL variables: type, structured names, editors, volume, pages, publisher; its
# source fields; its other keys), and the library's own numbers and times, left out.
_OWN_KEYS = frozenset({"csl", "extra", "aliases", "kind", "tldr", "primary_area",
                       "withdrawn", "id", "added_at", "seen"})


def _read_back(paper: PaperRecord, mine: dict[str, Any]) -> None:
    """Give ``paper`` what the library's own export wrote of it, so that the export read
    back is the paper it was made of, field for field."""
    csl, extra, aliases = mine.get("csl"), mine.get("extra"), mine.get("aliases")
    if isinstance(csl, dict):
        paper.csl = {**paper.csl, **csl}
        if "author" not in csl:
            # Names the library held as display names only (hangul, one word each): not
            # made structured names, a change of the paper, by the authors' key read back.
            paper.csl.pop("author", None)
    if isinstance(extra, dict):
        for fmt, fields in extra.items():
            if isinstance(fields, dict):
                paper.extra[str(fmt)] = {**paper.extra.get(str(fmt), {}), **fields}
    if isinstance(aliases, list):
        paper.aliases += [a for a in aliases if isinstance(a, str) and a]
    for name in ("kind", "tldr", "primary_area"):
        if isinstance(mine.get(name), str) and mine[name]:
            setattr(paper, name, mine[name])
    if mine.get("withdrawn") is True:
        paper.withdrawn = True
