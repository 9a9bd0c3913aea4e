"""Storage: the SQLite library (schema and migrations, papers, marks, notes and their
versions, tags, highlights, import history, backups) and the watch on other writers.

May use reader.models, reader.record and reader.text; never the search index, the
sources or the UI.
"""
