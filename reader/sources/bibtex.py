"""BibTeX and BibLaTeX files: entries become records, broken entries become problem lines.

bibtexparser 2 splits the file into blocks (entries, ``@string``, ``@preamble``, comments and
the blocks it could not read, each with its line). Field values are evaluated here rather than
by bibtexparser's middleware, because its string interpolation only replaces a value that is a
single ``@string`` name: ``"Proc. " # STOC``, references inside ``@string`` definitions and the
predefined month names need one evaluator that does all of it.

Title, authors and venue are converted from LaTeX to plain Unicode (``{\\'e}`` → ``é``, protective
braces dropped); the abstract keeps its LaTeX, which is rendered when it is shown. JabRef's
and Mendeley's groups, read status and comments are the user's tags, read mark and note,
and so are Better BibTeX's keywords, Zotero's tags (:mod:`reader.sources.bibtex_marks`).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator, Sequence

from bibtexparser.entrypoint import parse_string
from bibtexparser.model import (
    Block,
    DuplicateBlockKeyBlock,
    DuplicateFieldKeyBlock,
    Entry,
    Field,
    ParsingFailedBlock,
    Preamble,
    String,
)

from reader.import_summary import ReadRemark
from reader.models import PaperRecord
from reader.record import display_name, keep_written_doi
from reader.sources import ImportFormatError, ParseResult
from reader.sources.bibtex_fields import Evaluated, csl_and_extra, inherit
from reader.sources.bibtex_marks import (
    manager_marks,
    zotero_bib,
    zotero_entry,
    zotero_extra,
    zotero_tags,
)
from reader.sources.bibtex_openreview import openreview_fields, plain_title, stated, tex_kept
from reader.sources.bibtex_problems import describe_failure, preamble_left_out
from reader.sources.bibtex_split import brace_depth, flatten_braces, split_plain
from reader.sources.bibtex_values import (
    _MONTHS,
    _abstract,
    _identifier,
    _keys,
    _keywords,
    _tex_line,
    _year_and_date,
    arxiv_id_of,
    closing_brace,
    closing_quote,
    plain,
    url_of,
)
from reader.sources.limits import DEPTH_MAX
from reader.sources.own_export import give_marks
from reader.sources.venue_names import held_venue
from reader.sources.withdrawn import decided, unpublished_venue
from reader.text.identifiers import (
    arxiv_venue,
    compared_doi,
    doi_as_written,
    openreview_forum_id,
    openreview_id,
)
from reader.text.render import to_plain
from reader.text.sanitize import clean_imported
from reader.text.tex_plain import as_read
from reader.text.titles import derive_title

__all__ = ["parse", "stream"]

# bibtexparser logs every aborted block as a warning. With no handler configured, Python's
# last-resort handler would print them onto the terminal the UI draws on; the problems are
# reported as problem lines instead.
logging.getLogger("bibtexparser").addHandler(logging.NullHandler())

TITLE_MAX = 160

# The splitter only starts a block at ``@type{`` or ``@type(``; without one the text is not BibTeX.
_BLOCK_START = re.compile(r"^[ \t]*@[A-Za-z_]\w*[ \t]*[{(]", re.MULTILINE)
_BARE_TOKEN = re.compile(r"[^\s#]+")
# Every block start, at the beginning of a line or not: at least as many as the entries.
_ANY_BLOCK_START = re.compile(r"@\w*[ \t]*[{(]")
_CROSSREF = re.compile(r"\bcrossref\s*=", re.IGNORECASE)
#: About how many characters of a file bibtexparser splits at a time, so that a long
#: file is never held split whole.
_CHUNK = 1 << 20


def parse(text: str, source: str) -> ParseResult:
    """Records of a BibTeX/BibLaTeX text; ``source`` names the file in messages."""
    try:
        return _parse(text, source)
    except ImportFormatError:
        raise
    except Exception as exc:  # a bug or a parser failure must not take the import down
        raise ImportFormatError(f"{source}: could not be read as BibTeX ({exc})") from exc


def stream(text: str, source: str, problems: list[str]) -> tuple[Iterator[PaperRecord], int]:
    """The records of ``parse``, read a stretch of the file at a time as they are asked
    for, and at most how many there are; problem lines are added to ``problems`` as their
    blocks are met. A file with a ``crossref`` is read whole: a parent entry may come after
    the entries that inherit from it."""
    text = _checked(text, source)
    if _CROSSREF.search(text):
        result = parse(text, source)
        problems.extend(result.problems)
        return iter(result.records), len(result.records)
    return _streamed(text, source, problems), len(_ANY_BLOCK_START.findall(text))


def _checked(text: str, source: str) -> str:
    """The text cleaned, or ImportFormatError when it has no BibTeX block at all."""
    # Cleaning first also turns lone CRs into LFs, so line numbers match what editors show.
    text = clean_imported(text)
    if not _BLOCK_START.search(text):
        raise ImportFormatError(f"{source}: not BibTeX (no @article{{…}}-style entry found)")
    return text


def _parse(text: str, source: str) -> ParseResult:
    text = _checked(text, source)
    result = ParseResult()
    entries = list(_entries(text, source, result.problems))
    by_key: dict[str, Evaluated] = {}
    zotero = zotero_bib(text)
    for entry in entries:
        by_key.setdefault(entry.key.lower(), entry)
    for entry in entries:
        # A crossref may name its parent by one of the parent's aliases (biblatex's ids).
        for alias in _keys(entry.fields.get("ids", "")):
            by_key.setdefault(alias.lower(), entry)
    for entry in entries:
        record = _read(entry, by_key, source, result.problems, zotero)
        if record is not None:
            result.records.append(record)
    return result


def _streamed(
    text: str, source: str, problems: list[str], chunk: int = _CHUNK
) -> Iterator[PaperRecord]:
    """The records of a text without crossrefs, each read as it is asked for."""
    zotero = zotero_bib(text)
    try:
        for entry in _entries(text, source, problems, chunk):
            record = _read(entry, {}, source, problems, zotero)
            if record is not None:
                yield record
    except Exception as exc:  # a parser failure must not pass for a bug of the import
        raise ImportFormatError(f"{source}: could not be read as BibTeX ({exc})") from exc


def _read(
    entry: Evaluated, by_key: dict[str, Evaluated], source: str, problems: list[str],
    zotero: bool = False,
) -> PaperRecord | None:
    """The record of one entry, or None with a problem line saying why there is none;
    of a ``zotero`` export (Better BibTeX's), or an entry of Zotero's in another file, its
    keywords are the user's tags too."""
    try:
        record = _record(entry, by_key, source)
    except Exception as exc:  # one odd entry must not cost the others
        problems.append(f"{source}:{entry.line}: entry '{entry.key}' could not be read ({exc})")
        return None
    if record is None:
        problems.append(
            f"{source}:{entry.line}: entry '{entry.key}' has neither title nor abstract;"
            " skipped"
        )
    elif zotero or zotero_entry(entry.fields):
        zotero_tags(record)
        zotero_extra(record, entry.fields)
    return record


def _entries(
    text: str, source: str, problems: list[str], chunk: int = _CHUNK
) -> Iterator[Evaluated]:
    """The entries of the text in file order, their values evaluated; a problem line for
    each block that could not be read."""
    strings = dict(_MONTHS)
    # Blocks in file order: an @string only applies to what follows it, as in BibTeX.
    for block, lines_before in _blocks(text, chunk):
        if isinstance(block, DuplicateBlockKeyBlock | DuplicateFieldKeyBlock):
            inner = block.ignore_error_block
            # A repeated key or field still describes a paper; keep it (first field wins).
            if isinstance(inner, Entry):
                yield _evaluate_entry(_shallow(inner, source, lines_before, problems),
                                      strings, lines_before)
            elif isinstance(inner, String):
                strings[inner.key.lower()] = _evaluate(inner.value, strings)
        elif isinstance(block, ParsingFailedBlock):
            problems.append(describe_failure(block, source, lines_before))
        elif isinstance(block, String):
            strings[block.key.lower()] = _evaluate(block.value, strings)
        elif isinstance(block, Preamble) and str(block.value).strip():
            problems.append(preamble_left_out(block, source, lines_before))
        elif isinstance(block, Entry):
            yield _evaluate_entry(_shallow(block, source, lines_before, problems),
                                  strings, lines_before)


def _blocks(text: str, chunk: int) -> Iterator[tuple[Block, int]]:
    """bibtexparser's blocks of the text, split about ``chunk`` characters at a time, each
    with the number of lines before its stretch (a stretch of plain entries is split by
    :func:`reader.sources.bibtex_split.split_plain`, which gives the same blocks faster).

    A stretch ends where a block starts at the beginning of a line. bibtexparser starts a
    block there whatever came before (one still open is cut off at it), so the stretches
    give the blocks of the whole text. Each stretch is read with the start of the next one
    after it, so that a block left open ends as it does in the whole text; the block that
    start opens is the next stretch's.
    """
    start = lines_before = 0
    while start < len(text):
        following = _BLOCK_START.search(text, start + chunk) if start + chunk < len(text) else None
        end = following.start() if following else len(text)
        blocks: Sequence[Block] | None = split_plain(text[start:end])
        if blocks is None:
            piece = text[start:end] + (following.group() if following else "")
            blocks = parse_string(piece, parse_stack=[]).blocks
            if following and blocks and isinstance(blocks[-1], ParsingFailedBlock):
                blocks = blocks[:-1]
        for block in blocks:
            yield block, lines_before
        lines_before += text.count("\n", start, end)
        start = end


# --- blocks ----------------------------------------------------------------------------------


def _shallow(entry: Entry, source: str, lines_before: int, problems: list[str]) -> Entry:
    """The entry with its braces nested no deeper than :data:`DEPTH_MAX` (what reads its
    values recurses over them): deeper groups are left out, their text kept, and a remark
    says so."""
    deep = [str(f.key) for f in entry.fields if brace_depth(str(f.value)) > DEPTH_MAX]
    if not deep:
        return entry
    line = lines_before + (entry.start_line or 0) + 1
    problems.append(ReadRemark(
        f"{source}:{line}: entry '{str(entry.key).strip()}' nests braces more than "
        f"{DEPTH_MAX} deep ({', '.join(deep)}): the deeper braces were left out, their "
        "text kept"
    ))
    return Entry(
        entry.entry_type,
        entry.key,
        [Field(f.key, flatten_braces(str(f.value), DEPTH_MAX)) for f in entry.fields],
        start_line=entry.start_line,
    )


def _evaluate_entry(entry: Entry, strings: dict[str, str], lines_before: int = 0) -> Evaluated:
    """An entry with its field values evaluated against the @strings defined so far."""
    fields: dict[str, str] = {}
    for field in entry.fields:
        name = str(field.key).strip().lower()
        if name and name not in fields:
            fields[name] = _evaluate(str(field.value), strings)
    line = lines_before + (entry.start_line or 0) + 1
    return Evaluated(str(entry.entry_type).strip().lower(), str(entry.key).strip(), line, fields)


def _evaluate(raw: str, strings: dict[str, str]) -> str:
    """The value of a field expression: ``{…}``, ``"…"``, numbers and @strings joined by ``#``.

    Lenient by design: anything unexpected is kept as text, and an unclosed delimiter runs to
    the end of the value.
    """
    parts: list[str] = []
    joined = True  # whether a ``#`` came since the last part
    i, n = 0, len(raw)
    while i < n:
        char = raw[i]
        if char == "#":
            joined = True
            i += 1
            continue
        if char.isspace():
            i += 1
            continue
        if char == "{":
            end = closing_brace(raw, i)
            parts.append(raw[i + 1 : end])
            i = end + 1
        elif char == '"':
            end = closing_quote(raw, i)
            parts.append(raw[i + 1 : end])
            i = end + 1
        else:
            match = _BARE_TOKEN.match(raw, i)
            token = match.group(0) if match else raw[i]
            i = match.end() if match else i + 1
            value = strings.get(token.lower())
            if value is None:
                # An undefined name (or an unquoted phrase): keep the words as written.
                value = token if joined or not parts else " " + token
            parts.append(value)
        joined = False
    return "".join(parts)


# --- records ---------------------------------------------------------------------------------


def _record(entry: Evaluated, by_key: dict[str, Evaluated], source: str) -> PaperRecord | None:
    """The record of one entry, or None when it has neither title nor abstract."""
    fields = dict(entry.fields)
    inherited = inherit(entry, fields, by_key)

    # The title is stored as TeX, as its source wrote it, and rendered where it is shown or
    # cited, so that an export writes it back unchanged ($\ell_1$, not ℓ₁).
    title = _tex_line(fields.get("title", ""))
    subtitle = _tex_line(fields.get("subtitle", ""))
    if title and subtitle:
        title = f"{title}: {subtitle}"
    abstract = _abstract(fields.get("abstract", ""))
    title_derived = False
    if not title and abstract:
        title = derive_title(to_plain(abstract), max_len=TITLE_MAX)
        title_derived = True
    elif not title:
        # A whole journal issue or a bare note: named by what it has, so that it is kept.
        stand_in = next(
            (fields[f] for f in ("booktitle", "journal", "journaltitle", "howpublished", "note")
             if fields.get(f, "").strip()),
            "",
        )
        title = plain(stand_in)[:TITLE_MAX]
        if not title:
            return None
        title_derived = True

    venue_field = next(
        (name for name in ("journal", "journaltitle", "booktitle") if fields.get(name)), None
    )
    archived = bool(venue_field) and arxiv_venue(plain(fields[str(venue_field)])) and bool(
        arxiv_id_of(fields)
    )
    if archived:
        # Mendeley's and Google Scholar's ``journal = {arXiv}`` names the archive of a
        # preprint (its eprint beside it), no journal: the field stays the entry's own.
        venue_field = None
    venue_raw = fields[venue_field] if venue_field else ""
    year, date = _year_and_date(fields)
    csl, extra = csl_and_extra(entry, fields, date, venue_field, inherited)
    if archived and csl["type"] in ("article-journal", "document", "manuscript"):
        csl["type"] = "article"  # a preprint, as CSL says it
    withdrawn, tldr, area = openreview_fields(entry, extra)
    title = plain_title(entry, extra, title)
    # Plain text escaped reads back as that text; TeX written by hand stays TeX.
    abstract = as_read(abstract, tex="abstract" in tex_kept(entry, extra))
    written_doi = doi_as_written(_identifier(fields.get("doi", "")))
    url = url_of(fields)
    # A short DOI ("10/fqd6hj", as Better BibTeX writes) is kept as written.
    doi = compared_doi(written_doi, url)
    keep_written_doi(csl, written_doi, doi)
    record = PaperRecord(
        abstract=abstract,
        title=title,
        title_derived=title_derived,
        authors=[display_name(n) for n in csl.get("author", [])],
        # (A well-known venue's acronym, which an export spelled out, as the library held it.)
        venue=held_venue(plain(venue_raw), extra) or None,
        year=year,
        keywords=_keywords(fields.get("keywords") or fields.get("keyword") or ""),
        url=url,
        doi=doi,
        # An OpenReview forum's id identifies the paper as surely as a DOI.
        # Or the forum's id an export writes beside a link that is another (``openreview``).
        openreview_id=(
            openreview_forum_id(url) or openreview_id(plain(fields.get("openreview", "")))
        ),
        source=f"{source}:{entry.line}",
        arxiv_id=arxiv_id_of(fields),
        date=date,
        withdrawn=withdrawn,
        tldr=tldr or None,
        primary_area=area or None,
        kind=entry.kind or None,
        citekey=entry.key or None,
        csl=csl,
        extra=extra,
        aliases=_keys(entry.fields.get("ids", "")),
    )
    give_marks(record, manager_marks(fields))
    record.signals = decided(record, *stated(fields))
    unpublished_venue(record, plain(fields.get("eventtitle", "")), "event")
    return record
