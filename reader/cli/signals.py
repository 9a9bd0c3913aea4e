"""Commands on conference signals: ``reader reviews REF`` prints a paper's replies
(reviews, meta-reviews, decisions, the discussion threaded under what it answers), or
with ``--json`` each reply's id, kind, what it answers, rating, scores and text fields;
``reader highlights REF`` the passages highlighted in its abstract and its replies."""

from __future__ import annotations

import json
import textwrap
from typing import Any

import click

from reader.cli.base import (
    cli,
    handles_errors,
    library_option,
    one_paper,
    open_library,
    paper_line,
    resolve_one,
)
from reader.models import Highlight, label_words
from reader.signals import Reply, Signals, decision_label, one_decimal
from reader.text.render import to_plain
from reader.text.sanitize import visible

# Indentation of each level of a thread, and of a reply's text under its heading.
_STEP = "    "


def reply_json(reply: Reply, history: tuple[float | None, ...] = ()) -> dict[str, Any]:
    """A reply as an object of ``reader reviews --json``; ``rating_history`` the ratings it
    was given in the versions the library saw, in order (``[6, 4]``; its one rating when
    it never changed)."""
    rating = reply.rating
    confidence = reply.confidence
    return {
        "id": reply.id,
        "kind": reply.kind,
        "replyto": reply.replyto,
        "forum": reply.forum,
        "signer": reply.signer,
        "cdate": reply.cdate,
        "mdate": reply.mdate,
        "rating": rating.value if rating is not None else None,
        "rating_history": list(history) if history else (
            [rating.value] if rating is not None and rating.value is not None else []),
        "confidence": confidence.value if confidence is not None else None,
        "decision": reply.decision,
        "scores": {name: score.as_json() for name, score in reply.scores.items()},
        "texts": dict(reply.texts),
    }


def _number(value: float) -> str:
    return str(int(value)) if value == int(value) else f"{value:g}"


def signals_line(signals: Signals) -> str:
    """``ratings 4 6 6 4 · mean 5.0 ± 1.2 · decision oral (Accept (Oral)) · 4 reviews``."""
    parts = []
    if signals.ratings:
        parts.append("ratings " + " ".join(_number(r) for r in signals.ratings))
    if signals.rating_mean is not None:
        spread = f" ± {one_decimal(signals.rating_std)}" if signals.rating_std else ""
        parts.append(f"mean {one_decimal(signals.rating_mean)}{spread}")
    if signals.decision:
        parts.append(f"decision {decision_label(signals.decision, signals.decision_raw)}")
    if signals.reviews is not None and signals.comments is not None:  # as the pane says
        parts.append(f"{signals.reviews} review{'s' if signals.reviews != 1 else ''}")
    if signals.comments:
        parts.append(f"{signals.comments} comment{'s' if signals.comments != 1 else ''}")
    return visible(" · ".join(parts))


def _rating_was(history: tuple[float | None, ...]) -> str:
    """`` (was 6)`` after a rating that changed (``(was 6, 5)`` after two changes)."""
    before = ["none" if r is None else _number(r) for r in history[:-1]]
    return f" (was {', '.join(before)})" if before else ""


def _heading(reply: Reply, history: tuple[float | None, ...] = ()) -> str:
    """A reply's first line: kind, id, who wrote it, its scores (a changed rating with
    what it was)."""
    by = f" by {reply.signer}" if reply.signer else ""
    scores = [f"{name} {_number(s.value) if s.value is not None else s.raw}"
              + (_rating_was(history) if name == "rating" else "")
              for name, s in reply.scores.items()]
    decision = reply.decision
    if decision:
        scores.insert(0, f"decision {decision}")
    tail = " · " + " · ".join(scores) if scores else ""
    return visible(f"{reply.kind} {reply.id}{by}{tail}")


def _lines(reply: Reply, depth: int, history: tuple[float | None, ...] = ()) -> list[str]:
    """A reply as lines of text, indented to its depth in the thread."""
    indent = _STEP * depth
    lines = [indent + ("└ " if depth else "") + _heading(reply, history)]
    for name, text in reply.texts:
        if name == "decision" and text == reply.decision:
            continue  # in the heading already
        lines.append(f"{indent}{_STEP}{visible(name)}:")
        for paragraph in visible(text).strip().splitlines():
            # Its TeX and Markdown as the window draws them ("s₁", not "$s_1$"), and lines
            # broken between words, not inside "MM-SDP".
            wrapped = textwrap.wrap(to_plain(paragraph), 88, replace_whitespace=False,
                                    break_on_hyphens=False) or [""]
            lines += [f"{indent}{_STEP * 2}{line}" for line in wrapped]
    return lines


def threaded(replies: list[Reply]) -> list[tuple[Reply, int]]:
    """The replies in reading order, each with its depth: those answering the paper (or
    what is not among them) first, oldest first, each followed by what answers it."""
    ids = {r.id for r in replies}
    answers: dict[str, list[Reply]] = {}
    roots: list[Reply] = []
    for reply in replies:
        if reply.replyto and reply.replyto in ids and reply.replyto != reply.id:
            answers.setdefault(reply.replyto, []).append(reply)
        else:
            roots.append(reply)
    ordered: list[tuple[Reply, int]] = []
    seen: set[str] = set()

    def walk(reply: Reply, depth: int) -> None:
        if reply.id in seen:
            return  # a cycle of replyto: each reply once
        seen.add(reply.id)
        ordered.append((reply, depth))
        for child in answers.get(reply.id, []):
            walk(child, depth + 1)

    for root in roots:
        walk(root, 0)
    for reply in replies:  # left over only in a cycle
        walk(reply, 0)
    return ordered


@cli.command()
@library_option
@one_paper
@click.option("--json", "as_json", is_flag=True, help="Print a JSON array of the replies.")
@click.pass_context
@handles_errors
def reviews(ctx: click.Context, ref: tuple[str, ...], as_json: bool) -> None:
    """Print the replies of the paper named by id, citation key, OpenReview id, arXiv id,
    DOI or query: reviews with their scores, meta-reviews, decisions, and the discussion
    under what it answers."""
    library = open_library(ctx)
    paper = resolve_one(library, " ".join(ref))
    replies = library.replies(paper.id)
    changes = library.conference.rating_changes(paper.id)
    if as_json:
        rows = [reply_json(r, changes.get(r.id, ())) for r in replies]
        click.echo(json.dumps(rows, indent=2, ensure_ascii=False))
        return
    click.echo(paper_line(paper).strip())
    signals = library.signals([paper.id]).get(paper.id)
    if signals is not None:
        click.echo(signals_line(signals))
    if not replies:
        click.echo("No replies stored for this paper.", err=True)
        return
    for reply, depth in threaded(replies):
        click.echo("")
        click.echo("\n".join(_lines(reply, depth, changes.get(reply.id, ()))))


@cli.command()
@library_option
@one_paper
@click.option("--json", "as_json", is_flag=True, help="Print a JSON array of the highlights.")
@click.pass_context
@handles_errors
def highlights(ctx: click.Context, ref: tuple[str, ...], as_json: bool) -> None:
    """Print the highlighted passages of the paper named by id, citation key, OpenReview
    id, arXiv id, DOI or query, with their notes: those of the abstract, then those of its
    reviews and other replies, each saying which reply it is in and whether an edit of
    the text moved the passage or took it out."""
    library = open_library(ctx)
    paper = resolve_one(library, " ".join(ref))
    rows = [highlight_json(h) for h in paper.highlights]
    if as_json:
        click.echo(json.dumps(rows, indent=2, ensure_ascii=False))
        return
    click.echo(paper_line(paper).strip())
    if not rows:
        click.echo("No highlights on this paper.", err=True)
        return
    for row in rows:
        where = "abstract" if row["reply_id"] is None else _reply_words(row)
        status = "" if row["status"] == "in place" else f" ({row['status']})"
        click.echo("")
        click.echo(f"#{row['id']} in the {visible(where)}{status}:")
        click.echo(textwrap.indent(textwrap.fill(visible(row["quote"]), 86), _STEP))
        if row["note"].strip():
            click.echo(textwrap.indent(textwrap.fill("note: " + visible(row["note"]), 86),
                                       _STEP))


def _reply_words(row: dict[str, Any]) -> str:
    """``Official Review · Reviewer_6GPX (eIvfGTSO8v)``: the reply a highlight is in."""
    words = label_words(row["reply"] or "")
    return f"{words} ({row['reply_id']})" if words else f"reply {row['reply_id']}"


def highlight_json(h: Highlight) -> dict[str, Any]:
    """A highlight as an object of ``reader highlights --json``: ``reply_id`` and ``reply``
    (its kind and signer) are null for a passage of the abstract; ``status`` is "in place",
    "moved" (the reply was edited and the passage found elsewhere in it) or "gone" (no
    longer in the text; kept)."""
    status = "gone" if h.orphaned else "moved" if h.moved else "in place"
    return {
        "id": h.id,
        "reply_id": h.reply_id,
        "reply": (h.reply_label or None) if h.reply_id is not None else None,
        "start": h.start,
        "end": h.end,
        "quote": h.quote,
        "note": h.note,
        "status": status,
    }
