"""The names of the citation and export formats, and of the clipboard's routes.

Apart from the code that writes them, so that choosing a format (the command line's
``--format``) does not load the citation engine: that is most of the start of ``reader``;
and so that the config, read before the window's first frame, checks a route's name
without loading the clipboard's code.
"""

from __future__ import annotations

#: What ``reader cite --format`` and the citation picker can produce.
CITATION_FORMATS = ("text", "bibtex", "biblatex", "csljson", "key", "latex", "pandoc", "markdown")
#: What ``reader export --format`` can write.
EXPORT_FORMATS = ("bibtex", "biblatex", "csljson", "ris", "markdown", "csv", "json")
#: The routes a copy can take to the clipboard, in the order tried (``reader.cite.clipboard``).
ROUTES = ("system", "osc52", "file")
