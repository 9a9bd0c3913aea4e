"""``reader revisions``: the titles, abstracts, TL;DRs and keywords imports replaced in a
paper, to read and put back (as ``reader note --history`` does for notes)."""

from __future__ import annotations

import click

from reader.cli.base import (
    UserError,
    cli,
    handles_errors,
    library_option,
    one_paper,
    open_library,
    resolve_one,
)


@cli.command()
@library_option
@one_paper
@click.option("--show", "show", type=int, metavar="N", help="Print revision N in full.")
@click.option("--restore", type=int, metavar="N",
              help="Make revision N the paper's text again (the current text is kept too).")
@click.pass_context
@handles_errors
def revisions(
    ctx: click.Context, ref: tuple[str, ...], show: int | None, restore: int | None
) -> None:
    """List the titles, abstracts, TL;DRs and keywords of a paper that imports replaced;
    every one is kept."""
    library = open_library(ctx)
    paper = resolve_one(library, " ".join(ref))
    kept = library.queries.text_revisions(paper.id)
    wanted = show if show is not None else restore
    if wanted is None:
        if not kept:
            click.echo(f"{paper.citekey}'s title, abstract, TL;DR and keywords were never "
                       "replaced.")
            return
        for revision in kept:
            click.echo(revision.summary())
        click.echo(
            f"reader revisions {paper.citekey} --show N prints one; --restore N puts it back."
        )
        return
    if not 1 <= wanted <= len(kept):
        raise UserError(
            f"{paper.citekey} has {len(kept)} revision{'s' * (len(kept) != 1)}; "
            f"there is no revision {wanted}"
        )
    revision = kept[wanted - 1]
    if show is not None:
        click.echo(revision.shown())
        return
    library.queries.restore_revision(paper.id, revision)
    click.echo(
        f"Restored revision {wanted} of {paper.citekey}'s {revision.field}; the text it "
        f"replaced is kept (reader revisions {paper.citekey})."
    )
