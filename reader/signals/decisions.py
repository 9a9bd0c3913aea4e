"""Decisions as venues wrote them, normalised to a small set (:data:`DECISIONS`), the raw
string kept beside."""

from __future__ import annotations

import functools
from typing import Any

from reader.text.pattern import Pattern

__all__ = ["DECISIONS", "EXPORT_STATES", "carried_decision", "decision_field", "decision_label",
           "export_state", "normalize_decision", "state_decision"]

#: The normalised decisions, from best to worst; ``pending`` is a paper under review.
#: How a citation says a submission has no decision yet (OpenReview's own BibTeX says so);
#: read back from an export, it is the library's to say, not the record's own status.
UNDER_REVIEW = "under review"

# A submission's decision as the library's exports say it where a record has a publication
# state (biblatex's ``pubstate``, CSL's ``status``, a RIS ``tex.pubstate`` note), so that an
# import reads the decision back: a paper not accepted (or not yet) is no paper of the
# conference, and read back with no decision it would be cited as one.
_STATE_OF = {"reject": "rejected", "desk-rejected": "desk rejected", "pending": UNDER_REVIEW}
_DECISION_OF = {state: decision for decision, state in _STATE_OF.items()}
#: Every state an export writes of what the library knows (a withdrawal too), read back as
#: that knowledge, never kept as a record's own status.
EXPORT_STATES = frozenset({"withdrawn", *_STATE_OF.values()})

DECISIONS = (
    "oral",
    "spotlight",
    "poster",
    "accept",
    "workshop",
    "reject",
    "desk-rejected",
    "withdrawn",
    "pending",
)

# How venues and years have spelled decisions, as word patterns tried in order (the first
# that matches wins): each pattern is a tuple of words that must all occur, as whole words,
# in the lower-cased text. Examples of the drift each row covers are in the comments; the
# tests hold the full list.
_DECISION_WORDS: tuple[tuple[str, tuple[tuple[str, ...], ...]], ...] = (
    # "Withdrawn", "ICLR 2026 Conference Withdrawn Submission", "withdraw"
    ("withdrawn", (("withdrawn",), ("withdraw",), ("withdrawal",))),
    # "Desk Reject", "Desk Rejected Submission", "desk_rejected"
    ("desk-rejected", (("desk", "reject"), ("desk", "rejected"), ("deskreject",))),
    # "Invite to Workshop Track" and paperlists' "Workshop" (ICLR 2017–18), a venue "ICLR
    # 2026 Workshop": a paper of the conference's workshops, neither a main-track
    # acceptance nor a rejection.
    ("workshop", (("workshop",),)),
    # "Reject", "Rejected"
    ("reject", (("reject",), ("rejected",), ("rejection",))),
    # "Accept (Oral)", "ICLR 2026 Oral", "Accept (Talk)", "Accept: notable-top-5%"
    ("oral", (("oral",), ("talk",), ("notable", "top", "5"), ("award",), ("best", "paper"))),
    # "Accept (Spotlight)", "spotlight poster", "Accept: notable-top-25%", CVPR "Highlight"
    ("spotlight", (("spotlight",), ("notable", "top", "25"), ("highlight",))),
    # "Accept (Poster)", "poster", "conditionalposter" (ICLR 2017), "Accept: poster"
    ("poster", (("poster",), ("conditionalposter",))),
    # "Accept", "Accepted", ACL "Main"/"Findings", "Long", "Short", "Journal"
    (
        "accept",
        (
            ("accept",),
            ("accepted",),
            ("findings",),
            ("main",),
            ("long",),
            ("short",),
            ("journal",),
            ("publish",),
            ("published",),
        ),
    ),
    # "Pending", "Under review", "ICLR 2026 Conference Submission", paperlists "Active"
    (
        "pending",
        (
            ("pending",),
            ("under", "review"),
            ("submission",),
            ("submitted",),
            ("active",),
        ),
    ),
)
_DECISION_TOKEN = Pattern(r"[a-z]+|\d+")


def normalize_decision(raw: Any) -> str | None:
    """One of :data:`DECISIONS` for a decision as some venue wrote it (``"Accept
    (Oral)"`` → ``oral``, ``"ICLR 2026 Oral"`` → ``oral``, ``"Desk Reject"`` →
    ``desk-rejected``), or None when the text names no decision (or is not text)."""
    if not isinstance(raw, str) or not raw.strip():
        return None
    return _decision_of(raw)


# A venue's few decision strings recur on every one of its papers: each is read once.
@functools.lru_cache(maxsize=1024)
def _decision_of(raw: str) -> str | None:
    """:func:`normalize_decision` of a non-blank string."""
    words = set(_DECISION_TOKEN.findall(raw.lower()))
    for decision, patterns in _DECISION_WORDS:
        if any(all(word in words for word in pattern) for pattern in patterns):
            return decision
    return None


def export_state(decision: str | None) -> str:
    """The publication state an export writes for a decision (``reject`` → "rejected"),
    or "" for one a citation says otherwise (accepted: its venue; withdrawn: its mark)."""
    return _STATE_OF.get(decision or "", "")


#: The decisions an export writes in a field of their own (BibTeX's ``decision``, a RIS
#: ``tex.decision`` note, CSL-JSON's ``custom``): an accepted paper has no publication state
#: (its citation names the venue), and read back without one it had no decision.
_CARRIED = frozenset({"oral", "spotlight", "poster", "accept", "workshop"})


def carried_decision(decision: str | None) -> str:
    """The decision as an export's field of its own says it (``poster``), read back the
    same, or "" for one a publication state says (:func:`export_state`) or none."""
    word = " ".join((decision or "").split()).lower()
    return word if word in _CARRIED else ""


def decision_field(decision: str | None, withdrawn: bool = False) -> str:
    """The decision an export writes in its field of its own, and reads back from it: an
    accepted paper's not withdrawn (:func:`carried_decision`), or ``withdrawn``, which the
    paper's withdrawn mark (a publication state) does not say: a withdrawn paper may have
    had no decision, or another."""
    accepted = carried_decision(decision)
    if accepted:
        return "" if withdrawn else accepted
    return "withdrawn" if " ".join((decision or "").split()).lower() == "withdrawn" else ""


def state_decision(state: str) -> str | None:
    """The decision an export's publication state says (:func:`export_state` read back),
    or None for any other state."""
    return _DECISION_OF.get(" ".join(state.lower().split()))


def decision_label(decision: str | None, raw: str | None) -> str:
    """How a paper's decision is said to a reader: ``oral (Accept (Oral))``, the decision
    and the source's words when they say more than it (``poster`` for "Poster"); the words
    alone for a decision not normalised."""
    words = (raw or "").strip()
    if decision is None:
        return words
    if words and words.lower() != decision:
        return f"{decision} ({words})"
    return decision
