"""How one reply is encoded in its rows: its content as compact JSON, zlib-compressed;
its invitations and signatures as compact JSON; the digest of its text and its scores.

:class:`ReplyForm` holds the columns that depend on the reply alone, made where a record
is prepared (possibly in the process reading a file ahead of the one writing it);
:func:`unpack_content` is how every read decodes the content again. The writer and the
readers of :mod:`reader.store.replies` both go through here, so the encoding has one
place.
"""

from __future__ import annotations

import json
import zlib
from typing import Any

from reader.signals import Reply

__all__ = ["ReplyForm", "unpack_content"]


def _compact(value: list[Any]) -> str:
    """A list as stored: compact JSON; an empty one without the encoder."""
    return _encode_compact(value) if value else "[]"


_encode_compact = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


# Review text is stored compressed: as plain JSON, rows of one to a few pages each left
# most of a page unused, and a library held 1.65 times the text it stores (the target is
# at most 1.5); compressed, about 0.7 times. Decompressing a review takes microseconds. Level
# 3 packs the sample's replies to 48% of their size, level 6 to 47% at a third more time.
_LEVEL = 3


def _pack(content_json: str) -> bytes:
    """A reply's content JSON as stored: UTF-8, zlib-compressed."""
    return zlib.compress(content_json.encode("utf-8"), _LEVEL)


def unpack_content(stored: bytes | str) -> dict[str, Any]:
    """A reply's content from its stored form (compressed, or plain JSON text): what
    every read of a reply's content decodes it with."""
    text = zlib.decompress(stored).decode("utf-8") if isinstance(stored, bytes) else stored
    value: dict[str, Any] = json.loads(text)
    return value



class ReplyForm:
    """A reply's columns as stored that depend on the reply alone: the digest of its text,
    its scores, invitations and signatures as JSON, and its content packed.

    Made where a record is prepared (:mod:`reader.intake.prepare`), so that a process
    reading a file ahead of the one writing it does this work, the larger part of storing
    a review. The content is packed when first asked for (:meth:`packed`): a reply stored
    already, read again, is never packed; the reading process packs every one ahead, and a
    form crosses to the writer packed."""

    __slots__ = ("text_hash", "scores", "invitations", "signatures", "_content", "_packed")

    def __init__(self, reply: Reply) -> None:
        self.text_hash = reply.text_hash()
        self.scores = reply.scores_json()
        self.invitations = _compact(list(reply.invitations))
        self.signatures = _compact(list(reply.signatures))
        self._content: dict[str, Any] | None = reply.content
        self._packed: bytes | None = None

    def packed(self) -> bytes:
        """The content as stored: compact JSON, compressed."""
        if self._packed is None:
            assert self._content is not None
            self._packed = _pack(_encode_compact(self._content))
        return self._packed

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ReplyForm):
            return NotImplemented
        return (self.text_hash, self.scores, self.invitations, self.signatures,
                self.packed()) == (other.text_hash, other.scores, other.invitations,
                                   other.signatures, other.packed())

    __hash__ = None  # type: ignore[assignment]

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # Packed, the content need not cross again (the reply carries it too).
        content = None if self._packed is not None else self._content
        return (_form, (self.text_hash, self.scores, self.invitations, self.signatures,
                        content, self._packed))


def _form(
    text_hash: str, scores: str, invitations: str, signatures: str,
    content: dict[str, Any] | None, packed: bytes | None,
) -> ReplyForm:
    form = ReplyForm.__new__(ReplyForm)
    form.text_hash, form.scores = text_hash, scores
    form.invitations, form.signatures = invitations, signatures
    form._content, form._packed = content, packed
    return form
