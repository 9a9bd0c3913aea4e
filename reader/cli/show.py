"""``reader show``: one paper whole, as the reader's detail pane shows it, for a terminal
or a script (``--json``, every field)."""

from __future__ import annotations

import json
from typing import Any

import click

from reader.cli.base import cli, handles_errors, library_option, open_library, resolve_each
from reader.cli.signals import signals_line
from reader.models import Paper
from reader.record import published_venue, record_line, source_doi
from reader.signals import Signals
from reader.text.render import plain_line, to_plain
from reader.text.sanitize import visible

__all__ = ["paper_page", "show"]

#: The width of the labels before each detail line.
_LABEL = 11


@cli.command()
@library_option
@click.argument("ref", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True,
              help="Print the paper as a JSON object: every field, as `reader export` writes.")
@click.pass_context
@handles_errors
def show(ctx: click.Context, ref: tuple[str, ...], as_json: bool) -> None:
    """Print the papers named by ids, citation keys, OpenReview ids, arXiv ids or DOIs, or
    the paper a query names: its record, identifiers, marks, tags, conference signals,
    abstract, note and highlights (several papers with --json: a list)."""
    library = open_library(ctx)
    papers = resolve_each(library, ref)
    signals = library.signals([paper.id for paper in papers])
    if as_json:
        from reader.library import export

        wholes = json.loads(export(papers, "json", signals=signals))
        # One paper named: its object, as ever; several: a list of them.
        shown = wholes[0] if len(papers) == 1 else wholes
        click.echo(json.dumps(shown, ensure_ascii=False, indent=2))
        return
    click.echo("\n\n".join("\n".join(paper_page(paper, signals.get(paper.id)))
                           for paper in papers))


def paper_page(paper: Paper, signals: Signals | None) -> list[str]:
    """The lines ``reader show`` prints for a paper (control and bidi characters made
    visible, TeX as Unicode)."""
    derived = "  (title derived from the abstract)" if paper.title_derived else ""
    lines = [_plain(paper.title) + derived]
    if paper.authors:
        lines.append(_plain(", ".join(paper.authors)))
    venue = published_venue(paper.venue or "", paper.csl)
    where = " · ".join(p for p in (_plain(venue), str(paper.year or ""),
                                   visible(record_line(paper.csl))) if p)
    if where:
        lines.append(where)
    lines.append("")
    details: list[tuple[str, Any]] = [
        ("key", paper.citekey + (f" (also {', '.join(paper.aliases)})" if paper.aliases
                                 else "")),
        ("date", paper.date if paper.date and paper.date != str(paper.year) else ""),
        # The DOI as the source wrote it (the library matches on it lower-cased).
        ("doi", source_doi(paper.csl, paper.doi)), ("arxiv", paper.arxiv_id),
        ("openreview", paper.openreview_id),
        ("url", paper.url), ("keywords", ", ".join(map(plain_line, paper.keywords))),
        ("tags", ", ".join(paper.tags)),
        ("marks", " · ".join(m for m, on in (("★ starred", paper.starred), ("read", paper.read),
                                             ("withdrawn", paper.withdrawn)) if on)),
        ("signals", signals_line(signals) if signals and not signals.is_empty else ""),
        ("tl;dr", _plain(paper.tldr or "")),
        # The source's notes field (a RIS N1, a BibTeX note): the file's words, not the user's.
        ("file note", _plain(str(paper.csl.get("note") or ""))),
        # A table's cells read as no field (Zotero's "Date Added": when the item entered
        # that library, neither published nor accessed), kept as written: shown, not hidden.
        ("file cells", " · ".join(f"{name}: {_plain(str(value))}" for name, value in
                                  paper.extra.get("table", {}).items() if value)),
    ]
    lines += [f"{name:<{_LABEL}}{visible(str(value))}" for name, value in details if value]
    abstract = visible(to_plain(paper.abstract).strip())
    if abstract:
        lines += ["", "Abstract", abstract]
    if paper.note.strip():
        lines += ["", "Note", visible(paper.note.strip())]
    if paper.highlights:
        lines += ["", "Highlights"]
        lines += [f"“{visible(h.quote)}”" + (f" — {visible(h.note)}" if h.note else "")
                  for h in paper.highlights]
    return lines


def _plain(text: str) -> str:
    return plain_line(visible(text))

