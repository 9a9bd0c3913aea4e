"""Plain text a BibTeX writer escaped, told from TeX an author wrote: the one reads back as
the plain text it was, the other stays TeX.

A plain abstract goes into a .bib file with its special characters escaped (``30%`` as
``30\\%``, ``^`` as ``\\textasciicircum{}``) and its math as it is. Read back, text whose
only TeX outside its math is those escapes is that plain text again; a bare brace, a tie
or any other command is TeX written by hand, kept as written.
"""

from __future__ import annotations

import re

__all__ = ["MATH", "TEX_MATH", "as_read", "escaped_plain"]

# Math in stored text ($…$, $$…$$, \(…\), \[…\]), which every source we read writes in TeX
# and an export writes back as it is. A "$" that opens or closes on a space is no math
# delimiter ("costs $5 and $6").
MATH = r"\$\$.+?\$\$|\$(?!\s)(?:[^$\\]|\\.)+?(?<!\s)\$|\\\(.+?\\\)|\\\[.+?\\\]"
TEX_MATH = re.compile(MATH, re.DOTALL)

# The escapes plain text is written with (reader.cite.tex_escape.TEXT_ESCAPES and its
# braces), each with the character it stands for.
_ESCAPED = {
    "\\textbackslash{}": "\\", "\\textasciitilde{}": "~", "\\textasciicircum{}": "^",
    "\\textbraceleft{}": "{", "\\textbraceright{}": "}",
    "\\&": "&", "\\%": "%", "\\_": "_", "\\#": "#", "\\$": "$", "\\{": "{", "\\}": "}",
}
_ESCAPE = re.compile("|".join(re.escape(e) for e in _ESCAPED))
# What escaped plain text never holds bare: TeX's special characters.
_SPECIAL = re.compile(r"[\\{}~%&_#$^]")


def escaped_plain(text: str) -> str | None:
    """The plain text ``text`` is when, outside its math, its only TeX is the escapes plain
    text is written with (None when it holds other TeX: commands, braces, ties)."""
    if "\\" not in text:
        return None  # no escape at all: nothing to tell apart
    out: list[str] = []
    maths = list(TEX_MATH.finditer(text))
    last = 0
    for match in [*maths, None]:
        end = match.start() if match else len(text)
        around = text[last:end]
        if _SPECIAL.search(_ESCAPE.sub("", around)):
            return None
        out.append(_ESCAPE.sub(lambda m: _ESCAPED[m.group()], around))
        if match:
            out.append(match.group())
            last = match.end()
    plain = "".join(out)
    # Escaped dollars are money, or math that was not to be math (``\\$20\\$``): the plain
    # text must hold the same math as the TeX, and nothing else as math.
    same_math = [m.group() for m in TEX_MATH.finditer(plain)] == [m.group() for m in maths]
    return plain if same_math else None


def as_read(value: str, *, tex: bool = False) -> str:
    """An abstract's or TL;DR's TeX as the importer stores it: the plain text it is when its
    only TeX outside math is the escapes plain text is written with (``30\\%`` as
    ``30%``), so that a plain abstract written to a .bib file reads back as it was; else,
    or when the entry names it as TeX kept as written (``tex``), its TeX."""
    if tex:
        return value
    text = escaped_plain(value)
    return value if text is None else text
