"""Getting everything out: the library (or a selection) as files.

Part of the headless core: no Textual.

:func:`export` writes one file in a format other tools read: BibTeX, biblatex, CSL-JSON,
Markdown, CSV or JSON (one Markdown file per annotated paper is
:mod:`reader.cite.notes_files`). Every file is written atomically: a temporary file in the
same directory, then ``os.replace``, so a crash or a full disk never leaves half a file where
a good one was.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import secrets
import stat
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from msgspec import structs

from reader.cite.bibtex_text import bibtex_source
from reader.cite.bibtex_types import arxiv_preprint, numbers_in_series, thesis_genre
from reader.cite.csl_items import csl_names, csl_type
from reader.cite.export_paths import check_folder, format_for_path, replaces_file
from reader.cite.format_names import EXPORT_FORMATS
from reader.cite.formats import CitationError, link_url, marked_derived, render
from reader.cite.signal_columns import SIGNAL_COLUMNS, signal_cells, signal_fields
from reader.cite.venues import published_in
from reader.models import Paper
from reader.record import (
    csl_type_for_bibtex,
    iso_from_parts,
    names_text,
    record_line,
    source_doi,
)
from reader.signals import Signals
from reader.text.render import plain_line, to_plain

__all__ = [
    "CSV_COLUMNS",
    "EXPORT_FORMATS",
    "SIGNAL_COLUMNS",
    "check_folder",
    "export",
    "format_for_path",
    "replaces_file",
    "write_atomic",
]

CSV_COLUMNS = (
    "id",
    "citekey",
    "title",
    "title_derived",
    "authors",
    "editors",
    "translators",
    "venue",
    "year",
    "date",
    "issued",
    "volume",
    "issue",
    "pages",
    "publisher",
    "issn",
    "isbn",
    "language",
    "edition",
    "place",
    "series",
    "series_number",
    "number",
    "genre",
    "type",
    "doi",
    "arxiv_id",
    "openreview_id",
    "url",
    "keywords",
    "starred",
    "note",
    "abstract",
    "tldr",
    "primary_area",
    "withdrawn",
    "tags",
    "read",
    "highlights",
)

# Characters Markdown reads as inline markup, escaped in text we did not write as Markdown.
_MARKDOWN_INLINE = re.compile(r"([\\`*_\[\]<>])")
# A line starting like a heading, quote, list item or rule would change the document's shape.
_MARKDOWN_BLOCK_START = re.compile(r"^([ \t]*)([-+=>#]|\d+[.)])", re.MULTILINE)


def export(
    papers: Sequence[Paper],
    fmt: str,
    path: Path | None = None,
    *,
    compact: bool = False,
    signals: Mapping[int, Signals] | None = None,
) -> str:
    """The papers in an export format; written to ``path`` (atomically) when one is given;
    ``compact``: CSL-JSON on one line (see :func:`reader.cite.formats.render`).

    Formats: ``bibtex``, ``biblatex``, ``csljson`` (as :func:`reader.cite.formats.render`), ``ris``,
    ``markdown`` (a section per paper), ``csv`` (one row per paper, ``CSV_COLUMNS``) and
    ``json`` (every field of every paper). Raises :class:`CitationError` for another format.
    Given ``signals`` (by paper id), CSV and JSON carry them: the mean rating
    (``rating``), the ratings and the decision, empty for a paper without. The folder of
    ``path`` is made if missing; the commands a user types a path into ask
    :func:`check_folder` first.
    """
    if fmt in ("bibtex", "biblatex", "csljson"):
        text = render(papers, fmt, compact=compact, files=True)
    elif fmt == "ris":
        from reader.cite.ris_writer import ris_records

        # A derived title is marked as in every other export, so that it reads back as one.
        text = ris_records([marked_derived(p) for p in papers])
    elif fmt == "markdown":
        text = "\n\n".join(_markdown_section(p) for p in papers)
    elif fmt == "csv":
        text = _csv(papers, signals)
    elif fmt == "json":
        objects = [_json_object(p) for p in papers]
        if signals is not None:
            for obj, paper in zip(objects, papers, strict=True):
                obj.update(signal_fields(signals.get(paper.id)))
        text = json.dumps(objects, ensure_ascii=False, indent=2)
    else:
        raise CitationError(f"unknown export format {fmt!r} (known: {', '.join(EXPORT_FORMATS)})")
    if text and not text.endswith("\n"):
        text += "\n"
    if path is not None:
        write_atomic(Path(path), text)
    return text


def write_atomic(path: Path, text: str) -> None:
    """Write UTF-8 text to ``path`` through a temporary file and ``os.replace``.

    The text is written byte for byte (no newline translation: CSV rows end in CRLF by rule).
    A new file gets the usual permissions (the umask applies); a replaced one keeps its own.
    A symbolic link is written through (the file it names is replaced, the link stays: a
    `~/refs.bib` linked into a synced folder), and what is no regular file (a terminal, a
    pipe: `-o /dev/stdout`) is written to as it is, never replaced.
    """
    path = Path(path)
    if path.exists() and not path.is_file():
        with path.open("wb") as handle:
            handle.write(text.encode("utf-8"))
        return
    path = Path(os.path.realpath(path))
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = path.with_name(f".{path.name}.{secrets.token_hex(6)}.tmp")
    # Not mkstemp: its files are private (0600), and os.replace would pass that on.
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(text.encode("utf-8"))
            handle.flush()
            os.fsync(handle.fileno())
        try:
            os.chmod(temp, stat.S_IMODE(path.stat().st_mode))
        except FileNotFoundError:
            pass
        os.replace(temp, path)
    except BaseException:
        try:
            os.unlink(temp)
        except OSError:
            pass
        raise


# --- Markdown --------------------------------------------------------------------------------


def _escape_markdown(text: str) -> str:
    """Plain text made literal in Markdown: inline markup and block starts escaped."""
    text = _MARKDOWN_INLINE.sub(r"\\\1", text)
    return _MARKDOWN_BLOCK_START.sub(lambda m: m.group(1) + "\\" + m.group(2), text)


def _markdown_section(paper: Paper) -> str:
    """One paper: title (a derived one marked, as every export marks it), authors, venue ·
    year, link, plain abstract and the note."""
    title = plain_line(marked_derived(paper).title or "") or "Untitled"
    lines = [f"## {_escape_markdown(title)}", ""]
    meta = []
    authors = [plain_line(a) for a in paper.authors or [] if a.strip()]
    if authors:
        meta.append(_escape_markdown(", ".join(authors)))
    # Where it appeared, with what the record adds (a book's publisher and editors: an
    # edited book has no authors, and its section said only its year).
    venue = " ".join(published_in(paper, paper.venue or "").split())
    where = " · ".join(p for p in (venue, str(paper.year or ""),
                                   plain_line(record_line(paper.csl))) if p)
    if where:
        meta.append(_escape_markdown(where))
    url = link_url(paper)
    if url:
        meta.append("<" + url.replace(" ", "%20").replace("<", "%3C").replace(">", "%3E") + ">")
    if meta:
        # Two trailing spaces: a hard line break, so the lines stay lines when rendered.
        lines += [line + "  " for line in meta[:-1]] + [meta[-1], ""]
    abstract = to_plain(paper.abstract or "").strip()
    if abstract:
        lines += [_escape_markdown(abstract), ""]
    note = (paper.note or "").strip()
    if note:
        # The note is the user's own Markdown: it goes in as written.
        lines += ["### Note", "", note, ""]
    return "\n".join(lines).rstrip("\n")


# --- CSV and JSON ----------------------------------------------------------------------------


def _csv(papers: Sequence[Paper], signals: Mapping[int, Signals] | None) -> str:
    """One row per paper under a fixed header; the csv module quotes commas, quotes, newlines.

    Values are written as stored (the abstract with its LaTeX), so the file can be read back;
    booleans are ``true``/``false``, lists are joined with ``"; "``; the highlights are a
    JSON array (a quote and its note each: both may hold any character).
    """
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(CSV_COLUMNS + (SIGNAL_COLUMNS if signals is not None else ()))
    for p in papers:
        cells = signal_cells(signals.get(p.id)) if signals is not None else []
        writer.writerow(
            [
                p.id,
                p.citekey,
                # A title read from a .bib is TeX ("Digital {{Humanities}}"): a table holds its
                # text, which another library would read as written, braces and all.
                plain_line(p.title) if bibtex_source(p) and p.title else p.title,
                _bool(p.title_derived),
                _authors_cell(p),
                names_text(p.csl.get("editor") or []),
                names_text(p.csl.get("translator") or []),
                # Where it was published: the journal an arXiv listing names, not "arXiv"
                # (read into another library, "arXiv" with a journal's type and volume was
                # cited "In arXiv (Vol. 30…)").
                published_in(p, p.venue or ""),
                "" if p.year is None else p.year,
                p.date or "",
                # The date it was published where the paper has one of its own; the date
                # beside it may be its submission's (arXiv's, OpenReview's), cited as the year.
                iso_from_parts(p.csl.get("issued")) or "",
                *(_csl_text(value) for value in _csl_cells(p)),
                _type_cell(p),
                source_doi(p.csl, p.doi) or "",
                p.arxiv_id or "",
                p.openreview_id or "",
                p.url or "",
                "; ".join(p.keywords or []),
                _bool(p.starred),
                p.note or "",
                p.abstract or "",
                p.tldr or "",
                p.primary_area or "",
                _bool(p.withdrawn),
                "; ".join(p.tags),
                _bool(p.read),
                json.dumps(_highlights(p), ensure_ascii=False) if p.highlights else "",
                *cells,
            ]
        )
    return buffer.getvalue()


#: The CSL variables behind the columns between date and type, in their order: a thesis's
#: or report's genre and number, a book's edition, place and series among them (as Zotero's
#: CSV has them, so another tool reads them too).
_CSL_COLUMNS = ("volume", "issue", "page", "publisher", "ISSN", "ISBN", "language", "edition",
                "publisher-place", "collection-title", "collection-number", "number", "genre")
#: The CSL variables a CSV row carries (the columns above, the type, the DOI as written,
#: the editors and translators).
CSV_CSL = frozenset({*_CSL_COLUMNS, "type", "DOI", "editor", "translator", "issued"})


def _authors_cell(paper: Paper) -> str:
    """The authors as the editors column writes its names, family name first (``García
    Márquez, Ana; {Food and Drug Administration}``): read back, a family name of two words
    stays one, and an institution's name in braces stays one name rather than the two its
    "and" would make of it."""
    authors = paper.authors or []
    names = csl_names(paper)
    if len(names) != len(authors):
        return "; ".join(authors)
    return names_text(names)


def _type_cell(paper: Paper) -> str:
    """The CSL type, else the CSL type of the source's own ("inproceedings" is a
    paper-conference): a kind written as it came would be read back as another CSL type
    where the names meet ("article" is a preprint in CSL). A BibTeX @misc with arXiv eprint
    fields is cited as the preprint it is, which a table without its entry type says by
    CSL's preprint type (read back as a document, it was cited with no archive)."""
    stored = _csl_text(paper.csl.get("type"))
    venue = paper.csl.get("container-title") or paper.venue
    item = {"type": stored, "publisher": paper.csl.get("publisher"), "container-title": venue}
    if stored and arxiv_preprint(paper, item):
        return "article"
    return stored or _type_of(paper)


def _type_of(paper: Paper) -> str:
    """The CSL type of a paper whose source gave none: an arXiv preprint's (``article``, as
    CSL names a preprint), else the CSL type of its source's kind."""
    if csl_type(paper) == "article":
        return "article"
    return csl_type_for_bibtex(paper.kind) if paper.kind else ""


def _csl_cells(paper: Paper) -> list[Any]:
    """The values of the CSL columns, in CSL's meaning: a BibTeX book's number beside its
    series is its number in the series."""
    csl = dict(paper.csl)
    if numbers_in_series(paper, {**csl, "type": csl_type(paper)}):
        csl["collection-number"] = csl.pop("number")
    if not csl.get("genre") and thesis_genre(paper):
        csl["genre"] = thesis_genre(paper)  # (a @mastersthesis's kind is in its type alone)
    return [csl.get(name) for name in _CSL_COLUMNS]


def _csl_text(value: Any) -> str:
    """A CSL variable as a cell: a list (several ISSNs) joined with "; "."""
    if value is None:
        return ""
    if isinstance(value, list):
        return "; ".join(str(v) for v in value)
    return str(value)


def _bool(value: bool) -> str:
    return "true" if value else "false"


def _json_object(paper: Paper) -> dict[str, Any]:
    """Every field of the paper: its tags, star, read mark and note among them, and its
    highlights as quotes with their notes and places."""
    data = structs.asdict(paper)
    data["highlights"] = _highlights(paper)
    return data


def _highlights(paper: Paper) -> list[dict[str, Any]]:
    """The paper's highlights as an export writes them (an import places each again by its
    quote, as a revised abstract does); one in a reply names the reply's id."""
    return [
        {"quote": h.quote, "note": h.note, "start": h.start, "end": h.end,
         **({"reply": h.reply_id} if h.reply_id else {})}
        for h in paper.highlights
    ]
