"""The names a table's columns (or a JSON object's keys) go by, for each field of a paper
record: what a CSV export, a spreadsheet, Web of Science or a JSON list of papers calls a
title, a venue or a rating (read by :mod:`reader.sources.csv_table`)."""

from __future__ import annotations

__all__ = ["CSL_FIELDS", "FIELD_OF", "NAME_FIELDS", "SYNONYMS", "ZOTERO_COLUMNS"]

#: Header names (lower case, single-spaced) for each record field, most specific first.
SYNONYMS: dict[str, tuple[str, ...]] = {
    # (Not "name" alone: in a table of people it is a person's; kept, it is named unread.)
    # (And each of the four a paper needs most as a German, French or Spanish spreadsheet
    # heads it: the table is the user's own more often than an export.)
    "title": ("title", "paper title", "paper name", "article title", "document title",
              "primary title", "ti", "titel", "titre", "título", "titulo"),
    "abstract": ("abstract", "summary", "abstract note", "paper abstract", "description", "ab",
                 "zusammenfassung", "kurzfassung", "résumé", "resumen"),
    # Scopus's names written out beside its "Sennrich R." ("Sennrich, Rico (12345)").
    "full_names": ("author full names",),
    "authors": (
        "authors",
        "author",
        "author(s)",
        "author names",
        "author list",
        "authors list",
        "creators",
        "au",
        "autoren", "autor", "auteurs", "auteur", "autores",
    ),
    "year": ("publication year", "year", "pub year", "year published", "py",
             "jahr", "erscheinungsjahr", "année", "annee", "año"),
    "date": ("date", "publication date", "date published", "published", "pubdate"),
    # When the source last changed the record (Zotero's CSV: "Date Modified"): an older
    # record's text does not go over newer text.
    "modified": (
        "date modified", "modified", "last modified", "updated", "last updated", "mdate",
        "update date", "modified at", "updated at",
    ),
    # What OpenReview says of a submission (a list of a conference's papers, our export).
    "tldr": ("tldr", "tl;dr", "tl dr"),
    "primary_area": ("primary area",),
    # CSL's name: the date of publication beside a paper's own (a library's export).
    "issued": ("issued",),
    "venue": (
        "venue",
        "journal",
        "conference",
        "source title",
        "publication",
        "publication title",
        "journal title",
        "journal name",
        "journal/book",
        "booktitle",
        "book title",
        "container title",
        "source",
        "so",
    ),
    "doi": ("doi",),
    "url": ("url", "link", "links", "paper url", "web link"),
    "keywords": (
        "keywords",
        "author keywords",
        "keyword",
        "tags",
        "automatic tags",
        "index keywords",
        "de",
    ),
    # The user's own marks in another tool: Zotero's manual tags (its automatic ones are
    # the source's keywords), and the notes or comments a reference manager keeps.
    "user_tags": ("manual tags",),
    "user_note": (
        "notes", "comment", "comments", "annote", "annotation", "annotations", "my notes",
        "personal notes", "reading notes", "user notes",
    ),
    "arxiv_id": ("arxiv id", "arxiv", "eprint"),
    # Bibliographic details, kept as the CSL variables they are (Web of Science's tags too).
    "volume": ("volume", "vol", "vl"),
    "issue": ("issue", "is"),
    "page": ("pages", "page", "page range"),
    # A first and a last page in columns of their own (Scopus, Web of Science).
    "page_start": ("page start", "start page", "first page", "beginning page"),
    "page_end": ("page end", "end page", "last page", "ending page"),
    "article_number": ("art. no.", "art no", "article number", "article no"),
    "publisher": ("publisher", "pu"),
    "ISSN": ("issn", "sn"),
    "ISBN": ("isbn", "bn"),
    "language": ("language", "la", "language of original document"),  # (Scopus's)
    # The day a web page was read (Zotero's column), cited by styles that print one.
    "accessed": ("access date", "accessed", "date accessed", "urldate"),
    # As Zotero's CSV export names them.
    "edition": ("edition",),
    "publisher-place": ("place", "publisher place"),
    "collection-title": ("series", "series title"),
    "collection-number": ("series number",),
    "title-short": ("short title",),
    "number-of-pages": ("num pages", "number of pages"),
    "number-of-volumes": ("number of volumes",),
    "event": ("conference name",),
    # Zotero's Extra: a CSL variable, a BibTeX field or the key a line, else a note.
    "extra": ("extra",),
    "container-title-short": ("journal abbreviation",),
    "kind": ("type", "item type", "document type", "entry type"),
    "openreview_id": ("openreview id", "openreview", "forum", "forum id", "openreview forum"),
    # One rating per review; a column of one number per paper is read as the mean.
    "ratings": ("ratings", "scores", "review ratings", "all ratings", "rating list"),
    "rating_avg": (
        "rating avg", "ratings avg", "avg rating", "average rating", "mean rating",
        "rating mean", "avg score", "average score", "rating", "score",
    ),
    "rating_std": ("rating std", "ratings std", "std rating", "rating stdev"),
    "rating_count": (
        "n ratings", "num ratings", "number of ratings", "rating count", "ratings count",
        "n reviews", "num reviews", "number of reviews", "review count",
    ),
    "confidence": ("confidence", "confidences"),
    "confidence_avg": (
        "confidence avg", "avg confidence", "mean confidence", "confidence mean",
    ),
    "decision": ("decision", "status", "final decision", "acceptance", "presentation type"),
    # A thesis's or a report's own type ("Master's thesis", "Technical Report").
    "genre": ("genre", "thesis type", "report type"),
    # Names in other roles than the authors' (Zotero's CSV has a column for each).
    "editor": ("editor", "editors", "edited by"),
    "translator": ("translator", "translators"),
    "collection-editor": ("series editor", "series editors"),
    "container-author": ("book author", "book authors"),
    "contributor": ("contributor", "contributors"),
}
FIELD_OF = {name: field for field, names in SYNONYMS.items() for name in names}
#: Columns of Zotero's CSV (the one with an "Item Type" column) by their CSL variables: the
#: item's own type "Type" (a thesis's "Master's thesis", a report's "Technical Report"), its
#: report or patent number "Number", a patent's authority, country, application number and
#: filing date, a program's version, a presentation's meeting, a review's reviewed author.
#: As Zotero's CSL has them; elsewhere a "country" or a "version" is no such thing. (A
#: patent's assignee has no variable: it stays in the table, not cited as the publisher.)
ZOTERO_COLUMNS = {
    "type": "genre", "number": "number", "issuing authority": "authority",
    "country": "jurisdiction", "application number": "call-number",
    "filing date": "submitted", "version": "version", "meeting name": "event",
    "reviewed author": "reviewed-author",
}
#: The fields of SYNONYMS that are CSL variables, kept in the record's CSL item as written.
CSL_FIELDS = ("volume", "issue", "page", "publisher", "ISSN", "ISBN", "language", "edition",
              "genre", "number",
              "publisher-place", "collection-title", "collection-number", "title-short",
              "container-title-short", "number-of-pages", "number-of-volumes", "event",
              "authority", "jurisdiction", "call-number", "version")
#: The fields of SYNONYMS that are CSL name variables, read as lists of names.
NAME_FIELDS = ("editor", "translator", "collection-editor", "container-author", "contributor",
               "reviewed-author")
