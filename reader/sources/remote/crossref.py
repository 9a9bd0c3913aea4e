"""Crossref's REST API for DOIs: a work's JSON as a record, its JATS abstract as text."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from reader.models import PaperRecord
from reader.sources.jsonfields import clean_abstract, clean_title, iso_date, string_list
from reader.sources.remote.client import ACCEPT_JSON, Client, Failure, Outcome, read_json
from reader.sources.remote.markup import jats_to_text
from reader.sources.seed import TITLE_MAX
from reader.text.identifiers import normalize_doi
from reader.text.render import to_plain
from reader.text.titles import derive_title

# --- Crossref -------------------------------------------------------------------------------

_CROSSREF_DATES = ("issued", "published-print", "published-online", "published", "created")


def fetch_crossref(client: Client, doi: str) -> Outcome:
    """The record Crossref holds for ``doi``, or the problem."""
    base = client.endpoints.crossref
    # Crossref asks for the whole DOI to be url-encoded: DOIs hold ';', '#', '?' and '/'.
    url = (base if base.endswith("/") else base + "/") + quote(doi, safe="")
    try:
        data = read_json(client.get(url, ACCEPT_JSON), "Crossref")
    except Failure as exc:
        return str(exc)
    message = data.get("message") if isinstance(data, dict) else None
    if not isinstance(message, dict) or data.get("status") not in ("ok", None):
        return "Crossref's answer holds no work"
    record = crossref_record(message, doi)
    return record if record is not None else "Crossref's record has neither title nor abstract"


def crossref_record(message: dict[str, Any], doi: str | None = None) -> PaperRecord | None:
    """A record from the ``message`` of a Crossref work, or None with neither title nor
    abstract. ``doi`` is the DOI asked for (it names the record's source)."""
    title = _markup_line(_first(message.get("title")))
    subtitle = _markup_line(_first(message.get("subtitle")))
    if title and subtitle and subtitle.casefold() not in title.casefold():
        title = f"{title}: {subtitle}"
    abstract = clean_abstract(jats_to_text(_text(message.get("abstract"))))
    title_derived = False
    if not title:
        if not abstract:
            return None
        title = derive_title(to_plain(abstract[:20_000]), max_len=TITLE_MAX)
        title_derived = True
    found_doi = normalize_doi(_text(message.get("DOI"))) or normalize_doi(doi)
    url = clean_title(message.get("URL"))
    if not url.lower().startswith(("http://", "https://")):
        url = f"https://doi.org/{found_doi}" if found_doi else ""
    date = _crossref_date(message)
    return PaperRecord(
        abstract=abstract,
        title=title,
        title_derived=title_derived,
        authors=_crossref_authors(message.get("author")),
        venue=_markup_line(_first(message.get("container-title"))) or None,
        year=int(date[:4]) if date else None,
        keywords=string_list(message.get("subject")),
        url=url or None,
        doi=found_doi,
        source=f"doi:{doi or found_doi}",
        date=date,
        kind=clean_title(message.get("type")) or None,
    )


def _first(value: Any) -> Any:
    """The first of a list (Crossref wraps titles in lists), or the value itself."""
    if isinstance(value, list):
        return value[0] if value else None
    return value


def _text(value: Any) -> str:
    """``value`` when it is a string, else ""."""
    return value if isinstance(value, str) else ""


def _markup_line(value: Any) -> str:
    """A title or name that may hold markup (``<i>E. coli</i>``, ``&amp;``) as one line."""
    return clean_title(" ".join(jats_to_text(_text(value)).split()))


def _crossref_authors(value: Any) -> list[str]:
    """"Given Family" per person, or the name of an organisation author."""
    names: list[str] = []
    for person in value if isinstance(value, list) else []:
        if not isinstance(person, dict):
            continue
        parts = (_markup_line(person.get(key)) for key in ("given", "family", "suffix"))
        name = " ".join(p for p in parts if p) or _markup_line(person.get("name"))
        if name and name not in names:
            names.append(name)
    return names


def _crossref_date(message: dict[str, Any]) -> str | None:
    """ISO date of the first of Crossref's dates that has a year."""
    for key in _CROSSREF_DATES:
        value = message.get(key)
        parts = value.get("date-parts") if isinstance(value, dict) else None
        if isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0]:
            found = iso_date(*(parts[0] + [None, None])[:3])
            if found:
                return found
    return None
