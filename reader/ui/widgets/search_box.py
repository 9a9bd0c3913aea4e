"""The query box: it says on its border where keys go, and hands the keyboard to the list
once the results of what was typed are in."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from reader.ui import bindings
from reader.ui.queued_keys import take_typed
from reader.ui.widgets.line_input import LineInput
from reader.ui.widgets.paper_list import PaperList

#: The search box's border, saying where keys go.
TYPING_HERE = "typing searches · enter, ↓ or tab: to the results · esc: clear and leave"
KEYS_ON_PAPER = "keys act on the highlighted paper · / to search"
#: What the empty box says.
SEARCH_PLACEHOLDER = (
    # Cut at the box's width (about 110 columns at 120; fitted_placeholder): the conference
    # filters come before the rarer syntax so that they show.
    "/ to search: words, \"phrases\", title:word, AND/OR/NOT, is:starred, tag:x, rating:>=6, "
    "decision:oral, review:\"…\", has:reviews, is:rating-changed, prefix*, typo~, is:unseen, "
    "like:KEY"
)
#: Where the whole syntax is, said after a placeholder cut short.
_MORE = " … (? lists all)"


def fitted_placeholder(width: int, whole: str = SEARCH_PLACEHOLDER) -> str:
    """``whole`` when it fits in ``width`` cells, else as many of its items as fit, cut
    after a comma and saying where the rest is: never a filter cut in two."""
    if len(whole) <= width:
        return whole
    room = width - len(_MORE)
    cut = whole.rfind(", ", 0, max(0, room))
    return whole[:cut] + _MORE if cut > 0 else whole[:width]


class SearchBox(LineInput):
    """The query box: ``enter``, ``↓`` or ``tab`` hand the keyboard to the list once the
    results of what was typed are in; ``esc`` clears the query and leaves too."""

    BINDINGS = bindings.SEARCH

    def __init__(
        self,
        *args: object,
        results_shown: Callable[[str], Awaitable[None]] | None = None,
        **kwargs: object,
    ) -> None:
        """An Input; ``results_shown`` waits until the list shows the results of a query
        (the keyboard goes to the list once it does)."""
        # Coming back with `/` is to refine the query: the cursor goes to its end, and what
        # is typed extends it rather than replacing a selected whole.
        kwargs.setdefault("select_on_focus", False)
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self._results_shown = results_shown

    def on_mount(self) -> None:
        """Say where keys go from the start."""
        self.border_title = KEYS_ON_PAPER

    def on_resize(self) -> None:
        """The placeholder fitted to the box: at 80 columns it was cut inside a filter."""
        self.placeholder = fitted_placeholder(self.content_size.width)

    def on_focus(self) -> None:
        """Keys type here now: say so on the border; the cursor waits at the query's end."""
        self.border_title = TYPING_HERE
        self.cursor_position = len(self.value)

    def on_blur(self) -> None:
        """Keys act on papers now: say so on the border."""
        self.border_title = KEYS_ON_PAPER

    async def action_to_list(self) -> None:
        """Move focus to the paper list, once it shows the results of the query typed:
        the keys pressed next then act on the paper highlighted in those results (they
        wait, in order, behind this one)."""
        app = self.app
        await take_typed(self)
        # The app's search (reader.ui.features.search) knows when results are shown.
        if self._results_shown is not None:
            await self._results_shown(self.value)
        # At once, not as focus() does after the keys already queued: they go to the list.
        self.screen.set_focus(app.query_one(PaperList))

    async def action_escape(self) -> None:
        """Clear the query (the whole library shows again, at the paper the list was on
        before the search unless another was chosen in the results) and go to the list."""
        await take_typed(self)
        self.value = ""
        await self.action_to_list()
