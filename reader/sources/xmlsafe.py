"""What every XML reader here refuses before parsing: a DTD or entity declarations.

No export read here has them, and entity expansion is how a small file becomes a huge one
("billion laughs"); refusing them before the parser sees the text costs one search.
"""

from __future__ import annotations

import re

from reader.sources import ImportFormatError

__all__ = ["refuse_declarations"]

_DECLARATION = re.compile(r"<!\s*(?:DOCTYPE|ENTITY)", re.IGNORECASE)


def refuse_declarations(text: str, source: str, why_none: str) -> None:
    """Raise ImportFormatError, naming the line, when ``text`` declares a DTD or entities;
    ``why_none`` says why the format never needs them ("arXiv feeds have none")."""
    declaration = _DECLARATION.search(text)
    if declaration:
        where = text.count("\n", 0, declaration.start()) + 1
        raise ImportFormatError(
            f"{source}:{where}: XML with a DTD or entity declarations is refused "
            f"({why_none}, and entities can expand without bound)"
        )
