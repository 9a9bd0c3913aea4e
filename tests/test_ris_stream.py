"""The RIS reader's shortcuts give what the plain way gives: values folded onto one line as
the regex folds them, and a file read a record at a time as it is read whole."""

from __future__ import annotations

import re
import sys

from reader.sources import ris_fields

_BLANKS = re.compile(r"\s+")


def _folded_by_regex(value: str) -> str:
    return _BLANKS.sub(" ", value).strip()


def test_fold_lines_folds_every_blank_the_regex_folds() -> None:
    blanks = [chr(c) for c in range(sys.maxunicode + 1) if _BLANKS.fullmatch(chr(c))]
    values = ["", " ", "plain", " a  b ", "a\tb\nc", "x\x1cy", "caf\u00e9\u00a0au\u2009lait "]
    values += [f"a{blank}b{blank}{blank}c{blank}" for blank in blanks]
    values += [f"{blank}word" for blank in blanks]
    for value in values:
        assert ris_fields.fold_lines(value) == _folded_by_regex(value), repr(value)
