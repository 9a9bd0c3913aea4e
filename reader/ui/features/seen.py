"""Papers seen: shown to the user, drawn as seen at once, and written down in batches (one
write every half second, not one per key)."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from reader.models import Paper, PaperRow

if TYPE_CHECKING:
    from reader.ui.app import ReaderApp

#: How often papers shown are written down as seen (batched: one write, not one per key).
SEEN_FLUSH_SECONDS = 0.5


class SeenPapers:
    """The papers a window has shown, those not yet stored, and those the library has
    stored as seen (read once, then kept current by this window's writes)."""

    def __init__(self, app: ReaderApp) -> None:
        self._app = app
        #: Papers shown this session (drawn as seen at once) and those not yet stored.
        self.now: set[int] = set()
        self._pending: set[int] = set()
        #: The papers of ``now`` in the order they were shown: it only grows, so a worker
        #: counting a prefix of it knows which papers were shown after it looked.
        self.log: list[int] = []
        #: The papers stored as seen, read once (by the first search that counts them) and
        #: kept current by this window's writes; None until read, or when another writer
        #: changed them (see others_stored).
        self._stored: set[int] | None = None
        self._warned = False

    def shown_since(self, logged: int) -> list[int]:
        """The papers shown after the first ``logged`` of the log (0: all of them), in the
        order shown: what a count read when the log was that long has not counted."""
        return self.log[logged:]

    def was_shown(self, paper_id: int) -> bool:
        """Whether this window has shown the paper (it is drawn as seen)."""
        return paper_id in self.now

    @property
    def pending(self) -> frozenset[int]:
        """Papers seen and not yet written down."""
        return frozenset(self._pending)

    def saw(self, paper: Paper | PaperRow) -> None:
        """A paper was shown: it is seen from now on (stored with the next batch)."""
        if paper.seen or paper.id in self.now:
            return
        self.now.add(paper.id)
        self.log.append(paper.id)
        self._pending.add(paper.id)
        app = self._app
        app.status.saw_one()
        # Just the row whose mark changed: redrawing the whole list on every key is most of
        # what a cursor step costs.
        app.paper_list.refresh_line(app.paper_list.cursor)
        app.status.update()

    def flush(self) -> None:
        """Store the papers seen since the last flush, in one write."""
        if not self._pending:
            return
        ids = sorted(self._pending)
        self._pending.clear()
        self._app.writes.run(partial(self._app.library.marks.mark_seen, ids),
                             partial(self._seen_stored, ids), self._seen_failed)

    def _seen_stored(self, ids: list[int]) -> None:
        if self._stored is not None:
            self._stored.update(ids)

    def _seen_failed(self, exc: Exception) -> None:
        # Said once: a library that refuses writes would otherwise say it on every key.
        # The papers stay seen in this session either way.
        if not self._warned:
            self._warned = True
            self._app.notify(
                f"Could not record papers as seen ({exc}); they count as seen until you quit",
                severity="warning", timeout=10,
            )

    def stored_read(self, paper_id: int) -> None:
        """A paper was stored as read, which stores it as seen."""
        if self._stored is not None:
            self._stored.add(paper_id)

    def others_stored(self, stored: int) -> None:
        """The library counts ``stored`` papers stored as seen: when that is not what this
        window knows, another writer marked papers seen, and they are read again."""
        if self._stored is not None and len(self._stored) != stored:
            self._stored = None

    def count(self, ids: list[int], shown: list[int]) -> int:
        """How many of ``ids`` have been seen (stored, or among the papers ``shown``); in a
        search's worker."""
        stored = self._stored
        if stored is None:
            stored = self._stored = self._app.library.queries.flagged_ids("seen")
        # A copy: the window adds to the set it keeps while this worker counts.
        seen = stored.copy()
        seen.update(shown)
        if len(seen) < len(ids):
            wanted = set(ids)
            return sum(1 for i in seen if i in wanted)
        return sum(1 for i in ids if i in seen)
