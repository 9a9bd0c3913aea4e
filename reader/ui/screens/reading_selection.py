"""The selection of a reading view: the passage chosen with the keys (a sentence stepped
to, grown or shrunk by sentences and words) or dragged over with the mouse, in the
abstract or in one of the paper's replies, and drawn where it is.

:class:`Selecting` is the reading view's collaborator for it: it owns the characters
selected, the reply they are in and the reply ``]`` or ``[`` went to last, and draws a
selection in a reply itself; the view draws the abstract (with the selection in it) and
asks here which passage a key highlights. The arithmetic is in
:mod:`reader.ui.screens.selection`.
"""

from __future__ import annotations

from collections.abc import Callable

from textual.screen import Screen
from textual.widgets import Static

from reader.library import ShownReply, display_text, sentences, shown_reply, words
from reader.models import Paper
from reader.ui.screens.reading_replies import ShownReplies, passages
from reader.ui.screens.selection import Span, dragged, extended, stepped
from reader.ui.widgets.paper_view import PaperView
from reader.ui.widgets.replies import ReplyBox, reply_body


class Selecting:
    """What is selected in a reading view, and where."""

    def __init__(
        self, screen: Screen[None], replies: ShownReplies, redraw: Callable[[], None]
    ) -> None:
        """Select in ``screen``, among the ``replies`` it shows; ``redraw`` draws its
        abstract again (with the selection, when it is there)."""
        self._screen = screen
        self._replies = replies
        self._redraw = redraw
        self._paper: Paper | None = None
        self._terms: frozenset[str] = frozenset()
        #: The abstract as shown: the text a selection in it counts characters of.
        self._text = ""
        #: The selected characters of the abstract as shown (or of ``target``), or None.
        self.selection: Span | None = None
        #: The reply the selection is in (None: the abstract), and the reply ``]`` or
        #: ``[`` went to last.
        self.target: ReplyBox | None = None
        self._went_to: ReplyBox | None = None

    def showing(self, paper: Paper, terms: frozenset[str], same: bool) -> None:
        """The view shows ``paper`` now: the same one again (``same``), whose selection
        stays, or another, which starts with none."""
        self._paper = paper
        self._terms = terms
        self._text = display_text(paper.abstract)
        if not same:
            self.selection = None
            self.target = self._went_to = None

    @property
    def in_abstract(self) -> Span | None:
        """The selection when it is in the abstract."""
        return self.selection if self.target is None else None

    def went_to(self, box: ReplyBox | None) -> None:
        """``]`` or ``[`` went to the reply ``box`` (None: back to the abstract); a
        selection goes."""
        self._went_to = box
        if self.selection is not None:
            self.clear()

    def follow(self) -> None:
        """Scroll so the selection is on screen (its line estimated from its place in the
        abstract, or in the reply: each is wrapped text)."""
        text = self._selected_text()
        if self.selection is None or not text:
            return
        view = self._screen.query_one(PaperView)
        if self.target is not None:
            holder = self._screen.query_one("#paper-replies")
            top = holder.virtual_region.y + self.target.virtual_region.y
            height = self.target.size.height
        else:
            abstract = self._screen.query_one("#paper-abstract", Static)
            top, height = abstract.virtual_region.y, abstract.size.height
        start = top + height * self.selection[0] // len(text)
        end = top + height * self.selection[1] // len(text)
        height = view.scrollable_content_region.height
        if start < view.scroll_y or end >= view.scroll_y + height:
            view.scroll_to(y=max(0, start - 2), animate=False)

    def _choose_target(self) -> None:
        """Where a new selection goes: the reply ``]`` or ``[`` went to while it is on
        screen, else the reply at the top of the screen, else the abstract."""
        view = self._screen.query_one(PaperView)
        top = round(view.scroll_y)
        bottom = top + view.size.height
        tops = self._replies.tops()
        for y, box in tops:
            if box is self._went_to and y < bottom and y + box.outer_size.height > top:
                self.target = box
                return
        at_top = [box for y, box in tops if y <= top + 1 < y + box.outer_size.height]
        self.target = at_top[0] if at_top and at_top[0].rendered else None

    def _shown_target(self) -> ShownReply | None:
        """The reply the selection is in, as shown (None: the abstract)."""
        return None if self.target is None else shown_reply(self.target.posting.reply)

    def _selected_text(self) -> str:
        """The text the selection counts characters of."""
        shown = self._shown_target()
        return self._text if shown is None else shown.text

    def _units(self, by_word: bool) -> list[Span]:
        """The sentences (or words) of the abstract or of the reply selected in."""
        if self.selection is None:
            self._choose_target()
        shown = self._shown_target()
        if shown is None:
            return words(self._text) if by_word else sentences(self._text)
        return shown.words() if by_word else shown.sentences()

    def _show(self) -> None:
        """Draw the selection where it is: in the abstract, or in its reply."""
        if self.target is None:
            self._redraw()
            return
        self._draw_target()
        self._screen.call_after_refresh(self.follow)

    def _draw_target(self) -> None:
        """Draw the reply selected in again, with the selection (on this thread: one
        reply, and the keys wait for it)."""
        box = self.target
        if box is None or not box.is_attached or self._paper is None:
            return
        view = self._screen.query_one(PaperView)
        reply = box.posting.reply
        body, cut = reply_body(reply, self._terms, view.get_component_rich_style,
                               passages(self._paper, reply.id), self.selection)
        box.put_body(body, cut)

    def clear(self) -> None:
        """Forget the selection and draw its place without it."""
        self.selection = None
        if self.target is not None:
            self._draw_target()
            self.target = None
        else:
            self._redraw()

    def step(self, delta: int) -> None:
        """Select the next (``delta`` 1) or previous (-1) sentence."""
        chosen = stepped(self._units(by_word=False), self.selection, delta)
        if chosen is not None:
            self.selection = chosen
            self._show()

    def extend(self, delta: int, *, by_word: bool) -> None:
        """Grow or shrink the end of the selection by ``delta`` words (or sentences)."""
        chosen = extended(self._units(by_word=by_word), self.selection, delta)
        if chosen is not None:
            self.selection = chosen
            self._show()

    def chosen(self) -> tuple[Span | None, str | None]:
        """The passage a highlight key acts on: the mouse's in the abstract, else the
        keyboard's; and the id of the reply it is in (None: the abstract)."""
        selected = self._screen.query_one("#paper-abstract", Static).text_selection
        mouse = (
            None if selected is None else dragged(self._text, selected.start, selected.end)
        )
        reply = None if mouse or self.target is None else self.target.posting.reply.id
        return mouse or self.selection, reply
