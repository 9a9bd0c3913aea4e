"""A reply to a paper (:class:`Reply`: a review, a meta-review, a decision, a comment …)
and its kind, read from its invitations."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from reader.signals.scores import RATING_FIELDS, Score, parse_score
from reader.text.pattern import Pattern

__all__ = [
    "COMMENT_KINDS",
    "DECISION_KINDS",
    "META_REVIEW_KINDS",
    "PROCEDURAL_KINDS",
    "REVIEW_KINDS",
    "SECTION_LIMIT",
    "SIGNAL_FIELDS",
    "Reply",
    "kind_of",
    "kind_of_invitation",
    "shown_sections",
]

#: Kinds of reply that are official reviews (their ratings make a paper's rating).
REVIEW_KINDS = frozenset({"Official_Review", "Review"})
#: Kinds of reply that state a decision (ICLR 2017 "acceptance", 2018 "Acceptance_Decision").
DECISION_KINDS = frozenset({"Decision", "Acceptance_Decision", "Acceptance", "Final_Decision"})
#: Kinds of reply written by an area chair.
META_REVIEW_KINDS = frozenset({"Meta_Review", "Metareview", "Meta_Review_Revision"})
#: Kinds that are neither discussion nor assessment.
PROCEDURAL_KINDS = frozenset(
    {"Withdrawal", "Desk_Rejection", "Withdraw", "Desk_Reject", "Revision", "Edit",
     "Ethics_Review_Flag", "Camera_Ready_Revision"}
)
#: Kinds that are discussion (counted as comments): everything else that answers a paper.
COMMENT_KINDS = frozenset(
    {"Official_Comment", "Public_Comment", "Comment", "Rebuttal", "Author_Rebuttal",
     "Rebuttal_Comment", "Author_Comment"}
)
#: The fields of a reply a paper's signals are read from (its rating, in whichever field
#: it was given, its confidence, a decision or recommendation): a reply holding these alone
#: adds up to the same signals as the whole reply (:func:`reader.signals.signals_from_replies`).
SIGNAL_FIELDS = frozenset({*RATING_FIELDS, "confidence", "decision"})
#: The most of one section the reading view renders: real sections are a few thousand
#: characters; a longer one is cut there (and can be seen whole, unrendered).
SECTION_LIMIT = 20_000
#: Text fields that are the reviewer's answers to the form's formalities, not the review.
HIDDEN_FIELDS = frozenset(
    {"code_of_conduct", "responsible_reviewing", "first_time_reviewer",
     "code_of_ethics", "reciprocal_reviewing_status",
     "LLM_usage", "llm_usage", "confidential_comment", "submission_guidelines",
     "resubmission", "student_author", "paperhash", "title"}
)
#: Answers that say a section is empty.
_NOTHING = frozenset({"", "n/a", "na", "none", "no", "-", "not applicable", "none."})
# Invitation suffixes shared by every note a venue edits: not the note's kind.
_GENERIC_INVITATIONS = frozenset({"Edit", "Revision"})
# A path segment naming the paper an invitation belongs to ("Paper12", "paper12",
# "Submission1234").
_PAPER_SEGMENT = Pattern(r"^(?:paper|submission)\d+$", re.IGNORECASE)


def kind_of_invitation(invitation: str) -> str:
    """A reply's kind from one invitation: what follows ``/-/``, without the paper's own
    segment, each part capitalised and joined by ``_``.

    ``ICLR.cc/2026/Conference/Submission109/-/Official_Review`` → ``Official_Review``;
    ``ICLR.cc/2019/Conference/-/Paper1/Meta_Review`` → ``Meta_Review``;
    ``ICLR.cc/2017/conference/-/paper1/official/review`` → ``Official_Review``.
    """
    tail = invitation.rsplit("/-/", 1)[-1]
    return _kind_of_tail(tail) if tail else invitation


@lru_cache(maxsize=1024)
def _kind_of_tail(tail: str) -> str:
    """:func:`kind_of_invitation` of what follows ``/-/``: the same few tails (API v2's
    ``Official_Review``) over a whole conference's replies, each worked out once."""
    parts = [p for p in tail.split("/") if p and not _PAPER_SEGMENT.match(p)]
    if not parts:
        return tail
    return "_".join(p[:1].upper() + p[1:] for p in parts)


def kind_of(invitations: Sequence[str]) -> str:
    """The kind of a reply from its invitations (the list grows with each edit): the first
    that names more than an edit; ``Edit`` when none does, ``Unknown`` with none at all."""
    kinds = [kind_of_invitation(i) for i in invitations if isinstance(i, str) and i]
    for kind in kinds:
        if kind not in _GENERIC_INVITATIONS:
            return kind
    return kinds[0] if kinds else "Unknown"


# Encoders made once: json.dumps with options makes one per call, and an import encodes
# every reply's content several times.
_COMPACT = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
_COMPACT_SORTED = json.JSONEncoder(
    ensure_ascii=False, separators=(",", ":"), sort_keys=True
).encode


@dataclass(slots=True)
class Reply:
    """One note answering a paper (OpenReview's shape, any source).

    ``id`` is the note's id; ``forum`` the id of the paper it belongs to (None when the
    source gave none); ``replyto`` the note it answers (the paper for a review, a review
    for a rebuttal); ``cdate``/``mdate`` milliseconds since 1970 (creation, last
    modification). ``content`` holds every field of the note's content in the source's
    order, each value unwrapped from API v2's ``{"value": …}`` and otherwise verbatim
    (hostile text included: it is data, made inert where it is shown); ``scores`` and
    ``texts`` are read from it when the reply is made.
    """

    id: str
    forum: str | None
    replyto: str | None
    kind: str
    content: dict[str, Any] = field(default_factory=dict)
    invitations: tuple[str, ...] = ()
    signatures: tuple[str, ...] = ()
    number: int | None = None
    cdate: int | None = None
    mdate: int | None = None
    #: The numeric fields, by name, in content order.
    scores: dict[str, Score] = field(init=False, repr=False, compare=False)
    #: The text fields (summary, strengths, weaknesses, questions, comment, metareview,
    #: decision, …) as ``(name, text)``, in content order, verbatim.
    texts: tuple[tuple[str, str], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        scores: dict[str, Score] = {}
        texts: list[tuple[str, str]] = []
        for name, value in self.content.items():
            score = parse_score(name, value)
            if score is not None:
                scores[name] = score
            elif isinstance(value, str):
                texts.append((name, value))
            elif isinstance(value, list) and value and all(isinstance(v, str) for v in value):
                # A form's checkboxes: ICLR's flag_for_ethics_review ["Yes, Research
                # integrity issues (e.g., plagiarism, dual submission)"].
                texts.append((name, "; ".join(value)))
        self.scores = scores
        self.texts = tuple(texts)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # Rebuilt from its fields, its scores and texts as they were read: pickle's default
        # for a slotted dataclass restores field by field in Python, each score too, and
        # the replies of a conference crossing from the process that reads the file cost
        # the one writing them a second per 20,000 papers.
        return (_rebuilt, (
            self.id, self.forum, self.replyto, self.kind, self.content, self.invitations,
            self.signatures, self.number, self.cdate, self.mdate,
            tuple((score.value, score.raw) for score in self.scores.values()),
            tuple(self.scores), self.texts,
        ))

    @property
    def modified(self) -> int | None:
        """When this version was written: ``mdate``, else ``cdate``."""
        return self.mdate if self.mdate is not None else self.cdate

    @property
    def signer(self) -> str:
        """Who wrote it, as the last part of its first signature: ``Reviewer_6GPX``,
        ``Authors``, ``Area_Chair_x1Yz``, ``Program_Chairs``, ``~Ada_Lovelace1``."""
        if not self.signatures:
            return ""
        return self.signatures[0].rstrip("/").rsplit("/", 1)[-1]

    @property
    def is_review(self) -> bool:
        """Whether it is an official review (whose rating counts)."""
        return self.kind in REVIEW_KINDS

    @property
    def rating(self) -> Score | None:
        """The reviewer's overall rating, from the first rating field holding a number
        (else the first holding none, so that an ``"N/A"`` rating is still shown)."""
        found = [self.scores[name] for name in RATING_FIELDS if name in self.scores]
        numbered = [score for score in found if score.value is not None]
        if numbered:
            return numbered[0]
        return found[0] if found else None

    @property
    def confidence(self) -> Score | None:
        """The reviewer's confidence, if given."""
        return self.scores.get("confidence")

    @property
    def decision(self) -> str | None:
        """The decision this reply states, as written: a Decision note's ``decision``; a
        meta-review's ``decision`` or a ``recommendation`` that is not a number (ICLR
        2019–20); None for other replies."""
        if self.kind in DECISION_KINDS or self.kind in META_REVIEW_KINDS:
            for name in ("decision", "recommendation"):
                value = self.content.get(name)
                if isinstance(value, str) and value.strip() and name not in self.scores:
                    return value
        return None

    def content_json(self) -> str:
        """The content as compact JSON text (non-ASCII kept as it is), as it is stored."""
        return _COMPACT(self.content)

    def text_hash(self) -> str:
        """A digest of the content without its scores: two versions with the same hash
        have the same text, whatever their ratings."""
        import hashlib  # here: OpenSSL's loading was 2 ms of every window's start

        words = {name: value for name, value in self.content.items() if name not in self.scores}
        text = _COMPACT_SORTED(words)
        return hashlib.sha1(text.encode("utf-8", "surrogatepass")).hexdigest()

    def scores_json(self) -> str:
        """The scores as compact JSON text, each with its number and the content's own
        value (``{"rating": {"value": 6.0, "raw": 6}, …}``): a version's scores, from
        which its content is rebuilt with the text of another version."""
        return _COMPACT(
            {name: {"value": score.value, "raw": self.content.get(name, score.raw)}
             for name, score in self.scores.items()}
        )


def _rebuilt(
    ident: str, forum: str | None, replyto: str | None, kind: str, content: dict[str, Any],
    invitations: tuple[str, ...], signatures: tuple[str, ...], number: int | None,
    cdate: int | None, mdate: int | None, values: tuple[tuple[float | None, str], ...],
    names: tuple[str, ...], texts: tuple[tuple[str, str], ...],
) -> Reply:
    """A reply as :meth:`Reply.__reduce__` gave it, its content not read again."""
    reply = Reply.__new__(Reply)
    reply.id, reply.forum, reply.replyto, reply.kind = ident, forum, replyto, kind
    reply.content, reply.invitations, reply.signatures = content, invitations, signatures
    reply.number, reply.cdate, reply.mdate = number, cdate, mdate
    reply.scores = {name: Score(name, value, raw)
                    for name, (value, raw) in zip(names, values, strict=True)}
    reply.texts = texts
    return reply


def shown_sections(reply: Reply) -> list[tuple[str, str]]:
    """The reply's text sections worth reading, in the order the source gave them, each
    as ``(heading, text)``: the form's formalities and empty answers left out. What the
    reading view shows of a reply, and what a passage of it is measured against."""
    shown = []
    for name, text in reply.texts:
        if name in HIDDEN_FIELDS or text.strip().lower() in _NOTHING:
            continue
        if name.startswith("flag_for") and text.strip().lower().startswith("no "):
            continue  # "No ethics review needed.": a flag raised is shown, none is not
        shown.append((name.replace("_", " ").capitalize(), text))
    return shown
