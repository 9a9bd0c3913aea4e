"""A table row's CSL variables: the bibliographic fields it gives as written, its names in
other roles than the authors', its type and its pages (read by
:mod:`reader.sources.csv_table`)."""

from __future__ import annotations

import re
from typing import Any

from reader.models import PaperRecord
from reader.record import CSL_TYPES, date_parts, display_name, split_name
from reader.sources.name_cells import name_cell
from reader.sources.table_fields import CSL_FIELDS, NAME_FIELDS
from reader.sources.zotero import ZOTERO_TYPES, zotero_date
from reader.sources.zotero_extra import ExtraFields, read_extra
from reader.text.identifiers import identifier_of_link

__all__ = ["DOCUMENT_TYPES", "csl_values", "extra_lines", "fold_cell", "shown_names", "table_kind"]

_SPACES = re.compile(r"\s+")
#: The CSL types of the document types databases write (Scopus, Web of Science): a row of
#: another tool's table whose type is "Article" is a journal's, not CSL's preprint.
DOCUMENT_TYPES = {
    "article": "article-journal", "review": "article-journal", "letter": "article-journal",
    "editorial": "article-journal", "note": "article-journal", "erratum": "article-journal",
    "short survey": "article-journal", "data paper": "article-journal",
    "conference paper": "paper-conference", "conference review": "paper-conference",
    "proceedings paper": "paper-conference", "book chapter": "chapter", "book": "book",
}


def shown_names(names: Any) -> list[str]:
    """The display names of CSL names a cell gave structured (an institution among them is
    one name, "Food and Drug Administration", not the two an authors cell's "and" makes)."""
    shown = [display_name(n) for n in names if isinstance(n, dict)] if isinstance(
        names, list) else []
    return list(dict.fromkeys(n for n in shown if n))


def fold_cell(value: str) -> str:
    """``value`` on one line with single spaces."""
    return _SPACES.sub(" ", value).strip()


def extra_lines(values: dict[str, str]) -> ExtraFields | None:
    """What a Zotero CSV's Extra cell says, a line each (see :mod:`.zotero_extra`)."""
    text = values.get("extra", "")
    return read_extra(text.splitlines(), zotero_date) if text.strip() else None


def csl_values(
    values: dict[str, str], *, own: bool = False, zotero: bool = False
) -> dict[str, Any]:
    """The CSL variables a row gives as written (volume, pages, publisher, ...), the names
    of editors, translators and other roles, with its
    type where it names a CSL type (a library's own export writes one, ``own``), a
    database's document type (Scopus's "Article", "Conference Paper") or a Zotero item
    type (Zotero's CSV export: ``journalArticle``, ``bookSection`` …); its pages from a first
    and a last page column where it has no pages column. In Zotero's CSV (``zotero``) a
    name without a comma is a single-field name (an institution's)."""
    csl: dict[str, Any] = {
        name: fold_cell(values[name]) for name in CSL_FIELDS if fold_cell(values.get(name, ""))
    }
    authors = name_cell(values.get("authors", ""), family_first=zotero)
    if any(("literal" in name and zotero) or split_name(display_name(name)) != name
           for name in authors):
        # Names the display names alone would split otherwise: an institution's, which is
        # no "Organization, W. H." (in another table than Zotero's, which structures every
        # name, one kept whole anyway, "ATLAS Collaboration", needs no structure), or a
        # family name of two words ("García Márquez, Ana", not Márquez, A. G.).
        csl["author"] = authors
    for role in NAME_FIELDS:
        names = name_cell(values.get(role, ""), family_first=zotero)
        if names:
            csl[role] = names
    issued = date_parts(fold_cell(values.get("issued", "")))
    written = fold_cell(values.get("date", ""))
    if not issued and written and not own:
        # Another tool's date column (Zotero's "Date", "15 March 2021" too) is the day the
        # work was published: cited with its month where a style prints one.
        issued = date_parts(zotero_date(written))
        issued = issued if issued and len(issued) > 1 else None
    if issued:
        csl["issued"] = {"date-parts": [issued]}
    submitted = date_parts(zotero_date(fold_cell(values.get("submitted", ""))))
    if submitted:
        csl["submitted"] = {"date-parts": [submitted]}  # a patent's filing date (Zotero's)
    accessed = date_parts(zotero_date(fold_cell(values.get("accessed", ""))))
    if accessed:
        csl["accessed"] = {"date-parts": [accessed]}
    if "page" not in csl and fold_cell(values.get("page_start", "")):
        first, last = fold_cell(values["page_start"]), fold_cell(values.get("page_end", ""))
        csl["page"] = f"{first}-{last}" if last and last != first else first
    if fold_cell(values.get("article_number", "")):
        csl.setdefault("number", fold_cell(values["article_number"]))  # (cited "Article e1023")
    extra = extra_lines(values)
    if extra is not None:
        # Zotero's Extra: its CSL variables where the row has none, its other lines a note.
        for variable, value in extra.csl.items():
            if variable != "DOI":  # (the record's DOI: read by the table's reader)
                csl.setdefault(variable, value)
        if extra.notes:
            csl.setdefault("note", "\n".join(extra.notes))
    kind = fold_cell(values.get("kind", ""))
    if not own and kind.lower() in DOCUMENT_TYPES:
        # A database's document type ("Article" is a journal's, not CSL's preprint).
        csl["type"] = DOCUMENT_TYPES[kind.lower()]
    elif own and kind.lower() == "article":
        # A preprint: one naming its server as publisher (Zotero's, a CSL-JSON file's) has
        # the type of its own, read back; another is the library's, told by its arXiv id.
        if "publisher" in csl:
            csl["type"] = "article"
    elif kind.lower() in CSL_TYPES:
        csl["type"] = kind.lower()
    elif kind in ZOTERO_TYPES:
        csl["type"] = ZOTERO_TYPES[kind]
    if csl.get("type") == "speech" and "publisher-place" in csl:
        # A talk's place is its meeting's (APA: "NAACL 2022, Seattle, WA"), as from RIS.
        csl.setdefault("event-place", csl.pop("publisher-place"))
    return csl


def table_kind(cell: str, *, own: bool) -> str | None:
    """The row's type as its kind; in a library's own export the type is CSL's, whose
    ``article`` is a preprint (its type, where it has one: :func:`csl_values`), not the
    journal article BibTeX's @article is: read as that kind, it was exported as one."""
    kind = fold_cell(cell).lower()
    return None if not kind or (own and kind == "article") else kind


def unread_columns(
    source: str, columns: list[tuple[str | None, str]], records: list[PaperRecord]
) -> list[str]:
    """Said once for a table: the columns read as no field of a paper's (their cells kept
    as written among its source fields, ``extra["table"]``), as other formats name the
    fields they do not keep; and, where a title was derived from an abstract beside them,
    that one of them may have been the title, read under another name."""
    # A column of links to the paper's pages ("openreview_url", a "pdf") is read: its
    # links give the paper's ids, as its id columns would.
    # A second column of a field another gave first ("Paper Title" after "Paper Name"),
    # where it says something else, is kept and not read either.
    # The first column of a field is read: what of it is kept as written (an "N/A" rating,
    # a mean its ratings contradict) is said where the import says what it read.
    first = {field: name for field, name in reversed(columns) if field}
    unread = [name for field, name in columns if first.get(field or "") != name and any(
        name in (kept := record.extra.get("table", {}))
        and identifier_of_link(kept[name]) is None for record in records)]
    if not unread:
        return []
    names = ", ".join(repr(name) for name in unread[:10])
    more = f" and {len(unread) - 10:,} more" if len(unread) > 10 else ""
    titled = any(field == "title" for field, _ in columns)
    derived = 0 if titled else sum(record.title_derived for record in records)
    titles = (f"; {derived:,} title{'s' if derived != 1 else ''} derived from the abstract, "
              "as no column is named 'title'" if derived else "")
    return [f"{source}: columns read as no field of a paper, kept as written among its "
            f"source fields: {names}{more}{titles}"]
