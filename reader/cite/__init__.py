"""Citations out: keys, BibTeX entries, CSL styles, every citation and export format, and
the clipboard.

May use reader.models, reader.record, reader.text and the sources' BibTeX name rules.
"""
