"""reader: a keyboard-driven terminal reader and annotator for research-paper abstracts.

The package splits into a headless core (models, store, search, importers, citations,
clipboard) that never imports Textual, and the terminal UI in ``reader.ui``.
"""

__version__ = "0.1.0"
