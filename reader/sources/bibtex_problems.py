"""The problem line a block of a .bib file that bibtexparser could not read gives: which
block (an entry by its key, an @string …), at which line, and why, in the user's words."""

from __future__ import annotations

import re

from bibtexparser.model import ParsingFailedBlock

__all__ = ["describe_failure"]

_FAILED_HEAD = re.compile(r"@\s*(\w*)\s*[{(]\s*([^\s,{}()=\"#]*)")


def describe_failure(block: ParsingFailedBlock, source: str, lines_before: int = 0) -> str:
    """One problem line for a block bibtexparser could not read."""
    line = lines_before + (block.start_line or 0) + 1
    raw = block.raw or ""
    head = _FAILED_HEAD.match(raw.lstrip())
    kind = head.group(1).lower() if head else ""
    key = head.group(2) if head else ""
    if kind in ("string", "preamble", "comment"):
        what = f"@{kind}"
    elif key:
        what = f"entry '{key}'"
    else:
        what = f"@{kind} entry" if kind else "entry"
    reason = str(getattr(block.error, "abort_reason", "") or block.error)
    if "end of file" in reason:
        detail = "has no closing brace (the file ends first)"
    elif "Unexpected block start" in reason:
        detail = "has no closing brace (the next entry starts first)"
    elif "comma after entry key" in reason:
        detail = "has no comma after its key"
    elif "Expected a `=`" in reason:
        detail = "has a field without '='"
    else:
        detail = f"could not be read ({reason.strip()})"
    return f"{source}:{line}: {what} {detail}; skipped"
