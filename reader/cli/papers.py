"""Commands that bring papers in and act on them: import, add, search, star, rekey, stats, note."""

from __future__ import annotations

import difflib
import json
import os
import sys

import click

from reader.cli.base import (
    LazyProgress,
    UserError,
    cli,
    handles_errors,
    library_option,
    one_paper,
    open_library,
    paper_json,
    paper_line,
    resolve_each,
    resolve_one,
)
from reader.errors import IndexDamaged
from reader.library import (
    CLI,
    RELEVANCE,
    SORT_KEYS,
    Library,
    NoteSaved,
    describe_writer,
    parse_query,
)
from reader.models import Paper
from reader.text.notemerge import CONFLICT_END, CONFLICT_START
from reader.text.sanitize import clean_imported


# A query may start with a minus (`-is:starred`, `-title:survey`): words click does not know
# as options are the query's.
@cli.command(context_settings={"ignore_unknown_options": True})
@library_option
@click.argument("query", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="Print a JSON array of papers.")
@click.option("--count", "count_only", is_flag=True, help="Print only how many papers match.")
@click.option("--limit", type=click.IntRange(min=1), default=20, show_default=True)
@click.option("--sort", "order", type=click.Choice(list(SORT_KEYS)), default=RELEVANCE,
              show_default=True, help="Order: rating (mean), spread, weighted (by confidence)…")
@click.pass_context
@handles_errors
def search(ctx: click.Context, query: tuple[str, ...], as_json: bool, count_only: bool,
           limit: int, order: str) -> None:
    """Search the library (same syntax as in the reader); status 1 when nothing matches."""
    for word in query:
        if word.startswith("--") and len(word) > 2:
            # Taken as a word of the query, a mistyped option would answer another
            # question ("No papers match" for a query that matches hundreds).
            names = [n for p in ctx.command.params for n in p.opts if n.startswith("--")]
            near = difflib.get_close_matches(word, names, n=1)
            meant = f" (did you mean {near[0]}?)" if near else ""
            ctx.fail(f"No such option: {word}{meant}; a query's words do not start with --")
    library = open_library(ctx)
    text = " ".join(query)
    parsed = parse_query(text)
    if parsed.unknown_fields:  # searched without it, the list would answer another query
        raise UserError("; ".join(f"unknown field {name}: (did you mean {meant}:?)" for name,
                                  meant in parsed.unknown_fields) + "; nothing searched")
    if parsed.unknown or parsed.bad_values:
        # A filter left out would list more papers than asked for (all of them, when the
        # query is only that filter), as if they were the answer.
        raise UserError(f"{parsed.notice(full=True)}; nothing searched")
    bar = LazyProgress("Indexing")
    try:
        library.sync_index(bar.update)
        if parsed.reviews or parsed.not_reviews:
            bar.close()
            bar = LazyProgress("Indexing review text")
            library.reviews.sync_reviews(bar.update)
        outcome = library.search(text, limit=limit, order=order, mend=False, parsed=parsed)
    except IndexDamaged as exc:
        bar.close()
        click.echo(
            f"The search index is damaged ({exc}); rebuilding it from the database…", err=True
        )
        bar = LazyProgress("Rebuilding the index")
        library.indexing.mend_index(bar.update)
        outcome = library.search(text, limit=limit, order=order, parsed=parsed)
    finally:
        bar.close()
    if outcome.notice:
        # The query's own notice in full: here there is room for a filter's values.
        full = parsed.notice(full=True) if outcome.notice == parsed.notice() else None
        click.echo(full or outcome.notice, err=True)
    if count_only:
        click.echo(str(outcome.count))
        ctx.exit(0 if outcome.count else 1)
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
            f"{counts['papers']:,} paper{'s' * (counts['papers'] != 1)}, "
            f"{counts['starred']:,} starred, "
            f"{counts['with_notes']} with notes"
        )


def _mark(ctx: click.Context, ref: tuple[str, ...], starred: bool) -> None:
    library = open_library(ctx)
    library.sync_index()
    for paper in resolve_each(library, ref):
        if paper.starred == starred:
            # Said as it is: nothing changed.
            said = "Already starred" if starred else "Not starred"
            click.echo(f"{said}: {paper_line(paper).strip()}")
            continue
        library.set_starred(paper.id, starred)
        paper.starred = starred
        click.echo(f"{'Starred' if starred else 'Unstarred'}: {paper_line(paper).strip()}")


@cli.command()
@library_option
@click.argument("ref", nargs=-1, required=True)
@click.pass_context
@handles_errors
def star(ctx: click.Context, ref: tuple[str, ...]) -> None:
    """Star the papers named by ids or citation keys, or the paper a query names."""
    _mark(ctx, ref, True)


@cli.command()
@library_option
@click.argument("ref", nargs=-1, required=True)
@click.pass_context
@handles_errors
def unstar(ctx: click.Context, ref: tuple[str, ...]) -> None:
    """Remove the star of the papers named by ids or citation keys, or of the paper a
    query names."""
    _mark(ctx, ref, False)


@cli.command()
@library_option
@one_paper
@click.option("--text", help="The note's new text (without it, $EDITOR opens on the note; "
              "with standard input not a terminal, the text is read from it).")
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

    PAPER is one paper: its id, citation key, OpenReview id, arXiv id or DOI, or the words
    of a query naming it.

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
    if text is None and not sys.stdin.isatty():
        # Piped or scripted: the words come from standard input, as `echo … | reader note
        # KEY` means; with none there, an editor the user named may still run without a
        # terminal (a window's), but the default one would wait on no terminal for ever.
        text = sys.stdin.read() or None
        if text is None and not (os.environ.get("VISUAL") or os.environ.get("EDITOR")):
            raise UserError("no --text, no text on standard input and no terminal for an "
                            "editor; the note is unchanged")
    if text is None:
        if append:
            raise UserError("--append needs --text")
        edited = click.edit(start.text, extension=".md")
        if edited is None:
            click.echo("Note unchanged.")
            return
        text = edited
    elif append and start.text.strip():
        # After the note as it is, not a character of it changed: a window editing it
        # meanwhile then merges its words before the added paragraph, not inside it.
        ending = "\n\n" if not start.text.endswith("\n") else "\n"
        text = start.text + ("" if start.text.endswith("\n\n") else ending) + text
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
