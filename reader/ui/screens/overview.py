"""The conference overview: what the papers of the current view add up to, drawn rather
than listed: the histogram of their mean ratings, every review's rating, their
decisions. A view holding venues rated on different scales (ICLR 2017 and COLM 1–10, ICLR
2026 0–10) is drawn a scale at a time, each named with the venues it is of."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from reader.library import ScaleGroup, ViewSignals
from reader.signals import DECISIONS
from reader.ui import bindings
from reader.ui.screens import SCREENS_CSS
from reader.ui.signals import (
    bins_for,
    column_chart,
    histogram,
    horizontal_bar,
    number,
    scale_text,
)
from reader.ui.widgets.footer import FittedFooter

#: Reads what the papers of a view add up to (every review's rating too).
ViewReader = Callable[[Sequence[int]], ViewSignals]
#: The histogram's height in lines, and the widest a horizontal bar is drawn.
CHART_HEIGHT = 8
BAR_WIDTH = 40
#: Venues named beside a scale before the rest are counted.
VENUES_NAMED = 4


def _venues(names: Sequence[str]) -> str:
    """``ICLR 2017, COLM 2025``: the venues and years a scale is of, the most rated first."""
    shown = ", ".join(names[:VENUES_NAMED])
    more = len(names) - VENUES_NAMED
    return shown + (f" and {more:,} more" if more > 0 else "")


#: The row of the papers with no decision.
_UNDECIDED = "no decision"


class OverviewScreen(Screen[None]):
    """Ratings and decisions of the view, as pictures (opened with ``R``)."""

    CSS_PATH = SCREENS_CSS
    BINDINGS = bindings.OVERVIEW

    COMPONENT_CLASSES = {
        "overview--bar",
        "overview--axis",
        "overview--accepted",
        "overview--rejected",
    }

    def __init__(self, ids: Sequence[int], read: ViewReader, what: str) -> None:
        super().__init__()
        self._ids = list(ids)
        self._read = read
        self._what = what
        #: What the view adds up to, once read.
        self.view: ViewSignals | None = None

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="overview-body"):
            yield Static(f"Ratings and decisions of {self._what}", id="overview-title",
                         markup=False)
            yield Static("Reading…", id="overview-chart", markup=False)
        yield FittedFooter()

    def on_mount(self) -> None:
        """Read the view's signals in a worker: a view of the whole conference is
        twenty thousand papers with eighty thousand ratings."""
        ids, read = self._ids, self._read

        def work() -> None:
            view = read(ids)
            self.app.call_from_thread(self.show, view)

        self.run_worker(work, thread=True, exclusive=True, exit_on_error=False)

    def show(self, view: ViewSignals) -> None:
        """Draw what the view adds up to."""
        self.view = view
        self.query_one("#overview-chart", Static).update(self.picture(view))

    def picture(self, view: ViewSignals) -> Text:
        """The histogram of mean ratings and the ratings given, one of each per rating
        scale of the view (means on different scales are not pooled), then the
        decisions."""
        axis = self.get_component_rich_style("overview--axis")
        out = Text()
        if not view.rated and not view.decisions:
            out.append("No paper of this view has ratings or a decision: import an OpenReview "
                       "file with its replies, or a list with ratings.", axis)
            return out
        several = len(view.groups) > 1
        if several:
            out.append(f"Ratings on {len(view.groups)} scales, drawn apart: a mean is "
                       "compared only with means on its own scale.", axis)
            out.append("\n\n")
        for group in view.groups:
            if several:
                heading = f"Scale {scale_text(group.scale)}" if group.scale else "Scale unknown"
                out.append(heading, Style(bold=True, underline=True))
                out.append(f"  {_venues(group.venues)}", axis)
                out.append("\n")
            self._means(out, group, view.papers)
            if group.ratings:
                self._given(out, group, several)
        if view.decisions:
            out.append("Decisions", Style(bold=True))
            out.append("\n")
            known = [d for d in DECISIONS if d in view.decisions]
            others = sorted(d for d in view.decisions if d not in DECISIONS)
            # The papers with none too, so that the rows add up to the view.
            counts = {**view.decisions, _UNDECIDED: view.papers - sum(view.decisions.values())}
            rows = known + others + ([_UNDECIDED] if counts[_UNDECIDED] > 0 else [])
            width = max(len(d) for d in rows)
            most = max(counts[d] for d in rows)
            for decision in rows:
                count = counts[decision]
                kind = ("overview--accepted" if decision in ("oral", "spotlight", "poster",
                                                             "accept")
                        else "overview--rejected" if decision in ("reject", "desk-rejected")
                        else "overview--bar")
                out.append(decision.ljust(width) + " ", axis)
                out.append(horizontal_bar(count, most, BAR_WIDTH),
                           self.get_component_rich_style(kind))
                out.append(f" {count:,}\n", axis)
        return out

    def _means(self, out: Text, group: ScaleGroup, papers: int) -> None:
        """The histogram of the group's mean ratings, over its scale."""
        bar = self.get_component_rich_style("overview--bar")
        axis = self.get_component_rich_style("overview--axis")
        mean = sum(group.means) / group.rated
        middle = group.means[group.rated // 2]
        out.append(f"Mean ratings of {group.rated:,} of {papers:,} papers", Style(bold=True))
        out.append(f"   mean {mean:.2f} · median {number(middle)}", axis)
        if group.scale is not None:
            out.append(f" · scale {scale_text(group.scale)}", axis)
        out.append("\n\n")
        low, high, bins = bins_for(group.means, group.scale)
        counts = histogram(group.means, low, high, bins)
        column = 3
        out.append_text(column_chart(counts, CHART_HEIGHT, column, bar))
        out.append("\n")
        step = (high - low) / bins
        labels = " ".join(number(round(low + n * step, 1)).ljust(column)[:column]
                          for n in range(bins))
        out.append(labels + f"  (bins of {number(round(step, 2))})", axis)
        out.append("\n")
        out.append(" ".join(str(c).ljust(column)[:column] for c in counts) + "  papers", axis)
        out.append("\n\n")

    def _given(self, out: Text, group: ScaleGroup, several: bool) -> None:
        """A bar for each rating the group's reviews gave."""
        bar = self.get_component_rich_style("overview--bar")
        axis = self.get_component_rich_style("overview--axis")
        total = sum(group.ratings.values())
        on = f" on {scale_text(group.scale)}" if several else ""
        out.append(f"Every review's rating{on} ({total:,} reviews)", Style(bold=True))
        out.append("\n")
        most = max(group.ratings.values())
        width = max(len(number(value)) for value in group.ratings)
        for value in sorted(group.ratings):
            count = group.ratings[value]
            out.append(number(value).rjust(width) + " ", axis)
            out.append(horizontal_bar(count, most, BAR_WIDTH), bar)
            out.append(f" {count:,}\n", axis)
        out.append("\n")

    def action_close(self) -> None:
        """Back to the list."""
        self.dismiss(None)
