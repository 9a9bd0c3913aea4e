"""The distraction-free reading view: one paper, full width, where passages of the abstract
are selected (by sentence and word, or with the mouse) and highlighted; then the paper's
reviews and their discussion, stepped through with ``]`` and ``[``, whose passages are
selected and highlighted with the same keys.

The screen composes two collaborators: the replies are read, mounted and rendered by
:class:`reader.ui.screens.reading_replies.ShownReplies`, which owns the boxes shown and
the token that keeps a late worker off another paper's; the selection, and the reply it is
in, belong to :class:`reader.ui.screens.reading_selection.Selecting`, which the keys that
select and step between reviews move. The screen owns the paper shown and its keys. The
arithmetic of selecting is in :mod:`reader.ui.screens.selection`.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Static

from reader.models import Paper
from reader.ui import bindings
from reader.ui.screens import SCREENS_CSS
from reader.ui.screens.reading_replies import Ahead, Coming, Replies, ShownReplies
from reader.ui.screens.reading_selection import Selecting
from reader.ui.screens.selection import Span
from reader.ui.screens.whole_text import WholeTextScreen
from reader.ui.text import heading, paper_is_cut
from reader.ui.widgets.footer import FittedFooter
from reader.ui.widgets.paper_view import PaperView
from reader.ui.widgets.replies import ReplyBox, kind_label, whole_text

#: Moves the main list by +1/-1 and returns the paper now under its cursor.
Step = Callable[[int], Paper | None]
#: Asked to highlight characters start–end of the abstract (as shown) of a paper, or of
#: one of its replies (by note id) as shown.
Highlighter = Callable[[Paper, int, int, str | None], None]
#: Asked to remove highlights of a paper (by id).
Remover = Callable[[Paper, list[int]], None]


class ReadingScreen(Screen[None]):
    """Shows the current paper full width; ``j``/``k`` step through the list behind it.

    ``(`` and ``)`` select the previous or next sentence of the abstract, ``{``/``}`` and
    shift+arrows grow or shrink the selection, a mouse drag over the abstract selects too,
    and ``h`` highlights what is selected. ``]`` and ``[`` go from review to review (and
    to the meta-review, the decision, any reply to the paper itself) below the abstract;
    ``z`` shows whole a reply, a title or an abstract cut for its length. On a reply (the
    one ``]`` went to, or the one at the top of the screen) the same keys select and
    highlight its passages.
    """

    CSS_PATH = SCREENS_CSS
    # Its twelve keys take some 150 columns laid out in full.
    FOOTER_FITS_FROM = 155
    BINDINGS = bindings.READING

    def __init__(
        self,
        paper: Paper,
        terms: frozenset[str],
        step: Step,
        highlighter: Highlighter | None = None,
        remover: Remover | None = None,
        *,
        replies: Replies | None = None,
        reviews_coming: Coming | None = None,
        replies_ahead: Ahead | None = None,
    ) -> None:
        super().__init__()
        self._shown = ShownReplies(self, replies, reviews_coming, replies_ahead)
        self._paper = paper
        self._terms = terms
        self._step = step
        self._highlighter = highlighter
        self._remover = remover
        self._status = ""
        self._passage = Selecting(self, self._shown, self._redraw)
        #: The highlights on replies shown, to know when the replies must be drawn again.
        self._reply_marks: tuple[object, ...] = ()

    def compose(self) -> ComposeResult:
        yield PaperView(id="reading-view")
        yield Static(self._status, id="reading-status", markup=False)
        yield FittedFooter()

    def show_status(self, text: str) -> None:
        """Show the place in the list and the library's figures under the paper."""
        self._status = text
        # Not there while the screen is closing (its children going before it), or before
        # its children are mounted (they take ``_status`` as they are made).
        for status in self.query("#reading-status").results(Static):
            status.update(text, layout=False)

    def on_mount(self) -> None:
        """Show the paper the screen was opened on."""
        self.show(self._paper)

    @property
    def paper(self) -> Paper:
        """The paper on screen."""
        return self._paper

    def show(self, paper: Paper | None) -> None:
        """Show another paper (or refresh this one after a change)."""
        if paper is None:
            return
        same = paper.id == self._paper.id and self._shown.token == paper.id
        self._paper = paper
        self._passage.showing(paper, self._terms, same)
        marks = _reply_marks(paper)
        if same and marks != self._reply_marks:
            # A passage of a reply was highlighted or removed: its replies drawn again.
            self._shown.render_again(paper, self._terms)
        self._reply_marks = marks
        self._redraw(keep_scroll=same)
        if not same:
            # After the paper is drawn: the abstract shows at once, the replies come in
            # behind it.
            self._shown.clear(paper.id)
            self.call_after_refresh(self._shown.show, paper, self._terms)

    # -- replies ----------------------------------------------------------------------------

    @property
    def replies(self) -> list[ReplyBox]:
        """The replies shown (their headings, as soon as they are read)."""
        return self._shown.boxes

    def written_elsewhere(self) -> None:
        """Another process wrote to the library: the replies shown are read again if the
        library's differ (see :meth:`ShownReplies.refresh`)."""
        self._shown.refresh(self._paper, self._terms)

    def reviews_arriving(self) -> None:
        """An import is writing replies: a paper shown without any reads its own again
        (they show as soon as they are in), and one showing those read from the import's
        file takes them from the library once they are there."""
        if not self.replies:
            self._shown.show(self._paper, self._terms)
        elif self._shown.ahead:
            self._shown.show(self._paper, self._terms, stored_only=True)

    def _reply_tops(self) -> list[tuple[int, ReplyBox]]:
        return self._shown.tops()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The review keys act (and the footer offers them) where the paper has replies."""
        if action == "whole_reply":
            return bool(self.replies) or paper_is_cut(self._paper)
        if action in ("next_reply", "previous_reply"):
            return bool(self.replies)
        return True

    def _go_to_reply(self, delta: int) -> None:
        view = self.query_one(PaperView)
        top = round(view.scroll_y)
        heads = [(y, box) for y, box in self._reply_tops() if box.posting.depth == 0]
        if not heads:
            self.notify("This paper has no reviews here")
            return
        if delta > 0:
            ahead = [(y, box) for y, box in heads if y > top + 1]
            if not ahead:
                self.notify("That was the last review")
                return
            view.scroll_to(y=ahead[0][0] - 1, animate=False, immediate=True)
            self._passage.went_to(ahead[0][1])
        else:
            behind = [(y, box) for y, box in heads if y < top]
            view.scroll_to(y=max(0, behind[-1][0] - 1) if behind else 0, animate=False,
                           immediate=True)
            self._passage.went_to(behind[-1][1] if behind else None)

    def action_next_reply(self) -> None:
        """Scroll to the next review (or meta-review, decision, reply to the paper)."""
        self._go_to_reply(1)

    def action_previous_reply(self) -> None:
        """Scroll to the previous review, or from the first back to the abstract."""
        self._go_to_reply(-1)

    def action_whole_reply(self) -> None:
        """Show whole what is cut for its length on screen: the paper's title and abstract
        when either was cut and the top of the paper shows, otherwise the first reply cut
        from the top of the screen."""
        view = self.query_one(PaperView)
        top, bottom = round(view.scroll_y), round(view.scroll_y) + view.size.height
        paper = self._paper
        if paper_is_cut(paper) and top < view.paper_bottom:
            whole = f"{paper.title}\n\n{paper.abstract}" if paper.abstract else paper.title
            self.app.push_screen(WholeTextScreen(heading(paper.title), whole))
            return
        on_screen = [box for y, box in self._reply_tops()
                     if y + box.outer_size.height > top and y < bottom]
        cut = [box for box in on_screen if box.cut]
        if not cut:
            self.notify("No reply on screen is cut: each shows whole")
            return
        reply = cut[0].posting.reply
        title = f"{kind_label(reply)} · {reply.signer}" if reply.signer else kind_label(reply)
        self.app.push_screen(WholeTextScreen(title, whole_text(reply)))

    def _redraw(self, keep_scroll: bool = True) -> None:
        view = self.query_one(PaperView)
        passage = self._passage
        anchor = self._reply_at_top() if keep_scroll else None
        view.show(self._paper, self._terms, selection=passage.in_abstract,
                  keep_scroll=keep_scroll)
        if anchor is not None:
            # What is drawn above the replies may have grown (the list of highlights,
            # a new one on a review): the reply read stays where it was on screen, so
            # the text does not jump and `]` goes on from it.
            self.call_after_refresh(self._keep_at_top, *anchor)
        if passage.selection is not None:
            self.call_after_refresh(passage.follow)

    def _reply_at_top(self) -> tuple[str, int] | None:
        """The reply the top of the view is in, and how far into it the view is."""
        top = round(self.query_one(PaperView).scroll_y)
        # The line above a reply's top counts as in it: `]` leaves the view there, and a
        # highlight made in the reply it went to pushed the reply down the screen.
        above = [(y, box) for y, box in self._reply_tops() if y <= top + 1]
        if not above:
            return None
        y, box = above[-1]
        return box.posting.reply.id, top - y

    def _keep_at_top(
        self, reply_id: str, into: int, tries: int = 4, placed: int | None = None
    ) -> None:
        """Scroll so that the reply is ``into`` lines above the view's top again; again a
        few times while the layout settles (the abstract's new height may be laid out a
        refresh later, on a busy machine), unless the user has scrolled meanwhile."""
        view = self.query_one(PaperView)
        if placed is not None and round(view.scroll_y) != placed:
            return  # scrolled by the user since: theirs to say where to read
        target = next((y + into for y, box in self._reply_tops()
                       if box.posting.reply.id == reply_id), None)
        if target is None:
            return
        if round(view.scroll_y) != target:
            view.scroll_to(y=target, animate=False, immediate=True)
        if tries:
            self.set_timer(0.15, partial(self._keep_at_top, reply_id, into, tries - 1,
                                         round(view.scroll_y)))

    # -- selecting --------------------------------------------------------------------------

    @property
    def selection(self) -> Span | None:
        """The selected characters of the abstract as shown (or of ``target``), or None."""
        return self._passage.selection

    @property
    def target(self) -> ReplyBox | None:
        """The reply the selection is in (None: the abstract)."""
        return self._passage.target

    def action_sentence(self, delta: int) -> None:
        """Select the next (``delta`` 1) or previous (-1) sentence."""
        self._passage.step(delta)

    def action_extend_sentence(self, delta: int) -> None:
        """Grow the selection to the end of the next sentence, or shrink it by one."""
        self._passage.extend(delta, by_word=False)

    def action_extend(self, delta: int) -> None:
        """Grow or shrink the end of the selection by a word."""
        self._passage.extend(delta, by_word=True)

    def action_highlight(self) -> None:
        """Highlight the selection (the mouse's in the abstract, or the keyboard's in the
        abstract or a reply)."""
        chosen, reply = self._passage.chosen()
        if chosen is None:
            self.notify("Select a passage first: ( and ) choose a sentence, } and shift+→ grow "
                        "it ({ and shift+← shrink it), or drag over it with the mouse")
            return
        if any(h.reply_id == reply and (h.start, h.end) == chosen and not h.orphaned
               for h in self._paper.highlights):
            self.notify("That passage is highlighted already (H removes it)")
            return
        if reply is not None and self._shown.ahead:
            self.notify("These reviews are read from the file being imported: they can be "
                        "highlighted once the import has written them")
            return
        if self._highlighter is not None:
            self._highlighter(self._paper, chosen[0], chosen[1], reply)
        self.screen.clear_selection()
        if self.selection is not None:
            self._passage.clear()

    def action_remove_highlight(self) -> None:
        """Remove the highlights the selection touches (or, with no selection, all of the
        paper's highlights that are no longer in the abstract or their reply)."""
        chosen, reply = self._passage.chosen()
        if chosen is None:
            doomed = [h.id for h in self._paper.highlights if h.orphaned]
        else:
            doomed = [
                h.id
                for h in self._paper.highlights
                if not h.orphaned and h.reply_id == reply
                and h.start < chosen[1] and chosen[0] < h.end
            ]
        if not doomed:
            self.notify("No highlight there")
            return
        if self._remover is not None:
            self._remover(self._paper, doomed)

    # -- moving -----------------------------------------------------------------------------

    def action_next_paper(self) -> None:
        """Read the next paper of the list."""
        self.show(self._step(1))

    def action_previous_paper(self) -> None:
        """Read the previous paper of the list."""
        self.show(self._step(-1))

    def action_scroll_page_down(self) -> None:
        """Scroll the paper down a page."""
        self.query_one(PaperView).scroll_page_down()

    def action_scroll_page_up(self) -> None:
        """Scroll the paper up a page."""
        self.query_one(PaperView).scroll_page_up()

    def action_close(self) -> None:
        """Clear the selection, or go back to the list."""
        if self.selection is not None:
            self._passage.clear()
            return
        self.dismiss(None)


def _reply_marks(paper: Paper) -> tuple[object, ...]:
    """What of a paper's highlights the replies draw: those on replies, where they are."""
    return tuple((h.id, h.reply_id, h.start, h.end, h.orphaned)
                 for h in paper.highlights if h.reply_id is not None)
