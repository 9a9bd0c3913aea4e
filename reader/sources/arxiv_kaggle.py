"""arXiv metadata in the Kaggle snapshot format: JSON lines of
``{id, authors, title, abstract, categories, doi, versions, authors_parsed, …}``.

The snapshot keeps arXiv's raw text: titles and abstracts hard-wrapped (an indented line
starts a new abstract paragraph), TeX accents in names (``Schr\\"odinger``), and dates as
e-mail style timestamps (``Mon, 2 Apr 2007 19:18:42 GMT``).

What an entry says beyond its paper lands where the record has a field for it: the
``comments`` as its note, the ``journal-ref`` as the journal, volume and pages it was
published in (the venue read stays arXiv, where the paper is found), the versions as its
date (the first) and when it last changed (the latest, else ``update_date``). The rest
(``submitter``, ``report-no``, ``license``, the versions, ``update_date`` and the
``journal-ref`` as written) is kept verbatim under the format's name.
"""

from __future__ import annotations

import re
from email.utils import parsedate_to_datetime
from typing import Any

from reader.models import PaperRecord
from reader.sources import ParseResult, Streamed
from reader.sources.journal_ref import journal_reference, published_year, withdrawn
from reader.sources.jsonfields import (
    clean_abstract,
    clean_title,
    iso_date,
    moment_from_text,
    string_list,
    text_value,
)
from reader.sources.jsonload import (
    JsonRecord,
    iter_byte_lines,
    iter_lines,
    load_records,
    skip_ws,
)
from reader.sources.jsonsniff import (
    Outcome,
    build_result,
    convert_records,
    finish_record,
    record_label,
)
from reader.sources.textfile import TextFile
from reader.text.identifiers import arxiv_url, doi_as_written, normalize_arxiv_id
from reader.text.render import to_plain
from reader.text.sanitize import clean_imported

# arXiv splits "C.-P. Yuan" into given name "C. -P."; the hyphenated initials belong together.
_SPLIT_INITIALS = re.compile(r"\.\s+-")
# Affiliations in the free-text author list: "(1)", "(Universität Wien)", nested "((1) …)".
_PARENTHESIS = re.compile(r"\([^()]*\)")
_AUTHOR_SEPARATOR = re.compile(r"\s*,\s*(?:and\s+)?|\s+and\s+")
_ET_AL = re.compile(r"et\.?\s*al\.?", re.IGNORECASE)
# New-style ids begin with the year and month of submission: 0704.0001 is April 2007.
_NEW_ID = re.compile(r"^(\d\d)(\d\d)\.\d{4,5}$")
_OLD_ID = re.compile(r"/(\d\d)(\d\d)\d{3}$")


def parse(text: str, source: str) -> ParseResult:
    """Records of a Kaggle arXiv snapshot text; ``source`` names the file."""
    result = build_result(load_records(text, source), _convert)
    result.warnings += _kept_warning(result.records, source)
    return result


def stream_file(file: TextFile, source: str, problems: list[str]) -> Streamed | None:
    """The records of a snapshot in JSON lines, each line decoded from the file as it is
    asked for (the whole snapshot is gigabytes; a subset of a field, hundreds of MB), and
    at most how many there are; None for another layout, which is read whole. The fields
    kept as written are said of the file from its first records (they are in every one)."""
    head = file.head()
    start = skip_ws(head, 0)
    end = head.find("\n", start)
    if not head.startswith("{", start) or end < 0 or file.line_count <= 1:
        return None
    first = iter_lines(head[: head.rfind("\n") + 1], source)
    sample = build_result(first[0], _convert).records if first is not None else []
    file.warnings.extend(_kept_warning(sample, source))
    records = convert_records(iter_byte_lines(file, source), _convert, problems)
    return records, file.line_count


def _kept_warning(records: list[PaperRecord], source: str) -> list[str]:
    """Said once for a file: what its papers hold that no citation format has a field for."""
    kept = [
        key for key in _KEPT_AS_WRITTEN
        if any(key in record.extra.get("arxiv", {}) and not _read(key, record)
               for record in records)
    ]
    if not kept:
        return []
    return [f"{source}: {_listed(kept)} have no field of a paper's own: kept with each paper "
            "as written (in the JSON and CSL-JSON exports), not in BibTeX or RIS"]


def _read(key: str, record: PaperRecord) -> bool:
    """Whether a field kept as written was read into the paper's own too: a journal-ref
    that names a journal is cited with it (its volume and pages), in BibTeX and RIS too."""
    return key == "journal-ref" and "container-title" in record.csl


def _listed(names: list[str]) -> str:
    """``a, b and c``."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _convert(record: JsonRecord) -> Outcome:
    """One snapshot entry as a paper, or the problem that keeps it out."""
    item: dict[str, Any] = record.value
    arxiv_id = normalize_arxiv_id(text_value(item.get("id")))
    date = _first_version_date(item.get("versions")) or _date_from_id(arxiv_id)
    csl = _csl(item)
    published = published_year(csl)
    abstract = clean_abstract(item.get("abstract"), unwrap=True, indented_paragraphs=True)
    paper = PaperRecord(
        abstract=abstract,
        title=clean_title(item.get("title")),
        authors=_authors(item),
        # The journal-ref is free text ("Phys.Rev.D76:013009,2007"); arXiv is the venue read.
        venue="arXiv",
        year=published or (int(date[:4]) if date else None),
        keywords=string_list(item.get("categories"), r"\s+"),
        url=arxiv_url(arxiv_id) if arxiv_id else None,
        doi=doi_as_written(text_value(item.get("doi"))),
        arxiv_id=arxiv_id,
        date=date,
        modified=_latest_version(item.get("versions"))
        or moment_from_text(item.get("update_date")),
        kind="article",
        withdrawn=withdrawn(csl.get("note"), abstract),
        csl=csl,
        extra=_unmodelled(item),
    )
    return finish_record(paper, record, record_label(record))


def _csl(item: dict[str, Any]) -> dict[str, Any]:
    """The entry's comments (CSL ``note``) and journal reference (``container-title``)."""
    csl: dict[str, Any] = {}
    note = clean_title(item.get("comments"))
    if note:
        csl["note"] = note
    # Free text ("Phys.Rev.D76:013009,2007"): the journal, volume and page it names.
    doi = text_value(item.get("doi"))
    csl.update(journal_reference(clean_title(item.get("journal-ref")), doi))
    return csl


#: The entry's keys kept verbatim: none of the record's fields holds them as written.
_KEPT_AS_WRITTEN = (
    "submitter", "report-no", "license", "versions", "update_date", "journal-ref"
)


def _unmodelled(item: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """What the entry says that the record does not model, under the format's name."""
    kept = {
        key: item[key] for key in _KEPT_AS_WRITTEN if item.get(key) not in (None, "", [], {})
    }
    return {"arxiv": kept} if kept else {}


def tex_name(text: str) -> str:
    """Name text with TeX accents converted (``Schr\\"odinger`` → Schrödinger)."""
    text = clean_imported(text)
    if "\\" in text or "{" in text:
        text = to_plain(text)
    return " ".join(text.split())


def _authors(item: dict[str, Any]) -> list[str]:
    """Display names from ``authors_parsed``, else from the free-text ``authors``."""
    parsed = item.get("authors_parsed")
    names: list[str] = []
    if isinstance(parsed, list):
        for entry in parsed:
            if isinstance(entry, list):
                # [last, first, suffix, affiliation…]: shown as "First Last Suffix".
                parts = [tex_name(text_value(part)) for part in entry[:3]]
                last, first, suffix = (parts + ["", "", ""])[:3]
                name = " ".join(p for p in (_SPLIT_INITIALS.sub(".-", first), last, suffix) if p)
            else:
                name = tex_name(text_value(entry))
            if name and name not in names:
                names.append(name)
    if names:
        return names
    text = tex_name(text_value(item.get("authors")))
    for _ in range(3):  # affiliations nest at most a couple of levels
        text = _PARENTHESIS.sub(" ", text)
    # "et al." stands for the authors the submitter left out; it is nobody's name.
    return [n for n in string_list(_AUTHOR_SEPARATOR.split(text)) if not _ET_AL.fullmatch(n)]


def _first_version_date(versions: Any) -> str | None:
    """ISO date of version 1 (or of the earliest version listed)."""
    if not isinstance(versions, list):
        return None
    entries = [v for v in versions if isinstance(v, dict)]
    entries.sort(key=lambda v: text_value(v.get("version")) != "v1")
    for entry in entries:
        created = text_value(entry.get("created"))
        try:
            moment = parsedate_to_datetime(created)
        except (TypeError, ValueError, IndexError, OverflowError):
            continue
        found = iso_date(moment.year, moment.month, moment.day)
        if found:
            return found
    return None


def _latest_version(versions: Any) -> str | None:
    """When the latest version listed (the highest ``vN``) was made, as an ISO moment."""
    if not isinstance(versions, list):
        return None
    numbered = []
    for entry in versions:
        if isinstance(entry, dict):
            number = text_value(entry.get("version")).lstrip("vV")
            if number.isdigit():
                numbered.append((int(number), entry))
    if not numbered:
        return None
    return moment_from_text(max(numbered, key=lambda pair: pair[0])[1].get("created"))


def _date_from_id(arxiv_id: str | None) -> str | None:
    """Year and month of submission as encoded in the id (``0704.0001`` → 2007-04)."""
    if not arxiv_id:
        return None
    match = _NEW_ID.match(arxiv_id) or _OLD_ID.search(arxiv_id)
    if not match:
        return None
    yy, month = int(match.group(1)), int(match.group(2))
    # Old-style ids start in 1991; two-digit years below that are this century.
    year = 1900 + yy if yy >= 91 else 2000 + yy
    return iso_date(year, month)
