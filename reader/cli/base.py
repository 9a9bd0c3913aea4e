"""What every command shares: the ``reader`` group (the TUI when run bare), the library
chosen by ``--library``, one clear line for each expected error, progress, paper lines."""

from __future__ import annotations

import functools
import gc
import importlib
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from reader import __version__
from reader.errors import Damaged, IndexBusy, IndexDamaged, ReaderError
from reader.library import (
    DatabaseLost,
    Library,
    StoreDamaged,
    StoreError,
    no_library_line,
    outermost_missing,
    take_back_unfilled,
    take_back_unopened,
    translated,
    unopened_line,
    unreadable_line,
    upgraded_line,
)
from reader.locations import default_library_dir
from reader.models import Paper
from reader.signals import Signals, one_decimal
from reader.text.render import plain_line
from reader.text.sanitize import visible

F = TypeVar("F", bound=Callable[..., Any])


# Not a ReaderError: how the command *says* one (click prints its line, exits with status
# 1), made at the edge. (click declares ``message`` final: it could not be one for mypy.)
class UserError(click.ClickException):
    """A problem explained in one line, with exit status 1."""

    def format_message(self) -> str:
        return self.message


def _set_library(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    if value is None:
        return
    if not value:
        # Not the current directory, as an empty path would be: an unset variable in a
        # script (`--library "$LIB"`) would make a library wherever it ran.
        raise click.BadParameter("a directory is needed, and the name given is empty",
                                 ctx=ctx, param=param)
    # `--library=~/papers` reaches here unexpanded (a shell expands `~` only at the start
    # of a word), and READER_HOME is expanded too: both mean the home directory.
    ctx.ensure_object(dict)["library"] = Path(value).expanduser()


def library_option(func: F) -> F:
    """Accept ``--library DIR`` on the group and on each subcommand alike."""
    return click.option(
        "--library",
        # A file is refused when the library opens, in the line READER_HOME naming one
        # gets (click's own would be a usage error, status 2).
        type=click.Path(path_type=str),
        callback=_set_library,
        expose_value=False,
        is_eager=True,
        help="Library directory (default: $READER_HOME or the user data directory).",
    )(func)


def one_paper(func: F) -> F:
    """The argument of a command of one paper: its id, citation key, OpenReview id, arXiv
    id or DOI, or the words of a query naming it (``reader note attention is all``), the
    words joined. Its usage line says ``PAPER``: ``REF...`` read as several papers."""
    return click.argument("ref", nargs=-1, required=True, metavar="PAPER")(func)


def open_library(ctx: click.Context, *, create: bool = False) -> Library:
    """Open the library chosen by ``--library``/``READER_HOME``/the default. Only a
    command that writes papers in (``create``: import, add, fetch, restore) makes a new
    one where there is none; the others say there is none (a mistyped directory)."""
    root = library_root(ctx)
    nothing = no_library_line(root)
    if not create and nothing:
        raise UserError(nothing)
    made = outermost_missing(root)
    try:
        library = Library(root)
        if nothing:
            # Made here: a command that ends with no paper in it (a refused file, a dry
            # run) takes it away again, and a mistyped --library leaves nothing behind.
            ctx.call_on_close(functools.partial(take_back_unfilled, library, made))
        if library.upgrade is not None:
            click.echo(f"Note: {upgraded_line(library.upgrade, root)}", err=True)
        evidence = library.loss.check()
        # The doctor and recover say it themselves, with what was found.
        if evidence is not None and ctx.command.name not in ("doctor", "recover"):
            # Said before the command's own output, whatever the command: a later look
            # would find the evidence gone.
            click.echo(f"Warning: {evidence}", err=True)
        return library
    except ReaderError as exc:
        if nothing:
            take_back_unopened(root, made)  # begun here, and not made (a full disk)
        raise UserError(unopened_line(exc, root)) from exc


def library_root(ctx: click.Context | None = None) -> Path:
    """The library directory of the command being run (of ``ctx``, when given)."""
    ctx = ctx or click.get_current_context(silent=True)
    chosen = ctx.ensure_object(dict).get("library") if ctx is not None else None
    return Path(chosen or default_library_dir())


#: The exit status of a command whose output was closed (``reader search … | head``): what
#: a shell reports for a process that SIGPIPE ended, as for other command-line tools.
PIPE_CLOSED = 141


def _output_closed() -> None:
    """End quietly once the reader of the output went away: what is still buffered for it
    goes to the null device (else Python complains at exit when flushing it)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (AttributeError, OSError, ValueError):
        pass  # no real descriptor (a test's captured output): nothing is left to flush
    sys.exit(PIPE_CLOSED)


def handles_errors(func: F) -> F:
    """Turn the core's expected errors into one clear line and a non-zero exit; a closed
    output (a pipe into ``head``) ends the command quietly."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            # What the command meets beside the library (a file it writes, say) is
            # translated as the library's own errors are; a closed output is not an error.
            with translated():
                try:
                    return func(*args, **kwargs)
                except BrokenPipeError:
                    _output_closed()
        except IndexBusy as exc:
            raise UserError(f"{exc}; try again once it is done") from exc
        except (IndexDamaged, StoreDamaged, DatabaseLost, StoreError) as exc:
            # Each says what it is in its line.
            raise UserError(exc.line()) from exc
        except Damaged as exc:
            # Damage found after the database opened (a bad page is only met when read).
            raise UserError(unreadable_line(exc, library_root())) from exc
        except ReaderError as exc:
            raise UserError(exc.line()) from exc

    return wrapper  # type: ignore[return-value]


#: Each command and the module of reader.cli that defines it. A module is imported when
#: one of its commands is run (or listed by --help): the reader itself, run with no
#: command, needs none of them before its first frame.
COMMAND_MODULES = {
    "add": "importing", "import": "importing", "note": "papers", "rekey": "papers",
    "search": "papers", "star": "papers", "stats": "papers", "unstar": "papers",
    "cite": "citing", "export": "citing", "notes": "citing",
    "fetch": "fetching",
    "highlights": "signals", "reviews": "signals",
    "revisions": "revisions", "show": "show",
    "backup": "upkeep", "config": "upkeep", "doctor": "upkeep", "recover": "upkeep",
    "reindex": "upkeep", "restore": "upkeep",
}


class _Commands(click.Group):
    """The ``reader`` group, whose commands are defined as they are asked for."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *COMMAND_MODULES})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        module = COMMAND_MODULES.get(cmd_name)
        if module is not None and cmd_name not in self.commands:
            importlib.import_module(f"reader.cli.{module}")  # registers its commands here
        return super().get_command(ctx, cmd_name)


@click.group(cls=_Commands, invoke_without_command=True,
             context_settings={"help_option_names": ["-h", "--help"]})
@library_option
@click.version_option(__version__, prog_name="reader")
@click.pass_context
def cli(ctx: click.Context) -> None:
    """A keyboard-driven reader and annotator for research-paper abstracts.

    Run without a command to open the reader.
    """
    if ctx.invoked_subcommand is not None:
        gc.enable()  # turned off while the command's modules were imported (reader.entry)
        return
    from reader.ui.start import NotOpened, run_window

    try:
        status = run_window(library_root(ctx), lambda line: click.echo(line, err=True))
    except NotOpened as exc:
        raise UserError(str(exc)) from exc
    if status:
        # The window ended on an error it showed: the shell hears of it too.
        ctx.exit(status)


class LazyProgress:
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


class ProgressStages:
    """Progress bars one after another, as the stages of one piece of work report: a
    stage's bar (a :class:`LazyProgress`) starts with its first report, the bar before it
    closed then."""

    def __init__(self) -> None:
        self._bar: LazyProgress | None = None

    def of(self, label: str) -> Callable[[int, int], None]:
        """The progress callback of the stage shown as ``label``."""

        def update(done: int, total: int) -> None:
            if self._bar is None or self._bar.label != label:
                self.close()
                self._bar = LazyProgress(label)
            self._bar.update(done, total)

        return update

    def close(self) -> None:
        """Close the bar shown, if any."""
        if self._bar is not None:
            self._bar.close()
            self._bar = None


def paper_json(
    paper: Paper, score: float | None = None, signals: Signals | None = None
) -> dict[str, Any]:
    """A paper as a row of ``reader search --json``: its fields (the title as shown), its
    ids for scripts to join on, and its conference signals (``rating`` the mean,
    ``ratings``, ``decision`` and the ``decision_raw`` words it came from, ``reviews`` a
    count; null or empty when it has none)."""
    return {
        "id": paper.id,
        "citekey": paper.citekey,
        # As the reader shows it ("{SAIL}: {Self-Amplified}…" of a BibTeX source, as SAIL:
        # Self-Amplified…); `reader export --format json` gives it as stored.
        "title": plain_line(paper.title),
        "title_derived": paper.title_derived,
        "authors": paper.authors,
        "venue": paper.venue,
        "year": paper.year,
        "starred": paper.starred,
        "has_note": bool(paper.note.strip()),
        "score": score,
        "openreview_id": paper.openreview_id,
        "arxiv_id": paper.arxiv_id,
        "doi": paper.doi,
        "rating": signals.rating_mean if signals else None,
        "ratings": list(signals.ratings) if signals else [],
        "decision": signals.decision if signals else None,
        # The source's words: "Invite to Workshop Track" and "ICLR 2026 Workshop" are
        # both ``workshop``; a script may want to tell them apart.
        "decision_raw": signals.decision_raw if signals else None,
        "reviews": signals.reviews if signals else None,
    }


def shown(text: str) -> str:
    """A bibliographic field as a command prints it for people: TeX as Unicode, and control
    and bidi characters as visible stand-ins, as the reader shows them (an escape sequence
    or a right-to-left override in a title must not act on the terminal)."""
    return plain_line(visible(text))


def paper_line(paper: Paper, signals: Signals | None = None) -> str:
    """One paper as a table line: id, star and note marks, key, title, venue and year; and,
    when ``signals`` are given, the mean rating and the decision at the end."""
    star, note = "★" if paper.starred else " ", "✎" if paper.note.strip() else " "
    title = shown(paper.title)
    title = title if len(title) <= 64 else title[:63] + "…"
    venue_year = " · ".join(p for p in (shown(paper.venue or ""), str(paper.year or "")) if p)
    where = f"  [{venue_year}]" if venue_year else ""
    line = f"{paper.id:>6} {star}{note} {visible(paper.citekey):<22} {title}{where}"
    if signals is None:
        return line
    # Rounded as `reader reviews`, `show` and the app round it: 6.25 is 6.3 everywhere.
    mean = "  –" if signals.rating_mean is None else one_decimal(signals.rating_mean).rjust(4)
    return f"{line}  {mean} {signals.decision or ''}".rstrip()


def resolve_each(library: Library, words: tuple[str, ...]) -> list[Paper]:
    """The papers several ids or citation keys name (``reader star K1 K2``), each once;
    otherwise the one paper the words name read as one query (``reader show attention is
    all``), or a clear error."""
    if len(words) <= 1:
        return [resolve_one(library, " ".join(words))]
    named = _each_named(library, words)
    if named:
        return list({paper.id: paper for paper in named}.values())
    try:
        return [resolve_one(library, " ".join(words))]
    except UserError:
        # Keys with one mistyped: the word that names nothing, not the words as a query.
        unknown = [word for word in words if _named_by(library, word) is None]
        if len(unknown) < len(words):
            listed = ", ".join(repr(word) for word in unknown)
            raise UserError(f"no paper has the id or key {listed} (the other words name "
                            "papers; a query is the words of one paper)") from None
        raise


def _named_by(library: Library, word: str) -> Paper | None:
    """The paper ``word`` names by an identifier (id, key, OpenReview id, arXiv id, DOI),
    not as a query."""
    found = library.resolve(word)
    # A query's one match is counted (total 1); an identifier's paper is not.
    return found.paper if found.paper is not None and not found.total else None


def _each_named(library: Library, words: tuple[str, ...] | list[str]) -> list[Paper]:
    """The paper each word names by an identifier, or [] if a word names none so."""
    named = []
    for word in words:
        paper = _named_by(library, word)
        if paper is None:
            return []
        named.append(paper)
    return named


def resolve_one(library: Library, ref: str) -> Paper:
    """The paper a reference names, or a clear error listing the candidates."""
    if not ref.strip():
        raise UserError("no paper named: give an id, a citation key or words of its title")
    field, colon, value = ref.strip().partition(":")
    if colon and field.isalpha() and not value.strip():  # `key:`: not every paper with a key
        raise UserError(f"{ref.strip()!r} names no {field}: give one after the colon")
    found = library.resolve(ref)
    if found.paper is not None:
        _one_by_id_or_key(library, ref, found.paper)
        return found.paper
    words = ref.split()
    if not found.candidates and len(words) > 1 and _each_named(library, words):
        # Several keys given to a command of one paper: not "no paper matches" them.
        raise UserError(f"{ref!r} names {len(words)} papers, a word each: this command takes "
                        "one (an id, a citation key or the words of a query)")
    if not found.candidates:
        raise UserError(f"no paper matches {ref!r}")
    lines = "\n".join(paper_line(p) for p in found.candidates)
    more = f"the best {len(found.candidates)} of {found.total}" if found.total > len(
        found.candidates) else f"{found.total}"
    raise UserError(
        f"{ref!r} matches several papers ({more} below); name one by id or citation key:\n"
        f"{lines}"
    )


def _one_by_id_or_key(library: Library, ref: str, paper: Paper) -> None:
    """Refuse a number that is one paper's id and another's citation key (a BibTeX file's
    ``@article{2,``): the id was taken without a word."""
    keyed = library.store.id_for_key(ref.strip()) if ref.strip().isdigit() else None
    if keyed is not None and keyed != paper.id and (other := library.store.paper(keyed)):
        raise UserError(
            f"{ref.strip()!r} is the id of one paper and the citation key of another; name "
            f"the first as key:{paper.citekey}, the second as key:{ref.strip()}:\n"
            f"{paper_line(paper)}\n{paper_line(other)}")
