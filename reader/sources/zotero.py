"""Zotero and Better BibTeX JSON exports: ``{"config": …, "items": [{itemType, title,
creators, date, publicationTitle, volume, issue, pages, DOI, notes, …}]}`` (Better BibTeX),
or a bare array of such items (Zotero's own JSON).

Item types become CSL types and fields CSL variables as Zotero itself maps them; creators
become names ({firstName, lastName} or {name}, a literal) under the CSL variable of their
role; the child notes, HTML, become the paper's note in Markdown. Fields without a CSL
variable are kept for a Zotero export.

The lines of ``extra`` become the fields they name (see :mod:`reader.sources.zotero_extra`):
the citation key, BibTeX fields for an export, CSL variables; the rest stays a note. Tags
the user gave (Zotero's manual tags) become the paper's tags; the automatic ones, which
Zotero took from the database the item came from (its subject headings), are keywords.
The collections an item is in (Better BibTeX's top-level ``collections``, each listing its
items, or the item's own ``collections`` keys) are tags too, as JabRef's and Mendeley's
groups are: each collection by its own name, a nested one's as JabRef names a subgroup.
"""

from __future__ import annotations

import json
import re
from functools import partial
from typing import Any

from reader.models import PaperRecord
from reader.record import date_parts, display_name, is_anonymous, keep_written_doi
from reader.sources import ImportFormatError, ParseResult
from reader.sources.dates import MONTHS
from reader.sources.jsonfields import clean_abstract, clean_title, iso_date, moment_from_text
from reader.sources.jsonload import TOO_DEEP, JsonRecord, too_deep
from reader.sources.jsonsniff import Outcome, build_result, finish_record, record_label
from reader.sources.zotero_extra import read_extra, zotero_note
from reader.sources.zotero_types import TYPE_FIELDS, read_type_fields
from reader.text.identifiers import (
    compared_doi,
    doi_as_written,
    normalize_arxiv_id,
    openreview_forum_id,
)
from reader.text.tags import normalize_tag, tags_as_written

__all__ = ["looks_like_zotero", "parse", "zotero_date"]

ZOTERO_TYPES = {
    "journalArticle": "article-journal", "magazineArticle": "article-magazine",
    "newspaperArticle": "article-newspaper", "book": "book", "bookSection": "chapter",
    "conferencePaper": "paper-conference", "thesis": "thesis", "report": "report",
    "webpage": "webpage", "blogPost": "post-weblog", "forumPost": "post",
    "preprint": "article", "manuscript": "manuscript", "document": "document",
    "dataset": "dataset", "computerProgram": "software", "patent": "patent",
    "encyclopediaArticle": "entry-encyclopedia", "dictionaryEntry": "entry-dictionary",
    "presentation": "speech", "letter": "personal_communication", "email":
    "personal_communication", "interview": "interview", "film": "motion_picture",
    "videoRecording": "motion_picture", "audioRecording": "song", "podcast": "song",
    "radioBroadcast": "broadcast", "tvBroadcast": "broadcast", "map": "map",
    "artwork": "graphic", "statute": "legislation", "case": "legal_case",
    "hearing": "hearing", "bill": "bill", "standard": "standard",
}
# Zotero fields → CSL variables (the fields in the paper's own columns are read apart).
_VARIABLES = {
    "volume": "volume", "issue": "issue", "pages": "page", "edition": "edition",
    "publisher": "publisher", "university": "publisher", "institution": "publisher",
    "company": "publisher", "label": "publisher", "place": "publisher-place",
    "ISBN": "ISBN", "ISSN": "ISSN", "language": "language", "series": "collection-title",
    "seriesTitle": "collection-title", "seriesNumber": "collection-number",
    "numPages": "number-of-pages", "numberOfVolumes": "number-of-volumes",
    "shortTitle": "title-short", "journalAbbreviation": "container-title-short",
    "libraryCatalog": "source", "archive": "archive", "archiveLocation": "archive_location",
    "callNumber": "call-number", "reportNumber": "number", "number": "number",
    "thesisType": "genre", "reportType": "genre", "websiteType": "genre",
    "conferenceName": "event", "section": "section",
    # Zotero 7's preprint: its archive and its number there ("arXiv", "arXiv:2310.06825").
    "repository": "publisher", "archiveID": "number",
    "versionNumber": "version", "rights": "license", "PMID": "PMID", "PMCID": "PMCID",
}
# (A series title is no container: Zotero cites it as the series, ``collection-title``, as
# its CSV's "Series Title" is read; a report in a series is not "In" it.)
_CONTAINERS = ("publicationTitle", "bookTitle", "proceedingsTitle", "websiteTitle",
               "blogTitle", "encyclopediaTitle", "dictionaryTitle", "forumTitle",
               "programTitle")
_ROLES = {
    "author": "author", "editor": "editor", "translator": "translator",
    "bookAuthor": "container-author", "seriesEditor": "collection-editor",
    "reviewedAuthor": "reviewed-author", "director": "director", "interviewer": "interviewer",
    "recipient": "recipient", "contributor": "contributor", "composer": "composer",
    "producer": "producer", "castMember": "performer", "guest": "guest", "host": "host",
    "presenter": "author", "programmer": "author", "inventor": "author", "artist": "author",
    "podcaster": "author", "cartographer": "author", "sponsor": "author",
}
_COLUMNS = frozenset({"title", "abstractNote", "url", "DOI", "date", "accessDate", "creators",
                      "tags", "notes", "itemType", "citationKey", "extra", *_CONTAINERS})
_IGNORED = frozenset({"itemID", "key", "version", "uri", "attachments", "collections",
                      "relations", "dateAdded", "dateModified", "select", "itemKey",
                      "libraryID"})
_ISO = re.compile(r"(\d{4})(?:-(\d{1,2})(?:-(\d{1,2}))?)?")
_WRITTEN = re.compile(r"([A-Za-z]{3,})\.?\s+(?:(\d{1,2}),?\s+)?(\d{4})")
_DAY_FIRST = re.compile(r"(\d{1,2})\s+([A-Za-z]{3,})\.?\s+(\d{4})")
# Zotero's tag type for a tag an import or a translator added, not the user.
_AUTOMATIC_TAG = 1


def looks_like_zotero(value: Any) -> bool:
    """Whether a first JSON record is a Zotero item or a Better BibTeX export."""
    if isinstance(value, dict) and isinstance(value.get("items"), list):
        first = value["items"][0] if value["items"] else {}
        return isinstance(value.get("config"), dict) or (
            isinstance(first, dict) and "itemType" in first
        )
    return isinstance(value, dict) and "itemType" in value and "creators" in value


def parse(text: str, source: str) -> ParseResult:
    """Records of a Zotero or Better BibTeX JSON text; ``source`` names the file."""
    try:
        data = json.loads(text.lstrip("\ufeff"))
    except RecursionError:
        raise ImportFormatError(
            f"{source}: JSON nested too deeply to be paper records"
        ) from None
    except ValueError as exc:
        raise ImportFormatError(f"{source}: not JSON ({exc})") from exc
    if isinstance(data, dict | list) and too_deep(data):
        raise ImportFormatError(f"{source}: {TOO_DEEP}")
    items = data.get("items") if isinstance(data, dict) else data
    if not isinstance(items, list):
        raise ImportFormatError(f"{source}: no 'items' list: not a Zotero export")
    records = [
        JsonRecord(item, f"{source}#{n}", source, 1, n) for n, item in enumerate(items, 1)
        if not (isinstance(item, dict) and item.get("itemType") in ("note", "attachment"))
    ]
    folders = _Folders(data.get("collections") if isinstance(data, dict) else None)
    return build_result(records, partial(_convert, folders=folders), ("citationKey", "itemID"))


class _Folders:
    """The names of an export's Zotero collections, and the items each holds."""

    def __init__(self, collections: Any) -> None:
        self.names: dict[str, str] = {}
        self.by_item: dict[str, list[str]] = {}
        if not isinstance(collections, dict):
            return
        for key, collection in collections.items():
            if not isinstance(collection, dict):
                continue
            name = clean_title(collection.get("name"))
            if not name:
                continue
            self.names[str(collection.get("key") or key)] = name
            items = collection.get("items")
            for item_id in items if isinstance(items, list) else []:
                self.by_item.setdefault(str(item_id), []).append(name)

    def tags(self, item: dict[str, Any]) -> list[str]:
        """The tags of the collections the item is in (by the collection's list or its own)."""
        keys = item.get("collections")
        own = [self.names.get(str(k), "") for k in keys] if isinstance(keys, list) else []
        listed = self.by_item.get(str(item.get("itemID")), []) if "itemID" in item else []
        return [t for t in dict.fromkeys(normalize_tag(n) for n in [*listed, *own]) if t]


def _convert(record: JsonRecord, folders: _Folders | None = None) -> Outcome:
    item: dict[str, Any] = record.value
    csl: dict[str, Any] = {"type": ZOTERO_TYPES.get(str(item.get("itemType")), "document")}
    for creator in item.get("creators") or []:
        if not isinstance(creator, dict):
            continue
        name = _name(creator)
        if name and not is_anonymous(name):
            role = _ROLES.get(str(creator.get("creatorType", "author")), "author")
            csl.setdefault(role, []).append(name)
    for field, variable in _VARIABLES.items():
        value = item.get(field)
        text = clean_title(value if not isinstance(value, list) else "\n".join(map(str, value)))
        if text and variable not in csl:
            csl[variable] = text
    read_type_fields(item, csl, zotero_date)
    written_extra = item.get("extra")
    extra_lines = written_extra if isinstance(written_extra, list) else str(
        written_extra or "").splitlines()
    extra = read_extra([clean_title(line) for line in extra_lines], zotero_date)
    if extra.notes:
        csl["note"] = "\n".join(extra.notes)
    for variable, value in extra.csl.items():
        if variable == "type" or variable not in csl:
            csl[variable] = value
    issued = zotero_date(clean_title(item.get("date")))
    if issued:
        csl["issued"] = {"date-parts": [date_parts(issued)]}
    accessed = zotero_date(clean_title(item.get("accessDate")))
    if accessed:
        csl["accessed"] = {"date-parts": [date_parts(accessed)]}
    container = next((clean_title(item.get(f)) for f in _CONTAINERS if clean_title(item.get(f))),
                     "")
    url = clean_title(item.get("url")) or str(csl.pop("URL", ""))
    keywords, tags, rewritten = _tags(item.get("tags"))
    if folders is not None:
        tags += [t for t in folders.tags(item) if t not in tags]
    written_doi = doi_as_written(clean_title(item.get("DOI")) or str(csl.pop("DOI", "")))
    csl.pop("DOI", None)
    csl.pop("URL", None)
    doi = compared_doi(written_doi, url)  # the short one is kept as written
    keep_written_doi(csl, written_doi, doi)
    kept = {k: v for k, v in item.items() if k not in _COLUMNS and k not in _VARIABLES
            and k not in TYPE_FIELDS and k not in _IGNORED and v not in (None, "", [], {})}
    arxiv_id = normalize_arxiv_id(url) if "arxiv.org/" in url else None
    if extra.arxiv_id and not arxiv_id:
        arxiv_id = normalize_arxiv_id(extra.arxiv_id)
    archive_id = clean_title(item.get("archiveID"))
    if not arxiv_id and archive_id.lower().startswith("arxiv:"):
        arxiv_id = normalize_arxiv_id(archive_id[len("arxiv:"):])
    sources: dict[str, dict[str, Any]] = {"zotero": kept} if kept else {}
    if extra.bibtex:
        sources["bibtex"] = dict(extra.bibtex)
    paper = PaperRecord(
        abstract=clean_abstract(item.get("abstractNote")),
        title=clean_title(item.get("title")),
        authors=[display_name(n) for n in csl.get("author", [])],
        venue=container or None,
        year=int(issued[:4]) if issued else None,
        keywords=keywords,
        url=url if url.startswith(("http://", "https://")) else None,
        doi=doi,
        arxiv_id=arxiv_id,
        # A forum link identifies the paper, as in every other format.
        openreview_id=openreview_forum_id(url),
        date=issued,
        kind=str(item.get("itemType") or "") or None,
        citekey=clean_title(item.get("citationKey")) or extra.citekey,
        csl=csl,
        extra=sources,
        note=_notes(item.get("notes")),
        tags=tags,
        # When the item was last edited, as Zotero's CSV gives it: of two items met as one
        # paper (a preprint and its published version), the newer text is kept.
        modified=moment_from_text(item.get("dateModified")),
    )
    if extra.citekey and paper.citekey != extra.citekey:
        # Better BibTeX's key and a "Citation Key:" line naming another (pinned before a
        # rename): the item's key leads, and the other still names the paper.
        paper.aliases.append(extra.citekey)
    return finish_record(paper, record, record_label(record, ("citationKey", "itemID")))


def _name(creator: dict[str, Any]) -> dict[str, str] | None:
    """A creator as a CSL name: {lastName, firstName}, or {name} as a literal."""
    literal = clean_title(creator.get("name"))
    if literal:
        return {"literal": literal}
    family, given = clean_title(creator.get("lastName")), clean_title(creator.get("firstName"))
    if not family and not given:
        return None
    name = {"family": family or given}
    if family and given:
        name["given"] = given
    return name


def _tags(value: Any) -> tuple[list[str], list[str], list[tuple[str, str]]]:
    """The item's automatic tags as keywords (as written) and its manual tags as the
    library's tags (normalised), each without repeats; and the manual tags written
    otherwise than their tag."""
    keywords: list[str] = []
    manual: list[str] = []
    for entry in value if isinstance(value, list) else []:
        text = clean_title(entry.get("tag") if isinstance(entry, dict) else entry)
        if not text:
            continue
        automatic = isinstance(entry, dict) and str(entry.get("type", "")) == str(_AUTOMATIC_TAG)
        if automatic:
            if text not in keywords:
                keywords.append(text)
            continue
        manual.append(text)
    return (keywords, *tags_as_written(manual))


def zotero_date(text: str) -> str | None:
    """ISO date of a Zotero date ("2004", "2016-06-01", "June 1, 2016", "1 June 2016")."""
    if not text:
        return None
    match = _ISO.search(text)
    if match and (len(text) < 8 or "-" in text or "/" in text):
        return iso_date(*match.groups())
    # The day first where it is ("15 March 2021": read month first, the day was lost).
    for pattern, order in ((_DAY_FIRST, (3, 2, 1)), (_WRITTEN, (3, 1, 2))):
        found = pattern.search(text)
        if found:
            year, month, day = (found.group(i) for i in order)
            number = MONTHS.get(month[:3].lower())
            if number:
                return iso_date(year, number, day)
    return iso_date(match.group(1)) if match else None


def _notes(value: Any) -> str | None:
    """The item's child notes (HTML) as one Markdown note."""
    if not isinstance(value, list):
        return None
    notes = [note.get("note") if isinstance(note, dict) else note for note in value]
    return zotero_note([note for note in notes if isinstance(note, str)])
