"""What a database writes where it has no value: read as no value at all.

Scopus writes "[No abstract available]" in the abstract of a record it has none for, in
its CSV and its RIS alike; kept, it was shown, searched and cited as the paper's abstract.
APA's PsycInfo (through Ovid, EBSCO or its own export) ends every abstract with its
copyright on the database record, "(PsycInfo Database Record (c) 2023 APA, all rights
reserved)": no part of the abstract, and dropped (the record says where it came from).
EBSCO ends an abstract with where it came from, "[ABSTRACT FROM AUTHOR]" (or PUBLISHER):
dropped too, or its copy of an abstract read as another text than every other tool's (and
replaced theirs, or theirs it, on each import).
"""

from __future__ import annotations

import re

_NO_ABSTRACT = re.compile(r"\[?\s*no abstract( is)? available\.?\s*\]?", re.IGNORECASE)
_PSYCINFO_RECORD = re.compile(
    r"\s*\(\s*(?:APA\s+)?PsycINFO\s+Database\s+Record\s*(?:\(c\)|©)\s*\d{4}\s+APA,?"
    r"\s+all\s+rights\s+reserved\.?\s*\)\s*\.?\s*$",
    re.IGNORECASE,
)

_EBSCO_ORIGIN = re.compile(r"\s*\[ABSTRACT FROM (?:AUTHOR|PUBLISHER)\]\s*$", re.IGNORECASE)


def abstract_given(text: str) -> str:
    """``text`` without a database's notice on its record, or "" when it only says that
    there is no abstract."""
    text = _EBSCO_ORIGIN.sub("", _PSYCINFO_RECORD.sub("", text))
    return "" if _NO_ABSTRACT.fullmatch(text.strip()) else text
