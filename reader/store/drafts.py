"""Draft files: a note the database would not take, written where it fits, whole or not
at all."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

import platformdirs
from msgspec import Struct, field

from reader.errors import describe_os_error
from reader.locations import APP_NAME
from reader.text.pattern import Pattern


class Draft(Struct):
    """Where a draft was written (None: nowhere), and why each place refused it."""

    path: Path | None
    refused: list[tuple[Path, str]] = field(default_factory=list)

    def refusals(self, said: str = "") -> str:
        """Why no place took the draft, each reason once (a full disk refuses them all
        alike): ``3 places tried: REASON``; ``for the same reason`` where every reason is
        in ``said`` already (the save's own failure)."""
        reasons = list(dict.fromkeys(reason for _, reason in self.refused))
        count = len(self.refused)
        tried = f"{count} place{'s' * (count != 1)} tried"
        if said and all(reason in said for reason in reasons):
            return f"{tried}, for the same reason"
        return f"{tried}: {'; '.join(reasons)}"


def draft_dirs(library_drafts: Path) -> list[Path]:
    """Where drafts may go, best first: the library's own folder, then places that are
    often on another file system (the user cache, the temporary directory, home), in a
    folder of this library's own there: a draft of one library is never offered in
    another, where its paper's number is another paper."""
    mine = library_folder_name(library_drafts.parent)
    places = [
        library_drafts,
        Path(platformdirs.user_cache_dir(APP_NAME, appauthor=False)) / "drafts" / mine,
        Path(tempfile.gettempdir()) / f"{APP_NAME}-drafts" / mine,
        Path.home() / f"{APP_NAME}-drafts" / mine,
    ]
    return list(dict.fromkeys(places))


def library_folder_name(root: Path) -> str:
    """A folder name that is this library's alone: its directory's name, then a digest of
    its whole path."""
    import hashlib  # here: loading OpenSSL was 2 ms of the window's start, before its frame

    try:
        where = str(root.resolve())
    except OSError:
        where = str(root.absolute())
    digest = hashlib.sha256(where.encode("utf-8", "surrogateescape")).hexdigest()[:12]
    return f"{root.name or 'library'}-{digest}"


def write_draft(text: str, name: str, places: list[Path], *, stamped: bool = True) -> Draft:
    """Write ``text`` to ``name-<time>.md`` (``name.md`` when not ``stamped``: one draft
    rewritten at every failing save) in the first place that takes all of it; a partly
    written file is removed, never left looking like a draft."""
    draft = Draft(None)
    data = text.encode("utf-8")
    filename = f"{name}-{datetime.now():%Y%m%d-%H%M%S}.md" if stamped else f"{name}.md"
    for place in places:
        target = place / filename
        partial = place / f".{filename}.part"
        # The folders made for it, taken away again if the draft does not fit there.
        made = [folder for folder in (place, *place.parents) if not folder.exists()]
        try:
            place.mkdir(parents=True, exist_ok=True)
            with open(partial, "wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(partial, target)
        except OSError as exc:
            with contextlib.suppress(OSError):
                partial.unlink(missing_ok=True)
            for folder in made:  # the deepest first
                with contextlib.suppress(OSError):
                    folder.rmdir()
            draft.refused.append((place, describe_os_error(exc)))
            continue
        draft.path = target
        return draft
    return draft


def waiting_drafts(
    places: list[Path], held: Callable[[int], str] | None = None
) -> list[Path]:
    """The note drafts left in ``places`` (by saves that failed), oldest first; with
    ``held`` (the text a paper's note holds now), those whose text the note does not hold
    yet: a later save stored it, or the user pasted it in, and a draft the note holds
    waits for nothing (said at every start, it was homework for nothing)."""
    found: list[Path] = []
    for place in places:
        with contextlib.suppress(OSError):
            found += [p for p in place.glob("note-*.md") if p.is_file()]
    if held is not None:
        found = [p for p in found if not _held(p, held)]
    return sorted(found, key=lambda p: p.stat().st_mtime)


def waiting_line(
    places: list[Path], held: Callable[[int], str], reader: str = "reader"
) -> str | None:
    """The doctor's line for the drafts that wait (see waiting_drafts), each named with the
    command that makes it its paper's note (``reader`` runs the reader on this library);
    None when none does."""
    drafts = waiting_drafts(places, held)
    if not drafts:
        return None
    count = "1 waits" if len(drafts) == 1 else f"{len(drafts):,} wait"
    named = ", ".join(
        f"{draft} (`{restore_command(draft, reader)}`)" if draft_paper(draft) is not None
        else str(draft) for draft in drafts
    )
    return (f"note drafts: {count} to be restored (saves that failed; the command beside a "
            f"draft makes it the note, whose text stays a version; or paste what you want "
            f"to keep into the note; then delete the draft): {named}")


def restore_command(draft: Path, reader: str = "reader") -> str:
    """The command that makes ``draft`` its paper's note (its name says which paper)."""
    import shlex  # here: only advice needs it, and every start imports this module

    return f"{reader} note {draft_paper(draft)} < {shlex.quote(str(draft))}"


#: A draft's name: the paper's key and id and when the editor opened, or the id alone.
_DRAFT_NAME = Pattern(r"note-(?:.+-)?(\d+)-\d{8}-\d{6}|note-(\d+)")


def draft_paper(path: Path) -> int | None:
    """The id of the paper a note draft was written for, from its name (None: a name the
    reader did not give)."""
    match = _DRAFT_NAME.fullmatch(path.stem)
    if match is None:
        return None
    return int(match.group(1) or match.group(2))


def _held(path: Path, held: Callable[[int], str]) -> bool:
    """Whether the note of the draft's paper holds the draft's whole text. A draft that
    cannot be read, or whose paper cannot, is taken to wait: the user looks at it."""
    paper_id = draft_paper(path)
    if paper_id is None:
        return False
    try:
        text = path.read_text(encoding="utf-8").strip()
        return bool(text) and text in held(paper_id)
    except Exception:  # noqa: BLE001 - any doubt leaves the draft said, never hidden
        return False
