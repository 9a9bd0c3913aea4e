"""What a fetch from OpenReview asks for (:class:`Plan`: a venue query or a list of
forums) and how far a run of it got (:class:`FetchState`, saved after every page so that
the same command run again continues from there)."""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from reader.sources.remote import FetchError


@dataclass(frozen=True)
class Plan:
    """What to fetch: a venue's submissions (``params`` of the notes query) or the forums
    ``forums``, one after the other; ``name`` names the files in the cache."""

    name: str
    params: tuple[tuple[str, str], ...] = ()
    forums: tuple[str, ...] = ()

    @property
    def key(self) -> str:
        """Tells one plan from another in the state file (a resumed run must be the same)."""
        text = json.dumps([self.params, self.forums])
        return hashlib.sha256(text.encode()).hexdigest()[:16]


def venue_plan(venue: str) -> Plan:
    """The submissions of ``venue`` with their replies: a venue id (``ICLR.cc/2026/
    Conference``: every submission, through its ``/-/Submission`` invitation), an
    invitation id (``…/-/Submission``), or a venue id naming a group of decisions
    (``…/Withdrawn_Submission``, ``…/Rejected_Submission``: ``content.venueid``)."""
    venue = venue.strip().strip("/")
    if not venue:
        raise FetchError("no venue given (such as ICLR.cc/2026/Conference)")
    if "/-/" in venue:
        query = ("invitation", venue)
    elif venue.endswith("Submission"):
        query = ("content.venueid", venue)
    else:
        query = ("invitation", f"{venue}/-/Submission")
    name = "".join(c if c.isalnum() or c in "._-" else "-" for c in venue)
    return Plan(name, (query, ("details", "replies")))


def forums_plan(forums: Sequence[str], name: str) -> Plan:
    """The forums (OpenReview paper ids) given, each once, in their order."""
    unique = tuple(dict.fromkeys(f for f in forums if f))
    if not unique:
        raise FetchError("no OpenReview ids to fetch")
    return Plan(name, forums=unique)


@dataclass
class FetchState:
    """How far a plan got in its file: saved after every page."""

    key: str
    path: str
    next: int = 0
    size: int = 0
    papers: int = 0
    replies: int = 0
    total: int | None = None
    complete: bool = False
    problems: list[str] = field(default_factory=list)


def load_state(state_path: Path, plan: Plan, path: Path) -> FetchState:
    """The state of an unfinished run of ``plan`` into ``path``, or a fresh start."""
    fresh = FetchState(plan.key, str(path.resolve()))
    try:
        saved = json.loads(state_path.read_text(encoding="utf-8"))
        state = FetchState(**saved)
    except (OSError, ValueError, TypeError):
        return fresh
    if (state.key, state.path) != (fresh.key, fresh.path) or state.complete:
        return fresh
    try:
        if path.stat().st_size < state.size:
            return fresh  # the file was cut short since: its pages cannot be trusted
    except OSError:
        return fresh
    return state


def save_state(state_path: Path, state: FetchState) -> None:
    """Write the state whole or not at all."""
    state_path.parent.mkdir(parents=True, exist_ok=True)
    temporary = state_path.with_name(state_path.name + ".tmp")
    temporary.write_text(json.dumps(state.__dict__), encoding="utf-8")
    os.replace(temporary, state_path)
