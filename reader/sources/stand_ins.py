"""What a database writes where it has no value: read as no value at all.

Scopus writes "[No abstract available]" in the abstract of a record it has none for, in
its CSV and its RIS alike; kept, it was shown, searched and cited as the paper's abstract.
"""

from __future__ import annotations

import re

_NO_ABSTRACT = re.compile(r"\[?\s*no abstract( is)? available\.?\s*\]?", re.IGNORECASE)


def abstract_given(text: str) -> str:
    """``text``, or "" when it only says that there is no abstract."""
    return "" if _NO_ABSTRACT.fullmatch(text.strip()) else text
