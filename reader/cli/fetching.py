"""``reader fetch openreview``: papers with their reviews and discussion, from OpenReview's
API into a JSON-lines file, then imported as ``reader import FILE`` would."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from reader.cli.base import (
    ProgressStages,
    UserError,
    cli,
    handles_errors,
    library_option,
    open_library,
)
from reader.library import Library, digest, fetched_line

if TYPE_CHECKING:
    from reader.library import Plan


@cli.group()
def fetch() -> None:
    """Fetch papers with their reviews and discussion from the web."""


@fetch.command("openreview")
@library_option
@click.argument("refs", nargs=-1)
@click.option("--starred", is_flag=True, help="The starred papers that have an OpenReview id.")
@click.option("--query", "-q", default="",
              help="The papers this search finds that have an OpenReview id.")
@click.option("--venue", default="", metavar="VENUEID",
              help="A whole venue, such as ICLR.cc/2026/Conference (or an invitation id).")
@click.option("-o", "--output", "out", type=click.Path(dir_okay=False, path_type=Path),
              help="The JSON-lines file to write (default: in the library's cache).")
@click.option("--no-import", is_flag=True, help="Write the file only.")
@click.option("--restart", is_flag=True, help="Start over instead of continuing a stopped fetch.")
@click.option("--page-size", type=click.IntRange(1, 1000), default=1000, show_default=True,
              help="Papers asked for in one request of a venue.")
@click.option("--timeout", type=click.FloatRange(min=0.5), default=60.0, show_default=True,
              help="Seconds to wait for each answer to begin.")
@click.pass_context
@handles_errors
def fetch_openreview(
    ctx: click.Context, refs: tuple[str, ...], starred: bool, query: str, venue: str,
    out: Path | None, no_import: bool, restart: bool, page_size: int, timeout: float,
) -> None:
    """Fetch papers with every public review, decision and comment from OpenReview (API v2):
    papers by OpenReview id, URL, library id or citation key; --starred; --query Q; or a
    whole --venue. Pages are kept as they come: Ctrl-C (or a failure) keeps what came, and
    the same command run again continues where it stopped.

    Log in when OpenReview asks (it may refuse anonymous requests): OPENREVIEW_USERNAME and
    OPENREVIEW_PASSWORD in the environment, or the password in the OS keyring under
    openreview.net (with the `keyring` extra). They are never stored by reader.
    """
    chosen = sum(bool(x) for x in (refs, venue, starred or query))
    if chosen != 1:
        raise UserError("name what to fetch: paper ids, --starred, --query Q or --venue VENUEID "
                        "(one of them)")
    library = open_library(ctx, create=True)
    try:
        code = _fetch_and_import(library, refs, starred, query, venue, out, no_import,
                                 restart, page_size, timeout)
    finally:
        library.close()  # the index files a search or an import opened
    if code:
        ctx.exit(code)


def _fetch_and_import(
    library: Library, refs: tuple[str, ...], starred: bool, query: str, venue: str,
    out: Path | None, no_import: bool, restart: bool, page_size: int, timeout: float,
) -> int:
    """Fetch, write and import; the exit status (130 when interrupted, 1 when stopped by
    a failure after some papers came)."""
    from reader.library import FetchError

    bar = _FetchBar()
    try:
        plan = _plan(library, refs, starred, query, venue)
        outcome = library.fetching.fetch_openreview(plan, out=out, restart=restart, timeout=timeout,
                                           page_size=page_size, progress=bar.update)
    except FetchError as exc:
        raise UserError(str(exc)) from exc
    finally:
        bar.close()
    for problem in outcome.problems:
        click.echo(problem, err=True)
    if outcome.stopped is not None and not outcome.papers:
        raise UserError(outcome.stopped if not outcome.interrupted else
                        "interrupted before any paper came")
    if outcome.complete and not outcome.papers:
        asked = f"the venue {venue}" if venue else "the papers asked for"
        raise UserError(f"OpenReview gave no paper for {asked}; nothing imported")
    click.echo(fetched_line(outcome))
    if outcome.stopped is not None:
        reason = "Interrupted" if outcome.interrupted else f"Stopped: {outcome.stopped}"
        click.echo(f"{reason}. The {outcome.papers:,} papers that came are kept; run the same "
                   "command again to fetch the rest.", err=True)
    if not no_import and outcome.papers:
        _import(library, outcome.path)
    if outcome.stopped is None:
        return 0
    return 130 if outcome.interrupted else 1


def _plan(library: Library, refs: tuple[str, ...], starred: bool, query: str, venue: str) -> Plan:
    """What the arguments ask to fetch."""
    from reader.library import forums_plan, parse_query, venue_plan

    if venue:
        return venue_plan(venue)
    if refs:
        forums = [_forum_of(library, ref) for ref in refs]
        name = f"forum-{forums[0]}" if len(set(forums)) == 1 else f"papers-{digest(forums)}"
        return forums_plan(forums, name)
    text = f"{query} is:starred" if starred else query
    library.sync_index()
    parsed = parse_query(text)
    outcome = library.search(text, parsed=parsed)
    if not parsed.as_written:
        raise UserError(f"{outcome.notice}; nothing fetched")
    papers = library.papers(outcome.ids)
    forums = [p.openreview_id for p in papers if p.openreview_id]
    what = "starred papers" if starred and not query else f"papers found by {text.strip()!r}"
    if not papers:
        raise UserError(f"no {what}; nothing fetched")
    if not forums:
        raise UserError(f"none of the {len(papers):,} {what} has an OpenReview id; nothing "
                        "fetched")
    if len(forums) < len(papers):
        click.echo(f"{len(papers) - len(forums):,} of the {len(papers):,} {what} have no "
                   "OpenReview id; fetching the others", err=True)
    name = "starred" if starred and not query else f"query-{digest([text])}"
    return forums_plan(forums, name)


def _forum_of(library: Library, ref: str) -> str:
    """The OpenReview id a reference names: a paper of the library (by id or citation key)
    with one, or an OpenReview id or URL."""
    from reader.library import classify

    found = library.resolve(ref) if not ref.lower().startswith(("http", "openreview:")) else None
    if found is not None and found.paper is not None:
        if found.paper.openreview_id:
            return found.paper.openreview_id
        raise UserError(f"{ref!r} ({found.paper.citekey}) has no OpenReview id")
    kind = classify(ref)
    if kind is None or kind[0] != "openreview":
        raise UserError(f"{ref!r} is neither an OpenReview id or URL nor a paper of the "
                        "library with one")
    return kind[1]


def _import(library: Library, path: Path) -> None:
    """Import the file as ``reader import FILE`` does, then bring the index up to date."""
    stages = ProgressStages()
    try:
        summary = library.import_files(
            [path], None, stages.of("Importing"), indexing=stages.of("Indexing"),
            reviews_progress=stages.of("Indexing review text"),
        )
    finally:
        stages.close()
    for warning in summary.warnings:
        click.echo(f"warning: {warning}", err=True)
    click.echo(summary.line(f" (see `reader import -v {path}`)"))


class _FetchBar:
    """A progress bar on standard error, drawn once the total is known."""

    def __init__(self) -> None:
        self.bar: Any = None
        self.shown = 0

    def update(self, done: int, total: int | None) -> None:
        if total is None:
            return
        if self.bar is None:
            self.bar = click.progressbar(
                length=total, label="Fetching from OpenReview", file=sys.stderr, show_pos=True
            )
            self.bar.__enter__()
            self.shown = 0
        self.bar.update(done - self.shown)
        self.shown = done

    def close(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)
