"""Where a citation says a paper appeared, from what the conference decided: a submission
turned down or withdrawn names no venue (OpenReview's own entry for it is a @misc), one
under review was "Submitted to" it, one invited to a workshop track appeared there, and a
preprint whose listing names its journal appeared in that journal.
"""

from __future__ import annotations

from reader.models import Paper

__all__ = ["LOCAL_FIELDS", "published_in", "submitted_to", "unpublished", "workshop_track"]

#: Source fields naming files on the machine that wrote the entry (JabRef's, Zotero's and
#: Mendeley's attached PDFs): a file's, not a citation's.
LOCAL_FIELDS = frozenset({"file", "pdf", "local-url"})
# Decisions after which a submission is no paper of the conference: OpenReview's own BibTeX
# for it is a @misc with no booktitle.
_NOT_PUBLISHED = frozenset({"reject", "desk-rejected"})


def unpublished(paper: Paper) -> bool:
    """Whether the paper is a submission the venue turned down or its authors withdrew, so
    that a citation must not name the venue as where it appeared (a record with a type of
    its own says where). MLA, Harvard, Nature and ACM print no status: "Withdrawn" beside
    "ICLR" read as a paper of the conference in them."""
    turned_down = paper.decision in _NOT_PUBLISHED or paper.withdrawn
    return turned_down and not paper.csl.get("type")


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


def published_in(paper: Paper, venue: str) -> str:
    """The journal a preprint's record names beside its archive (an arXiv listing's
    journal reference), else the venue: an export says where the paper was published."""
    journal = paper.csl.get("container-title")
    if isinstance(journal, str) and journal.strip() and venue.lower().startswith("arxiv"):
        return " ".join(journal.split())
    return venue
