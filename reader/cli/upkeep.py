"""Commands that look after the library: the index, backups, restore, the doctor and the
config file."""

from __future__ import annotations

from pathlib import Path

import click

from reader.cli.base import (
    LazyProgress,
    UserError,
    cli,
    handles_errors,
    library_option,
    library_root,
    open_library,
)
from reader.config import TEMPLATE, config_path, to_toml
from reader.library import (
    RECOVERABLE_KINDS,
    BackupError,
    configured_routes,
    is_damaged,
    lost_advice,
    lost_database,
    reader_command,
    restore_damaged,
)
from reader.locations import LibraryPaths


@cli.command()
@library_option
@click.pass_context
@handles_errors
def reindex(ctx: click.Context) -> None:
    """Rebuild the search index from the database."""
    library = open_library(ctx)
    bar = LazyProgress("Indexing")
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
        path = open_library(ctx).upkeep.backup(dest)
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
    root = library_root()
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
        library = open_library(ctx, create=True)
        library.rebuild_index()
        click.echo(f"Restored {source}. The damaged database is kept, untouched, in {aside}.")
        return
    library = open_library(ctx, create=True)
    try:
        saved = library.upkeep.restore(source)
    except BackupError as exc:
        raise UserError(str(exc)) from exc
    click.echo(f"Restored {source}." + (f" The library before it is in {saved}." if saved else ""))


@cli.command()
@library_option
@click.pass_context
@handles_errors
def doctor(ctx: click.Context) -> None:
    """Check the database and the search index; rebuild the index if it needs it."""
    root = library_root()
    lost = lost_database(LibraryPaths(root).database)
    if lost is not None:
        # Nothing is opened: opening would make a new, empty library of it.
        click.echo(f"database: DAMAGED: {lost}")
        click.echo(lost_advice(root))
        click.echo("search index: not checked (the database comes first)")
        ctx.exit(1)
    report = open_library(ctx).upkeep.doctor()
    for line in report:
        click.echo(line)
    if not report.ok:
        ctx.exit(1)


@cli.command()
@library_option
@click.option("--apply", "apply_", is_flag=True,
              help="Bring back what is listed (else only list it).")
@click.option("--only", "only", multiple=True, type=click.Choice(RECOVERABLE_KINDS),
              help="Bring back only this kind (repeatable): stars, read, tags, notes.")
@click.option("--from", "folder", type=click.Path(path_type=Path, file_okay=False),
              help="The kept folder to read (default: the newest in kept/).")
@click.option("--dismiss", is_flag=True,
              help="Let the newest kept folder go (renamed, not deleted): the doctor stops "
                   "counting it as waiting.")
@click.pass_context
@handles_errors
def recover(ctx: click.Context, apply_: bool, only: tuple[str, ...], folder: Path | None,
            dismiss: bool) -> None:
    """List what the doctor kept aside before a rebuild (the write-ahead log, the index)
    holds that the database lacks: stars, read marks, tags, notes; --apply brings it back
    (never over a note or a tag the library holds now)."""
    library = open_library(ctx)
    if dismiss:
        let_go = library.recovery.dismiss()
        click.echo(f"let go: kept as {let_go}" if let_go else "nothing was kept aside")
        return
    found = library.recovery.recoverable(folder)
    if found is None:
        click.echo("nothing was kept aside: the doctor keeps the index and the write-ahead "
                   "log when the database is behind its index")
        return
    click.echo(f"kept: {found.folder}")
    for source in found.sources:
        click.echo(f"  from the {source}")
    if found.empty():
        click.echo("nothing the database lacks was found")
        return
    for line in found.lines():
        click.echo(line)
    if not apply_:
        reader = reader_command(library.paths.root)
        click.echo(f"`{reader} recover --apply` brings these back (--only KIND for some)")
        return
    done = library.recovery.recover(found, only or RECOVERABLE_KINDS)
    for line in done or ["nothing of the kinds chosen to bring back"]:
        click.echo(line)


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
