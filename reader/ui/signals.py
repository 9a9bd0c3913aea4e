"""Conference signals as the reader shows them: a paper's ratings with their confidences,
its decision, its replies counted, the ratings that changed, where it stands in the view;
and the block-character pictures (a histogram of the view's ratings) drawn from them.

Everything here is Rich text built from plain strings and numbers; what comes from a file
(a decision's words, a reviewer's name) is made visible before it is shown.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Sequence

from msgspec import Struct
from rich.style import Style
from rich.text import Text

from reader.errors import ReaderError
from reader.library import Library, ViewSignals
from reader.models import Paper
from reader.signals import RatingScale, Signals, decision_label, one_decimal
from reader.text.sanitize import visible

#: The eight heights of a block-character bar, lowest first.
BLOCKS = "▁▂▃▄▅▆▇█"
#: How a label is padded in the detail pane's signals block.
LABEL_WIDTH = 11


def number(value: float) -> str:
    """``6`` for 6.0, ``5.5`` for 5.5, ``5.33`` cut to one decimal."""
    if value == int(value) and abs(value) < 1e15:
        return str(int(value))
    return one_decimal(value)


def scale_text(scale: RatingScale | None) -> str:
    """``0–10``: a rating scale as the pane and the overview name it."""
    if scale is None:
        return "no known scale"
    return f"{number(scale.low)}–{number(scale.high)}"


class PaperSignals(Struct, frozen=True):
    """What the detail pane shows of a paper's signals: the signals, the ratings that
    changed (who gave them, and the ratings in turn), and the view it stands in."""

    signals: Signals
    changes: tuple[tuple[str, tuple[float | None, ...]], ...] = ()
    view: ViewSignals | None = None


class SignalsLookup:
    """Reads a paper's signals for the detail pane, and what the view adds up to, once per
    view (the view's ids are a new list whenever the view changes)."""

    def __init__(
        self,
        library: Library,
        view_ids: Callable[[], Sequence[int]],
        failed: Callable[[ReaderError], None],
        first_ids: Sequence[int] | None = None,
        first_view: ViewSignals | None = None,
    ) -> None:
        """``failed`` is told what kept signals from being read (a damaged page: the pane
        then shows none, and the window goes on). ``first_view``: what the papers
        ``first_ids`` add up to, read by the caller before the window opened (on another
        thread while the interface was imported: at 20,000 papers the read is 60 ms the
        first frame would otherwise wait for)."""
        self._library = library
        self._view_ids = view_ids
        self._failed = failed
        self._view: tuple[int, int, ViewSignals] | None = None
        self._known = None if first_ids is None or first_view is None else (first_ids, first_view)

    def view(self) -> ViewSignals:
        """What the view shown adds up to (read again only when the view changed)."""
        ids = self._view_ids()
        key = (id(ids), len(ids))
        if self._view is None or self._view[:2] != key:
            known = self._known_for(ids)
            view = known if known is not None else self._library.conference.view_signals(
                ids, venues=False  # the pane names no venue
            )
            self._view = (*key, view)
        return self._view[2]

    def _known_for(self, ids: Sequence[int]) -> ViewSignals | None:
        """What the caller read, if ``ids`` are the papers it read it for (the first view,
        in its own order); for the first paper shown only, as a later one may follow a
        change of the signals."""
        known, self._known = self._known, None
        if known is None or len(known[0]) != len(ids) or set(known[0]) != set(ids):
            return None
        return known[1]

    def __call__(self, paper: Paper) -> PaperSignals | None:
        """The signals of ``paper`` as the pane shows them, or None when it has none."""
        try:
            return self._read(paper)
        except ReaderError as exc:
            self._failed(exc)
            return None
        finally:
            self._known = None

    def _read(self, paper: Paper) -> PaperSignals | None:
        signals = self._library.signals([paper.id]).get(paper.id)
        if signals is None or signals.is_empty:
            return None
        changes: tuple[tuple[str, tuple[float | None, ...]], ...] = ()
        if signals.reviews:
            changed = self._library.conference.rating_changes(paper.id)
            if changed:
                signers = {r.id: r.signer for r in self._library.replies(paper.id)}
                changes = tuple((signers.get(note, note), ratings)
                                for note, ratings in changed.items())
        view = self.view() if signals.rating_mean is not None else None
        return PaperSignals(signals, changes, view)


def _label(name: str, style: Style) -> Text:
    return Text(name.ljust(LABEL_WIDTH), style)


def decision_text(signals: Signals) -> str:
    """``oral (Accept (Oral))``: the decision, and the source's words when they say more."""
    return visible(decision_label(signals.decision, signals.decision_raw))


def signals_block(shown: PaperSignals, label: Style, muted: Style, mark: Style) -> Text:
    """The detail pane's lines of a paper's signals::

        Ratings    4  6  6  4  · mean 5.0 ± 1.2 of 0–10
        Confidence 5  4  4  5  · mean 4.5
        Decision   pending (ICLR 2026 Conference Submission)
        Replies    4 reviews · 1 comment
        Changed    Reviewer_6GPX 4 → 6
        Standing   62nd percentile of 312 rated in view  ▁▂▃▅▇█▆▃▁
    """
    signals = shown.signals
    lines: list[Text] = []
    ratings = [number(v) for v in signals.ratings]
    confidences = [number(v) for v in signals.confidences]
    if len(confidences) != len(ratings):
        confidences_beside = False
    else:
        confidences_beside = bool(confidences)
    width = max((len(cell) for cell in ratings + confidences), default=1)
    if signals.rating_mean is not None or ratings:
        line = _label("Ratings", label)
        if ratings:
            line.append(" ".join(cell.rjust(width) for cell in ratings))
            line.append(" · ", muted)
        if signals.rating_mean is not None:
            line.append(f"mean {one_decimal(signals.rating_mean)}")
            if signals.rating_std is not None and signals.rating_count > 1:
                line.append(f" ± {one_decimal(signals.rating_std)}")
            if not ratings and signals.rating_count:
                # "of 3" beside a mean read as a scale out of 3.
                line.append(f" ({_count(signals.rating_count, 'rating')})", muted)
        if signals.scale is not None:
            line.append(f"  of {scale_text(signals.scale)}", muted)
        lines.append(line)
    if confidences_beside or signals.confidence_mean is not None:
        line = _label("Confidence", label)
        if confidences_beside:
            line.append(" ".join(cell.rjust(width) for cell in confidences))
            line.append(" · ", muted)
        if signals.confidence_mean is not None:
            line.append(f"mean {one_decimal(signals.confidence_mean)}")
        lines.append(line)
    decision = decision_text(signals)
    if decision:
        lines.append(_label("Decision", label).append(decision))
    counts = []
    # A list's count of ratings is no reply the library holds ("3 reviews" where none can be
    # read): the replies are counted only when a source gave them (comments counted too).
    if signals.reviews is not None and signals.comments is not None:
        counts.append(_count(signals.reviews, "review"))
    if signals.comments is not None:
        counts.append(_count(signals.comments, "comment"))
    if counts:
        lines.append(_label("Replies", label).append(" · ".join(counts)))
    for n, (signer, history) in enumerate(shown.changes):
        line = _label("Changed" if n == 0 else "", label)
        line.append(visible(signer) + " ", muted)
        line.append(" → ".join("–" if v is None else number(v) for v in history))
        lines.append(line)
    view = shown.view
    # Where it stands among the papers rated on its own scale: a mean on another is no
    # measure of it.
    group = view.group(signals.scale) if view is not None else None
    if view is not None and group is not None and signals.rating_mean is not None and (
        group.rated > 1
    ):
        line = _label("Standing", label)
        percentile = round(group.standing(signals.rating_mean))
        among = f"{group.rated:,} rated"
        if len(view.groups) > 1:
            among += f" on {scale_text(group.scale)}"
        line.append(f"{_ordinal(percentile)} percentile of {among} in view  ")
        line.append_text(
            histogram_line(group.means, group.scale, signals.rating_mean, muted, mark)
        )
        lines.append(line)
    return Text("\n").join(lines)


def _count(n: int, noun: str) -> str:
    return f"{n:,} {noun}" if n == 1 else f"{n:,} {noun}s"


def _ordinal(n: int) -> str:
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def bins_for(values: Sequence[float], scale: RatingScale | None) -> tuple[float, float, int]:
    """The range and number of bins of a histogram of ``values``: the scale's, a bin per
    whole point (ten for a 1–10 scale), else the values' own range."""
    if scale is not None and scale.high > scale.low:
        low, high = scale.low, scale.high
    elif values:
        low, high = min(values), max(values)
    else:
        low, high = 0.0, 1.0
    if high <= low:
        high = low + 1
    count = int(round(high - low))
    if count < 4 or count > 20:
        count = 10
    return low, high, count


def histogram(values: Sequence[float], low: float, high: float, bins: int) -> list[int]:
    """How many of ``values``, in ascending order (as a group's means are kept), fall in
    each of ``bins`` equal bins from ``low`` to ``high`` (the last bin holds ``high``;
    values outside go to the nearest end)."""
    span = high - low

    def bin_of(value: float) -> int:
        index = int((value - low) / span * bins) if span > 0 else 0
        return max(0, min(bins - 1, index))

    # Where each bin starts, found by bisection: a value's bin never falls as the value
    # grows. Counted one by one, a view's 20,000 means took 8 ms for every paper shown.
    starts = [bisect.bisect_left(values, n, key=bin_of) for n in range(bins)]
    return [end - start for start, end in zip(starts, [*starts[1:], len(values)], strict=True)]


def bar(count: int, most: int) -> str:
    """The block character for ``count`` out of ``most``: a space for none, else at least
    the lowest block, so a bin with one paper still shows."""
    if count <= 0 or most <= 0:
        return " "
    return BLOCKS[max(0, min(len(BLOCKS) - 1, round(count / most * len(BLOCKS)) - 1))]


def histogram_line(
    values: Sequence[float],
    scale: RatingScale | None,
    marked: float | None,
    style: Style,
    mark_style: Style,
) -> Text:
    """One line of block characters, a bin per cell, the bin of ``marked`` in
    ``mark_style``: a picture of where a paper stands among the view's."""
    low, high, bins = bins_for(values, scale)
    counts = histogram(values, low, high, bins)
    most = max(counts, default=0)
    out = Text()
    where = histogram([marked], low, high, bins).index(1) if marked is not None else -1
    for n, count in enumerate(counts):
        out.append(bar(count, most), mark_style if n == where else style)
    return out


#: A horizontal bar's partial cell, by eighths (none, then one eighth to seven).
_EIGHTHS = " ▏▎▍▌▋▊▉"


def horizontal_bar(count: int, most: int, width: int) -> str:
    """A bar ``width`` cells long for ``most``, to the eighth of a cell; at least a sliver
    for a count that is not zero."""
    if count <= 0 or most <= 0 or width <= 0:
        return ""
    eighths = max(1, round(count / most * width * 8))
    return "█" * (eighths // 8) + (_EIGHTHS[eighths % 8] if eighths % 8 else "")


def column_chart(counts: Sequence[int], height: int, column: int, style: Style) -> Text:
    """Counts drawn as columns ``height`` lines tall, ``column`` cells wide each (with a
    cell between), tops to the eighth of a line; an empty bin stays empty, any other shows
    at least the lowest block."""
    most = max(counts, default=0)
    if most <= 0:
        return Text()
    # Eighths of a line each column reaches.
    levels = [0 if c <= 0 else max(1, round(c / most * height * 8)) for c in counts]
    lines = []
    for row in range(height, 0, -1):
        cells = []
        for level in levels:
            filled = level - (row - 1) * 8
            cell = "█" if filled >= 8 else (BLOCKS[filled - 1] if filled > 0 else " ")
            cells.append(cell * column)
        lines.append(" ".join(cells).rstrip())
    return Text("\n".join(lines), style)
