"""Where a citation says a paper appeared, from what the conference decided: a submission
turned down or withdrawn names no venue (OpenReview's own entry for it is a @misc), one
under review was "Submitted to" it, one invited to a workshop track appeared there, and a
preprint whose listing names its journal appeared in that journal; and the BibTeX fields
that say what OpenReview says of a submission (withdrawn, under review, its TL;DR).
"""

from __future__ import annotations

from reader.cite.bibtex_text import bibtex_tldr
from reader.cite.tex_escape import escape_text, fold
from reader.models import Paper
from reader.record import published_venue
from reader.signals import UNDER_REVIEW, decision_field, export_state
from reader.text.identifiers import openreview_forum_id

__all__ = ["openreview_fields", "published_in", "series_of_book", "submitted_to", "unpublished",
           "submitted_venue", "workshop_track"]

# Decisions after which a submission is no paper of the conference: OpenReview's own BibTeX
# for it is a @misc with no booktitle.
_NOT_PUBLISHED = frozenset({"reject", "desk-rejected"})


def unpublished(paper: Paper) -> bool:
    """Whether the paper is a submission the venue turned down or its authors withdrew, so
    that a citation must not name the venue as where it appeared (a record with a type of
    its own says where). MLA, Harvard, Nature and ACM print no status: "Withdrawn" beside
    "ICLR" read as a paper of the conference in them."""
    # A preprint withdrawn from arXiv is still arXiv's, under its number: cited as the
    # preprint it is, its status withdrawn.
    withdrawn = paper.withdrawn and paper.venue != "arXiv"
    turned_down = paper.decision in _NOT_PUBLISHED or withdrawn
    return turned_down and not paper.csl.get("type")


def submitted_venue(paper: Paper) -> str:
    """The venue a submission withdrawn or turned down was submitted to, which its citation
    does not name (:func:`unpublished`) but an export keeps apart, with its state (withdrawn,
    rejected), so that an import reads it back as the paper's venue, and cites it as
    before: "" for any other paper."""
    if unpublished(paper) and paper.venue:
        return " ".join(paper.venue.split())
    return ""


def submitted_to(paper: Paper, venue: str) -> str:
    """The venue of a submission still under review as OpenReview's own entries name it
    ("Submitted to ICLR"): every style prints it, where few print a status."""
    if paper.decision == "pending" and not unpublished(paper) and venue:
        return f"Submitted to {venue}"
    return venue


def workshop_track(paper: Paper, venue: str) -> str:
    """The venue of a paper invited to the venue's workshop track ("Invite to Workshop
    Track", ICLR 2017) says so: it appeared there, not in the conference's proceedings."""
    if paper.decision == "workshop" and venue and "workshop" not in venue.lower():
        return f"{venue}, Workshop Track"
    return venue


def held_at(paper: Paper, venue: str) -> bool:
    """Whether the venue is the meeting a talk was given at (a presentation's ``event``):
    no container it was published in. As one, APA printed "In NAACL 2022 [Keynote]"."""
    return paper.csl.get("type") == "speech" and venue == paper.csl.get("event")


def published_in(paper: Paper, venue: str) -> str:
    """The journal a preprint's record names beside its archive (an arXiv listing's
    journal reference), else the venue: an export says where the paper was published."""
    return published_venue(venue, paper.csl)


def series_of_book(paper: Paper, venue: str) -> bool:
    """Whether the venue is the series of a book (a database's "source title" for it): a
    book is in no container, and styles cited one "In" its series, as if a chapter."""
    series = paper.csl.get("collection-title")
    return paper.csl.get("type") == "book" and isinstance(series, str) and " ".join(
        series.split()) == venue


def openreview_fields(paper: Paper, biblatex: bool) -> list[tuple[str, str]]:
    """What OpenReview says of a submission beyond its record, as fields an import reads back.

    A withdrawn or rejected submission is biblatex's ``pubstate`` (its publication state,
    which biblatex styles print and pandoc reads as CSL's ``status``); the TL;DR and the
    primary area have no standard field and go by OpenReview's names, which BibTeX and biber
    ignore; so does the forum's id (``openreview``) of a paper whose ``url`` is not the forum's.
    """
    # A record's own status is written with its other variables.
    withdrawn = paper.withdrawn and not paper.csl.get("status")
    fields = [("pubstate", "withdrawn")] if withdrawn else []
    state = export_state(paper.decision)
    if state != UNDER_REVIEW and state and not paper.withdrawn and not paper.csl.get("status"):
        fields.append(("pubstate", state))  # turned down: read back as the decision
    venue = submitted_venue(paper)
    if venue:
        # The venue it was submitted to, which the entry (a @misc) names nowhere else: as
        # biblatex's ``eventtitle`` (CSL's event title, as the CSL-JSON export has it), which
        # the standard styles do not print for a @misc and classic BibTeX ignores.
        fields.append(("eventtitle", escape_text(fold(venue))))
    if paper.decision == "pending" and not paper.withdrawn and not paper.csl.get("status"):
        # Under review, as OpenReview's own entries for submissions say it: a note that
        # classic BibTeX styles print, and biblatex's publication state.
        fields.append(("pubstate", UNDER_REVIEW) if biblatex else ("note", "Under review"))
    decision = decision_field(paper.decision, paper.withdrawn)
    if decision:
        # Accepted, which no publication state says (the venue does), or withdrawn, which
        # the pubstate says of the paper, not of its decision: OpenReview's word, which
        # styles pass over as they do the TL;DR, read back as the decision.
        fields.append(("decision", decision))
    tldr = bibtex_tldr(paper)
    if tldr:
        fields.append(("tldr", tldr))
    area = fold(paper.primary_area or "")
    if area:
        fields.append(("primaryarea", escape_text(area)))
    if paper.openreview_id and openreview_forum_id(paper.url) != paper.openreview_id:
        # The forum of a paper whose link is another (a proceedings page), by which it
        # meets its reviews again after an import.
        fields.append(("openreview", paper.openreview_id))
    return fields
