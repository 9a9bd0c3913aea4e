"""What a database writes where it has no value: read as no value at all.

Scopus writes "[No abstract available]" in the abstract of a record it has none for, in
its CSV and its RIS alike; kept, it was shown, searched and cited as the paper's abstract.
APA's PsycInfo (through Ovid, EBSCO or its own export) ends every abstract with its
copyright on the database record, "(PsycInfo Database Record (c) 2023 APA, all rights
reserved)": no part of the abstract, and dropped (the record says where it came from).
EBSCO ends an abstract with where it came from, "[ABSTRACT FROM AUTHOR]" (or PUBLISHER):
dropped too, or its copy of an abstract read as another text than every other tool's (and
replaced theirs, or theirs it, on each import). Scopus ends one with the publisher's
copyright ("© 2022 … All rights reserved."), in its CSV and its RIS alike: set apart and
kept beside the record's other fields (:func:`copyright_apart`).
"""

from __future__ import annotations

import re

_NO_ABSTRACT = re.compile(r"\[?\s*no abstract( is)? available\.?\s*\]?", re.IGNORECASE)
_PSYCINFO_RECORD = re.compile(
    r"\s*\(\s*(?:APA\s+)?PsycINFO\s+Database\s+Record\s*(?:\(c\)|©)\s*\d{4}\s+APA,?"
    r"\s+all\s+rights\s+reserved\.?\s*\)\s*\.?\s*$",
    re.IGNORECASE,
)

# The copyright notice that ends an abstract: "© 2022 …", "Copyright © 2021 …", "(c) 2020 …",
# "Copyright 2023 Barker et al.".
_NOTICE = re.compile(
    r"(?:^|(?<=[.!?)\]]))\s*"
    r"(?P<notice>(?:copyright\s*(?:©\s*|\(c\)\s*)?(?=\d)|©|\(c\)\s*(?=\d))[^©]*)$",
    re.IGNORECASE,
)
# The longest notice read as one: a longer tail after a "©" is more than a notice.
_NOTICE_MAX = 300
_EBSCO_ORIGIN = re.compile(r"\s*\[ABSTRACT FROM (?:AUTHOR|PUBLISHER)\]\s*$", re.IGNORECASE)


def abstract_given(text: str) -> str:
    """``text`` without a database's notice on its record, or "" when it only says that
    there is no abstract."""
    text = _EBSCO_ORIGIN.sub("", _PSYCINFO_RECORD.sub("", text))
    return "" if _NO_ABSTRACT.fullmatch(text.strip()) else text


def copyright_apart(abstract: str) -> tuple[str, str | None]:
    """``abstract`` without the copyright notice a database ends it with, and the notice
    (None when it has none)."""
    notice = _NOTICE.search(abstract)
    if notice and notice.start() > 0 and len(notice["notice"]) <= _NOTICE_MAX:
        return abstract[: notice.start()].rstrip(), notice["notice"].strip()
    return abstract, None
