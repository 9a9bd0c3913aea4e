"""A withdrawn submission's venue as the library's exports keep it: apart from the record
(BibTeX's ``eventtitle``, a RIS ``tex.eventtitle`` note, CSL's ``event-title``), since its
citation must not name the venue as where it appeared, and read back as the paper's venue.
"""

from __future__ import annotations

from reader.models import PaperRecord

__all__ = ["withdrawn_venue"]


def withdrawn_venue(record: PaperRecord, event: str, *variables: str) -> PaperRecord:
    """The record of a withdrawn submission with ``event`` (the venue it was submitted to)
    as its venue, where it names no other. The entry's type and the ``variables`` the event
    was also read into are the export's way of citing an unpublished paper, not a type of
    the paper's own: kept, they would cite it as having appeared in the venue."""
    event = " ".join(event.split())
    if not (record.withdrawn and event and not record.venue):
        return record
    record.venue = event
    for variable in variables:
        if record.csl.get(variable) == event:
            del record.csl[variable]
    record.csl.pop("type", None)
    record.kind = None
    return record
