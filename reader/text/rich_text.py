"""Titles written with HTML's inline tags, as TeX: Zotero's rich text (``<i>``, ``<b>``,
``<sup>``, ``<sub>``, ``<span class="nocase">``) and Web of Science's italic species names.
A title is kept as TeX (the reader renders it, BibTeX writes it); left as HTML, a BibTeX
export protected the capital inside a tag (``<{i>Kulindadromeus}``) and every view showed the
tags.
"""

from __future__ import annotations

import re

__all__ = ["html_title"]

# The inline tags rich titles use, opening or closing, with any attributes.
_TAG = re.compile(r"<(/?)(i|em|b|strong|sup|sub|span|sc)(\s[^<>]*)?>", re.IGNORECASE)
# Quick test: no tag, nothing to do (nearly every title).
_ANY_TAG = re.compile(r"</?(?:i|em|b|strong|sup|sub|span|sc)[\s>]", re.IGNORECASE)
# TeX for each opening tag; a span opens a group (Zotero's nocase span keeps its case, as
# braces do in BibTeX).
_OPENING = {
    "i": r"\emph{", "em": r"\emph{", "b": r"\textbf{", "strong": r"\textbf{",
    "sup": r"\textsuperscript{", "sub": r"\textsubscript{", "sc": r"\textsc{", "span": "{",
}


def html_title(text: str) -> str:
    """``text`` with its inline HTML tags as TeX (``<i>E. coli</i>`` → ``\\emph{E. coli}``);
    a tag left unclosed, or a closing one with none open, is dropped. Text without such tags
    is returned as it is."""
    if "<" not in text or not _ANY_TAG.search(text):
        return text
    out: list[str] = []
    opened: list[str] = []
    pos = 0
    for match in _TAG.finditer(text):
        out.append(text[pos:match.start()])
        pos = match.end()
        closing, name = match.group(1), match.group(2).lower()
        if not closing:
            attributes = (match.group(3) or "").lower()
            opening = r"\textsc{" if "small-caps" in attributes else _OPENING[name]
            out.append(opening)
            opened.append(name)
        elif name in opened:
            # Close what was opened after it too (tags closed out of order).
            while opened:
                out.append("}")
                if opened.pop() == name:
                    break
    out.append(text[pos:])
    out.append("}" * len(opened))
    return "".join(out)
