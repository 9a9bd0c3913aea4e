"""CSL-JSON, the citation format of Zotero, Pandoc and citeproc: a JSON array of items (or a
single item) with ``title``, ``author`` [{family, given} or {literal}], ``issued``
{"date-parts": [[2020, 5, 1]]}, ``container-title``, ``DOI``, ``URL``, ``abstract``, ``type``
and ``keyword``.
"""

from __future__ import annotations

import re
from typing import Any

from reader.models import PaperRecord
from reader.record import (
    COLUMN_VARIABLES,
    NAME_VARIABLES,
    clean_names,
    display_name,
    keep_written_doi,
)
from reader.signals import EXPORT_STATES
from reader.sources import ParseResult, Streamed
from reader.sources.jsonarray import iter_array
from reader.sources.jsonfields import (
    clean_abstract,
    clean_title,
    iso_date,
    string_list,
    text_value,
    year_value,
)
from reader.sources.jsonload import JsonRecord, load_records, skip_ws
from reader.sources.jsonsniff import (
    Outcome,
    build_result,
    convert_records,
    finish_record,
    record_label,
)
from reader.sources.seed import TITLE_MAX
from reader.sources.textfile import TextFile
from reader.sources.withdrawn import decided, unpublished_venue
from reader.text.identifiers import (
    compared_doi,
    doi_as_written,
    normalize_arxiv_id,
    openreview_forum_id,
    openreview_id,
)
from reader.text.render import plain_line, to_plain
from reader.text.rich_text import html_title

# The keys that name an item in problem lines.
_ID_KEYS = ("id", "citation-key")
_ISO_DATE = re.compile(r"(?<!\d)(\d{4})(?:-(\d{1,2})(?:-(\d{1,2}))?)?(?!\d)")
# The formats whose own fields an item's ``custom`` may carry (as reader exports them):
# every source whose fields a paper keeps (a paperlists record's, a table's columns).
_SOURCE_FORMATS = frozenset({"bibtex", "ris", "medline", "wos", "zotero", "paperlists", "table",
                             "arxiv"})
# Variables that name a record without a title (a whole journal issue, a bare note).
_STAND_IN_TITLES = ("collection-title", "event", "note", "publisher")
# Name parts in reading order; particles such as "van" or "de" sit between given and family.
_NAME_PARTS = ("given", "dropping-particle", "non-dropping-particle", "family", "suffix")
# A link written without its scheme (a table's "openreview.net/forum?id=…"): a host name, then
# a path. Other values without a scheme (a file name, a note) are no link.
_HOST_PATH = re.compile(r"(?:[\w-]+\.)+[a-z]{2,}/\S*", re.IGNORECASE)


def parse(text: str, source: str) -> ParseResult:
    """Records of a CSL-JSON text (an array of items or one item); ``source`` names the file."""
    return build_result(load_records(text, source), _convert, _ID_KEYS)


def stream_file(file: TextFile, source: str, problems: list[str]) -> Streamed | None:
    """The records of ``parse`` for an array of items, each decoded from the file when it
    is asked for, and how many items there are; problem lines are added to ``problems`` as
    their items are met. None for any other text (a single item, an array that does not
    start with an item, a file that is not UTF-8), which is read whole.

    The array is read through once first, keeping nothing: a file that is not JSON is
    refused with the error (and the line and column) ``parse`` gives, before any record
    is asked for."""
    head = file.head()
    pos = skip_ws(head, 1 if head.startswith("\ufeff") else 0)
    if file.encoding != "utf-8" or not head.startswith("[", pos):
        return None
    if not head.startswith("{", skip_ws(head, pos + 1)):
        return None
    count = sum(isinstance(item.value, dict) for item in iter_array(file.pieces(), source))
    records = iter_array(file.pieces(), source)
    return convert_records(records, _convert, problems, _ID_KEYS), count


def _convert(record: JsonRecord) -> Outcome:
    """One CSL item as a paper, or the problem that keeps it out."""
    item: dict[str, Any] = record.value
    date = _issued(item.get("issued"))
    year = int(date[:4]) if date else None
    submitted = _issued(item.get("submitted"))
    if submitted and (date is None or len(date) == 4):
        # The paper's own date beside the year it was published (our export writes an arXiv
        # or OpenReview submission day so): the paper's date, cited as the year.
        date = submitted
    url = clean_title(_first(item.get("URL")))
    written_doi = doi_as_written(clean_title(_first(item.get("DOI"))))
    # Zotero may export a short DOI ("10/fqd6hj"); it is kept as written.
    doi = compared_doi(written_doi, url)
    arxiv_id = normalize_arxiv_id(url) if "arxiv.org/" in url else None
    extra = _source_fields(item.get("custom"))
    custom = item.get("custom")
    if not arxiv_id and isinstance(custom, dict) and isinstance(custom.get("arxiv"), str):
        # The arXiv id our export keeps for a paper whose link is another's.
        arxiv_id = normalize_arxiv_id(custom["arxiv"])
    bibtex = extra.get("bibtex", {})
    if str(bibtex.get("archiveprefix", "")).lower() == "arxiv" and bibtex.get("eprint"):
        # Written from a BibTeX record's arXiv id: the id again, as the BibTeX importer has it.
        arxiv_id = normalize_arxiv_id(str(bibtex.pop("eprint")))
        bibtex.pop("archiveprefix")
        own = bibtex.pop("url", None)  # the paper's link, when the export's reads alike
        if url == f"https://arxiv.org/abs/{arxiv_id}" != own:
            url = ""  # the export's link to it, not a URL of the paper's own
    csl = _variables(item)
    if submitted and date == submitted:
        csl.pop("submitted", None)
        if csl.get("issued") == {"date-parts": [[year]]}:
            del csl["issued"]
    venue = clean_title(_first(item.get("container-title"))) or None
    if venue and csl.get("container-title") == venue:
        del csl["container-title"]  # the venue column holds it
    elif not venue and item.get("type") == "article" and not (
        isinstance(custom, dict) and custom.get("venue") == ""
    ):
        # A preprint's server is its publisher and its venue, as Zotero has it (and our
        # export writes it: "arXiv" as publisher, no container), but where our export
        # says the paper had no venue.
        venue = clean_title(_first(item.get("publisher"))) or None
    bibtex_type = bibtex.get("@type")
    keep_written_doi(csl, written_doi, doi)
    withdrawn, tldr, area = _openreview(item, csl)
    paper = PaperRecord(
        abstract=clean_abstract(item.get("abstract")),
        # (Zotero's rich text: <i>, <sup>, <span class="nocase">)
        title=html_title(clean_title(_first(item.get("title")))),
        authors=[display_name(n) for n in csl.get("author", [])] or _names(item.get("author")),
        venue=venue,
        year=year or (int(date[:4]) if date else None),
        keywords=string_list(item.get("keyword"), r"\s*[,;]\s*"),
        url=url if url.startswith(("http://", "https://")) or _HOST_PATH.fullmatch(url) else None,
        openreview_id=openreview_forum_id(url) or _custom_openreview(custom),
        doi=doi,
        arxiv_id=arxiv_id,
        date=date,
        withdrawn=withdrawn,
        tldr=tldr or None,
        primary_area=area or None,
        kind=clean_title(bibtex_type or item.get("type")) or None,
        citekey=clean_title(item.get("citation-key")) or _key_from_id(item.get("id")),
        aliases=_aliases(item.get("custom")),
        csl=csl,
        extra=extra,
    )
    tex_title = bibtex.pop("title", None)
    if isinstance(tex_title, str) and paper.title and plain_line(tex_title) == paper.title:
        paper.title = tex_title  # a BibTeX record's title, kept as the TeX it was written in
    if bibtex.pop("abstract", None) is not None:
        # Taken raw: the cleaned custom fields are on one line, the TeX abstract has paragraphs.
        tex_abstract = clean_abstract(item["custom"]["bibtex"]["abstract"])
        if to_plain(tex_abstract).split() == (paper.abstract or "").split():
            paper.abstract = tex_abstract  # kept as the TeX it was written in
    if not paper.title and not paper.abstract:
        # A whole journal issue or a bare note: still a record, named by what it has.
        named = [venue or "", *(csl.get(v) for v in _STAND_IN_TITLES)]
        stand_in = next((v for v in named if isinstance(v, str) and v), "")
        paper.title = stand_in[:TITLE_MAX]
        paper.title_derived = bool(paper.title)
    # (the venue a withdrawn submission was submitted to, as our export writes it)
    paper.signals = decided(paper, clean_title(item.get("status")), _accepted(custom))
    unpublished_venue(paper, clean_title(item.get("event-title")), "event-title", "event")
    return finish_record(paper, record, record_label(record, _ID_KEYS))


def _accepted(custom: Any) -> str:
    """An accepted or withdrawn paper's decision ("poster"), which our export keeps in
    ``custom``."""
    return clean_title(custom.get("decision")) if isinstance(custom, dict) else ""


def _key_from_id(ident: Any) -> str | None:
    """An item's id as its citation key, unless it is a link or a number (Zotero's ids are
    its items' URIs, "http://zotero.org/users/1/items/IJKL9012"; others number them)."""
    key = clean_title(ident)
    if not key or "/" in key or " " in key or key.isdigit():
        return None
    return key


def _aliases(custom: Any) -> list[str]:
    """The paper's other citation keys, which our export keeps in ``custom`` as ``ids``."""
    ids = custom.get("ids") if isinstance(custom, dict) else None
    return [k for k in (clean_title(i) for i in ids if isinstance(i, str)) if k] if isinstance(
        ids, list) else []


def _openreview(item: dict[str, Any], csl: dict[str, Any]) -> tuple[bool, str, str]:
    """Whether the item is a withdrawn submission (its ``status``, then taken out of ``csl``),
    its TL;DR and its primary area, which our export keeps in ``custom``."""
    status = clean_title(item.get("status")).lower()
    # A retracted paper is withdrawn too (as MEDLINE's is read), its status kept as its own.
    withdrawn = status in ("withdrawn", "retracted")
    if status in EXPORT_STATES:
        # Said by the library's export of what it knows (a withdrawal, a decision turned
        # down or still pending: read as the paper's), not kept as the record's own status.
        csl.pop("status", None)
    custom = item.get("custom")
    if not isinstance(custom, dict):
        custom = {}
    return withdrawn, clean_title(custom.get("tldr")), clean_title(custom.get("primaryarea"))


def _custom_openreview(custom: Any) -> str | None:
    """The OpenReview forum's id our export keeps in ``custom`` for a paper whose link is
    another's."""
    value = custom.get("openreview") if isinstance(custom, dict) else None
    return openreview_id(value) if isinstance(value, str) else None


def _source_fields(custom: Any) -> dict[str, dict[str, Any]]:
    """The source fields an export keeps in ``custom`` (by format: ``{"bibtex": {…}}``)."""
    if not isinstance(custom, dict):
        return {}
    return {
        clean_title(fmt): _clean(fields)
        for fmt, fields in custom.items()
        if fmt in _SOURCE_FORMATS and isinstance(fields, dict) and fields
    }


def _variables(item: dict[str, Any]) -> dict[str, Any]:
    """The item's CSL variables beyond the paper's columns: names cleaned, the rest as given."""
    csl: dict[str, Any] = {}
    for variable, value in item.items():
        if variable in COLUMN_VARIABLES or variable == "custom" or value in (None, "", [], {}):
            continue
        if variable in NAME_VARIABLES:
            names = clean_names(_clean(value))
            if names:
                csl[variable] = names
        elif isinstance(value, str):
            text = clean_title(value)
            if text:
                csl[variable] = text
        elif isinstance(value, int | float | list | dict) and not isinstance(value, bool):
            csl[variable] = _clean(value)
    return csl


def _clean(value: Any) -> Any:
    """A JSON value with every string in it cleaned as imported text is."""
    if isinstance(value, str):
        return clean_title(value)
    if isinstance(value, list):
        return [_clean(v) for v in value]
    if isinstance(value, dict):
        return {clean_title(k): _clean(v) for k, v in value.items()}
    return value


def _first(value: Any) -> Any:
    """A value, or the first of a list of values (some exporters wrap single strings)."""
    if isinstance(value, list):
        return value[0] if value else None
    return value


def _names(value: Any) -> list[str]:
    """Display names "Given Family" from CSL name objects (or plain strings)."""
    if not isinstance(value, list):
        value = [value]
    names: list[str] = []
    for person in value:
        if isinstance(person, dict):
            name = clean_title(person.get("literal"))
            if not name:
                parts = (clean_title(person.get(part)) for part in _NAME_PARTS)
                name = " ".join(p for p in parts if p)
        else:
            name = clean_title(person)
        if name and name not in names:
            names.append(name)
    return names


def _issued(value: Any) -> str | None:
    """ISO date of a CSL date: ``date-parts``, else its ``raw`` or ``literal`` text."""
    if isinstance(value, dict):
        parts = value.get("date-parts")
        if isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0]:
            found = iso_date(*(parts[0] + [None, None])[:3])
            if found:
                return found
        text = text_value(value.get("raw")) or text_value(value.get("literal"))
    else:
        text = text_value(value)  # some exporters give the date as a plain string
    match = _ISO_DATE.search(text)
    if match:
        return iso_date(match.group(1), match.group(2), match.group(3))
    year = year_value(text)
    return iso_date(year) if year else None
