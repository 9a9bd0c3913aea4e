"""The fields of Zotero's item types beyond an article's (its schema's names), read with the
CSL variables Zotero's RIS and CSV exports of the same items are read with: a patent's
number, application number, issuing authority, country and filing date; a presentation's
meeting, kind and place; a video's format, running time and the site it is on.

Part of the sources layer: plain data, no I/O. A patent's assignee has no variable (APA
names the patent office, not the assignee): it stays among the item's kept fields.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reader.record import date_parts
from reader.sources.jsonfields import clean_title

__all__ = ["TYPE_FIELDS", "read_type_fields"]

#: Zotero fields (its schema's names) and the CSL variable each is read as.
TYPE_FIELDS = {
    "patentNumber": "number", "applicationNumber": "call-number",
    "issuingAuthority": "authority", "country": "jurisdiction", "filingDate": "submitted",
    "meetingName": "event", "presentationType": "genre",
    "videoRecordingFormat": "medium", "runningTime": "dimensions", "studio": "publisher",
    "distributor": "publisher", "genre": "genre",
}
# CSL's date variables among them.
_DATES = frozenset({"submitted"})
# Types of a recording, whose catalogue (Zotero's "Library Catalog": "YouTube") is the site
# it was published on, as its RIS's DB is read: APA and Chicago cite it ("[Video]. YouTube.").
_RECORDINGS = frozenset({"motion_picture", "broadcast"})


def read_type_fields(
    item: dict[str, Any], csl: dict[str, Any], date_of: Callable[[str], str | None]
) -> None:
    """Set the variables of ``item``'s type-specific fields in ``csl``, the first one given
    winning; ``date_of`` reads a Zotero date as ISO."""
    for field, variable in TYPE_FIELDS.items():
        text = clean_title(item.get(field))
        if not text or variable in csl:
            continue
        if variable in _DATES:
            day = date_of(text)
            if day:
                csl[variable] = {"date-parts": [date_parts(day)]}
        else:
            csl[variable] = text
    if csl.get("type") == "speech" and "publisher-place" in csl and "event-place" not in csl:
        # A talk's place is where it was given (its RIS's CY is read so), no publisher's.
        csl["event-place"] = csl.pop("publisher-place")
    if csl.get("type") in _RECORDINGS and "publisher" not in csl and csl.get("source"):
        csl["publisher"] = csl["source"]
