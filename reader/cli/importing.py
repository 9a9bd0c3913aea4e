"""Commands that bring papers in: import (files) and add (papers fetched by their ids)."""

from __future__ import annotations

import signal
from collections.abc import Callable
from pathlib import Path

import click

from reader.cli.base import (
    ProgressStages,
    UserError,
    cli,
    handles_errors,
    library_option,
    open_library,
)
from reader.cli.undoing import undo_last, undo_named
from reader.import_summary import ImportSummary, ReadRemark
from reader.library import FORMATS, Library
from reader.processes import stop_on_termination, stopping_signal


@cli.command("import")
@library_option
@click.argument("files", nargs=-1, type=click.Path(path_type=Path))
@click.option("--format", "fmt", type=click.Choice(FORMATS),
              help="Read the files as this format instead of detecting it.")
@click.option("--strict", is_flag=True, help="Import nothing if any record is bad.")
@click.option("--dry-run", is_flag=True, help="Report what would happen; write nothing.")
@click.option("--verbose", "-v", is_flag=True, help="List every bad record.")
@click.option("--undo", is_flag=True,
              help="Remove what the last import added (papers carrying your stars, notes, "
                   "read marks, tags or highlights stay); with FILES, what their imports "
                   "added, whenever made ('sample': the bundled sample).")
@click.option("--update", is_flag=True,
              help="Where the file gives a paper already in the library otherwise (year, "
                   "authors, journal, volume, issue, pages, publisher, genre, DOI), take the "
                   "file's values (import --undo puts them back).")
@click.option("--batch", type=click.IntRange(min=1), hidden=True,
              help="Commit every N records (an open reader shows them as they commit).")
@click.pass_context
@handles_errors
def import_cmd(
    ctx: click.Context,
    files: tuple[Path, ...],
    fmt: str | None,
    strict: bool,
    dry_run: bool,
    verbose: bool,
    undo: bool,
    update: bool,
    batch: int | None,
) -> None:
    """Import lists of papers: plain-text abstract lists, OpenReview (with reviews) and
    paperlists JSON, arXiv (Kaggle JSON lines, API Atom), BibTeX, RIS, CSL-JSON, Zotero
    JSON, MEDLINE, Web of Science, CSV and JSON tables; .gz too."""
    # A kill or a closed terminal stops the import as Ctrl-C does: its children stopped,
    # the batches committed kept, the library closed; the next run finishes the index.
    # The library and its papers before the import, once it is open.
    counted: list[tuple[Library, int]] = []
    # The summary, once said: every paper and reply is in, and only the index was left.
    said: list[ImportSummary] = []
    with stop_on_termination():
        try:
            _import(ctx, files, fmt, strict, dry_run, verbose, undo, batch, counted, said,
                    update)
        except KeyboardInterrupt:
            name = signal.Signals(signum := stopping_signal()).name
            if said:
                # Not "importing again brings in the rest": there is no rest, and an import
                # again would find nothing new ("Since the import of …: nothing.").
                click.echo(f"\nStopped by {name} while indexing: every paper of the import "
                           "is in (above); the search index catches up when the library is "
                           "next opened.", err=True)
                ctx.exit(128 + signum)
            kept = _kept(counted)
            rest = "brings them in" if kept.startswith(("no ", "nothing")) else "brings in the rest"
            click.echo(f"\nStopped by {name}: {kept}; importing the files again {rest}, and "
                       "the search index catches up when the library is next opened.", err=True)
            ctx.exit(128 + signum)


def _kept(counted: list[tuple[Library, int]]) -> str:
    """What a stopped import leaves: the papers its committed batches added, or none."""
    if not counted:
        return "nothing was imported"
    library, before = counted[0]
    try:
        added = library.store.count() - before
    except Exception:  # stopping must not fail on the count; the papers are there or not
        return "the papers committed are kept"
    if added <= 0:
        return "no paper was committed"
    return f"the {added:,} paper{'s' * (added != 1)} committed {'are' if added != 1 else 'is'} kept"


def _import(
    ctx: click.Context,
    files: tuple[Path, ...],
    fmt: str | None,
    strict: bool,
    dry_run: bool,
    verbose: bool,
    undo: bool,
    batch: int | None,
    counted: list[tuple[Library, int]],
    said: list[ImportSummary],
    update: bool = False,
) -> None:
    """The import command's work (see import_cmd); ``counted`` gets the library and the
    papers there before, ``said`` the summary once it is said."""
    library = open_library(ctx, create=True)
    counted.append((library, library.store.count()))
    if undo:
        if files:
            undo_named(library, files, dry_run)
        else:
            undo_last(library, dry_run)
        return
    if not files:
        raise UserError("name the files to import (or --undo)")
    # The library has the index follow (the papers first, then the words of the reviews),
    # each stage under a bar of its own.
    stages = ProgressStages()

    def written(summary: ImportSummary) -> None:
        # Said as soon as the papers and their replies are in; the indexes follow.
        stages.close()
        _say(summary, verbose)
        said.append(summary)

    try:
        summary = library.import_files(
            files, fmt, stages.of("Importing"), strict=strict, dry_run=dry_run, batch=batch,
            replies_progress=stages.of("Importing reviews"), indexing=stages.of("Indexing"),
            waiting=_waiting_once(), reviews_progress=stages.of("Indexing review text"),
            written=written, update=update,
        )
    finally:
        stages.close()
    if summary.all_skipped:
        # Nothing came in: a script must not take the import for done (the summary, said
        # already, tells why).
        ctx.exit(1)


def _say(summary: ImportSummary, verbose: bool) -> None:
    """What an import did, as the command prints it."""
    for warning in summary.warnings:
        click.echo(f"warning: {warning}", err=True)
    # The bad records are listed with --verbose; without it, say where they are.
    click.echo(summary.line("" if verbose else " (see --verbose)"))
    remarked = sum(isinstance(problem, ReadRemark) for problem in summary.problems)
    if remarked and not verbose:
        # (Of a record mostly, of the file at times: a BibTeX @preamble left out.)
        files = "the files were" if len(summary.files) > 1 else "the file was"
        click.echo(f"{remarked:,} remark{'s' if remarked != 1 else ''} on how {files} read "
                   "(see --verbose)")
    if summary.key_changes():
        click.echo(summary.key_changes())
    if summary.signals_line():
        click.echo(summary.signals_line())
    if summary.text_line():
        click.echo(summary.text_line())
    for line in (summary.differing_line, summary.filled_line, summary.filled_new_line):
        if line():
            click.echo(line() + ("" if verbose else " (--verbose names them)"))
            if verbose:
                click.echo(line(each=True))
    for report in summary.reports:
        if report.previous is not None:
            changes = ", ".join(
                part for part in (f"{report.new:,} new" if report.new else "", report.changes())
                if part
            ) or "nothing"
            name = Path(report.files[0]).name
            click.echo(f"Since the import of {name} on {report.previous[:16]}: {changes}.")
    if verbose:
        for problem in summary.problems:
            click.echo(problem, err=True)


def _waiting_once() -> Callable[[], None]:
    """Says once, when an import finds the index busy, why it waits."""
    told = False

    def waiting() -> None:
        nonlocal told
        if not told:
            told = True
            click.echo("The search index is being written by another reader process: "
                       "waiting to bring it up to date…", err=True)

    return waiting


@cli.command()
@library_option
@click.argument("refs", nargs=-1, required=True)
@click.option("--timeout", type=click.FloatRange(min=0.5), default=10.0, show_default=True,
              help="Seconds to wait for each service.")
@click.pass_context
@handles_errors
def add(ctx: click.Context, refs: tuple[str, ...], timeout: float) -> None:
    """Add papers by arXiv id, DOI or OpenReview id or URL (fetched from arXiv, Crossref,
    OpenReview)."""
    from reader.library import FetchError

    library = open_library(ctx, create=True)
    try:
        summary = library.add(refs, timeout=timeout)
    except FetchError as exc:
        raise UserError(str(exc)) from exc
    click.echo(str(summary))
    for problem in summary.problems:
        click.echo(problem, err=True)
    if summary.all_skipped:
        ctx.exit(1)
