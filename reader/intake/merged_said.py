"""What the summary says a merge did to a paper: the fields it lacked and took
(:func:`gained_fields`), and what those do not name (:func:`also_changed`): a value
replaced (a preprint's DOI by its journal's), a CSL variable the file words otherwise
(the type), the record's other fields. The summary names every merged paper and what it
took, so that no merge goes unsaid (a BibTeX export read back merged 12 papers and named
5)."""

from __future__ import annotations

import json
from typing import Any

from reader.import_summary import SAID_AS

__all__ = ["also_changed", "gained_fields"]

# Columns that are bookkeeping, not the paper's record, or said by a line of their own
# (texts replaced: the revisions line; keys: the aliases line).
_UNSAID = frozenset({"csl", "extra", "text_modified", "abstract_key", "title_key", "kind",
                     "title", "abstract", "tldr", "citekey", "citekey_origin", "title_derived"})
# A value longer than this is named by its length.
_LONG = 60


def _shown(name: str, value: Any) -> str:
    if not isinstance(value, str | int | float) or isinstance(value, bool) or (
        name == "withdrawn"  # a mark, said by its name ("withdrawn", not "withdrawn 1")
    ):
        return name
    text = str(value)
    return f"{name} ({len(text):,} characters)" if len(text) > _LONG else f"{name} {text}"


def also_changed(
    current: dict[str, Any], csl: dict[str, Any], updates: dict[str, Any], named: list[str]
) -> list[str]:
    """What ``updates`` change of the paper (``current``, its CSL variables ``csl``)
    that ``named`` (the fields it lacked, ``doi 10.1/x``) does not say, each as
    ``type article-journal``; ``other fields`` for the record's other fields alone."""
    said = {item.split(" ")[0] for item in named}
    found = []
    for column, value in updates.items():
        if column in _UNSAID or column in said or current.get(column) == value:
            continue
        if column == "keywords":
            # Keywords the paper had, replaced by a newer record's, are the revisions
            # line's; those it lacked are named here.
            if current.get(column) in (None, "", "[]"):
                found.append(f"keywords {', '.join(json.loads(value))}")
            continue
        if column == "authors":
            found.append(f"authors {len(json.loads(value))}")
        elif value in (None, ""):
            # A value the merge took away (a preprint's arXiv DOI, its published
            # version having none): said as such, not as one taken.
            found.append(f"{_shown(column, current.get(column))} removed")
        else:
            found.append(_shown(column, value))
    if "csl" in updates:
        variables = json.loads(updates["csl"])
        for name, value in variables.items():
            shown = SAID_AS.get(name, name)
            if (csl.get(name) != value and shown.lower() not in said
                    and name.lower() not in updates
                    and not (name == "author" and "authors" in said)):
                found.append(_shown(shown, value))
    if not named and not found and "extra" in updates:
        found.append("other fields")
    return found


# Columns a merge fills in that the summary names, with the value (the rest say how the
# paper is written or kept: its kind, its key, its text's date).
_NAMED_COLUMNS = ("authors", "venue", "year", "url", "doi", "arxiv_id", "openreview_id", "date",
                  "abstract", "tldr", "primary_area")
#: Columns of text, named by their length: the text itself is no line of a summary.
_TEXT_COLUMNS = frozenset({"abstract", "tldr"})
# CSL variables the paper's columns already say (so named by the columns above), or that
# say how it is written.
_UNNAMED_VARIABLES = frozenset({"type", "author", "issued", "DOI", "URL", "title"})


def gained_fields(
    current: dict[str, Any], csl: dict[str, Any], updates: dict[str, Any]
) -> list[str]:
    """What the paper takes from the record that it lacked, as ``doi 10.1/x`` each."""
    gained = []
    for column in _NAMED_COLUMNS:
        if column in updates and current[column] in (None, "", "[]") and (
            updates[column] not in (None, "", "[]")  # (nothing there, nothing taken)
        ):
            value = updates[column]
            if column == "authors":
                value = len(json.loads(value))
            elif column in _TEXT_COLUMNS:
                value = f"({len(str(value)):,} characters)"
            gained.append(f"{column} {value}")
    if "csl" in updates:
        for variable, value in json.loads(updates["csl"]).items():
            if variable not in csl and variable not in _UNNAMED_VARIABLES:
                shown = value if isinstance(value, str | int) else "…"
                gained.append(f"{SAID_AS.get(variable, variable)} {shown}")
    return gained
