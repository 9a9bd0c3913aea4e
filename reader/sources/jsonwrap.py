"""A list of papers wrapped in an object, read as that list.

Lists of papers are often handed out inside an object that says what the list is:
``{"generated_at": …, "papers": [...]}``, ``{"count": 3, "results": {"papers": [...]}}``
(an API's page), or ``{"conference": "ICLR 2024", "accepted": [...], "rejected": [...]}``
(one list per decision), or ``{"rows": [{"row_idx": 0, "row": {…}}]}`` (the Hugging Face
datasets server's page of a dataset's rows). Each is read as its papers; a list named for
a decision gives its papers that decision where they name none of their own, and the
wrapper's date (when the list was made) is the date of a paper that gives none.
"""

from __future__ import annotations

from typing import Any

from reader.signals.decisions import normalize_decision
from reader.sources.jsonfields import moment_from_text
from reader.sources.jsonload import JsonRecord

# Keys that make an object a paper (or a note), never a wrapper around a list of them.
_PAPER_KEYS = frozenset({"title", "abstract", "content", "id", "paper", "name"})
# Keys that make an object of a list a paper, where the wrapper holds several lists (a list
# of authors or of sessions beside the papers is no list of papers).
_PAPER_ITEM_KEYS = frozenset({"title", "abstract", "content", "paper_title", "forum"})
# The keys of a paper that give its decision (a list's name is the decision of those that
# give none).
_DECISION_KEYS = frozenset({"decision", "status", "final decision", "acceptance", "venue"})


def wrapped_lists(value: Any) -> list[tuple[str, list[Any]]]:
    """The lists of paper objects an object wraps, each with its key: its one value that is
    a non-empty list of objects, or those of its lists whose objects are papers, found at
    its top or one object down; none when the object has a key a paper itself would have,
    or for any other value."""
    if not isinstance(value, dict) or _PAPER_KEYS & _keys(value):
        return []
    found = _lists_of_objects(value)
    if not found:  # one object down: {"results": {"papers": [...]}}
        for inner in value.values():
            if isinstance(inner, dict) and not _PAPER_KEYS & _keys(inner):
                found += _lists_of_objects(inner)
    if len(found) > 1:
        found = [(key, items) for key, items in found if _papers(items)]
    return found


def wrapped_list(value: Any) -> list[Any] | None:
    """The paper objects an object wraps (see :func:`wrapped_lists`), its lists one after
    another; None for an object that wraps none, or any other value."""
    lists = wrapped_lists(value)
    return [item for _, items in lists for item in items] or None


def unwrap_lists(records: list[JsonRecord]) -> list[JsonRecord]:
    """The records of a text, with an object that wraps lists of papers (see
    :func:`wrapped_lists`) as the papers of those lists, each numbered by its place."""
    if len(records) != 1:
        return records
    (record,) = records
    lists = wrapped_lists(record.value)
    if not lists:
        return records
    dated = _wrapper_date(record.value)
    items = [
        _with_decision(item, key if len(lists) > 1 else None)
        for key, found in lists for item in found
    ]
    return [
        JsonRecord(item, f"{record.file}#{index}", record.file, record.line, index, dated)
        for index, item in enumerate(items, start=1)
    ]


def _keys(value: dict[str, Any]) -> set[str]:
    """An object's keys, as the key sets here name them."""
    return {str(key).lower() for key in value}


def _lists_of_objects(value: dict[str, Any]) -> list[tuple[str, list[Any]]]:
    return [
        (str(key), [_row(x) for x in item]) for key, item in value.items()
        if isinstance(item, list) and item and all(isinstance(x, dict) for x in item[:10])
    ]


def _row(item: dict[str, Any]) -> Any:
    """A list's object as the paper it holds: the Hugging Face datasets server's ``/rows``
    gives each row's number beside it (``{"row_idx": 0, "row": {…}}``), the paper one level
    down; any other object is itself."""
    row = item.get("row")
    return row if "row_idx" in item and isinstance(row, dict) else item


def _papers(items: list[Any]) -> bool:
    return any(_PAPER_ITEM_KEYS & _keys(item) for item in items[:10])


def _with_decision(item: Any, key: str | None) -> Any:
    """``item``, given the decision its list is named for (``"accepted"``) when it names
    none of its own."""
    if key is None or normalize_decision(key.replace("_", " ")) is None:
        return item
    if _DECISION_KEYS & _keys(item):
        return item
    return {**item, "decision": key}


# What a wrapper names the moment the list was made by.
_WRAPPER_DATES = (
    "generated_at", "generated", "exported_at", "exported", "created_at", "created",
    "updated_at", "updated", "last_updated", "date", "timestamp", "snapshot", "as_of",
)


def _wrapper_date(wrapper: dict[str, Any]) -> str | None:
    """When the list was made, from the wrapper's first key that says it and reads as a
    date (an older snapshot of a list must not pass for news of its papers)."""
    keys = {str(key).lower(): value for key, value in wrapper.items()}
    for name in _WRAPPER_DATES:
        if name in keys and (found := moment_from_text(keys[name])):
            return found
    return None
