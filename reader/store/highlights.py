"""Passages of an abstract or of a reply (a review, a comment): the text they are measured
against, sentence boundaries for selecting them with the keyboard, and re-anchoring when an
import revises the abstract or edits the reply."""

from __future__ import annotations

import re
import sqlite3

from msgspec import Struct

from reader.signals import SECTION_LIMIT, Reply, shown_sections
from reader.text.pattern import Pattern
from reader.text.render import render
from reader.text.sanitize import visible

# A sentence ends at . ! or ? (maybe closed by a quote or bracket) followed by white space;
# a few abbreviations common in abstracts don't end one.
_SENTENCE_END = Pattern(r"[.!?][\"')\]]*\s+")
_NOT_AN_END = Pattern(
    r"(?:\b(?:e\.g|i\.e|et al|etc|vs|cf|Fig|Eq|Sec|approx|resp|w\.r\.t)\.|\b[A-Z]\.)\s+$"
)


def display_text(abstract: str) -> str:
    """The abstract as the reader shows it (control characters made visible, LaTeX
    rendered): highlight offsets count characters of this text."""
    return render(visible(abstract)).text


def sentences(text: str) -> list[tuple[int, int]]:
    """Character spans of the sentences of ``text``, trailing white space left out."""
    spans: list[tuple[int, int]] = []
    start = 0
    for match in _SENTENCE_END.finditer(text):
        if _NOT_AN_END.search(text, 0, match.end()):
            continue
        end = match.end()
        stripped = text[start:end].rstrip()
        if stripped.strip():
            spans.append((start, start + len(stripped)))
        start = end
    tail = text[start:].rstrip()
    if tail.strip():
        spans.append((start, start + len(tail)))
    return spans


def words(text: str) -> list[tuple[int, int]]:
    """Character spans of the words of ``text`` (for refining a selection a word at a time)."""
    return [(m.start(), m.end()) for m in re.finditer(r"\S+", text)]


def anchor(quote: str, text: str, near: int = 0) -> tuple[int, int] | None:
    """Where ``quote`` occurs in ``text``, the occurrence nearest ``near``; None if nowhere.

    White space may differ (a revised abstract is often re-wrapped), so runs of it match
    any run of white space.
    """
    if not quote.strip():
        return None
    pattern = re.compile(r"\s+".join(re.escape(part) for part in quote.split()))
    found = [(m.start(), m.end()) for m in pattern.finditer(text)]
    if not found:
        return None
    return min(found, key=lambda span: abs(span[0] - near))


def placed(quote: str, start: int, end: int, text: str) -> tuple[int, int] | None:
    """Where a highlight is in ``text`` (the abstract as shown now): at its offsets when its
    quote is there, else where the quote is found nearest them, else None. A newer renderer
    may show the same abstract a little differently from when the passage was chosen."""
    if text[start:end] == quote:
        return start, end
    return anchor(quote, text, start)


def reanchor(conn: sqlite3.Connection, paper_id: int, abstract: str) -> tuple[int, int]:
    """Move a paper's highlights onto its revised abstract (inside the caller's
    transaction). A highlight whose quote is gone is kept and flagged ``orphaned``; one whose
    quote comes back is restored. Returns (moved, orphaned)."""
    moved = orphaned = 0
    rows = conn.execute(
        "SELECT id, start, quote FROM highlights WHERE paper_id = ? AND reply_id IS NULL",
        (paper_id,),
    ).fetchall()
    if not rows:
        return moved, orphaned  # rendering the abstract is most of the cost of an import merge
    text = display_text(abstract)
    for highlight_id, start, quote in rows:
        span = anchor(quote, text, start)
        if span is None:
            conn.execute("UPDATE highlights SET orphaned = 1 WHERE id = ?", (highlight_id,))
            orphaned += 1
        else:
            conn.execute(
                "UPDATE highlights SET start = ?, end = ?, orphaned = 0 WHERE id = ?",
                (span[0], span[1], highlight_id),
            )
            moved += 1
    return moved, orphaned


class ShownReply(Struct, frozen=True):
    """A reply as the reading view shows it, for measuring passages of it: ``text`` is its
    sections, each heading on a line then its text rendered as an abstract is (cut at
    :data:`~reader.signals.SECTION_LIMIT`), a blank line between sections; ``bodies`` are
    the spans of the sections' texts (headings left out), where passages are chosen."""

    text: str
    bodies: tuple[tuple[int, int], ...]

    def sentences(self) -> list[tuple[int, int]]:
        """The sentences of the reply's sections (a sentence never runs across a heading)."""
        return [(start + a, start + b) for start, end in self.bodies
                for a, b in sentences(self.text[start:end])]

    def words(self) -> list[tuple[int, int]]:
        """The words of the reply's sections."""
        return [(start + a, start + b) for start, end in self.bodies
                for a, b in words(self.text[start:end])]


def shown_reply(reply: Reply) -> ShownReply:
    """The text of a reply that highlight offsets count characters of (see ShownReply)."""
    parts: list[str] = []
    bodies: list[tuple[int, int]] = []
    at = 0
    for n, (name, body) in enumerate(shown_sections(reply)):
        head = ("\n\n" if n else "") + visible(name) + "\n"
        shown = display_text(body[:SECTION_LIMIT])
        parts.append(head + shown)
        at += len(head)
        bodies.append((at, at + len(shown)))
        at += len(shown)
    return ShownReply("".join(parts), tuple(bodies))


def reanchor_reply(conn: sqlite3.Connection, note_id: str, reply: Reply) -> tuple[int, int]:
    """Move the highlights on a reply onto its edited text (inside the caller's
    transaction). One found again is kept there, flagged ``moved`` when its place changed;
    one whose quote is gone is kept and flagged ``orphaned``. Returns (moved, orphaned).
    Only rows of the highlights table are touched: no paper's generation moves, so
    neither index does any work for it."""
    rows = conn.execute(
        "SELECT id, start, end, quote FROM highlights WHERE reply_id = ?", (note_id,)
    ).fetchall()
    moved = orphaned = 0
    if not rows:
        return moved, orphaned
    text = shown_reply(reply).text
    for highlight_id, start, end, quote in rows:
        span = anchor(quote, text, start)
        if span is None:
            conn.execute("UPDATE highlights SET orphaned = 1 WHERE id = ?", (highlight_id,))
            orphaned += 1
        elif span != (start, end):
            conn.execute(
                "UPDATE highlights SET start = ?, end = ?, orphaned = 0, moved = 1 WHERE id = ?",
                (span[0], span[1], highlight_id),
            )
            moved += 1
        else:
            conn.execute("UPDATE highlights SET orphaned = 0 WHERE id = ?", (highlight_id,))
    return moved, orphaned
