"""Plain data types shared by the core, the CLI and the UI (what an import did is in
:mod:`reader.import_summary`)."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from msgspec import Struct, field

from reader.signals import Reply, Signals


class PaperRecord(Struct):
    """A paper as read from a file, before it has an identity in the library."""

    abstract: str
    title: str = ""
    title_derived: bool = False
    authors: list[str] = field(default_factory=list)
    venue: str | None = None
    year: int | None = None
    keywords: list[str] = field(default_factory=list)
    url: str | None = None
    doi: str | None = None
    source: str | None = None
    arxiv_id: str | None = None
    openreview_id: str | None = None
    #: Publication or submission date, ISO 8601 (``2026-01-15`` or just ``2026``).
    date: str | None = None
    #: When the source last modified the record (OpenReview ``mdate``, arXiv's latest
    #: version, an ``updated`` field), ISO 8601 in UTC (``2026-01-15T09:30:00Z``, or a
    #: date alone): an import never puts the text of an older record over a newer one.
    modified: str | None = None
    withdrawn: bool = False
    tldr: str | None = None
    primary_area: str | None = None
    #: The entry type of the source (``article``, ``inproceedings`` …) when it has one.
    kind: str | None = None
    #: The source's own citation key (BibTeX key, CSL ``id``, RIS ``ID``), if it has one.
    citekey: str | None = None
    #: CSL variables beyond the fields above (see :mod:`reader.record`): type, volume, issue,
    #: page, publisher, issued date parts, structured names (author, editor …) and so on.
    csl: dict[str, Any] = field(default_factory=dict)
    #: Source fields the record does not model, verbatim, under the source format's name.
    extra: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: A note that came with the source (Zotero child notes), as Markdown.
    note: str | None = None
    #: Other keys the source says the entry answers to (biblatex ``ids``).
    aliases: list[str] = field(default_factory=list)
    #: The user's own tags in the source library (Zotero's manual tags), normalised: they
    #: become the paper's tags when the import adds it, and never touch a paper already there.
    tags: list[str] = field(default_factory=list)
    #: The file's tags written otherwise than the tags they became, ``(as written, tag)``
    #: (``("health, digital", "health-digital")``): the import summary names them.
    tags_rewritten: list[tuple[str, str]] = field(default_factory=list)
    #: The replies the source gave with the paper (reviews, decisions, comments), in order.
    replies: list[Reply] = field(default_factory=list)
    #: What the source says of its reviews and decision (see :mod:`reader.signals`).
    signals: Signals | None = None
    #: The user's own marks in a reader library's export (CSV, JSON): a star, a read mark
    #: and highlights (quote, note). As tags and the note, they go to a paper the import
    #: adds and never over a paper already there.
    starred: bool = False
    read: bool = False
    highlights: list[tuple[str, str]] = field(default_factory=list)
    #: Of a record read for its paper first, its replies to come on a second reading (see
    #: :func:`reader.sources.stream_file`): the versions of its replies, ``(id, modified)``,
    #: standing in for them (its ``signals`` were worked out of them as they were read).
    replies_to_come: tuple[tuple[str, int | None], ...] = ()


class Highlight(Struct, frozen=True):
    """A highlighted passage of a paper's abstract, or of one of its replies (a review).

    ``start``/``end`` are offsets into the abstract as shown (see
    :func:`reader.store.highlights.display_text`), or, with ``reply_id`` (the reply's note
    id), into that reply as shown (:func:`reader.store.highlights.shown_reply`); ``quote``
    is the passage itself, which re-anchors the highlight when the text is revised; an
    ``orphaned`` highlight's quote no longer occurs there (kept, and shown apart); a
    ``moved`` one was found again elsewhere in its edited reply. ``reply_label`` names the
    reply (``Official_Review · Reviewer_6GPX``), empty for the abstract.
    """

    id: int
    paper_id: int
    start: int
    end: int
    quote: str
    note: str = ""
    orphaned: bool = False
    reply_id: str | None = None
    moved: bool = False
    reply_label: str = ""

    @property
    def reply_words(self) -> str:
        """The reply it is in, in words (``Official Review · Reviewer_6GPX``): its label
        with the kind's underscores as spaces; empty where no label was kept."""
        return label_words(self.reply_label)


def label_words(label: str) -> str:
    """A reply's label (``Official_Review · Reviewer_6GPX``) as it is shown and written for
    a reader: ``Official Review · Reviewer_6GPX``."""
    kind, _, signer = label.partition(" · ")
    return " · ".join(part for part in (kind.replace("_", " "), signer) if part)


class Paper(Struct):
    """A paper stored in the library."""

    id: int
    title: str
    title_derived: bool
    abstract: str
    authors: list[str]
    venue: str | None
    year: int | None
    keywords: list[str]
    url: str | None
    doi: str | None
    citekey: str
    starred: bool
    note: str
    added_at: str
    arxiv_id: str | None = None
    openreview_id: str | None = None
    date: str | None = None
    withdrawn: bool = False
    tldr: str | None = None
    primary_area: str | None = None
    kind: str | None = None
    tags: list[str] = field(default_factory=list)
    highlights: list[Highlight] = field(default_factory=list)
    #: Triage: shown in the detail or reading view at least once; marked read with ``r``.
    seen: bool = False
    read: bool = False
    #: The bibliographic record beyond the columns above (see :mod:`reader.record`).
    csl: dict[str, Any] = field(default_factory=dict)
    #: Source fields the record does not model, verbatim, by source format.
    extra: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: Other citation keys the paper answers to (those of source entries merged into it).
    aliases: list[str] = field(default_factory=list)
    #: The conference's decision, as one of :data:`reader.signals.DECISIONS` (``pending``
    #: for a submission under review); None when no source said.
    decision: str | None = None

    @property
    def venue_year(self) -> str:
        """Venue and year as shown in lists, e.g. ``ICLR · 2026``."""
        parts = [p for p in (self.venue, str(self.year) if self.year else None) if p]
        return " · ".join(parts)


class PaperRow(Struct, frozen=True):
    """The few columns the paper list needs to draw one line."""

    id: int
    title: str
    title_derived: bool
    venue: str | None
    year: int | None
    starred: bool
    has_note: bool
    tags: tuple[str, ...] = ()
    seen: bool = False
    read: bool = False
    #: The mean of its official reviews' ratings, and its decision (one of
    #: ``reader.signals.DECISIONS``), when the library holds conference signals for it.
    rating: float | None = None
    decision: str | None = None


class IndexState(StrEnum):
    """How the search index stands against the database (equal to its name as a string,
    ``"ok"`` and so on, as it is written in logs and tests)."""

    #: Up to date with the database.
    OK = "ok"
    #: Behind the database: catching up indexes what changed.
    STALE = "stale"
    #: Absent, unreadable, of another version, or built from another copy of the
    #: database: it is built from scratch.
    MISSING = "missing"
    #: Another process is building it from scratch and will bring it up to date.
    BUILDING = "building"


class IndexProgress(Struct, frozen=True):
    """How far an index build under way has got: ``indexed`` of ``total`` papers are
    searchable."""

    indexed: int
    total: int
