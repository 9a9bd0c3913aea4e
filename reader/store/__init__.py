"""Storage: the SQLite library (schema and migrations, papers, marks, notes and their
versions, tags, highlights, the rows an import writes and its history, undo, backups) and
the watch on other writers.

May use reader.models, reader.record, reader.text and the small modules beside them
(errors, locations, resources); never the search index, the sources, the citations, the
import logic (reader.intake decides what an import writes) or the UI.
"""
