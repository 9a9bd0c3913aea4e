"""paperlists (papercopilot) conference files: a JSON array of
``{id, title, status, abstract, keywords, author, aff, bibtex, site, …}``.

Multi-valued fields are ``;``-joined strings. The schema drifts from year to year (``author``
or ``authors``; ``rating`` and ``confidence`` as ``;``-joined lists or numbers, ``rating_avg``
a number or ``[mean, std]``, 0 for a paper not yet reviewed), and lists keep
placeholder entries (an empty title, often of a withdrawn submission): those are skipped with
a problem line. Venue and year come from the record when it names them, else from the file
name, which paperlists spells ``<venue><year>.json`` (``colm2025.json``). The ratings and
the ``status`` (Oral, Poster, Reject, …) become the paper's signals.
"""

from __future__ import annotations

import re
from pathlib import PurePath
from typing import Any

from reader.models import PaperRecord
from reader.signals import Signals, aggregate_signals, number_list
from reader.sources import ParseResult
from reader.sources.jsonfields import (
    MODIFIED_KEYS,
    clean_abstract,
    clean_title,
    modified_of,
    string_list,
    text_value,
    track_venue,
    venue_from_text,
    year_value,
)
from reader.sources.jsonload import JsonRecord, load_records
from reader.sources.jsonsniff import Outcome, build_result, finish_record, record_label
from reader.sources.jsonwrap import unwrap_lists
from reader.sources.tablesignals import venue_and_decision
from reader.text.identifiers import doi_as_written, openreview_id, openreview_url

# How venues are spelled, by the lower-case name paperlists uses for their folders and files.
_VENUE_SPELLING = {
    "iclr": "ICLR",
    "icml": "ICML",
    "neurips": "NeurIPS",
    "nips": "NeurIPS",
    "colm": "COLM",
    "corl": "CoRL",
    "aistats": "AISTATS",
    "uai": "UAI",
    "colt": "COLT",
    "acl": "ACL",
    "emnlp": "EMNLP",
    "naacl": "NAACL",
    "coling": "COLING",
    "eacl": "EACL",
    "cvpr": "CVPR",
    "iccv": "ICCV",
    "eccv": "ECCV",
    "wacv": "WACV",
    "aaai": "AAAI",
    "ijcai": "IJCAI",
    "kdd": "KDD",
    "www": "WWW",
    "sigir": "SIGIR",
    "siggraph": "SIGGRAPH",
    "icra": "ICRA",
    "iros": "IROS",
    "rss": "RSS",
    "tmlr": "TMLR",
    "automl": "AutoML",
    "acmmm": "ACM MM",
    "siggraphasia": "SIGGRAPH Asia",
    "interspeech": "Interspeech",
}
# Full conference names as bibtex booktitles spell them ("Second Conference on Language
# Modeling"), most specific first.
_LONG_NAMES = (
    ("conference on language modeling", "COLM"),
    ("international conference on learning representations", "ICLR"),
    ("international conference on machine learning", "ICML"),
    ("neural information processing systems", "NeurIPS"),
    ("conference on robot learning", "CoRL"),
    ("artificial intelligence and statistics", "AISTATS"),
    ("uncertainty in artificial intelligence", "UAI"),
    ("conference on learning theory", "COLT"),
    ("computer vision and pattern recognition", "CVPR"),
    ("transactions on machine learning research", "TMLR"),
)
# "iclr2017.json", "paperlists-iclr2017-12.json": a venue's name joined to a year, at the
# start of the name or after a separator.
_FILE_NAME = re.compile(r"(?:^|[-_. ])([a-z][a-z0-9]*?[a-z])[-_]?((?:19|20)\d\d)(?!\d)",
                        re.IGNORECASE)
# A venue and year inside a site URL: ".../content/CVPR2023/html/...".
_SITE_VENUE = re.compile(r"/([A-Za-z]{2,12})[-_]?((?:19|20)\d\d)(?=[/_.-])")
_BIBTEX_TYPE = re.compile(r"^\s*@\s*(\w+)\s*[{(]")
_BIBTEX_FIELD = r"\b{}\s*=\s*[{{\"]+([^}}\"\n]*)"
# Values of track that name a part of the programme, not a venue.
_GENERIC_TRACKS = frozenset({"main", "main track", "conference", "poster", "oral"})


def parse(text: str, source: str) -> ParseResult:
    """Records of a paperlists JSON text; ``source`` names the file (and the venue/year)."""
    records = unwrap_lists(load_records(text, source))
    file_venue, file_year = _venue_from_file_name(source)

    def convert(record: JsonRecord) -> Outcome:
        return _convert(record, file_venue, file_year)

    return build_result(records, convert)


def _venue_from_file_name(source: str) -> tuple[str | None, int | None]:
    """``colm2025.json`` → COLM, 2025 (``paperlists-iclr2017-12.json`` → ICLR, 2017)."""
    match = _FILE_NAME.search(PurePath(source).name)
    if not match:
        return None, None
    name = match.group(1).lower()
    return _VENUE_SPELLING.get(name, name.upper()), int(match.group(2))


def conference_of_file(source: str) -> str:
    """The conference and year a table's file is named for ("neurips2023-accepted.csv" →
    "NeurIPS 2023"), as paperlists' files are; "" unless it names a known conference (a
    "reading-list-2023.csv" names none)."""
    match = _FILE_NAME.search(PurePath(source).name)
    if not match or match.group(1).lower() not in _VENUE_SPELLING:
        return ""
    return f"{_VENUE_SPELLING[match.group(1).lower()]} {match.group(2)}"


def _bibtex_field(bibtex: str, name: str) -> str:
    """One field of a bibtex entry held as text (the paperlists ``bibtex`` column)."""
    match = re.search(_BIBTEX_FIELD.format(name), bibtex, re.IGNORECASE)
    return match.group(1).strip() if match else ""


def _venue_from_record(item: dict[str, Any], bibtex: str) -> tuple[str | None, int | None]:
    """Venue and year as named by the record's own fields, where it names them."""
    venue: str | None = None
    year: int | None = None
    for key in ("conference", "venue", "track"):
        text = clean_title(item.get(key))
        if not text or text.lower() in _GENERIC_TRACKS:
            continue
        found_venue, found_year = venue_from_text(text)
        venue = venue or found_venue
        year = year or found_year
    site = text_value(item.get("site"))
    if match := _SITE_VENUE.search(site):
        venue = venue or _VENUE_SPELLING.get(match.group(1).lower())
        year = year or int(match.group(2))
    if venue is None:
        booktitle = clean_title(_bibtex_field(bibtex, "booktitle")).lower()
        venue = next((short for long, short in _LONG_NAMES if long in booktitle), None)
    year = year or year_value(item.get("year")) or year_value(_bibtex_field(bibtex, "year"))
    return venue, year


def _authors(value: object) -> list[str]:
    """The ";"-joined display names; or, in a list that joined them with commas as one of
    ICLR 2017's does ("Martín Abadi, David G. Andersen"), those, where every part is a
    name of several words ("Martin Luther King, Jr." stays one name)."""
    names = string_list(value, r";")
    if len(names) == 1 and "," in names[0]:
        parts = [part.strip() for part in names[0].split(",")]
        if all(len(part.split()) > 1 for part in parts):
            return parts
    return names



def _convert(record: JsonRecord, file_venue: str | None, file_year: int | None) -> Outcome:
    """One paperlists entry as a paper, or the problem that keeps it out."""
    item: dict[str, Any] = record.value
    label = record_label(record)
    title = clean_title(item.get("title"))
    abstract = clean_abstract(item.get("abstract"))
    status = clean_title(item.get("status")) or _decision_of_venue(item)
    withdrawn = "withdr" in status.lower()
    if not title and abstract:
        # An entry without a title is a placeholder of the list, not a paper to read.
        what = "withdrawn placeholder" if withdrawn else "placeholder"
        return f"record {label} is a {what} without a title; skipped"

    bibtex = text_value(item.get("bibtex"))
    venue, year = _venue_from_record(item, bibtex)
    site = clean_title(item.get("site"))
    bibtex_url = _bibtex_field(bibtex, "url")
    forum_id = _openreview_id(item, site, bibtex_url)
    url = site if site.startswith(("http://", "https://")) else None
    if url is None and forum_id:
        url = openreview_url(forum_id)
    kind = _BIBTEX_TYPE.match(bibtex)

    # Older years say "authors", newer ones "author"; both are ";"-joined display names.
    authors = _authors(item.get("author")) or _authors(item.get("authors"))
    paper = PaperRecord(
        abstract=abstract,
        title=title,
        authors=authors,
        venue=track_venue(venue or file_venue, clean_title(item.get("track"))),
        year=year or file_year,
        keywords=string_list(item.get("keywords"), r";"),
        url=url,
        doi=doi_as_written(text_value(item.get("doi"))),
        openreview_id=forum_id,
        withdrawn=withdrawn,
        modified=modified_of(item) or record.dated,
        tldr=clean_title(item.get("tldr")) or None,
        primary_area=clean_title(item.get("primary_area")) or None,
        kind=kind.group(1).lower() if kind else None,
        extra=_unmodelled(item),
    )
    paper.signals = _signals(item, status, paper.venue, paper.year)
    return finish_record(paper, record, label)


def _decision_of_venue(item: dict[str, Any]) -> str:
    """The decision a venue names when the entry has no status: "ICLR 2026 Oral" is the
    status Oral (the venue and year are read from the same text as for any venue)."""
    return venue_and_decision(clean_title(item.get("venue")))[2]


#: The entry's keys the record above models (its BibTeX, read for the venue and the entry
#: type only, is kept whole with the rest).
_MODELLED = frozenset({
    "title", "abstract", "status", "site", "id", "forum", "author", "authors", "keywords", "doi",
    "tldr", "primary_area", "rating", "confidence", "rating_avg", "confidence_avg",
    *MODIFIED_KEYS,
})


def _unmodelled(item: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The entry's other fields, verbatim, under the format's name: affiliations, tracks,
    positions, links, citation counts, its BibTeX (kept, not dropped without a word)."""
    kept = {
        key: value for key, value in item.items()
        if key not in _MODELLED and value not in (None, "", [], {})
    }
    return {"paperlists": kept} if kept else {}


def _signals(
    item: dict[str, Any], status: str, venue: str | None, year: int | None
) -> Signals | None:
    """The ratings, confidences and status of an entry as signals."""
    ratings = number_list(item.get("rating")) or []
    confidences = number_list(item.get("confidence")) or []
    mean, std = _mean_and_std(item.get("rating_avg"))
    confidence_mean, _ = _mean_and_std(item.get("confidence_avg"))
    return aggregate_signals(
        ratings,
        confidences if len(confidences) == len(ratings) or not ratings else (),
        decision=status or None,
        rating_mean=mean,
        rating_std=std,
        confidence_mean=confidence_mean,
        venue=venue,
        year=year,
    )


def _mean_and_std(value: Any) -> tuple[float | None, float | None]:
    """``rating_avg`` as paperlists writes it: a number, or ``[mean, std]``."""
    numbers = number_list(value) if isinstance(value, list | int | float) else None
    if not numbers:
        return None, None
    return numbers[0], numbers[1] if len(numbers) > 1 else None


def _openreview_id(item: dict[str, Any], site: str, bibtex_url: str) -> str | None:
    """The OpenReview forum id of an entry: from an OpenReview link in its site, its open
    access link (``oa``) or its bibtex url, from its ``forum`` (a key only OpenReview's
    notes have), or from its ``id`` when a link says the entry comes from OpenReview."""
    links = (site, clean_title(item.get("oa")), bibtex_url)
    for link in links:
        if "openreview.net" in link and (found := openreview_id(link)):
            return found
    forum = openreview_id(text_value(item.get("forum")))
    if forum is not None:
        return forum
    # A bare id only counts when the entry is known to come from OpenReview.
    if any("openreview.net" in link for link in links):
        return openreview_id(text_value(item.get("id")))
    return None
