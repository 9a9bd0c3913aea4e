"""A thesis cited where it is abstracted: a dissertation PsycInfo records "in" Dissertation
Abstracts International (or a thesis in Masters Abstracts International), with ProQuest,
which distributes the abstracts, as its publisher.

Part of the headless core: plain data, no I/O. The record keeps what its database said (the
journal, volume and issue, the publisher), for an export; the item a style renders says
what APA 7 (10.6) cites: the kind of thesis and the university granting it in brackets,
then the abstracts as the database it is in, "Dissertation Abstracts International, 81(7-B)".
Cited as the database had it, APA read a chapter "In" a book published by ProQuest, and IEEE
named no thesis.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["cited_where_abstracted"]

# The abstracts a thesis is listed in, and what each says the thesis is.
_ABSTRACTS = re.compile(r"(?i)^\s*(dissertation|masters?)\s+abstracts\s+international\b")
_KINDS = {"dissertation": "Doctoral dissertation", "master": "Master's thesis",
          "masters": "Master's thesis"}
# Who distributes the abstracts, named as the publisher: no university.
_DISTRIBUTOR = re.compile(r"(?i)proquest|university microfilms|\bumi\b")
# What a database writes as a thesis's kind that says no more than "thesis".
_PLAIN_KINDS = frozenset({"", "dissertation", "thesis", "dissertation abstract"})


def cited_where_abstracted(item: dict[str, Any]) -> dict[str, Any]:
    """The CSL item of a thesis listed in DAI or MAI as a thesis abstracted there (a new
    item); any other item as it is."""
    container = str(item.get("container-title") or "")
    listed = _ABSTRACTS.match(container)
    if item.get("type") != "thesis" or not listed:
        return item
    item = dict(item)
    item.pop("container-title")
    volume, issue = str(item.pop("volume", "") or ""), str(item.pop("issue", "") or "")
    numbers = f"{volume}({issue})" if volume and issue else volume or issue
    item["archive"] = f"{container}, {numbers}" if numbers else container
    if str(item.get("genre") or "").strip().lower() in _PLAIN_KINDS:
        item["genre"] = _KINDS[listed.group(1).lower()]
    if _DISTRIBUTOR.search(str(item.get("publisher") or "")):
        item.pop("publisher")
        item.pop("publisher-place", None)
    return item
