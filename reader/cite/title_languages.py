"""A work's title in two languages, cited as the styles' manuals ask: the title in the
work's own language, then its translation in square brackets (APA 9.38, Chicago 14.98,
MLA 2.110: "La psychologie de l'enfant [The psychology of the child]").

Sources give the two the other way round as often as not: PubMed's title is the English
translation, in brackets, its ``TT`` the original; Scopus writes "English title [Original
title]"; a Zotero user puts an English gloss in ``original-title`` beside a Japanese or
Russian title. CSL's styles print ``original-title`` as a republished work's earlier
title ("Original work published as …"), which none of these is.
"""

from __future__ import annotations

import unicodedata
from typing import Any

__all__ = ["title_with_translation"]


def title_with_translation(item: dict[str, Any]) -> None:
    """Give a CSL item with a title and an ``original-title`` (and no earlier date of
    publication, which would make it a republished work) one title: the original, then the
    translation in square brackets; the ``original-title`` is then no longer the item's."""
    title, original = item.get("title"), item.get("original-title")
    if not isinstance(title, str) or not isinstance(original, str) or "original-date" in item:
        return
    title, original = title.strip(), original.strip()
    bracketed = title.startswith("[") and title.endswith("]")
    if bracketed:
        title = title[1:-1].strip()
    if not title or not original:
        return
    if not bracketed and not _latin(title) and _latin(original):
        # A title in its own script, with a gloss in Latin letters beside it.
        title, original = original, title
    item["title"] = f"{original} [{title}]"
    del item["original-title"]


def _latin(text: str) -> bool:
    """Whether the letters of ``text`` are mostly Latin ones."""
    letters = [c for c in text if c.isalpha()]
    latin = sum(1 for c in letters if unicodedata.name(c, "").startswith("LATIN"))
    return bool(letters) and 2 * latin >= len(letters)
