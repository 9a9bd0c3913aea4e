"""``reader import --undo``: the last import undone, and what became of its papers said."""

from __future__ import annotations

import click

from reader.cli.base import UserError
from reader.library import Library, UndoResult


def undo_last(library: Library, dry_run: bool = False) -> None:
    """Undo the last import that added or changed papers, and say what became of them
    (``dry_run``: what would, with nothing changed)."""
    result = library.imports.undo_last_import(dry_run)
    if result is None:
        raise UserError("there is no import to undo")
    if dry_run:
        click.echo("Dry run: nothing was changed. Undoing the last import would do this:")
    noun = "paper" if result.removed == 1 else "papers"
    if result.removed or result.kept or not (result.reverted or result.unrecorded
                                             or result.replies_kept):
        removed = "Would remove" if dry_run else "Removed"
        click.echo(f"{removed} {result.removed:,} {noun} added by the import of {result.path}.")
    else:
        undid = "Would undo" if dry_run else "Undid"
        click.echo(f"{undid} the import of {result.path} (it added no papers).")
    _say_reverted(result, dry_run)
    if result.kept:
        keys = ", ".join(key for _, key in result.kept[:20])
        more = f" and {len(result.kept) - 20} more" if len(result.kept) > 20 else ""
        kept = library.papers(paper_id for paper_id, _ in result.kept)
        what = ("stars or notes" if all(p.starred or p.note.strip() for p in kept)
                else "work (stars, notes, read marks, tags or highlights)")
        kept_word = "Would keep" if dry_run else "Kept"
        click.echo(f"{kept_word} {len(result.kept)} that carry your {what}: {keys}{more}.")


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
