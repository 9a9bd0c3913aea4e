"""Titles written with HTML's inline tags (Zotero's rich text: ``<i>``, ``<b>``, ``<sup>``,
``<sub>``, ``<span class="nocase">``; Web of Science's italic species names) as their text.
Left as HTML, a BibTeX export protected a capital inside a tag (``<{i>Kulindadromeus}``)
and every view showed the tags; kept as TeX (``\\emph{…}``), a BibTeX export of a title
from such a source escaped it into literal backslashes. The emphasis is not kept.
"""

from __future__ import annotations

import re

__all__ = ["html_title"]

# The inline tags rich titles use, opening or closing, with any attributes.
_TAG = re.compile(r"</?(?:i|em|b|strong|sup|sub|span|sc)(?:\s[^<>]*)?>", re.IGNORECASE)


def html_title(text: str) -> str:
    """``text`` without its inline HTML tags (``<i>E. coli</i>`` → ``E. coli``); text
    without such tags is returned as it is."""
    if "<" not in text:
        return text
    return _TAG.sub("", text)
