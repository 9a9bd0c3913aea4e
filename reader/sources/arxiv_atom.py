"""arXiv API responses: Atom feeds with one ``<entry>`` per paper.

The XML is read with the standard library's pull parser, one line at a time, so every entry is
known by the line it starts on and a feed cut off in the middle still yields the entries before
the cut. Documents with a DTD or entity declarations are refused before parsing: arXiv never
sends them, and entity expansion is how a small file becomes a huge one ("billion laughs").

arXiv reports a bad query as a feed whose only entry is titled "Error", with the message as its
summary; such a feed raises :class:`~reader.sources.ImportFormatError` with that message.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Any

from reader.models import PaperRecord
from reader.sources import ImportFormatError, ParseResult
from reader.sources.arxiv_kaggle import tex_name
from reader.sources.journal_ref import journal_reference, published_year, withdrawn
from reader.sources.jsonfields import moment_from_text
from reader.sources.xmlsafe import refuse_declarations
from reader.text.identifiers import arxiv_url, doi_as_written, normalize_arxiv_id
from reader.text.render import to_plain
from reader.text.sanitize import clean_imported
from reader.text.titles import derive_title

__all__ = ["parse"]

TITLE_MAX = 160

ATOM = "{http://www.w3.org/2005/Atom}"
ARXIV = "{http://arxiv.org/schemas/atom}"
_SPACES = re.compile(r"\s+")
# arXiv wraps summaries at ~80 columns; a new paragraph is a blank or an indented line.
_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n\s*|\n[ \t]+")
_CATEGORY = re.compile(r"^[a-z][a-z\-]*(?:\.[A-Za-z][A-Za-z\-]*)?$")
_DATE = re.compile(r"^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?")


class _Feed:
    """What has been read of a feed so far."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.result = ParseResult()
        self.errors: list[str] = []
        self.root_seen = False
        self.entries = 0


def parse(text: str, source: str) -> ParseResult:
    """Records of an arXiv API Atom feed; ``source`` names the file in messages."""
    try:
        return _parse(text, source)
    except ImportFormatError:
        raise
    except Exception as exc:  # a bug here must not take the import down
        raise ImportFormatError(f"{source}: could not be read as an Atom feed ({exc})") from exc


def _parse(text: str, source: str) -> ParseResult:
    # Control characters are not allowed in XML 1.0 anyway; cleaning also drops the BOM.
    text = clean_imported(text)
    refuse_declarations(text, source, "arXiv feeds have none")
    if not text.strip():
        raise ImportFormatError(f"{source}: the file is empty")

    feed = _Feed(source)
    parser: ET.XMLPullParser[ET.Element] = ET.XMLPullParser(events=("start", "end"))
    depth = 0
    entry_line = 0
    line_number = 0
    try:
        for line_number, line in enumerate(text.split("\n"), start=1):
            parser.feed(line + "\n")
            for item in parser.read_events():
                # Only start/end events were asked for; each is (event, element).
                if len(item) != 2 or not isinstance(item[1], ET.Element):
                    continue
                event, element = item[0], item[1]
                if event == "start":
                    depth += 1
                    if depth == 1:
                        _check_root(element, feed)
                    elif depth == 2 and element.tag == f"{ATOM}entry":
                        entry_line = line_number
                    continue
                depth -= 1
                if depth == 1 and element.tag == f"{ATOM}entry":
                    _entry(element, entry_line, feed)
                    element.clear()  # a long feed need not stay in memory
        parser.close()
    except ET.ParseError as exc:
        _malformed(exc, line_number, feed)

    if feed.errors and not feed.result.records and len(feed.errors) == feed.entries:
        raise ImportFormatError(f"{source}: arXiv reported an error: {'; '.join(feed.errors)}")
    return feed.result


def _check_root(element: ET.Element, feed: _Feed) -> None:
    """Raise unless the document element is an Atom ``<feed>``."""
    if element.tag != f"{ATOM}feed":
        tag = element.tag.rpartition("}")[2] if isinstance(element.tag, str) else "?"
        raise ImportFormatError(
            f"{feed.source}: not an Atom feed (its document element is <{tag}>, not <feed>)"
        )
    feed.root_seen = True


def _malformed(exc: ET.ParseError, line_number: int, feed: _Feed) -> None:
    """Report broken XML: an error when nothing was read, else a problem after the good part."""
    position = getattr(exc, "position", None)
    line = position[0] if position else line_number
    message = str(exc).split(":")[0]
    if not feed.root_seen or feed.entries == 0:
        raise ImportFormatError(f"{feed.source}:{line}: not well-formed XML ({message})") from exc
    feed.result.problems.append(
        f"{feed.source}:{line}: the XML is broken here ({message}); entries after this line"
        " were not read"
    )


def _entry(element: ET.Element, line: int, feed: _Feed) -> None:
    """Turn one ``<entry>`` into a record, an arXiv error, or a problem line."""
    feed.entries += 1
    source = feed.source
    try:
        entry_id = _text(element, f"{ATOM}id")
        title = _fold(_text(element, f"{ATOM}title"))
        summary = _text(element, f"{ATOM}summary")
        if "/api/errors" in entry_id or (title == "Error" and not normalize_arxiv_id(entry_id)):
            message = _fold(summary) or "unknown error"
            feed.errors.append(message)
            feed.result.problems.append(f"{source}:{line}: arXiv reported an error: {message}")
            return
        record = _record(element, entry_id, title, summary, f"{source}:{line}")
    except Exception as exc:  # one odd entry must not cost the others
        feed.result.problems.append(f"{source}:{line}: entry could not be read ({exc})")
        return
    if record is None:
        feed.result.problems.append(
            f"{source}:{line}: entry has neither title nor abstract; skipped"
        )
    else:
        feed.result.records.append(record)


def _record(
    element: ET.Element, entry_id: str, title: str, summary: str, where: str
) -> PaperRecord | None:
    """The record of a paper entry, or None when it has neither title nor abstract."""
    abstract = _abstract(summary)
    # arXiv titles carry TeX ($\alpha$, \emph{…}) like the rest of the metadata.
    title = _fold(to_plain(title, groups=True)) if title else ""
    if not title and not abstract:
        return None
    title_derived = False
    if not title:
        title = derive_title(to_plain(abstract), max_len=TITLE_MAX)
        title_derived = True

    arxiv_id = normalize_arxiv_id(entry_id)
    url = arxiv_url(arxiv_id) if arxiv_id else _alternate_link(element) or None
    authors = [
        name
        for author in element.findall(f"{ATOM}author")
        # Older arXiv metadata writes accents in TeX (J\"org M\"uller), as the snapshot does.
        if (name := tex_name(_text(author, f"{ATOM}name")))
    ]
    published = _fold(_text(element, f"{ATOM}published") or _text(element, f"{ATOM}updated"))
    date_match = _DATE.match(published)
    primary = element.find(f"{ARXIV}primary_category")
    primary_term = clean_imported(primary.get("term", "")).strip() if primary is not None else ""
    categories: list[str] = [primary_term] if primary_term else []
    for category in element.findall(f"{ATOM}category"):
        term = clean_imported(category.get("term", "")).strip()
        # MSC and ACM classes ("03B70, 68Q99") come as categories too; only arXiv's are kept.
        if _CATEGORY.match(term) and term not in categories:
            categories.append(term)
    csl = _csl(element)
    journal_year = published_year(csl)
    return PaperRecord(
        abstract=abstract,
        title=title,
        title_derived=title_derived,
        authors=authors,
        venue="arXiv" if arxiv_id else None,
        year=journal_year or (int(date_match.group(1)) if date_match else None),
        keywords=categories,
        url=url,
        doi=doi_as_written(_text(element, f"{ARXIV}doi")),
        source=where,
        arxiv_id=arxiv_id,
        date=date_match.group(0) if date_match else None,
        primary_area=primary_term or None,
        kind="article",
        withdrawn=withdrawn(csl.get("note"), abstract),
        csl=csl,
        extra=_unmodelled(element),
        # The feed's <updated> is when the latest version was announced.
        modified=moment_from_text(_fold(_text(element, f"{ATOM}updated"))),
    )


def _csl(element: ET.Element) -> dict[str, Any]:
    """The entry's comment (CSL ``note``) and the journal, volume and pages its journal
    reference names."""
    csl: dict[str, Any] = {}
    note = _fold(_text(element, f"{ARXIV}comment"))
    if note:
        csl["note"] = note
    doi = _text(element, f"{ARXIV}doi")
    csl.update(journal_reference(_fold(_text(element, f"{ARXIV}journal_ref")), doi))
    return csl


def _unmodelled(element: ET.Element) -> dict[str, dict[str, Any]]:
    """The journal reference as written (the journal's year in it is not the paper's
    date), under the format's name."""
    written = _fold(_text(element, f"{ARXIV}journal_ref"))
    return {"arxiv": {"journal_ref": written}} if written else {}


def _text(element: ET.Element, path: str) -> str:
    """The cleaned text of the first child at ``path``, or ""."""
    child = element.find(path)
    if child is None:
        return ""
    return clean_imported("".join(child.itertext()))


def _fold(value: str) -> str:
    """``value`` on one line with single spaces (titles are wrapped in the feed)."""
    return _SPACES.sub(" ", value).strip()


def _abstract(summary: str) -> str:
    """The summary with arXiv's line wrapping undone and its paragraphs kept."""
    paragraphs = (_fold(p) for p in _PARAGRAPH_BREAK.split(summary.strip()))
    return "\n\n".join(p for p in paragraphs if p)


def _alternate_link(element: ET.Element) -> str:
    """The ``rel="alternate"`` link of an entry (the paper's page), or ""."""
    for link in element.findall(f"{ATOM}link"):
        if link.get("rel", "alternate") == "alternate" and link.get("href"):
            return clean_imported(link.get("href", "")).strip()
    return ""
