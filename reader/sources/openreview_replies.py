"""The replies of OpenReview notes (reviews, meta-reviews, decisions, comments) as
:class:`~reader.signals.Reply` values, and their grouping under the papers they answer.

Replies come in three shapes, any of them in API v1 (plain content values) or v2 (each
value wrapped as ``{"value": …}``):

- inside the paper's note: ``replies[]`` (per-paper dumps), or ``details.replies`` /
  ``details.directReplies`` (a venue query asked for ``details=replies``);
- beside it, as notes of their own: a ``/notes?forum=ID`` answer is a flat list of the
  submission and its replies, told apart by ``replyto`` and ``forum``.

:class:`ReplyGroups` puts flat replies with their papers as a file is read in order, holding
back only the paper last read, so a long file is never held whole; a reply whose paper is
not in the file is kept aside (:attr:`ReplyGroups.orphans`), never dropped.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from reader.import_summary import Remark
from reader.signals import SIGNAL_FIELDS, Reply, kind_of

__all__ = [
    "ReplyGroups",
    "distinct_versions",
    "is_reply_note",
    "replies_in_note",
    "reply_from_note",
    "unwrap",
]

_SURROGATE = re.compile("[\ud800-\udfff]")


def unwrap(value: Any) -> Any:
    """A content field's value, whether plain (v1) or wrapped as ``{"value": …}`` (v2)."""
    if isinstance(value, dict) and "value" in value:
        return value["value"]
    return value


def _storable(value: Any) -> Any:
    """``value`` as it was read, except half surrogate pairs (JSON can escape them; UTF-8,
    and so the library, cannot hold them), which become U+FFFD."""
    if isinstance(value, str):
        if value.isascii():
            return value
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return _SURROGATE.sub("\ufffd", value)
        return value
    if isinstance(value, list):
        return [_storable(item) for item in value]
    if isinstance(value, dict):
        return {str(_storable(key)): _storable(item) for key, item in value.items()}
    return value


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value.strip() else None


def _millis(value: Any) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return int(value)


def is_reply_note(note: dict[str, Any]) -> bool:
    """Whether a note answers another (a review, a comment …) rather than being a paper:
    it names what it replies to, or belongs to a forum other than its own."""
    if _text(note.get("replyto")):
        return True
    forum, ident = note.get("forum"), note.get("id")
    return bool(_text(forum) and _text(ident) and forum != ident)


def reply_from_note(
    note: dict[str, Any], forum: str | None = None, *, texts: bool = True
) -> Reply | str:
    """The reply a note is, or why it is none (a problem text without location).

    ``forum`` is the paper the note was found under, used when the note names none.
    Without ``texts``, the reply's content holds only the fields its paper's signals are
    read from (:data:`reader.signals.SIGNAL_FIELDS`): what an import that writes the
    papers first needs, at a fraction of the work of the whole text.
    """
    ident = _text(note.get("id"))
    if ident is None:
        return "has no id; skipped"
    invitations = note.get("invitations")
    if not isinstance(invitations, list):
        single = note.get("invitation")  # API v1: one invitation
        invitations = [single] if isinstance(single, str) else []
    invitations = [i for i in invitations if isinstance(i, str)]
    signed = note.get("signatures")
    signatures = [s for s in signed if isinstance(s, str)] if isinstance(signed, list) else []
    content = note.get("content")
    if not isinstance(content, dict):
        fields = {}
    elif texts:
        fields = {str(key): _storable(unwrap(value)) for key, value in content.items()}
    else:
        # The few fields signals read, picked by the keys' set (in C): a review's dozen
        # fields are not looked at one by one.
        fields = {key: _storable(unwrap(content[key])) for key in content.keys() & SIGNAL_FIELDS}
    number = note.get("number")
    return Reply(
        id=_storable(ident),
        forum=_text(note.get("forum")) or forum,
        replyto=_text(note.get("replyto")),
        kind=kind_of(invitations),
        content=fields,
        invitations=tuple(invitations),
        signatures=tuple(signatures),
        number=number if isinstance(number, int) and not isinstance(number, bool) else None,
        cdate=_millis(note.get("cdate")) or _millis(note.get("tcdate")),
        mdate=_millis(note.get("mdate")) or _millis(note.get("tmdate")),
    )


def replies_in_note(note: dict[str, Any]) -> tuple[list[dict[str, Any]], bool]:
    """The reply notes carried inside a paper's note (``replies``, ``details.replies``,
    ``details.directReplies``; a version of a note in two of them once), and whether the
    note carries replies at all (an empty list says "no replies", its absence says nothing)."""
    lists: list[Any] = [note.get("replies")]
    details = note.get("details")
    if isinstance(details, dict):
        lists += [details.get("replies"), details.get("directReplies")]
    carried = any(isinstance(found, list) for found in lists)
    notes: list[dict[str, Any]] = []
    seen: set[tuple[Any, Any, Any]] = set()
    for found in lists:
        if not isinstance(found, list):
            continue
        for item in found:
            if not isinstance(item, dict):
                continue
            # The same version in two lists is one; two versions of one note are two.
            key = (item.get("id"), item.get("mdate"), item.get("tmdate"))
            if not isinstance(key[0], str):
                key = (id(item), None, None)
            if key in seen:
                continue
            seen.add(key)
            notes.append(item)
    return notes, carried


def distinct_versions(replies: Iterable[Reply]) -> list[Reply]:
    """Each version of each reply once (by id and ``mdate``: a file may hold a review
    both as it was and as it was edited, or one version twice), in the order first met;
    of one version met twice, the last read is kept."""
    chosen: dict[tuple[str, int | None], Reply] = {}
    for reply in replies:
        chosen[(reply.id, reply.modified)] = reply
    return list(chosen.values())


class ReplyGroups:
    """Flat reply notes put with their papers as a file is read in order.

    A reply read before its paper waits for it; one read after its paper, while that paper
    is still held back (it is, until another paper is read), joins it; any other becomes an
    orphan, with a problem line, and so does one still waiting when the file ends.
    """

    def __init__(self, source: str, problems: list[str], orphans: list[Reply]) -> None:
        self._source = source
        self._problems = problems
        self.orphans = orphans
        self._waiting: dict[str, list[Reply]] = {}
        self._released: set[str] = set()

    def take_waiting(self, forum: str | None) -> list[Reply]:
        """The replies read before the paper ``forum``, now that it is read."""
        return self._waiting.pop(forum, []) if forum else []

    def released(self, forum: str | None) -> None:
        """Note that the paper ``forum`` has been handed on: later replies cannot join it."""
        if forum:
            self._released.add(forum)

    def place(self, reply: Reply, held: str | None, where: str) -> bool:
        """Put a flat reply: True when it belongs to the paper ``held`` (not yet handed
        on), which the caller adds it to; otherwise it waits, or is kept aside."""
        if reply.forum is None:
            self._orphan(reply, where, "names no paper (no forum)")
            return False
        if reply.forum == held:
            return True
        if reply.forum in self._released:
            self._orphan(reply, where, f"answers paper '{reply.forum}', read earlier in the file")
            return False
        self._waiting.setdefault(reply.forum, []).append(reply)
        return False

    def finish(self) -> None:
        """At the end of the file: replies still waiting have no paper in it."""
        waiting, self._waiting = self._waiting, {}
        count = sum(len(replies) for replies in waiting.values())
        for replies in waiting.values():
            self.orphans.extend(replies)
        if count:
            forums = list(waiting)
            shown = ", ".join(f"'{forum}'" for forum in forums[:3])
            more = f" and {len(forums) - 3} more" if len(forums) > 3 else ""
            self._problems.append(Remark(
                f"{self._source}: {count} {'reply' if count == 1 else 'replies'} to "
                f"{len(forums)} {'paper' if len(forums) == 1 else 'papers'} not in the file "
                f"({shown}{more}); kept aside for when the paper is imported"
            ))

    def _orphan(self, reply: Reply, where: str, why: str) -> None:
        self.orphans.append(reply)
        self._problems.append(Remark(f"{where}: reply '{reply.id}' {why}; kept aside"))
