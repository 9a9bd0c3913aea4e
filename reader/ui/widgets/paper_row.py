"""One row of the paper list: its marks, title, tags, venue and year, and (for a paper with
conference signals) its mean rating and decision, fitted to a width."""

from __future__ import annotations

from collections.abc import Callable

from rich.style import Style
from rich.text import Text

from reader.models import PaperRow
from reader.signals import one_decimal
from reader.text.render import plain_line
from reader.ui.text import title_text

#: The style of one of the list's component classes ("paper-list--star").
StyleOf = Callable[[str], Style]

#: Below this many cells a row is narrow: decisions are abbreviated and the venue gives way
#: to them (a conference's papers share it).
NARROW = 56
#: The cells of its title a row across the window keeps before tags and venue take any: 40
#: characters and the ellipsis (at 80 columns the title is what a reader scans the list
#: by). A row beside the detail pane shares its width by thirds.
TITLE_KEPT = 41
#: From this width on a row is the list alone across the window (80 columns and up).
_ACROSS = 72
#: Fewer cells than this for the tags, and the row shows none: "#…" alone says nothing.
_TAGS_MIN = 5
#: Decisions as a row shows them, wide and narrow; a paper still under review shows none.
DECISION_LABELS: dict[str, tuple[str, str]] = {
    "oral": ("oral", "oral"),
    "spotlight": ("spotlight", "spot"),
    "poster": ("poster", "post"),
    "accept": ("accept", "acc"),
    "workshop": ("workshop", "wksp"),
    "reject": ("reject", "rej"),
    "desk-rejected": ("desk-rej.", "desk"),
    "withdrawn": ("withdrawn", "w/d"),
    "pending": ("", ""),
}
#: The widest label, wide and narrow.
_LABEL_WIDTH = {narrow: max(len(labels[narrow]) for labels in DECISION_LABELS.values())
                for narrow in (False, True)}
#: The component class that colours each decision.
DECISION_STYLES = {
    "oral": "paper-list--accepted",
    "spotlight": "paper-list--accepted",
    "poster": "paper-list--accepted",
    "accept": "paper-list--accepted",
    "reject": "paper-list--rejected",
    "desk-rejected": "paper-list--rejected",
    "withdrawn": "paper-list--withdrawn",
}


def signal_text(row: PaperRow, narrow: bool, style: StyleOf) -> Text:
    """The row's right column: `` oral 6.5`` (decision, mean rating), the rating at the
    row's right edge so ratings line up down the list; a paper still under review shows
    its rating alone, one without signals nothing."""
    if row.rating is None and row.decision is None:
        return Text()
    label = DECISION_LABELS.get(row.decision or "", ("", ""))[1 if narrow else 0]
    out = Text()
    # The label's column is as wide on every row with signals, a blank one too: titles
    # and venues then end at one column down the list, beside "withdrawn" or nothing.
    out.append(" ")
    out.append(label.rjust(_LABEL_WIDTH[narrow]),
               style(DECISION_STYLES.get(row.decision or "", "paper-list--meta")))
    if row.rating is None:
        rating = "   ·"
    elif abs(row.rating) >= 99.95:
        rating = f"{row.rating:4.0f}"  # a scale of 100: no room for a decimal
    else:
        rating = one_decimal(row.rating).rjust(4)
    out.append(" ")
    out.append(rating, style("paper-list--rating"))
    return out


def row_text(
    row: PaperRow,
    width: int,
    style: StyleOf,
    *,
    terms: frozenset[str],
    marked: bool,
    seen: bool,
    selected: bool,
    focused: bool,
) -> Text:
    """The row of a paper, ``width`` cells wide: ``marked`` when it is in the basket, ``seen``
    when shown this session, the query's ``terms`` highlighted in its title, and drawn as
    the cursor's row when ``selected`` (dimmer when the list has no focus)."""
    marks = Text()
    marks.append("▌" if marked else " ", style("paper-list--marked"))
    marks.append("★" if row.starred else " ", style("paper-list--star"))
    marks.append("✎" if row.has_note else " ", style("paper-list--note"))
    unseen = not row.seen and not seen
    if row.read:
        marks.append("✓", style("paper-list--read"))
    else:
        marks.append("•" if unseen else " ", style("paper-list--unseen"))
    marks.append(" ")
    tags = Text(" " + " ".join(f"#{t}" for t in row.tags), style("paper-list--tag"))
    if not row.tags:
        tags = Text()
    title = title_text(
        row.title,
        row.title_derived,
        terms,
        style("paper-list--highlight"),
        style("paper-list--derived"),
    )
    if row.read:
        title.stylize(style("paper-list--read"))
    narrow = width < NARROW
    signals = signal_text(row, narrow, style)
    venue = plain_line(row.venue) if row.venue and not (signals and narrow) else ""
    year = str(row.year) if row.year else ""
    meta_text = Text()
    kept = min(title.cell_len, TITLE_KEPT) if width >= _ACROSS else 0
    if venue or year:
        # The venue gives way to the title: a long one ("Proc. Fifteenth Annual ACM
        # Symposium on …") takes what the title leaves, up to a third of the row but not
        # the title's first TITLE_KEPT cells, and the year always shows.
        tail = f" · {year}" if venue and year else year
        venue_text = Text(f" {venue}" if venue else " ")
        free = width - marks.cell_len - title.cell_len - tags.cell_len - signals.cell_len
        beside = width - marks.cell_len - signals.cell_len
        limit = max(8, min(beside // 3, beside - kept) - len(tail), free - len(tail))
        if venue_text.cell_len > limit:
            venue_text.truncate(limit, overflow="ellipsis")
        meta_text = Text.assemble(venue_text, tail, style=style("paper-list--meta"))
    # Tags give way to the title when the row is narrow.
    room = max(1, width - marks.cell_len - meta_text.cell_len - signals.cell_len)
    if title.cell_len + tags.cell_len > room:
        left = room - min(title.cell_len, max(room * 2 // 3, kept))
        tags.truncate(left if left >= _TAGS_MIN else 0, overflow="ellipsis")
    title.truncate(max(1, room - tags.cell_len), overflow="ellipsis", pad=True)
    line = Text.assemble(marks, title, tags, meta_text, signals, no_wrap=True, end="")
    if selected:
        cursor_style = style("paper-list--cursor")
        if not focused:
            cursor_style = Style(bgcolor=cursor_style.bgcolor)
        line.stylize(cursor_style)
    return line
