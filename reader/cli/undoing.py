"""``reader import --undo``: the last import undone (or those of files named, or of the bundled
sample), and what became of their papers said."""

from __future__ import annotations

from pathlib import Path

import click

from reader.cli.base import UserError
from reader.library import Library, UndoResult
from reader.resources import is_sample_path

#: The name ``reader import --undo`` takes for the bundled sample's imports.
SAMPLE = "sample"


def undo_last(library: Library, dry_run: bool = False) -> None:
    """Undo the last import that added or changed papers, and say what became of them
    (``dry_run``: what would, with nothing changed)."""
    result = library.imports.undo_last_import(dry_run)
    if result is None:
        raise UserError("there is no import to undo")
    if dry_run:
        click.echo("Dry run: nothing was changed. Undoing the last import would do this:")
    _say(library, result, dry_run)


def undo_named(library: Library, names: tuple[Path, ...], dry_run: bool = False) -> None:
    """Undo the imports of the files ``names`` (``sample``: the bundled sample, unless a
    file of that name is there), whenever they were made, and say what became of their
    papers."""
    sample = any(name == Path(SAMPLE) and not name.exists() for name in names)
    files = [name for name in names if not (sample and name == Path(SAMPLE))]
    results = library.imports.undo_imports_of(files, sample=sample, dry_run=dry_run)
    if not results:
        what = ", ".join(map(str, names))
        raise UserError(f"no import of {what} is there to undo (reader import --undo alone "
                        "undoes the last import)")
    if dry_run:
        click.echo("Dry run: nothing was changed. Undoing those imports would do this:")
    for result in results:
        _say(library, result, dry_run)


def _say(library: Library, result: UndoResult, dry_run: bool) -> None:
    """What undoing one import did (``dry_run``: would do)."""
    added = result.removed + len(result.kept) + len(result.brought_later)
    if added or not (result.reverted or result.unrecorded or result.replies_kept):
        removed = "Would remove" if dry_run else "Removed"
        # "of the 19": "Removed 0 papers added by …" read as an import that added none.
        of = f" of the {added:,}" if added != result.removed else ""
        noun = "paper" if (added if of else result.removed) == 1 else "papers"
        click.echo(f"{removed} {result.removed:,}{of} {noun} added by the import of "
                   f"{_file(result.path)}.")
    else:
        undid = "Would undo" if dry_run else "Undid"
        click.echo(f"{undid} the import of {_file(result.path)} (it added no papers).")
    _say_reverted(result, dry_run)
    if result.kept:
        kept = library.papers(paper_id for paper_id, _ in result.kept)
        what = ("stars or notes" if all(p.starred or p.note.strip() for p in kept)
                else "work (stars, notes, read marks, tags or highlights)")
        kept_word = "Would keep" if dry_run else "Kept"
        click.echo(f"{kept_word} {len(result.kept)} that carry your {what}: "
                   f"{_keys(result.kept)}.")
    if result.brought_later:
        kept_word = "Would keep" if dry_run else "Kept"
        click.echo(f"{kept_word} {len(result.brought_later)} that a later import of another "
                   f"file brought too: {_keys(result.brought_later)}.")


def _file(path: str) -> str:
    """An import's file as said: a bundled sample list by that name, not by where the
    reader that imported it was installed."""
    return f"the bundled sample's {Path(path).name}" if is_sample_path(path) else path


def _keys(papers: list[tuple[int, str]]) -> str:
    """The citation keys of ``papers``, the first twenty and how many more."""
    more = f" and {len(papers) - 20} more" if len(papers) > 20 else ""
    return ", ".join(key for _, key in papers[:20]) + more


def _say_reverted(result: UndoResult, dry_run: bool = False) -> None:
    """What became of the papers the undone import had merged into (``dry_run``: would)."""
    if result.reverted:
        one = result.reverted == 1
        put = "Would put back" if dry_run else "Put back"
        click.echo(f"{put} {result.reverted:,} paper{'s' * (not one)} it had merged into "
                   f"as {'it was' if one else 'they were'} before.")
    for _, key, columns in result.changed_since[:20]:
        click.echo(f"{key}: {', '.join(columns)} changed again since the import; left as "
                   "now.", err=True)
    if result.unrecorded:
        one = result.unrecorded == 1
        click.echo(
            f"{result.unrecorded:,} paper{'s' * (not one)} it merged into {'is' if one else 'are'} "
            "left as merged: the import was made before reader kept what a merge changes "
            "(a title or abstract it replaced can be put back with reader revisions REF).",
            err=True,
        )
    if result.replies_kept:
        one = result.replies_kept == 1
        click.echo(
            f"The reviews and replies it brought to {result.replies_kept:,} "
            f"paper{'s' * (not one)} already in the library are kept: they are the venue's "
            "record, and an import of a later list brings them again.", err=True,
        )
