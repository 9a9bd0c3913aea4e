"""The status line under the list and the reading view, and the library's counts it shows,
kept current in memory.

It reads no other collaborator's state: what it shows of theirs is told to it as it
changes (the search shown by ``Searching``, the sort order by ``Views``, the basket by
``Citations``), and it asks the papers seen (``SeenPapers``) by a method."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from textual.widgets import Static

from reader.errors import ReaderError
from reader.library import RELEVANCE
from reader.ui.commands import SORT_LABELS
from reader.ui.screens import reading_screen

if TYPE_CHECKING:
    from reader.library import Change, SearchOutcome
    from reader.ui.app import ReaderApp


class StatusLine:
    """The status line under the list and the reading view: the place in the view, what
    the view found, the library's counts (kept current in memory between writes, so that
    moving the cursor never counts the whole library) and a note of work under way."""

    def __init__(self, app: ReaderApp, counts: Mapping[str, int] | None = None) -> None:
        self._app = app
        #: Library counts (papers, seen, read, starred, with notes).
        self.counts: dict[str, int] = dict(counts) if counts is not None else {}
        #: Papers seen among those shown in the current view.
        self._view_seen = 0
        #: The library generation the counts were read at (None: not known).
        self._read_at: int | None = None
        #: Whether a read or write met a damaged database (said from then on).
        self.damaged = False
        #: What the view's search said (a notice, a "did you mean"), and work under way.
        self._notice = ""
        self._note = ""
        #: All but the place in the view, kept ready: the place changes on every key.
        self._body = ""
        #: What the other collaborators tell it: the outcome of the search shown (None:
        #: the whole library), the order the view is sorted in, the papers marked.
        self._outcome: SearchOutcome | None = None
        self._order = RELEVANCE
        self._marked = 0

    def note(self, note: str) -> None:
        """Say how work under way is going ("" when it is over)."""
        self._note = note
        self.update()

    def recount(self) -> None:
        """Count the library again (after a write or an import)."""
        app = self._app
        # One read: the counts with the generation they were read at (see adjust).
        try:
            state = app.library.queries.state(app.seen.shown_since(0))
        except ReaderError as exc:  # a damaged page: said, and the counts stay as they were
            app.damaged(exc)
            return
        counts = dict(state.counts)
        # Papers shown but not yet written down as seen still count as seen; asked of the
        # database, as a paper marked read or seen by another window is stored as seen.
        counts["seen"] += state.unstored
        self.counts = counts
        self._read_at = state.generation

    def adjust(self, change: Change) -> bool:
        """Move the counts as a write of this window says it moved them, instead of counting
        the library again; False when it does not say (then :meth:`recount`). Counts read
        since the write (by the watch on commits, or a recount for another write) hold it
        already, and are left as they are."""
        if change.counts is None or not self.counts or change.generation is None:
            return False  # (none read yet: the first count reads them all)
        if self._read_at is not None and self._read_at >= change.generation:
            return True
        for name, by in change.counts.items():
            self.counts[name] = self.counts.get(name, 0) + by
        return True

    def counted(self, counts: dict[str, int], generation: int | None = None) -> bool:
        """Take the library's counts as read (at ``generation``); whether they moved."""
        moved = counts != self.counts
        self.counts = counts
        self._read_at = generation
        return moved

    def saw_one(self) -> None:
        """A paper of the view was seen for the first time."""
        self.counts["seen"] = self.counts.get("seen", 0) + 1
        self._view_seen += 1

    def count_if_unknown(self) -> None:
        """Count the library unless its counts are known (given by the window's caller)."""
        if not self.counts:
            self.recount()

    def viewing(self, seen: int) -> None:
        """The view shown now has ``seen`` papers seen."""
        self._view_seen = seen

    def viewing_all(self) -> None:
        """The view shown now is the whole library: its papers seen are the library's."""
        self._view_seen = self.counts.get("seen", 0)

    def searched(self, outcome: SearchOutcome | None) -> None:
        """The view shows ``outcome`` from now on (None: the whole library): said with
        the next update, once the list shows it."""
        self._outcome = outcome

    def sorted_by(self, order: str) -> None:
        """The view is sorted by ``order`` from now on: said with its results, which follow."""
        self._order = order

    def marked(self, count: int) -> None:
        """``count`` papers are in the basket now: say so."""
        self._marked = count
        self.update()

    def say_damaged(self) -> None:
        """Say, first on the line and for the rest of the session, that the database is
        damaged: reviews or counts missing from then on are missing for that reason."""
        self.damaged = True
        self.update()

    def update(self, notice: str | None = None) -> None:
        """Say again what the view holds (with ``notice``, what its search said, when
        given) and the library's counts."""
        app = self._app
        if notice is not None:
            self._notice = notice
        counts = self.counts
        library = (
            f"{counts.get('seen', 0):,} / {counts.get('papers', 0):,} seen · "
            f"{counts.get('starred', 0):,} starred · {counts.get('read', 0):,} read · "
            f"{counts.get('with_notes', 0):,} with notes"
        )
        short = f"{counts.get('seen', 0):,} / {counts.get('papers', 0):,} seen"
        total = len(app.paper_list.ids)
        room = app.size.width - 2 - (len(f"{total:,} / {total:,}  ·  ") if total else 0)
        parts = ["DATABASE DAMAGED: quit and run reader doctor"] if self.damaged else []
        if self._marked:
            parts.append(f"{self._marked:,} marked (y copies them, V clears)")
        shown = len(app.paper_list.ids)
        outcome = self._outcome
        if outcome is not None:
            like = outcome.like
            if len(like) > 40:
                like = like[:38].rstrip() + "…”"
            label = f"like {like}: " if like else ""
            if outcome.complete:
                found = f"{shown:,} {'match' if shown == 1 else 'matches'}"
                seen = f", {min(self._view_seen, shown):,} seen" if shown else ""
                parts.append(f"{label}{found}{seen}")
            else:
                parts.append(f"{label}{shown:,}+ matches, counting…")
        if self._notice:
            # Beside the view it is about, where a narrow terminal still shows it.
            parts.append(self._notice)
            # The notice needs the room: the library's counts shrink to the seen count, or
            # go while it is shown if even that would cut the line (padding and place too).
            if len("  ·  ".join([*parts, short])) <= room:
                parts.append(short)
        else:
            parts.append(library)
        if self._order != RELEVANCE:
            parts.append(f"sorted by {SORT_LABELS[self._order]}")
        if self._note:
            parts.append(self._note)
            if library in parts and len("  ·  ".join(parts)) > room:
                # The progress needs the room more than the counts: they shrink to the
                # seen count, or go while it is shown.
                at = parts.index(library)
                parts[at] = short
                if len("  ·  ".join(parts)) > room:
                    del parts[at]
        self._body = "  ·  ".join(parts)
        self.show_place()

    def show_place(self) -> None:
        """Show the cursor's place in the view and the status, under the list and under the
        reading view (the place changes on every key: the rest is kept ready)."""
        app = self._app
        papers = app.paper_list
        total = len(papers.ids)
        place = f"{papers.cursor + 1:,} / {total:,}  ·  " if total else ""
        text = place + self._body
        lines = app.query("#status")
        if not lines:
            return  # a report handled as the window closes, its widgets going (in any order)
        # One line high whatever it says (styles/app.tcss): no layout pass on every change.
        lines.first(Static).update(text, layout=False)
        if reading := reading_screen(app.screen):
            reading.show_status(text)
