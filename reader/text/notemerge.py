"""Three-way merge of note texts: two writers' edits of one note, combined.

Lines are merged first; a region both writers changed is merged again word by word, so
two edits of one paragraph that touch different words both survive. Where the same words
were changed both ways, both texts are kept between conflict markers. Text that both
writers added at the same place (the CLI appending while an editor types at the end) is
kept in full, the editor's first: nothing was replaced, so nothing is in conflict.

The line and word alignment is merge3's (the Bazaar/Breezy merge algorithm, maintained
as its own package), which handles the sync regions of a three-way diff that a hand-made
difflib walk gets wrong at the edges.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from merge3 import Merge3

CONFLICT_START = "<<<<<<< "
CONFLICT_MIDDLE = "======="
CONFLICT_END = ">>>>>>> "
# Words, and the space between them with line breaks apart from spaces: text added after a
# note's last space or line break then sits beside it, untouched, rather than merged into
# one changed run of whitespace with it (which let the other writer's words land inside the
# added text).
_TOKEN = re.compile(r"\n+|[^\S\n]+|\S+")


@dataclass(frozen=True, slots=True)
class Merged:
    """A merged text and how many conflicts it marks."""

    text: str
    conflicts: int = 0


def merge(base: str, theirs: str, ours: str, *, theirs_label: str = "stored",
          ours_label: str = "this edit") -> Merged:
    """Combine ``theirs`` (the stored note, changed by another writer since ``base``) and
    ``ours`` (this writer's text, made from ``base``)."""
    if theirs == ours or theirs == base:
        return Merged(ours)
    if ours == base:
        return Merged(theirs)
    out: list[str] = []
    conflicts = 0
    lines = Merge3(_lines(base), _lines(theirs), _lines(ours))
    for group in lines.merge_groups():
        if group[0] != "conflict":
            out.extend(group[1])
            continue
        base_part, their_part, our_part = ("".join(g) for g in group[1:])
        words = _merge_words(base_part, their_part, our_part)
        if words is not None:
            out.append(words)
            continue
        conflicts += 1
        out.append(
            f"{_line_start(out)}{CONFLICT_START}{theirs_label}\n{_ended(their_part)}"
            f"{CONFLICT_MIDDLE}\n{_ended(our_part)}{CONFLICT_END}{ours_label}\n"
        )
    text = "".join(out)
    if not ours.endswith("\n") and not theirs.endswith("\n") and text.endswith("\n"):
        text = text[:-1]
    return Merged(text, conflicts)


def _merge_words(base: str, theirs: str, ours: str) -> str | None:
    """The word-level merge of one region, or None where the same words changed both ways."""
    out: list[str] = []
    for group in Merge3(_TOKEN.findall(base), _TOKEN.findall(theirs),
                        _TOKEN.findall(ours)).merge_groups():
        if group[0] != "conflict":
            out.extend(group[1])
            continue
        base_part, their_part, our_part = group[1:]
        if "".join(base_part).strip():
            return None
        # Both added text here and neither replaced anything: keep both. Added at the start
        # of a line (a region starts at one), each is a line of its own, not run together.
        at_line_start = not out or out[-1].endswith("\n")
        out.extend(our_part)
        if our_part and their_part and not our_part[-1].isspace() and \
                not their_part[0].isspace():
            out.append("\n" if at_line_start else " ")
        out.extend(their_part)
    return "".join(out)


def _lines(text: str) -> list[str]:
    return text.splitlines(keepends=True)


def _ended(text: str) -> str:
    return text if not text or text.endswith("\n") else text + "\n"


def _line_start(out: list[str]) -> str:
    """A newline when the merged text so far stops mid-line, so a marker starts a line."""
    return "\n" if out and not out[-1].endswith("\n") else ""


def location(text: str, index: int) -> tuple[int, int]:
    """The (row, column) of a character offset into ``text``."""
    row = text.count("\n", 0, index)
    return row, index - (text.rfind("\n", 0, index) + 1)


def moved_offset(ops: Sequence[tuple[str, int, int, int, int]], offset: int) -> int:
    """Where a character offset of the old text lands in the new one, given difflib's
    ``ops`` from old to new (text inserted right at it goes after it)."""
    for tag, i1, i2, j1, j2 in ops:
        if tag == "equal" and i1 <= offset <= i2:
            return j1 + offset - i1
        if i1 <= offset < i2:
            return j2
    return ops[-1][4] if ops else offset
