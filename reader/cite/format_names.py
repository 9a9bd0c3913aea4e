"""The names of the citation and export formats.

Apart from the code that writes them, so that choosing a format (the command line's
``--format``) does not load the citation engine: that is most of the start of ``reader``.
"""

from __future__ import annotations

#: What ``reader cite --format`` and the citation picker can produce.
CITATION_FORMATS = ("text", "bibtex", "biblatex", "csljson", "key", "latex", "pandoc", "markdown")
#: What ``reader export --format`` can write.
EXPORT_FORMATS = ("bibtex", "biblatex", "csljson", "ris", "markdown", "csv", "json")
