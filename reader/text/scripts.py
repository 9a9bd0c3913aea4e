"""Which script a name is written in, where that decides how it is written and cited."""

from __future__ import annotations

import re

__all__ = ["EAST_ASIAN", "EAST_ASIAN_CHARS"]

#: Han, kana and hangul: a name written in them is never initialised, and runs family then
#: given name with no space or comma between ("李雷", "김민준").
EAST_ASIAN_CHARS = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
#: A run of those characters.
EAST_ASIAN = re.compile(f"[{EAST_ASIAN_CHARS}]+")
