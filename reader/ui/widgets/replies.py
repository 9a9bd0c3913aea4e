"""The replies of a paper in the reading view: each review with its scores and sections
(summary, strengths, weaknesses, questions …), the meta-review and decision, and the
discussion threaded under the reply it answers.

A reply is one :class:`ReplyBox` (a Static, so the mouse can select its text). It is
mounted with its heading alone; its body, Markdown and LaTeX rendered as abstracts are, is
made off the UI thread (:func:`reply_body` is pure) and put in when ready, so a paper
with many long reviews opens as fast as one without. A section longer than
:data:`SECTION_LIMIT` is cut, and says how to see it whole.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence

from rich.style import Style
from rich.text import Text
from textual.widgets import Static

from reader.library import Posting, shown_reply
from reader.signals import SECTION_LIMIT, Reply, shown_sections
from reader.text.sanitize import visible
from reader.ui.signals import number
from reader.ui.text import abstract_text

#: The deepest a thread is indented; deeper replies line up with it.
MAX_DEPTH = 4

StyleOf = Callable[[str], Style]


def kind_label(reply: Reply) -> str:
    """``Official Review``, ``Meta Review``, ``Official Comment``: the kind in words."""
    return visible(reply.kind.replace("_", " "))


def _date(millis: int | None) -> str:
    if millis is None:
        return ""
    try:
        return dt.datetime.fromtimestamp(millis / 1000, dt.UTC).strftime("%Y-%m-%d")
    except (OverflowError, OSError, ValueError):
        return ""


def reply_heading(posting: Posting, style: StyleOf) -> Text:
    """The first lines of a reply: kind, signer and date; its title (a comment's); its
    scores (``rating 4 → 6 · confidence 5 · soundness 3 …``)."""
    reply = posting.reply
    out = Text()
    out.append(kind_label(reply), style("paper-view--reply-kind"))
    who = [visible(reply.signer)] if reply.signer else []
    written = _date(reply.cdate)
    if written:
        who.append(written)
    if reply.mdate and reply.cdate and _date(reply.mdate) != written:
        who.append(f"edited {_date(reply.mdate)}")
    if who:
        out.append(" · " + " · ".join(who), style("paper-view--reply-meta"))
    title = reply.content.get("title")
    if isinstance(title, str) and title.strip():
        out.append("\n")
        out.append(visible(" ".join(title.split()))[:300], Style(bold=True))
    scores = _scores(posting, style)
    if scores:
        out.append("\n")
        out.append_text(scores)
    return out


def _scores(posting: Posting, style: StyleOf) -> Text:
    """The reply's scores on a line: the rating first (with its history when it changed,
    and its words), the others as given."""
    reply = posting.reply
    rating = reply.rating
    score_style = style("paper-view--score")
    parts: list[Text] = []
    if rating is not None:
        part = Text(f"{rating.name} ", style("paper-view--reply-meta"))
        if posting.rating_changed:
            part.append(" → ".join("–" if v is None else number(v) for v in posting.ratings),
                        score_style)
        else:
            part.append(number(rating.value) if rating.value is not None
                        else visible(rating.raw)[:40], score_style)
        label = visible(rating.label)[:80] if rating.value is not None else ""
        if label:
            part.append(f" ({label})", style("paper-view--reply-meta"))
        parts.append(part)
    for name, score in reply.scores.items():
        if rating is not None and name == rating.name:
            continue
        part = Text(f"{visible(name).replace('_', ' ')} ", style("paper-view--reply-meta"))
        part.append(number(score.value) if score.value is not None
                    else visible(score.raw)[:40], score_style)
        parts.append(part)
    return Text(" · ").join(parts)


def sections(reply: Reply) -> list[tuple[str, str]]:
    """The reply's text sections worth reading, as ``(heading, text)``."""
    return shown_sections(reply)


def reply_body(
    reply: Reply,
    terms: frozenset[str],
    style: StyleOf,
    passages: Sequence[tuple[int, int]] = (),
    selection: tuple[int, int] | None = None,
) -> tuple[Text, bool]:
    """The sections of a reply rendered as abstracts are (LaTeX as Unicode, emphasis as
    style, the query's words marked, control characters made visible), and whether one of
    them was cut at :data:`SECTION_LIMIT`. ``passages`` (highlighted) and ``selection`` are
    offsets into the reply as shown (:func:`reader.library.shown_reply`), whose text this
    is, but for the line that says where a section was cut. Pure: it runs in a worker
    thread."""
    out = Text()
    cut = False
    highlight = style("paper-view--highlight")
    heading = style("paper-view--section")
    shown = shown_reply(reply)
    for n, ((name, text), (start, end)) in enumerate(
        zip(sections(reply), shown.bodies, strict=True)
    ):
        if n:
            out.append("\n\n")
        out.append(visible(name), heading)
        out.append("\n")
        mine = _within(passages, start, end)
        chosen = _within([selection], start, end) if selection is not None else []
        out.append_text(abstract_text(
            text[:SECTION_LIMIT], terms, highlight, mine, style("paper-view--passage"),
            chosen[0] if chosen else None, style("paper-view--selection"),
        ))
        if len(text) > SECTION_LIMIT:
            cut = True
            out.append(
                f"\n… cut here: {len(text) - SECTION_LIMIT:,} more characters "
                "(z shows the whole reply)", style("paper-view--reply-meta"),
            )
    return out, cut


def _within(spans: Sequence[tuple[int, int]], start: int, end: int) -> list[tuple[int, int]]:
    """The parts of ``spans`` inside ``start``–``end``, counted from ``start``."""
    return [(max(a, start) - start, min(b, end) - start) for a, b in spans
            if a < end and start < b]


def whole_text(reply: Reply) -> str:
    """Every section of a reply, whole and unrendered, for the screen that shows it all."""
    return "\n\n".join(f"{name}\n{text}" for name, text in sections(reply))


class ReplyBox(Static):
    """One reply: its heading at once, its body when rendered."""

    def __init__(self, posting: Posting, heading: Text) -> None:
        depth = min(posting.depth, MAX_DEPTH)
        classes = "reply" + (" -review" if posting.reply.is_review else "")
        classes += f" -depth-{depth}" if depth else ""
        super().__init__(heading, markup=False, classes=classes)
        self.posting = posting
        self.heading = heading
        #: Whether the body is in, and whether a section of it was cut.
        self.rendered = False
        self.cut = False
        #: The body shown (its passages and selection among its spans), once rendered.
        self.body = Text()

    def put_body(self, body: Text, cut: bool) -> None:
        """Show the rendered body under the heading."""
        self.rendered = True
        self.cut = cut
        self.body = body
        if body:
            self.update(Text.assemble(self.heading, "\n\n", body))
