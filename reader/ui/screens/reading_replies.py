"""The replies of the paper a reading view shows: read in a worker (a review may be
megabytes), their headings mounted as soon as they are read, their bodies rendered in the
worker and put in as they are ready, and drawn again when their highlights change.

:class:`ShownReplies` is the reading view's collaborator for them: it owns the boxes shown
and the token (the paper's id) that keeps a late worker from putting one paper's bodies on
another's; the view asks it where each reply begins, and the keys that select and
highlight in a reply act on the boxes it holds.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.style import Style
from textual.screen import Screen

from reader.library import Discussion
from reader.models import Paper
from reader.ui.widgets.paper_view import PaperView
from reader.ui.widgets.replies import ReplyBox, reply_body

#: Reads a paper's replies, threaded (by paper id).
Replies = Callable[[int], Discussion]
#: Reads them from the file being imported, until told to stop (another paper shows).
Ahead = Callable[[int, Callable[[], bool]], Discussion]
#: While an import writes replies after its papers: the records whose replies are written,
#: of how many; otherwise None.
Coming = Callable[[], tuple[int, int] | None]
#: Reply bodies put on screen as soon as they are rendered (enough to fill the screen at the
#: first review); the others are put in together, since each putting lays the view out.
FIRST_BODIES = 2
#: The styles a reply's body is drawn with (read on the UI thread, used by the worker).
_BODY_STYLES = ("paper-view--highlight", "paper-view--section", "paper-view--reply-meta",
                "paper-view--passage", "paper-view--selection")

Batch = list[tuple[ReplyBox, object, bool]]


def passages(paper: Paper, reply_id: str) -> list[tuple[int, int]]:
    """The highlighted passages of a reply still found in it (offsets as shown)."""
    return [(h.start, h.end) for h in paper.highlights
            if h.reply_id == reply_id and not h.orphaned]


class ShownReplies:
    """The replies a reading view shows, and the workers that read and render them."""

    def __init__(
        self, screen: Screen[None], read: Replies | None, coming: Coming | None = None,
        ahead: Ahead | None = None,
    ) -> None:
        self._screen = screen
        self._read = read
        self._coming = coming
        #: Reads a paper's replies from the file an import is reading, before it writes
        #: them (see SignalReads.discussion_ahead).
        self._read_ahead = ahead
        #: Whether the replies shown were read from that file (not stored yet).
        self.ahead = False
        #: The replies shown (their headings as soon as they are read).
        self.boxes: list[ReplyBox] = []
        #: The id of the paper whose replies are shown: a worker for another one stops.
        self.token = -1

    def clear(self, paper_id: int) -> None:
        """Show none while the replies of ``paper_id`` are read."""
        self.token = paper_id
        self.ahead = False
        if self.boxes:
            self.boxes = []
            self._screen.refresh_bindings()
        self._screen.query_one(PaperView).show_discussion(Discussion())

    def show(self, paper: Paper, terms: frozenset[str], *, stored_only: bool = False) -> None:
        """Show the paper's replies: a worker reads them, the headings go up as soon as
        they are read, the bodies as they are rendered. With ``stored_only`` (replies read
        from the file being imported are shown), only once the library has them."""
        if self.token != paper.id or self._read is None:
            return  # another paper was shown meanwhile
        read, token, app = self._read, paper.id, self._screen.app
        render = self._renderer(paper, terms)

        def work() -> None:
            discussion = read(token)
            ahead = False
            if not discussion and stored_only:
                return  # not written yet: those read from the file stay
            # Asked here, off the window's thread: an import elsewhere is found in the library.
            coming = self._coming() if self._coming is not None and not discussion else None
            if not discussion and self._read_ahead is not None and coming is not None:
                # The import writes them a minute from now, maybe: read from its file.
                # Stopped once another paper shows: `j` held down starts no pile of reads.
                discussion = self._read_ahead(token, lambda: self.token != token)
                ahead = bool(discussion)
            try:
                boxes = app.call_from_thread(self._mount, token, discussion, ahead, coming)
            except RuntimeError:  # the window closed meanwhile
                return
            batch: Batch = []
            for n, box in enumerate(boxes):
                if self.token != token:
                    return  # another paper is shown: its own worker renders its replies
                batch.append((box, *render(box)))
                if n + 1 == FIRST_BODIES or n == len(boxes) - 1:
                    try:
                        app.call_from_thread(self._put, token, batch)
                    except RuntimeError:
                        return
                    batch = []

        self._screen.run_worker(work, thread=True, exclusive=True, group="replies",
                                exit_on_error=False)

    def refresh(self, paper: Paper, terms: frozenset[str]) -> None:
        """Another process wrote to the library: show the paper's replies again where the
        library's now differ from those shown (an import elsewhere wrote those read ahead
        from its file, or edited one); as they are, nothing is redrawn."""
        if self.token != paper.id or self._read is None:
            return
        read, token = self._read, paper.id
        shown = [(box.posting.reply.id, box.posting.reply.modified) for box in self.boxes]
        ahead = self.ahead

        def work() -> None:
            stored = read(token)
            now = [(p.reply.id, p.reply.modified) for p in stored.postings]
            if stored and (ahead or now != shown):
                try:
                    self._screen.app.call_from_thread(self.show, paper, terms)
                except RuntimeError:  # the window closed meanwhile
                    return

        self._screen.run_worker(work, thread=True, group="replies-check", exit_on_error=False)

    def render_again(self, paper: Paper, terms: frozenset[str]) -> None:
        """Draw the bodies shown again (their highlights changed), in a worker."""
        boxes = [box for box in self.boxes if box.rendered]
        if not boxes:
            return
        token, render, app = self.token, self._renderer(paper, terms), self._screen.app

        def work() -> None:
            batch: Batch = [(box, *render(box)) for box in boxes]
            try:
                app.call_from_thread(self._put, token, batch)
            except RuntimeError:
                return

        self._screen.run_worker(work, thread=True, group="reply-marks", exit_on_error=False)

    def tops(self) -> list[tuple[int, ReplyBox]]:
        """Each reply with the line of the view it begins on."""
        holder = self._screen.query_one("#paper-replies")
        base = holder.virtual_region.y
        return [(base + box.virtual_region.y, box) for box in self.boxes if box.is_attached]

    def _renderer(
        self, paper: Paper, terms: frozenset[str]
    ) -> Callable[[ReplyBox], tuple[object, bool]]:
        """What a worker renders a reply's body with: the styles read here, on the UI
        thread, and the paper's terms and highlighted passages."""
        view = self._screen.query_one(PaperView)
        styles = {name: view.get_component_rich_style(name) for name in _BODY_STYLES}

        def style(name: str) -> Style:
            return styles.get(name, Style())

        def render(box: ReplyBox) -> tuple[object, bool]:
            reply = box.posting.reply
            return reply_body(reply, terms, style, passages(paper, reply.id))

        return render

    def _mount(
        self, token: int, discussion: Discussion, ahead: bool = False,
        coming: tuple[int, int] | None = None,
    ) -> list[ReplyBox]:
        """Show the headings of the replies read, if their paper still shows (``ahead``:
        read from the file being imported, not yet written; ``coming``: how many papers of
        that import have their replies in, of how many)."""
        if token != self.token:
            return []
        had = bool(self.boxes)
        self.ahead = ahead
        if ahead:
            counted = "" if coming is None else (
                f" (the replies of {coming[0]:,} of {coming[1]:,} papers are in)")
            awaited = (f"read from the file being imported{counted}; highlights once they are "
                       "in the library")
        elif coming is not None and not discussion:
            awaited = (
                f"Reviews and discussion: still being imported (the replies of {coming[0]:,} "
                f"of {coming[1]:,} papers are in); this paper's show here once theirs are"
            )
        else:
            awaited = ""
        self.boxes = self._screen.query_one(PaperView).show_discussion(discussion, awaited)
        if had != bool(self.boxes):
            self._screen.refresh_bindings()  # the review keys show only with replies
        return list(self.boxes)

    def _put(self, token: int, batch: Batch) -> None:
        """Put rendered bodies in their replies, if the paper they belong to still shows."""
        if token != self.token:
            return
        for box, body, cut in batch:
            if box.is_attached:
                box.put_body(body, cut)  # type: ignore[arg-type]
