"""Notes as Markdown files: one per annotated paper, for note-taking apps (Obsidian,
Logseq …), with YAML front matter, the note and the highlighted passages; a file the user
has edited since the last export is never overwritten.

Part of the headless core: no Textual.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from reader.cite.export import write_atomic
from reader.cite.formats import link_url
from reader.cite.keys import entry_key
from reader.models import Highlight, Paper
from reader.text.render import plain_line

#: What export_notes last wrote, per file, in the notes directory.
NOTES_MANIFEST = ".reader-notes.json"
_UNSAFE_FILENAME = re.compile(r"[^A-Za-z0-9._+-]+")
_MAX_FILENAME = 100
# YAML reads these as line breaks even inside a double-quoted scalar; JSON leaves them raw.
_YAML_BREAKS = {"\u0085": "\\N", "\u2028": "\\L", "\u2029": "\\P"}


@dataclass(slots=True)
class NotesExportResult:
    """What :func:`export_notes` did with each file: written, already up to date, or kept."""

    directory: Path
    written: list[Path] = field(default_factory=list)
    unchanged: list[Path] = field(default_factory=list)
    #: Files the user changed since the last export (or that we never wrote): left alone.
    kept: list[Path] = field(default_factory=list)

    def __str__(self) -> str:
        text = (
            f"{len(self.written)} written, {len(self.unchanged)} unchanged, {len(self.kept)} kept"
        )
        if self.kept:
            text += " (edited since the last export)"
        return text


def notes_filename(paper: Paper) -> str:
    """``{citekey}.md``, made safe for any file system (no separators, no leading dot)."""
    stem = _UNSAFE_FILENAME.sub("-", entry_key(paper)).strip(".-")[:_MAX_FILENAME]
    return f"{stem or f'paper-{paper.id}'}.md"


def note_document(paper: Paper) -> str:
    """The Markdown file for a paper's note: YAML front matter (its tags among it), the
    note, then its highlighted passages with their notes."""
    title = plain_line(paper.title or "")
    front = [
        ("title", _yaml_scalar(title)),
        ("key", _yaml_scalar(entry_key(paper))),
        ("venue", _yaml_scalar(paper.venue)),
        ("year", json.dumps(paper.year)),
        ("tags", json.dumps(paper.tags, ensure_ascii=False)),
        ("url", _yaml_scalar(link_url(paper))),
    ]
    head = "\n".join(f"{name}: {value}" for name, value in front)
    body = (paper.note or "").strip("\n")
    if paper.highlights:
        body = (body + "\n\n" if body else "") + _highlights_markdown(paper.highlights)
    return f"---\n{head}\n---\n\n{body}\n"


def _highlights_markdown(highlights: Sequence[Highlight]) -> str:
    """A note file's "Highlights" section: each passage quoted, where it is (the abstract,
    or the reply by name) and whether an edit moved it or took it out, then its note."""
    out = ["## Highlights"]
    for h in highlights:
        quote = "\n".join("> " + line for line in h.quote.splitlines() or [""])
        where = f"in {h.reply_words or 'a reply'}" if h.reply_id else "in the abstract"
        if h.orphaned:
            where += ", no longer in the text"
        elif h.moved:
            where += ", moved by an edit of the reply"
        out.append(f"{quote}\n\n— {where}" + (f"\n\n{h.note.strip()}" if h.note.strip() else ""))
    return "\n\n".join(out)


def _yaml_scalar(value: str | None) -> str:
    """A YAML scalar for a string: JSON's double-quoted form, which YAML reads the same."""
    if value is None:
        return "null"
    text = json.dumps(value, ensure_ascii=False)
    for raw, escaped in _YAML_BREAKS.items():
        text = text.replace(raw, escaped)
    return text


def export_notes(papers: Sequence[Paper], directory: Path) -> NotesExportResult:
    """Write ``{citekey}.md`` for each paper with a note or highlights, keeping the user's
    edits.

    ``.reader-notes.json`` in the directory records the sha256 of what was last written to each
    file. A file whose content still has that hash is ours to replace; a file that differs from
    it, or that we never wrote, is the user's and is kept (and reported in ``kept``). A file
    already holding exactly what we would write is ``unchanged``.
    """
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    manifest_path = directory / NOTES_MANIFEST
    manifest = _read_manifest(manifest_path)
    result = NotesExportResult(directory)
    used: set[str] = set()
    for paper in papers:
        if not (paper.note or "").strip() and not paper.highlights:
            continue
        name = _unique_name(notes_filename(paper), paper, used)
        path = directory / name
        content = note_document(paper).encode("utf-8")
        digest = hashlib.sha256(content).hexdigest()
        current = _file_hash(path)
        if current == digest:
            result.unchanged.append(path)
        elif current is None or current == manifest.get(name):
            write_atomic(path, content.decode("utf-8"))
            result.written.append(path)
        else:
            result.kept.append(path)
            continue
        manifest[name] = digest
    if result.written or result.unchanged:
        data = {"version": 1, "files": dict(sorted(manifest.items()))}
        write_atomic(manifest_path, json.dumps(data, indent=2) + "\n")
    return result


def _unique_name(name: str, paper: Paper, used: set[str]) -> str:
    """The file name, with the paper id added if another paper of this export has it.

    Compared case-insensitively: macOS and Windows file systems would make them one file.
    """
    if name.lower() in used:
        name = f"{name[:-3]}-{paper.id}.md"
    used.add(name.lower())
    return name


def _file_hash(path: Path) -> str | None:
    """The sha256 of a file's bytes, None when there is no such file, "" when it can't be read.

    "" matches no hash, so a path we cannot read (a directory, no permission) is kept.
    """
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except FileNotFoundError:
        return None
    except OSError:
        return ""


def _read_manifest(path: Path) -> dict[str, str]:
    """File name → sha256 from the manifest; empty if it is missing or unreadable.

    An unreadable manifest only makes the export more careful: every existing file that differs
    from what would be written is then kept.
    """
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        files = data.get("files", {}) if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}
    if not isinstance(files, dict):
        return {}
    return {str(k): v for k, v in files.items() if isinstance(v, str)}
