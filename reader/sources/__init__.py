"""Readers for the file formats reader imports, and the choice between them.

Each format lives in its own module with ``parse(text, source) -> ParseResult``: good records,
plus one line per bad record naming the file and the line or record. A file that is not
what it claims (or not text at all) raises :class:`ImportFormatError`. The format is found
from the content, not the file name; ``--format`` overrides; ``.gz`` files are unpacked. A
file of no known format is refused, saying why, having read only its first kilobytes.
"""

from __future__ import annotations

import codecs
import importlib
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from reader.errors import BadInput
from reader.models import PaperRecord
from reader.signals import Reply
from reader.sources.limits import DEPTH_MAX, nests_too_deeply, within_field_limit
from reader.text.latin1 import latin1
from reader.text.titles import strip_derived_mark, title_words


class ImportFormatError(BadInput):
    """A file could not be read as a list of papers; the message names file and line."""


@dataclass(slots=True)
class ParseResult:
    """What a reader made of a text: good records, and one line per bad one.

    A problem names the file and the line or record (``bad.bib:112: entry 'smith2020' has no
    closing brace``); the records around it are kept.
    """

    records: list[PaperRecord] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    #: Replies whose paper is not in the text (OpenReview), kept for when it is imported.
    orphans: list[Reply] = field(default_factory=list)
    #: What the import summary says of the text as a whole (what of it was not kept where).
    warnings: list[str] = field(default_factory=list)

    def add(self, where: str, read: Callable[[], PaperRecord | None]) -> None:
        """Keep the record ``read()`` makes of the item at ``where`` (``file:line``), or
        note why there is none: one odd record must not cost the others."""
        try:
            record = read()
        except Exception as exc:  # noqa: BLE001 - a library or a value nobody expected
            self.problems.append(f"{where}: record could not be read ({exc})")
            return
        if record is None:
            self.problems.append(f"{where}: record has neither title nor abstract; skipped")
        else:
            self.records.append(record)


#: Format name → the module that reads it.
READERS = {
    "seed": "reader.sources.seed",
    "openreview": "reader.sources.openreview",
    "paperlists": "reader.sources.paperlists",
    "arxiv-kaggle": "reader.sources.arxiv_kaggle",
    "arxiv-atom": "reader.sources.arxiv_atom",
    "csljson": "reader.sources.csljson",
    "bibtex": "reader.sources.bibtex",
    "ris": "reader.sources.ris",
    "csv": "reader.sources.csv_table",
    "zotero": "reader.sources.zotero",
    "medline": "reader.sources.medline",
    "wos": "reader.sources.wos",
    "endnote-xml": "reader.sources.endnote_xml",
    "json-table": "reader.sources.jsontable",
}
FORMATS = tuple(READERS)

_JSON_START = re.compile(r"\A\s*[\[{]")
# Bytes of a file read to judge its format: more than the seed check's sample of
# characters takes in any encoding, so that a file of no known format is refused having
# read only this much (a one-line file of 38 MB is never held whole).
_HEAD_BYTES = 128 * 1024
# An XML document's start (arXiv's Atom, the one XML reader reads, is found before this).
_XML_START = re.compile(r"\ufeff?\s*<(\?xml|xml>|records>|!DOCTYPE)", re.IGNORECASE)
_ACCEPTED = (
    "reader imports plain-text abstract lists (a header line naming venue and year, such as "
    "'ICLR 2026', then one abstract per paragraph), BibTeX, RIS, MEDLINE, Web of Science, "
    "EndNote XML, CSV, arXiv Atom, the JSON of OpenReview, paperlists, arXiv, CSL-JSON and "
    "Zotero, and JSON lists of papers whose keys are CSV column names"
)


@dataclass(frozen=True, slots=True)
class FileText:
    """A file's text, how it was decoded, and its checksum."""

    text: str
    sha256: str
    warnings: list[str]


def read_text(path: Path) -> FileText:
    """Read a (possibly gzipped) text file: UTF-8 with or without BOM, else Latin-1 with a
    warning; a directory, a pipe or device, an unreadable or a binary file is a clear
    error, and so is one over the bounds of :mod:`reader.sources.limits` (counted as it is
    unpacked, so a small file that unpacks to gigabytes is refused at the bound)."""
    from reader.sources.textfile import read_bounded, refuse_binary

    data, digest = read_bounded(path)
    warnings = []
    refuse_binary(path, data)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        text = latin1(data)
        warnings.append(
            f"{path}: not valid UTF-8 (byte {exc.start}); read as Windows-1252 (Latin-1) — "
            "check accented letters and quotes"
        )
    return FileText(text, digest, warnings)


def read_head(path: Path) -> str:
    """The start of a (possibly gzipped) text file, enough to judge its format, decoded as
    :func:`read_text` decodes the whole; the same errors as it for a file it cannot read."""
    _refuse_directory(path)
    try:
        with path.open("rb") as raw:
            data = raw.read(_HEAD_BYTES)
            if data[:2] == b"\x1f\x8b":
                from reader.sources.unpack import READ_ERRORS, unpacking

                raw.seek(0)
                try:
                    with unpacking(raw) as unpacked:
                        data = unpacked.read(_HEAD_BYTES)
                except READ_ERRORS as exc:
                    raise _damaged_gzip(path, exc) from exc
    except OSError as exc:
        raise _unreadable(path, exc) from exc
    from reader.sources.file_chunks import wide_encoding
    from reader.sources.textfile import refuse_binary
    if wide := wide_encoding(data):  # (read as UTF-8, as file_chunks re-encodes it)
        return codecs.getincrementaldecoder(wide)("replace").decode(data)
    refuse_binary(path, data)
    try:
        # Incremental: a character cut at the end of the head is left out, not an error.
        return codecs.getincrementaldecoder("utf-8-sig")().decode(data)
    except UnicodeDecodeError:
        return latin1(data)


def _refuse_directory(path: Path) -> None:
    """Refuse a directory, a pipe, a socket or a device before opening it."""
    from reader.sources.textfile import refuse_special

    refuse_special(path)


def _unreadable(path: Path, exc: OSError) -> ImportFormatError:
    return ImportFormatError(f"{path}: cannot read: {exc.strerror or exc}")


def _damaged_gzip(path: Path, exc: Exception) -> ImportFormatError:
    return ImportFormatError(f"{path}: a damaged gzip file: {exc}")


def detect_format(text: str) -> str | None:
    """The format a text is written in, judged from its content, or None if unknown."""
    if _JSON_START.match(text[:64]):
        from reader.sources.jsonsniff import detect_json_format

        return detect_json_format(text)
    from reader.sources.textsniff import detect_text_format

    found = detect_text_format(text)
    if found:
        return found
    from reader.sources.seed import looks_like_abstract_list

    return "seed" if looks_like_abstract_list(text) else None


def parse_text(text: str, source: str, fmt: str) -> ParseResult:
    """Parse a text in a known format."""
    module = importlib.import_module(READERS[fmt])
    result: ParseResult = module.parse(text, source)
    return result


def _read_known(path: Path, fmt: str | None) -> tuple[FileText, str]:
    """A file's text and its format (given, or detected from the content)."""
    if fmt is None:
        fmt = _sniff(path)
    elif fmt not in READERS:
        raise ImportFormatError(f"{path}: unknown format {fmt!r} (known: {', '.join(FORMATS)})")
    content = read_text(path)
    if not content.text or content.text.isspace():  # (strip() would copy it all)
        raise ImportFormatError(f"{path}: the file is empty")
    if fmt is None:
        fmt = detect_format(content.text)
        if fmt is None:
            raise _unknown(path, content.text)
    return content, fmt


def _sniff(path: Path, head: str | None = None) -> str | None:
    """A text format judged from the file's start (``head``, read here if not given), None
    for JSON (judged from its first record, read whole) or blank; a file of no known format
    is refused here, before the rest of it is read."""
    if head is None:
        head = read_head(path)
    if not head or head.isspace() or _JSON_START.match(head[:64]):
        return None
    fmt = detect_format(head)
    if fmt is None:
        raise _unknown(path, head)
    return fmt


def _unknown(path: Path, text: str) -> ImportFormatError:
    """The refusal of a file of no known format: why it is none, what reader reads, and
    how to name a format."""
    if _JSON_START.match(text[:64]):
        if nests_too_deeply(text):
            return ImportFormatError(
                f"{path}: JSON nested more than {DEPTH_MAX} deep, too deeply to be paper "
                "records; nothing was imported"
            )
        why = "it starts as JSON does but matches none of the JSON formats"
        force = "name one with 'reader import --format'"
    elif _XML_START.match(text[:256]):
        # Not an abstract list however it is forced: say what to export instead.
        why = "it is XML (MODS, PubMed's XML …), which reader does not read (EndNote's it does)"
        force = "export the records as RIS or BibTeX instead"
    elif path.suffix.lower() in (".csv", ".tsv") and (table := _table_problem(text, path)):
        # A table whose header names no column reader knows: its own refusal, not advice
        # to read its rows as abstracts.
        return ImportFormatError(table)
    elif refs := _paper_refs(text):
        # Reading them as abstracts (the advice below) would make a paper of each link.
        return ImportFormatError(
            f"{path}: a list of {refs} paper id{'s' * (refs != 1)} and links (OpenReview, "
            "arXiv, DOI), which an import does not fetch: 'reader add' fetches them, given "
            "as its arguments"
        )
    else:
        from reader.sources.seed import abstract_list_problem

        why = abstract_list_problem(text) or "its text matches no format"
        force = "'reader import --format seed' reads it as an abstract list anyway"
        if "Markdown" in why:
            force = (f"papers in a Markdown export come back from its BibTeX or CSL-JSON "
                     f"export instead; {force}")
    return ImportFormatError(f"{path}: not a format reader knows: {why}. {_ACCEPTED}; {force}")


def _paper_refs(text: str) -> int:
    """How many lines of ``text`` there are when every one (blank ones aside) is a paper's
    id or link; 0 when any is something else."""
    from reader.sources.remote.ids import classify

    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if not lines or not all(classify(line) for line in lines):
        return 0
    return len(lines)


def _table_problem(text: str, path: Path) -> str | None:
    from reader.sources.csv_header import table_problem

    return table_problem(text, str(path))


def _marks_dropped(records: Iterable[PaperRecord]) -> Iterator[PaperRecord]:
    """Each record with a derived title as reader cites and exports it derived again, its
    mark dropped."""
    for record in records:
        record.title, marked = strip_derived_mark(record.title)
        if marked:
            # A derived title is plain text from the abstract: the braces a BibTeX export
            # put around its mixed-case words are not part of it.
            record.title = title_words(record.title)
        record.title_derived = record.title_derived or marked
        yield record


def read_back(text: str, fmt: str) -> list[PaperRecord]:
    """The records of a text in a known format, as an import of a file holding it has them."""
    return list(_marks_dropped(parse_text(text, "export", fmt).records))


#: A reader's records of a file, read as they are asked for, and at most how many there are.
Streamed = tuple[Iterator[PaperRecord], int]


@dataclass(frozen=True, slots=True)
class StreamedFile:
    """One file's records, read as they are asked for (each once), and at most how many
    there are; ``problems`` grows as the records are read."""

    path: Path
    format: str
    records: Iterator[PaperRecord]
    count: int
    problems: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    sha256: str = ""
    #: Replies whose paper is not in the file, filled in once its records are all read.
    orphans: list[Reply] = field(default_factory=list)
    #: Whether the replies hold their text (else only what signals are read from).
    reply_texts: bool = True
    #: Whether the records' papers are wanted, or only their replies (the papers being
    #: in the library already: the second reading of a conference with its reviews).
    papers: bool = True


def stream_file(path: Path, fmt: str | None = None, *, reply_texts: bool = True) -> StreamedFile:
    """Open one file (in the given format, or the format detected from its content), its
    records converted one at a time as they are asked for where the format allows, so that
    a long list is never held whole: RIS, abstract lists, OpenReview JSON lines and JSON
    arrays (CSL-JSON) are read from the file a record at a time, other JSON lines and
    BibTeX decoded a record or a stretch at a time from the text read whole; other formats
    are parsed here, whole. A file that is not of a known format raises here, before any
    record is asked for. Without ``reply_texts``, replies hold only the fields their
    papers' signals are read from (the papers of a conference with its reviews are written
    first, and the file read again for the reviews' text)."""
    path = Path(path)
    streamed = _stream_from_file(path, fmt, reply_texts)
    if streamed is not None:
        return streamed
    content, fmt = _read_known(path, fmt)
    module = importlib.import_module(READERS[fmt])
    problems: list[str] = []
    orphans: list[Reply] = []
    warnings = content.warnings
    if fmt in _KEEPS_ORPHANS:
        records, count = module.stream(content.text, path.name, problems, orphans,
                                       texts=reply_texts)
    elif hasattr(module, "stream"):
        records, count = module.stream(content.text, path.name, problems)
    else:
        result: ParseResult = module.parse(content.text, path.name)
        problems = result.problems
        orphans = result.orphans
        warnings = [*content.warnings, *result.warnings]
        records, count = iter(result.records), len(result.records)
    records = within_field_limit(records, problems)
    return StreamedFile(
        path,
        fmt,
        _marks_dropped(records),
        count,
        problems,
        warnings,
        content.sha256,
        orphans,
        reply_texts,
    )


# Formats whose ``stream`` also hands back the replies whose paper is not in the file.
_KEEPS_ORPHANS = frozenset({"openreview"})
# Formats whose ``stream_file`` decodes the file a line at a time (TextFile.lines).
_LINE_READ = frozenset({"openreview", "arxiv-kaggle"})


def _stream_from_file(path: Path, fmt: str | None, reply_texts: bool) -> StreamedFile | None:
    """The file streamed by a reader that reads it from the disk a record at a time (its
    ``stream_file``), or None when its format has none, or when the file's start does not
    settle its format (a JSON file whose first record is longer than the start) or is
    blank: read whole."""
    if fmt is not None and fmt not in READERS:
        return None  # (refused by _read_known)
    head = read_head(path)
    if not head.strip():
        return None
    if fmt is None:
        fmt = _sniff(path, head) or detect_format(head)
        if fmt is None:
            return None
    module = importlib.import_module(READERS[fmt])
    if not hasattr(module, "stream_file"):
        return None
    from reader.sources.textfile import open_text

    # JSON lines decoded a line at a time are checked as each is (not read whole first).
    text = open_text(path, check=fmt not in _LINE_READ)
    problems: list[str] = text.problems
    orphans: list[Reply] = []
    kept = (orphans,) if fmt in _KEEPS_ORPHANS else ()
    options = {"texts": reply_texts} if kept else {}
    streamed: Streamed | None = module.stream_file(text, path.name, problems, *kept, **options)
    if streamed is None:
        return None
    records = within_field_limit(streamed[0], problems)
    return StreamedFile(path, fmt, _marks_dropped(records), streamed[1], problems,
                        text.warnings, text.sha256, orphans, reply_texts)
