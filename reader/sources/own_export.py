"""A reader library's own CSV or JSON export read back: its columns (or keys) beyond the
bibliographic ones, the key, a derived title's mark and the user's marks (star, read mark,
tags, note, highlights), which :mod:`reader.sources.csv_table` gives the record."""

from __future__ import annotations

import json
from typing import Any

from reader.models import PaperRecord
from reader.signals import normalize_decision
from reader.text.tags import normalize_tag

__all__ = ["give_marks", "is_own_export", "own_decision", "own_marks", "tags_apart"]


#: Columns (keys) only a reader library's own CSV or JSON export has together.
_OWN_EXPORT = frozenset({"citekey", "title derived"})


def is_own_export(names: Any) -> bool:
    """Whether the header names or JSON keys are those of a reader library's own export,
    whose user's marks come back with it."""
    return _OWN_EXPORT <= {" ".join(str(name).replace("_", " ").split()).lower()
                           for name in names}


def tags_apart(header: list[str]) -> set[str]:
    """The header cells naming the tags column of a reader library's export, which keeps
    tags apart from keywords (in other tables, tags are keywords)."""
    if not is_own_export(header):
        return set()
    return {cell for cell in header if cell.strip().lower() == "tags"}


def own_marks(values: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """What a reader library's export says of a paper beyond its bibliographic fields, as
    the record's attributes (its key, whether its title was derived, and the user's marks:
    star, read mark, tags, note, highlights), and the other values without them (a note's
    links identify no paper); no attributes for a file of another kind."""
    other = dict(values)
    if not is_own_export(other):
        return {}, other

    def flag(name: str) -> bool:
        value = other.pop(name, False)
        return value is True or str(value).strip().lower() == "true"

    # The row id in the library it came from: no identifier of the paper anywhere else.
    other.pop("id", None)
    key = str(other.pop("citekey", "") or "").strip()
    marks: dict[str, Any] = {
        "citekey": key or None, "title_derived": flag("title_derived"),
        "starred": flag("starred"), "read": flag("read"),
    }
    if flag("withdrawn"):
        marks["withdrawn"] = True  # (a JSON export's record says it among its own keys)
    note = other.pop("note", "")
    marks["note"] = note if isinstance(note, str) and note.strip() else None
    tags = other.pop("tags", [])
    words = tags if isinstance(tags, list) else str(tags).split(";")
    marks["tags"] = [t for t in (normalize_tag(str(w)) for w in words) if t]
    highlights = other.pop("highlights", [])
    if isinstance(highlights, str):
        try:
            highlights = json.loads(highlights) if highlights.strip() else []
        except ValueError:
            highlights = []
    marks["highlights"] = [
        (str(h["quote"]), str(h.get("note") or ""))
        # A highlight in a review needs the review, which the export does not carry.
        for h in highlights if isinstance(h, dict) and str(h.get("quote") or "").strip()
        and not h.get("reply")
    ] if isinstance(highlights, list) else []
    return marks, other


def give_marks(record: PaperRecord, marks: dict[str, Any]) -> None:
    """Set what :func:`own_marks` read on the record."""
    for name, value in marks.items():
        if name == "title_derived":
            # Derived by the library it came from: the same title, still derived.
            record.title_derived = record.title_derived or bool(value)
        else:
            setattr(record, name, value)


def own_decision(record: PaperRecord, decision: str) -> str:
    """The decision of a paper as its source worded it ("ICLR 2026 Oral"), which a reader
    library's own export gives as ``decision_raw`` beside the word it reads as: taken out of
    the record's other values; ``decision`` when there is none or it says another thing."""
    table = record.extra.get("table", {})
    raw = table.get("decision_raw")
    if not isinstance(raw, str) or normalize_decision(raw) != normalize_decision(decision):
        return decision
    del table["decision_raw"]
    if not table:
        del record.extra["table"]
    return " ".join(raw.split())
