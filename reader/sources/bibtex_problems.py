"""The problem line a block of a .bib file that bibtexparser could not read gives: which
block (an entry by its key, an @string …), at which line, and why, in the user's words; and
the remark a @preamble, which the library does not keep, gives."""

from __future__ import annotations

import re

from bibtexparser.model import ParsingFailedBlock, Preamble

from reader.import_summary import ReadRemark

__all__ = ["describe_failure", "preamble_left_out"]

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


def preamble_left_out(block: Preamble, source: str, lines_before: int) -> ReadRemark:
    """What to say of a ``@preamble``: the library keeps papers, not a file's TeX, and an
    export writes none, so that what its macros define (xampl's ``\\noopsort``, used in the
    years) is for the user to carry into the document."""
    text = " ".join(str(block.value).split())
    shown = text if len(text) <= 70 else f"{text[:69]}…"
    line = lines_before + (block.start_line or 0) + 1
    return ReadRemark(f"{source}:{line}: its @preamble is not kept, and an export writes none "
                      f"(fields that use its macros need them in the document): {shown}")
