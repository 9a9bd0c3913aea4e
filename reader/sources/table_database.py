"""What a bibliographic database's table (Scopus's CSV) writes in a field beside its value,
read apart from it (read by :mod:`reader.sources.csv_table`).

Scopus writes a translated title with the original after it in brackets ("Neural networks
for … [Нейронные сети для …]"): the bracket is the title in the paper's own language, CSL's
``original-title``, as PubMed's ``TT`` is read. It ends an abstract with the publisher's
copyright notice ("© 2022 … All rights reserved."), which is no part of the abstract: shown,
searched and cited as if it were. It gives a NeurIPS paper the "volume" ``2020-December``,
the month of the conference, which a citation printed as if it were one. And a book in a
series has the series as its source title, the series' volume and issue, and its own pages
from 1 to its last: cited as a chapter "In" the series on pages 1–311 otherwise.
"""

from __future__ import annotations

import re
from typing import Any

from reader.models import PaperRecord
from reader.sources.ris_tools import volume_without_series
from reader.sources.stand_ins import copyright_apart
from reader.text.sanitize import clean_imported

__all__ = ["read_apart"]

# "English title [Original title]": the bracket ends the title and is not the whole of it.
_ORIGINAL = re.compile(r"(?P<title>\S.*?)\s*\[(?P<original>[^\[\]]+)\]")
# A letter of a script other than Latin (Cyrillic, Greek, CJK, Arabic …).
_NOT_LATIN = re.compile(r"[^\W\d_A-Za-z\u00C0-\u024F\u1E00-\u1EFF]")
# A "volume" that is a year and a month ("2020-December"): when the proceedings appeared.
_DATED_VOLUME = re.compile(r"\d{4}-[A-Za-z]+")
_LANGUAGE = "Language of Original Document"
# Scopus's column of the paper's PubMed record number.
_PUBMED_ID = "PubMed ID"


def read_apart(record: PaperRecord, *, as_stored: bool = False) -> None:
    """Set apart in ``record`` what a database wrote beside a field's value: the original
    title, the abstract's copyright notice (kept among the table's other cells), a volume
    that is a month, and a book's series and page count. A reader library's own export
    (``as_stored``) wrote what the library had: it is left as it is."""
    if as_stored:
        return
    kept: dict[str, Any] = record.extra.setdefault("table", {})
    _original_title(record, str(kept.get(_LANGUAGE, "")))
    record.abstract, notice = copyright_apart(record.abstract or "")
    if notice is not None:
        kept.setdefault("Copyright", notice)
    pubmed_id = str(kept.get(_PUBMED_ID, "")).strip()
    if pubmed_id.isdigit():
        record.csl.setdefault("PMID", kept.pop(_PUBMED_ID))
    if "volume" in record.csl:
        record.csl["volume"] = volume_without_series(str(record.csl["volume"]))
    volume = str(record.csl.get("volume", ""))
    if _DATED_VOLUME.fullmatch(volume):
        kept.setdefault("Volume", record.csl.pop("volume"))
    if record.csl.get("type") == "book" and record.venue and record.venue != record.title:
        _book_in_series(record.csl, record.venue, kept)
    if not kept:
        del record.extra["table"]


def _original_title(record: PaperRecord, language: str) -> None:
    """The bracketed original of a translated title as the record's original title: where
    the table names another language than English, or the bracket is in another script."""
    match = _ORIGINAL.fullmatch(record.title or "")
    if not match or "original-title" in record.csl or record.title_derived:
        return
    other_language = bool(language) and any(
        word.strip().lower() != "english" for word in re.split(r"[;,]", language))
    if other_language or _NOT_LATIN.search(match["original"]):
        record.title = match["title"].rstrip(" .")
        record.csl["original-title"] = clean_imported(match["original"]).strip()


def _book_in_series(csl: dict[str, Any], series: str, kept: dict[str, Any]) -> None:
    """A book's source title is its series: its number there is the volume given (the
    issue, which no style prints for a book, is kept with the table's other cells), and its
    pages from the first to the last are how many it has."""
    csl.setdefault("collection-title", series)
    if csl.get("volume"):
        csl.setdefault("collection-number", csl.pop("volume"))
    if csl.get("issue"):
        kept.setdefault("Issue", csl.pop("issue"))
    pages = re.fullmatch(r"1\s*-\s*(\d+)", str(csl.get("page", "")))
    if pages:
        csl.pop("page")
        csl.setdefault("number-of-pages", pages[1])
