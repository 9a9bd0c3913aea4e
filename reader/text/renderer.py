"""What makes a rendering of TeX as plain text: a digest of the renderer, so that what an
older renderer made is never taken for what this one makes (see
:mod:`reader.search.renderings`, which remembers renderings under it).

The digest is of the renderer's own code and of the versions of pylatexenc and of
Unicode's tables; this module reads nothing else and keeps nothing.
"""

from __future__ import annotations

import functools
import hashlib
import unicodedata
from pathlib import Path

#: The modules a rendering is made by: reader.text.render and what it imports of
#: reader.text (a test keeps the list whole).
RENDERER_MODULES = ("render", "latex", "accents", "protect", "markers", "texscripts", "pattern")


@functools.cache
def renderer() -> bytes:
    """A digest of what makes a rendering: the code of the renderer's modules and the
    versions of the library and the tables it renders with."""
    # Imported here: importlib.metadata and the email package it loads are a tenth of what
    # the reader imports before its first frame, and only an import needs them.
    from importlib.metadata import version

    made_of = hashlib.blake2b(digest_size=16)
    for name in RENDERER_MODULES:
        path = Path(__file__).with_name(f"{name}.py")
        made_of.update(path.name.encode())
        made_of.update(path.read_bytes())
    made_of.update(version("pylatexenc").encode())
    made_of.update(unicodedata.unidata_version.encode())
    return made_of.digest()
