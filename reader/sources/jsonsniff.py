"""The JSON family of import formats: which one a text is, and the conversion they share.

:func:`detect_json_format` names the format of a JSON text (OpenReview notes, paperlists
arrays, the Kaggle arXiv snapshot, CSL-JSON, Zotero) from its first record only.
:func:`build_result` runs an importer's per-record conversion, so that one strange record
becomes one problem line rather than the end of the import.

Reading the JSON itself is :mod:`reader.sources.jsonload`; the field helpers that accept
any JSON value and never raise are :mod:`reader.sources.jsonfields`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

from reader.models import PaperRecord
from reader.record import CSL_TYPES as _CSL_TYPES
from reader.sources import ParseResult
from reader.sources.jsonfields import clean_title
from reader.sources.jsonload import (
    DECODER,
    JsonRecord,
    Unreadable,
    describe,
    skip_ws,
)
from reader.sources.jsonwrap import wrapped_list
from reader.sources.seed import TITLE_MAX
from reader.text.render import to_plain
from reader.text.titles import derive_title

__all__ = [
    "FORMATS",
    "Outcome",
    "build_result",
    "detect_json_format",
    "finish_record",
    "record_label",
]

FORMATS = ("openreview", "paperlists", "arxiv-kaggle", "csljson", "zotero", "json-table")

# Characters of an abstract rendered to derive a title: well past what derive_title reads.
_DERIVE_SOURCE = 20_000

# --- detection ------------------------------------------------------------------------------

# Keys only the Kaggle arXiv snapshot uses.
_ARXIV_KEYS = frozenset({"authors_parsed", "submitter", "journal-ref", "report-no", "update_date"})
# Hyphenated keys are CSL's own spelling; no other format here uses them.
_CSL_KEYS = frozenset(
    {
        "container-title",
        "citation-key",
        "issued",
        "collection-title",
        "publisher-place",
        "title-short",
        "number-of-pages",
        "original-date",
        "event-place",
    }
)
# Keys of the paperlists schema (papercopilot), beside title and abstract.
_PAPERLISTS_KEYS = frozenset(
    {
        "site",
        "status",
        "track",
        "aff",
        "bibtex",
        "authorids",
        "author",
        "gs_citation",
        "or_profile",
        "aff_domain",
        "rating",
        "pdf_size",
        "position",
        "project",
        "github",
    }
)


def detect_json_format(text: str) -> str | None:
    """Which JSON paper format ``text`` is: ``openreview``, ``paperlists``, ``arxiv-kaggle``,
    ``csljson``, or None when it is none of them (or not JSON).

    Only the first record is parsed: the first element of an array, or the first object of
    JSON lines (or the whole object when there is just one).
    """
    try:
        first = _first_value(text)
    except (ValueError, RecursionError):
        return None
    return _classify(first)


def _first_value(text: str) -> Any:
    """The first record of a JSON text; raises ValueError when there is none."""
    pos = skip_ws(text, 1 if text.startswith("\ufeff") else 0)
    if text.startswith("[", pos):
        pos = skip_ws(text, pos + 1)
    if not text.startswith("{", pos):
        raise ValueError("no object")
    # raw_decode stops at the end of the first object, so the rest of the file is never read.
    value, _ = DECODER.raw_decode(text, pos)
    return value


def _classify(value: Any) -> str | None:
    """The format a first record belongs to."""
    if not isinstance(value, dict):
        return None
    from reader.sources.zotero import looks_like_zotero

    if looks_like_zotero(value):
        return "zotero"
    notes = value.get("notes")
    if "content" not in value and isinstance(notes, list) and notes:
        return _classify(notes[0])  # an OpenReview API response: {"notes": [...]}
    inner = wrapped_list(value)
    if inner is not None:
        found = _classify(inner[0])  # {"generated_at": …, "papers": [...]}
        return found if found in _UNWRAPPING else None
    keys = set(value)
    if isinstance(value.get("content"), dict):
        return "openreview"
    if (
        "authors_parsed" in keys
        or len(keys & _ARXIV_KEYS) >= 2
        or ({"versions", "categories"} <= keys and "id" in keys)
    ):
        return "arxiv-kaggle"
    if keys & _CSL_KEYS or (value.get("type") in _CSL_TYPES and "status" not in keys):
        return "csljson"
    if "title" in keys and len(keys & _PAPERLISTS_KEYS) >= 2:
        return "paperlists"
    from reader.sources.jsontable import looks_like_table

    return "json-table" if looks_like_table(value) else None


# The formats whose readers take a list of papers wrapped in an object.
_UNWRAPPING = frozenset({"openreview", "paperlists", "json-table"})


# --- per-record conversion ------------------------------------------------------------------

#: What an importer makes of one record: a paper, or the text of a problem line.
Outcome = PaperRecord | str
#: What a conversion makes of one record when it is not simply a paper.
Made = TypeVar("Made")


def build_result(
    records: Iterable[JsonRecord],
    convert: Callable[[JsonRecord], Outcome],
    id_keys: tuple[str, ...] = ("id",),
) -> ParseResult:
    """Convert each object record with ``convert``; everything else becomes a problem line,
    in file order.

    ``convert`` returns a record or a problem text (without location). A non-object record,
    or one that makes ``convert`` fail, is reported with its location and skipped, so that
    the records around it are kept.
    """
    result = ParseResult()
    result.records.extend(convert_records(records, convert, result.problems, id_keys))
    return result


def convert_records(
    records: Iterable[JsonRecord],
    convert: Callable[[JsonRecord], Made | str],
    problems: list[str],
    id_keys: tuple[str, ...] = ("id",),
) -> Iterator[Made]:
    """What ``convert`` makes of the records (papers, as a rule), one at a time, as
    build_result makes them; each problem line is added to ``problems`` as its record is
    met."""
    for record in records:
        if isinstance(record.value, Unreadable):
            problems.append(f"{record.location}: {record.value.reason}; line skipped")
            continue
        if not isinstance(record.value, dict):
            problems.append(
                f"{record.location}: record #{record.position} is {describe(record.value)}, "
                "not an object; skipped"
            )
            continue
        try:
            outcome = convert(record)
        except Exception as exc:  # one odd record must not cost the user the whole file
            label = record_label(record, id_keys)
            problems.append(
                f"{record.location}: record {label} could not be read "
                f"(unexpected data: {type(exc).__name__}); skipped"
            )
            continue
        if isinstance(outcome, str):
            problems.append(f"{record.location}: {outcome}")
        else:
            yield outcome


def record_label(record: JsonRecord, keys: tuple[str, ...] = ("id",)) -> str:
    """How a problem line names a record: ``'B1-Hhnslg'`` by its id, else ``#3``."""
    value = record.value
    if isinstance(value, dict):
        for key in keys:
            ident = value.get(key)
            if isinstance(ident, int | str) and not isinstance(ident, bool):
                text = clean_title(ident)
                if text:
                    return f"'{text[:60]}'"
    return f"#{record.position}"


def finish_record(paper: PaperRecord, record: JsonRecord, label: str) -> Outcome:
    """``paper`` with a derived title when it has only an abstract; a problem when neither."""
    if not paper.title:
        if not paper.abstract:
            return f"record {label} has no title or abstract; skipped"
        # derive_title reads only the first few thousand characters; rendering more is waste.
        opening = paper.abstract[:_DERIVE_SOURCE]
        paper.title = derive_title(to_plain(opening), max_len=TITLE_MAX)
        paper.title_derived = True
    if paper.source is None:
        paper.source = record.source
    return paper


