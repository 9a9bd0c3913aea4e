"""OpenReview submissions: JSON lines or a JSON array of notes (or an API ``{"notes": […]}``
response), each ``{id, cdate, withdrawn, content: {title, abstract, …}}``, with their replies.

``content`` comes in two shapes: plain values (API v1 and most dumps, ``content.title``) and
API v2's wrapped values (``content.title.value``); each field may be either.

Replies (reviews, decisions, comments) come inside a paper's note (``replies[]``,
``details.replies``, ``details.directReplies``) or as notes of their own beside it (a
``/notes?forum=ID`` answer); either way they end up in the paper's ``replies``, and its
``signals`` are worked out from them (:mod:`reader.sources.openreview_replies`). A reply
whose paper is not in the file is kept aside in the result's ``orphans``, with a problem line.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from reader.models import PaperRecord
from reader.signals import Reply, aggregate_signals, signals_from_replies
from reader.sources import ParseResult, Streamed
from reader.sources.jsonfields import (
    clean_abstract,
    clean_title,
    date_from_epoch_ms,
    moment_from_epoch_ms,
    string_list,
    track_venue,
    venue_from_text,
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
    convert_records,
    finish_record,
    record_label,
)
from reader.sources.jsonwrap import unwrap_lists
from reader.sources.openreview_replies import (
    ReplyGroups,
    distinct_versions,
    is_reply_note,
    replies_in_note,
    reply_from_note,
)
from reader.sources.textfile import TextFile
from reader.text.identifiers import openreview_id, openreview_url

# The TL;DR has been spelled differently across venues and API versions.
_TLDR_KEYS = ("tldr", "TLDR", "TL;DR", "one-sentence_summary")
# venueid looks like "ICLR.cc/2026/Conference" (or ".../Withdrawn_Submission").
_VENUEID = re.compile(r"^([A-Za-z][A-Za-z0-9]*)[.]")
_VENUEID_YEAR = re.compile(r"/((?:19|20)\d\d)(?:/|$)")
# Lines of a JSON-lines file under which its records are counted one by one.
_FEW_LINES = 1_000


@dataclass(frozen=True, slots=True)
class _Paper:
    """A submission read, with what its signals are worked out from once its replies are in."""

    paper: PaperRecord
    #: The note's own id as written: what its replies name as their forum.
    forum: str | None
    #: The paper's own word on its fate: its venue ("ICLR 2026 Poster"), or "Withdrawn".
    decision: str | None
    #: Whether the note carried a list of replies (even an empty one).
    carried: bool
    #: Problems with the replies inside the note, without location.
    problems: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class _FlatReply:
    """A reply read as a note of its own, and where."""

    reply: Reply
    where: str


def parse(text: str, source: str, *, texts: bool = True) -> ParseResult:
    """Records of an OpenReview JSON-lines or JSON-array text; ``source`` names the file.
    Replies whose paper is not in the text are in the result's ``orphans``. Without
    ``texts``, each reply holds only what its paper's signals are read from
    (:func:`reader.sources.openreview_replies.reply_from_note`)."""
    result = ParseResult()
    records = _unwrap_notes(unwrap_lists(load_records(text, source)))
    result.records.extend(_papers(records, source, result.problems, result.orphans, texts))
    return result


def replies_in_file(
    path: Path, forum: str, stopped: Callable[[], bool] | None = None
) -> list[Reply]:
    """The replies a file of OpenReview papers in JSON lines gives the paper ``forum``
    (its OpenReview id), with their text, found without reading the other papers: for a
    paper whose import writes its replies after every paper (they may be minutes away). An
    empty list when the file has none for it, or is not such a file, or once ``stopped()``
    (the reader moved on to another paper)."""
    from reader.sources import ImportFormatError
    from reader.sources.textfile import lines_holding

    for line in lines_holding(path, json.dumps(forum).encode("utf-8"), stopped):
        try:
            found = parse(line.decode("utf-8", "replace"), path.name)
        except ImportFormatError:
            continue  # a line that only names the paper, or is no JSON
        for record in found.records:
            if record.openreview_id == forum:
                return record.replies
    return []


def stream(
    text: str, source: str, problems: list[str], orphans: list[Reply] | None = None,
    *, texts: bool = True,
) -> tuple[Iterator[PaperRecord], int]:
    """The records of ``parse``, read one at a time as they are asked for (JSON lines;
    other layouts are read whole), and at most how many there are; problem lines are added
    to ``problems`` as their records are met, and replies without their paper to
    ``orphans`` (when given) once the file is read."""
    kept: list[Reply] = [] if orphans is None else orphans
    lines = iter_lines(text, source)
    # One line may be an object wrapping the list of notes (an API answer saved as it
    # came): read whole, as parse unwraps it; a one-line text is held whole anyway.
    if lines is None or lines[1] <= 1:
        result = parse(text, source, texts=texts)
        problems.extend(result.problems)
        kept.extend(result.orphans)
        return iter(result.records), len(result.records)
    records, count = lines
    return _papers(_unwrap_notes(records), source, problems, kept, texts), count


def stream_file(
    file: TextFile, source: str, problems: list[str], orphans: list[Reply] | None = None,
    *, texts: bool = True,
) -> Streamed | None:
    """The records of ``stream`` for JSON lines, each line decoded from the file as it is
    asked for (a list of a whole conference's reviews, hundreds of MB unpacked, is never
    held whole), and at most how many there are; None for any other layout (an array, an
    API response, a first line longer than the file's first piece), which is read whole."""
    head = file.head()
    start = skip_ws(head, 0)
    end = head.find("\n", start)
    if not head.startswith("{", start) or end < 0:
        return None
    try:
        json.loads(head[start:end])
    except (ValueError, RecursionError):
        return None
    # Past a few lines, a file of JSON lines is a list of papers, one a line: its lines
    # (counted as the file was opened) are at most its records. Counting only those that
    # open an object was another reading of a conference's hundreds of megabytes, for a
    # progress bar's total. (A few lines may be one object and blank lines: counted.)
    count = (file.line_count if file.line_count > _FEW_LINES
             else file.count_lines_starting(b"{"))
    if count <= 1:
        return None  # one object, maybe wrapping a list of notes: read whole, as stream does
    kept: list[Reply] = [] if orphans is None else orphans
    records = iter_byte_lines(file, source)
    return _papers(_unwrap_notes(records), source, problems, kept, texts), count


def _papers(
    records: Iterable[JsonRecord], source: str, problems: list[str], orphans: list[Reply],
    texts: bool = True,
) -> Iterator[PaperRecord]:
    """The papers of the notes, each with its replies (with their text, or only what
    signals are read from), flat replies put with their papers (the paper last read is
    held back until the next, for the replies that follow it)."""
    groups = ReplyGroups(source, problems, orphans)
    held: _Paper | None = None
    convert = _convert_note if texts else partial(_convert_note, texts=False)
    items: Iterator[_Paper | _FlatReply] = convert_records(records, convert, problems)
    for item in items:
        if isinstance(item, _FlatReply):
            forum = held.forum if held else None
            if groups.place(item.reply, forum, item.where) and held is not None:
                held.paper.replies.append(item.reply)
            continue
        if held is not None:
            yield _finish(held)
            groups.released(held.forum)
        held = _take(item, groups, problems, source)
    if held is not None:
        yield _finish(held)
        groups.released(held.forum)
    groups.finish()


def _take(paper: _Paper, groups: ReplyGroups, problems: list[str], source: str) -> _Paper:
    """A paper just read, with the replies that waited for it; the problems of the replies
    inside its note reported, and those that belong to another paper placed as flat ones."""
    where = paper.paper.source or source
    problems.extend(f"{where}: {line}" for line in paper.problems)
    paper.paper.replies.extend(groups.take_waiting(paper.forum))
    for stray in _strays(paper):
        groups.place(stray, paper.forum, where)
    return paper


def _strays(held: _Paper) -> list[Reply]:
    """Replies inside a paper's note that name another paper as their forum: taken out
    of it, to be placed as flat replies are."""
    strays = [r for r in held.paper.replies if held.forum and r.forum not in (None, held.forum)]
    if strays:
        held.paper.replies[:] = [r for r in held.paper.replies if r not in strays]
    return strays


def _finish(held: _Paper) -> PaperRecord:
    """The paper with its replies (every version read, each once) and its signals (from
    the latest version of each)."""
    paper = held.paper
    paper.replies = distinct_versions(paper.replies)
    if paper.replies or held.carried:
        paper.signals = signals_from_replies(
            paper.replies, decision=held.decision, venue=paper.venue, year=paper.year
        )
    else:
        paper.signals = aggregate_signals(decision=held.decision)
    return paper


def _unwrap_notes(records: Iterable[JsonRecord]) -> Iterator[JsonRecord]:
    """The notes of an API response object in place of the object itself."""
    position = 0
    for record in records:
        value = record.value
        notes = value.get("notes") if isinstance(value, dict) else None
        if isinstance(notes, list) and "content" not in value:
            for note in notes:
                position += 1
                yield JsonRecord(
                    note, f"{record.file}#{position}", record.file, record.line, position
                )
        else:
            position += 1
            yield record._replace(position=position)


def _value(field: Any) -> Any:
    """A content field's value, whether plain (v1) or wrapped as ``{"value": …}`` (v2)."""
    if isinstance(field, dict):
        return field.get("value")
    return field


def _convert_note(record: JsonRecord, texts: bool = True) -> _Paper | _FlatReply | str:
    """One note as a paper (with the replies inside it) or a reply, or the problem that
    keeps it out; ``texts``: as :func:`parse` says."""
    note: dict[str, Any] = record.value
    if is_reply_note(note):
        reply = reply_from_note(note, texts=texts)
        if isinstance(reply, str):
            return f"note {record_label(record)} {reply}"
        return _FlatReply(reply, record.location)
    paper = _convert(record)
    if isinstance(paper, str):
        return paper
    raw_id = note.get("id")
    forum = raw_id if isinstance(raw_id, str) and raw_id.strip() else None
    carried_notes, carried = replies_in_note(note)
    unread: list[str] = []
    for position, inner in enumerate(carried_notes, start=1):
        reply = reply_from_note(inner, forum, texts=texts)
        if isinstance(reply, str):
            unread.append(f"reply #{position} of paper {record_label(record)} {reply}")
        else:
            paper.replies.append(reply)
    content = note.get("content")
    venue = clean_title(_value(content.get("venue"))) if isinstance(content, dict) else ""
    word = "Withdrawn" if paper.withdrawn else (venue or None)
    return _Paper(paper, forum, word, carried, tuple(unread))


def _convert(record: JsonRecord) -> Outcome:
    """One submission note as a paper, or the problem that keeps it out."""
    note: dict[str, Any] = record.value
    content = note.get("content")
    if not isinstance(content, dict):
        content = {}
    raw_id = note.get("id")
    forum_id = openreview_id(raw_id) if isinstance(raw_id, str) else None

    venue_text = clean_title(_value(content.get("venue")))
    venue, year = venue_from_text(venue_text)
    venueid = clean_title(_value(content.get("venueid")))
    # API v1 notes name no venueid; their invitation names the venue the same way
    # ("ICLR.cc/2019/Conference/-/Blind_Submission").
    invitation = note.get("invitation")
    for where in (venueid, invitation if isinstance(invitation, str) else ""):
        if venue is None and (match := _VENUEID.match(where)):
            venue = match.group(1)
        if year is None and (match := _VENUEID_YEAR.search(where)):
            year = int(match.group(1))
    venue = track_venue(venue, venue_text, venueid)
    created = date_from_epoch_ms(note.get("cdate")) or date_from_epoch_ms(note.get("tcdate"))
    if year is None and created:
        year = int(created[:4])

    tldr = ""
    for key in _TLDR_KEYS:
        tldr = clean_title(_value(content.get(key)))
        if tldr:
            break

    paper = PaperRecord(
        abstract=clean_abstract(_value(content.get("abstract"))),
        title=clean_title(_value(content.get("title"))),
        # Names come as display names ("Given Family"); v1 may also give one comma string.
        authors=string_list(_value(content.get("authors")), r"\s*,\s*"),
        venue=venue,
        year=year,
        keywords=string_list(_value(content.get("keywords")), r"\s*[,;]\s*"),
        url=openreview_url(forum_id) if forum_id else None,
        openreview_id=forum_id,
        date=created,
        modified=moment_from_epoch_ms(note.get("mdate"))
        or moment_from_epoch_ms(note.get("tmdate")),
        withdrawn=_is_withdrawn(note, venue_text, venueid),
        tldr=tldr or None,
        primary_area=clean_title(_value(content.get("primary_area"))) or None,
        citekey=_bibtex_key(_value(content.get("_bibtex"))),
    )
    return finish_record(paper, record, record_label(record, ("id", "number")))


_BIBTEX_KEY = re.compile(r"@\w+\s*\{\s*([^,\s{}]+)\s*,")


def _bibtex_key(value: Any) -> str | None:
    """The key of the BibTeX entry OpenReview gives with a note (``_bibtex``), if any."""
    match = _BIBTEX_KEY.search(value) if isinstance(value, str) else None
    if not match or match.group(1).lower().startswith("anonymous"):
        return None  # a submission under review: its key names no author
    return match.group(1)


def _is_withdrawn(note: dict[str, Any], venue_text: str, venueid: str) -> bool:
    """Whether the note is a withdrawn submission, by its flag or by its venue."""
    flag = note.get("withdrawn")
    if flag is True or (isinstance(flag, str) and flag.strip().lower() == "true"):
        return True
    return "withdrawn" in venue_text.lower() or "withdrawn" in venueid.lower()
