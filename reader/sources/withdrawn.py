"""A submission the venue did not publish, as the library's exports keep it: its state
(withdrawn, rejected, under review) as a publication state (biblatex's ``pubstate``, a RIS
``tex.pubstate`` note, CSL's ``status``), read back as the paper's decision; and the venue
a withdrawn or rejected one was submitted to, apart from the record (BibTeX's
``eventtitle``, a RIS ``tex.eventtitle`` note, CSL's ``event-title``), since its citation
must not name the venue as where it appeared, read back as the paper's venue.
"""

from __future__ import annotations

from reader.models import PaperRecord
from reader.signals import Signals, decision_field, state_decision

__all__ = ["decided", "unpublished_venue"]

# The decisions after which a submission names its venue apart (reader.cite.venues).
_TURNED_DOWN = frozenset({"reject", "desk-rejected"})
# The types the exports give a submission withdrawn or turned down (a @misc, biblatex's
# @online, a RIS UNPB, a CSL manuscript), read back as no type of its own even where it
# names no venue: kept, a withdrawn paper of no date was cited "(withdrawn)" in APA, its
# state in the date's place, where it had been "(n.d.) … [Withdrawn submission]".
_UNPUBLISHED_TYPES = frozenset({"document", "webpage", "manuscript"})


def decided(record: PaperRecord, state: str, carried: str = "") -> Signals | None:
    """The record's signals with the decision an export's publication ``state`` says (a
    submission "rejected", "under review"), else the one its field of its own says
    (``carried``: "poster", "withdrawn"), where the record has none of its own; a decision
    still pending only for a paper with a venue, not withdrawn (as OpenReview's own entries
    for submissions say it)."""
    decision = state_decision(state)
    words = state
    if decision is None and decision_field(carried):
        decision, words = decision_field(carried), carried
    held = record.signals
    if decision is None or (held is not None and held.decision is not None):
        return held
    if decision == "pending" and (not record.venue or record.withdrawn):
        return held
    return Signals(decision=decision, decision_raw=" ".join(words.split()).capitalize())


def unpublished_venue(record: PaperRecord, event: str, *variables: str) -> PaperRecord:
    """The record of a submission withdrawn or turned down (its decision read first) with
    ``event`` (the venue it was submitted to) as its venue, where it names no other. The
    entry's type and the ``variables`` the event was also read into are the export's way of
    citing an unpublished paper, not a type of the paper's own: kept, they would cite it as
    having appeared in the venue. With no event, the type is dropped where it is one the
    exports write for such a paper (:data:`_UNPUBLISHED_TYPES`)."""
    event = " ".join(event.split())
    decision = record.signals.decision if record.signals is not None else None
    turned_down = record.withdrawn or decision in _TURNED_DOWN
    if not turned_down or record.venue:
        return record
    if event:
        record.venue = event
        for variable in variables:
            if record.csl.get(variable) == event:
                del record.csl[variable]
    elif record.csl.get("type") not in _UNPUBLISHED_TYPES:
        return record
    record.csl.pop("type", None)
    record.kind = None
    return record
