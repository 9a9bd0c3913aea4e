"""Search: the Whoosh index derived from the library, its fast builder, the analyzers and
the query language.

May use reader.models and reader.text; reads nothing from the store but what it is given.
"""
