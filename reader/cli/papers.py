"""Commands that bring papers in and act on them: import, add, search, star, rekey, stats, note."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import click

from reader.cli.base import (
    LazyProgress,
    UserError,
    cli,
    handles_errors,
    library_option,
    open_library,
    paper_json,
    paper_line,
    resolve_one,
)
from reader.cli.undoing import undo_last
from reader.errors import IndexDamaged
from reader.library import (
    CLI,
    FORMATS,
    SORT_KEYS,
    Library,
    NoteSaved,
    describe_writer,
    parse_query,
)
from reader.models import Paper
from reader.processes import stop_on_termination
from reader.text.notemerge import CONFLICT_END, CONFLICT_START
from reader.text.sanitize import clean_imported


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
                   "read marks, tags or highlights stay).")
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
    batch: int | None,
) -> None:
    """Import lists of papers: plain-text abstract lists, OpenReview and paperlists JSON,
    arXiv (Kaggle JSON lines, API Atom), BibTeX, RIS, CSL-JSON, CSV; .gz too."""
    # A kill or a closed terminal stops the import as Ctrl-C does: its children stopped,
    # the batches committed kept, the library closed; the next run finishes the index.
    with stop_on_termination():
        _import(ctx, files, fmt, strict, dry_run, verbose, undo, batch)


def _import(
    ctx: click.Context,
    files: tuple[Path, ...],
    fmt: str | None,
    strict: bool,
    dry_run: bool,
    verbose: bool,
    undo: bool,
    batch: int | None,
) -> None:
    """The import command's work (see import_cmd)."""
    library = open_library(ctx)
    if undo:
        if files:
            raise UserError("--undo takes no files")
        undo_last(library)
        return
    if not files:
        raise UserError("name the files to import (or --undo)")
    bars = [LazyProgress("Importing")]

    def papers_in() -> None:
        # Indexed before the reviews' text is written: it never delays the abstracts.
        bars[-1].close()
        _index_papers(library)
        bars.append(LazyProgress("Importing reviews"))

    try:
        summary = library.import_files(
            files, fmt, lambda done, total: bars[-1].update(done, total), sync=False,
            strict=strict, dry_run=dry_run, batch=batch, papers_in=papers_in,
            replies_progress=lambda done, total: bars[-1].update(done, total),
        )
    finally:
        bars[-1].close()
    for warning in summary.warnings:
        click.echo(f"warning: {warning}", err=True)
    # The bad records are listed with --verbose; without it, say where they are.
    click.echo(summary.line("" if verbose else " (see --verbose)"))
    if summary.key_changes():
        click.echo(summary.key_changes())
    if summary.signals_line():
        click.echo(summary.signals_line())
    if summary.text_line():
        click.echo(summary.text_line())
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
    if dry_run:
        return
    _index_papers(library)  # (done already when the papers came in before their replies)
    # The abstracts are searchable now; then the words of the reviews.
    bar = LazyProgress("Indexing review text")
    try:
        library.reviews.sync_reviews(bar.update)
    finally:
        bar.close()


def _index_papers(library: Library) -> None:
    """Bring the papers' index up to date, with a progress bar when it takes a while."""
    bar = LazyProgress("Indexing")
    try:
        library.sync_index(bar.update, waiting=_waiting_once())
    finally:
        bar.close()


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

    library = open_library(ctx)
    try:
        summary = library.add(refs, timeout=timeout)
    except FetchError as exc:
        raise UserError(str(exc)) from exc
    click.echo(str(summary))
    for problem in summary.problems:
        click.echo(problem, err=True)
    if summary.problems and not (summary.new or summary.merged or summary.unchanged):
        ctx.exit(1)


# A query may start with a minus (`-is:starred`, `-title:survey`): words click does not know
# as options are the query's.
@cli.command(context_settings={"ignore_unknown_options": True})
@library_option
@click.argument("query", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="Print a JSON array of papers.")
@click.option("--limit", type=click.IntRange(min=1), default=20, show_default=True)
@click.option("--sort", "order", type=click.Choice(list(SORT_KEYS)), default="relevance",
              show_default=True, help="Order: rating (mean), spread, weighted (by confidence)…")
@click.pass_context
@handles_errors
def search(ctx: click.Context, query: tuple[str, ...], as_json: bool, limit: int,
           order: str) -> None:
    """Search the library (same syntax as in the reader); status 1 when nothing matches."""
    library = open_library(ctx)
    text = " ".join(query)
    parsed = parse_query(text)
    if parsed.unknown_fields:  # searched without it, the list would answer another query
        raise UserError("; ".join(f"unknown field {name}: (did you mean {meant}:?)" for name,
                                  meant in parsed.unknown_fields) + "; nothing searched")
    bar = LazyProgress("Indexing")
    try:
        library.sync_index(bar.update)
        if parsed.reviews or parsed.not_reviews:
            bar.close()
            bar = LazyProgress("Indexing review text")
            library.reviews.sync_reviews(bar.update)
        outcome = library.search(text, limit=limit, order=order, mend=False)  # and the count
    except IndexDamaged as exc:
        bar.close()
        click.echo(
            f"The search index is damaged ({exc}); rebuilding it from the database…", err=True
        )
        bar = LazyProgress("Rebuilding the index")
        library.indexing.mend_index(bar.update)
        outcome = library.search(text, limit=limit, order=order)
    finally:
        bar.close()
    if outcome.notice:
        # The query's own notice in full: here there is room for a filter's values.
        full = parsed.notice(full=True) if outcome.notice == parsed.notice() else None
        click.echo(full or outcome.notice, err=True)
    papers = library.papers(outcome.ids)
    scores = dict(zip(outcome.ids, outcome.scores, strict=False))
    if as_json:
        signals = library.signals(p.id for p in papers)
        rows = [paper_json(p, scores.get(p.id), signals.get(p.id)) for p in papers]
        click.echo(json.dumps(rows, indent=2, ensure_ascii=False))
    if not papers:
        if not as_json:
            click.echo("No papers match.", err=True)
        if outcome.suggestion:
            click.echo(f"Did you mean: {outcome.suggestion}", err=True)
        ctx.exit(1)
    if as_json:
        return
    # The rating and decision columns, when the papers shown have any.
    signals = library.signals(p.id for p in papers)
    for paper in papers:
        click.echo(paper_line(paper, signals.get(paper.id)) if signals else paper_line(paper))
    if outcome.count > len(papers):
        shown = f"Showing {len(papers):,} of {outcome.count:,}"
        click.echo(f"{shown}; --limit N shows more.", err=True)


@cli.command()
@library_option
@click.argument("ref")
@click.argument("new_key")
@click.pass_context
@handles_errors
def rekey(ctx: click.Context, ref: str, new_key: str) -> None:
    """Give a paper another citation key (its notes and marks stay; the old key still works)."""
    library = open_library(ctx)
    library.sync_index()
    paper = resolve_one(library, ref)
    library.queries.set_citekey(paper.id, new_key)
    click.echo(f"{paper.citekey} is now {new_key}.")


@cli.command()
@library_option
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
@handles_errors
def stats(ctx: click.Context, as_json: bool) -> None:
    """Count papers, stars and notes."""
    counts = open_library(ctx).queries.stats()
    if as_json:
        click.echo(json.dumps(counts))
    else:
        click.echo(
            f"{counts['papers']} papers, {counts['starred']} starred, "
            f"{counts['with_notes']} with notes"
        )


def _mark(ctx: click.Context, ref: str, starred: bool) -> None:
    library = open_library(ctx)
    library.sync_index()
    paper = resolve_one(library, ref)
    library.set_starred(paper.id, starred)
    paper.starred = starred
    click.echo(f"{'Starred' if starred else 'Unstarred'}: {paper_line(paper).strip()}")


@cli.command()
@library_option
@click.argument("ref", nargs=-1, required=True)
@click.pass_context
@handles_errors
def star(ctx: click.Context, ref: tuple[str, ...]) -> None:
    """Star the paper named by id, citation key or query."""
    _mark(ctx, " ".join(ref), True)


@cli.command()
@library_option
@click.argument("ref", nargs=-1, required=True)
@click.pass_context
@handles_errors
def unstar(ctx: click.Context, ref: tuple[str, ...]) -> None:
    """Remove the star of the paper named by id, citation key or query."""
    _mark(ctx, " ".join(ref), False)


@cli.command()
@library_option
@click.argument("ref", nargs=-1, required=True)
@click.option("--text", help="The note's new text (without it, $EDITOR opens on the note).")
@click.option("--append", is_flag=True, help="Add --text to the end of the note.")
@click.option("--history", is_flag=True, help="List the note's versions.")
@click.option("--show", "show", type=int, metavar="N", help="Print version N of the note.")
@click.option("--restore", type=int, metavar="N",
              help="Make version N the note again (the current text stays a version).")
@click.pass_context
@handles_errors
def note(
    ctx: click.Context, ref: tuple[str, ...], text: str | None, append: bool, history: bool,
    show: int | None, restore: int | None,
) -> None:
    """Write the Markdown note of a paper; every version is kept (--history).

    A note changed by someone else (the reader, another command) while this one was being
    written is merged, not overwritten.
    """
    library = open_library(ctx)
    paper = resolve_one(library, " ".join(ref))
    if history or show is not None or restore is not None:
        _note_history(library, paper, show, restore)
        return
    library.store.refuse_writes()  # before the editor opens, not after the words are typed
    start = library.note(paper.id)
    if text is None:
        if append:
            raise UserError("--append needs --text")
        edited = click.edit(start.text, extension=".md")
        if edited is None:
            click.echo("Note unchanged.")
            return
        text = edited
    elif append and start.text.strip():
        text = f"{start.text.rstrip()}\n\n{text}"
    saved = library.save_note(paper.id, clean_imported(text), base=start.version, writer=CLI)
    click.echo(f"Saved the note of {paper.citekey} ({len(saved.text):,} characters).")
    _say_merge(saved)
    if start.text.strip() and not append and saved.merged_with is None \
            and saved.text != start.text:
        # Said, and kept as a version: a note replaced by mistake can be put back.
        click.echo(
            f"It replaced this text (kept: reader note {paper.citekey} --history):\n"
            f"{start.text}", err=True,
        )


def _say_merge(saved: NoteSaved) -> None:
    """Tell that the note had changed meanwhile, and whether the merge marks conflicts."""
    if saved.merged_with is None:
        return
    who = describe_writer(saved.merged_with)
    if saved.conflicts:
        click.echo(
            f"The note was changed by {who} meanwhile: both texts are kept, "
            f"{saved.conflicts} conflict{'s' * (saved.conflicts != 1)} marked with "
            f"{CONFLICT_START.strip()} … {CONFLICT_END.strip()}.", err=True,
        )
    else:
        click.echo(f"The note was changed by {who} meanwhile: merged with it.", err=True)


def _note_history(library: Library, paper: Paper, show: int | None, restore: int | None) -> None:
    versions = library.marks.note_versions(paper.id)
    wanted = show if show is not None else restore
    if wanted is None:
        if not versions:
            click.echo(f"{paper.citekey} has no note.")
            return
        for version in versions:
            click.echo(version.summary())
        click.echo(f"reader note {paper.citekey} --show N prints one; --restore N puts it back.")
        return
    if not 1 <= wanted <= len(versions):
        raise UserError(
            f"{paper.citekey}'s note has {len(versions)} version"
            f"{'s' * (len(versions) != 1)}; there is no version {wanted}"
        )
    version = versions[wanted - 1]
    if show is not None:
        click.echo(version.text)
        return
    saved = library.save_note(paper.id, version.text, writer=CLI, kind="restore")
    click.echo(
        f"Restored version {wanted} of {paper.citekey}'s note ({len(saved.text)} characters); "
        "the text it replaced is kept in --history."
    )
