"""A paper's own BibTeX entry read back: what an import of the library's export brings
that is only the paper's text written out and read again.

A paper that did not come from a .bib file is plain text with TeX math; its BibTeX entry
escapes that text (``\\`` becomes ``\\textbackslash{}``), brace-protects title words, and
says an entry type, a CSL type and a date its columns only imply. Read back, each is a
different string saying the same thing, which a merge must not take as news: the same
papers imported again as BibTeX are unchanged, and not re-indexed. A paper read from a
.bib file is mostly written back as its source wrote it; a title without TeX markup is
protected like any plain title (``C--C`` as ``{C--C}``), and reads back so.

RIS and CSL-JSON say less than BibTeX: their abstracts and titles are plain text, so a
paper's TeX (``$k$``, ``\\emph{…}``) comes back rendered. :class:`ExportEcho` is what
the paper's own RIS record or CSL-JSON item reads back as, made by the library's exporter
and read by its importer, so that an import of that export keeps the TeX the library has.
"""

from __future__ import annotations

import json
from functools import cached_property
from typing import TYPE_CHECKING, Any

from msgspec import structs

from reader.cite.bibtex_text import bibtex_abstract, bibtex_source, bibtex_title, tex_fields
from reader.cite.citations import bibtex_month, bibtex_type
from reader.cite.export import export
from reader.cite.tex_escape import braces_nest, escape_text
from reader.models import Paper, PaperRecord
from reader.record import csl_type_for_bibtex, date_parts, display_name, split_name
from reader.sources import read_back
from reader.sources.bibtex_fields import kept_as_written, text_variable
from reader.sources.bibtex_values import abstract_field, plain_field, tex_field
from reader.sources.venue_names import SPELLED
from reader.text.identifiers import arxiv_venue
from reader.text.render import plain_line, rendered_as, to_plain

if TYPE_CHECKING:
    from reader.search.renderings import Renderings

# The field names a BibTeX or biblatex export gives each variable by default.
_DEFAULT_NAMES = {
    "container-title": ("journal", "journaltitle", "booktitle"), "issued": ("date",),
    "publisher-place": ("address", "location"), "publisher": ("institution", "school"),
}
_MONTHS = "jan feb mar apr may jun jul aug sep oct nov dec".split()


class BibtexEcho:
    """What the BibTeX entry of a stored paper (a merge's row of it) reads back as; each
    part is worked out when first asked for."""

    def __init__(self, current: dict[str, Any]) -> None:
        # What the BibTeX entry is made of: the OpenReview fields go out as fields of their
        # own, which an import only ever fills in, so they are left out of the echo.
        self._current = current
        self.paper = paper_of(
            current, current["abstract"] or "", openreview_id=None, withdrawn=False, tldr=None,
            primary_area=None,
        )

    @cached_property
    def title(self) -> str:
        """The title as an import of the entry stores it (with the source's subtitle, which
        goes back out as a field of its own)."""
        title = tex_field(bibtex_title(self.paper))
        subtitle = bibtex_source(self.paper).get("subtitle")
        if isinstance(subtitle, str):
            written = subtitle if braces_nest(subtitle) else escape_text(subtitle)
            subtitle = tex_field(written)
            if title and subtitle:
                title = f"{title}: {subtitle}"
        return title

    @cached_property
    def abstract(self) -> str:
        """The abstract as an import of the entry stores it."""
        written = bibtex_abstract(self.paper)
        return abstract_field(written, tex="abstract" in tex_fields(self.paper))

    @cached_property
    def kind(self) -> str:
        """The entry type the export writes (a withdrawn submission's is a ``misc``)."""
        return bibtex_type(self._whole)

    @cached_property
    def kinds(self) -> frozenset[str]:
        """The entry types the BibTeX and the biblatex export write (``misc``, ``online``)."""
        return frozenset({self.kind, bibtex_type(self._whole, biblatex=True)})

    @cached_property
    def _whole(self) -> Paper:
        """The paper with its OpenReview fields, which decide its entry type."""
        return structs.replace(self.paper, withdrawn=bool(self._current["withdrawn"]))

    @cached_property
    def date(self) -> str | None:
        """The date an import reads from the entry's year and month."""
        year = self.paper.year
        if year is None or not 0 <= year <= 9999:
            return None
        month = bibtex_month(self.paper)
        return f"{year:04d}-{_MONTHS.index(month) + 1:02d}" if month else f"{year:04d}"

    def implies(self, column: str, value: Any) -> bool:
        """Whether a record's value for a column the paper lacks is only what the entry
        said for it (its type, its year)."""
        if column == "kind":
            return value in self.kinds
        if column == "date":
            return bool(value == self.date)
        return False

    def implies_variable(self, variable: str, value: Any) -> bool:
        """Whether a record's CSL variable is only what the paper's columns say."""
        if variable == "type":
            return any(value == csl_type_for_bibtex(kind) for kind in self.kinds) or (
                value == "article" and self._preprint
            )
        if variable == "issued":
            # The year and month classic BibTeX says, or the whole date biblatex's says.
            return any(
                parts is not None and value == {"date-parts": [parts]}
                for parts in (date_parts(self.date), date_parts(self.paper.date))
            )
        if variable == "number" and value in (
            self.paper.csl.get("collection-number"), self.paper.csl.get("issue")
        ):
            # A number in a series, or an issue of a type no periodical's, in BibTeX's one
            # field for numbers.
            return True
        if variable == "author" and isinstance(value, list):
            names = [display_name(n) for n in value if isinstance(n, dict)]
            # Or the names split as every citation of the paper splits them (a stored name
            # with a comma is "Last, First" to BibTeX, and to CSL).
            return names in (self.paper.authors, self._split_authors)
        # A source field the paper keeps as written (a Zotero item's ``tex.chapter``), which
        # the export writes back and an import reads as its variable.
        return any(
            text_variable(name) == variable and isinstance(kept, str) and
            plain_field(kept) == value for name, kept in bibtex_source(self.paper).items()
        )

    @cached_property
    def _split_authors(self) -> list[str]:
        """The paper's authors as their names split into CSL's parts say them."""
        names = (split_name(plain_line(a)) for a in self.paper.authors or [])
        return [display_name(n) for n in names if n]

    @cached_property
    def _preprint(self) -> bool:
        """Whether the entry is an arXiv preprint by its eprint, which an import reads as
        CSL's preprint (``article``): in an ``@online``, or under ``arXiv`` as its venue."""
        return bool(self.paper.arxiv_id) and (
            "online" in self.kinds or arxiv_venue(self.paper.venue or "")
        )

    def news(self, extra: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
        """A record's source fields without the entry type the export wrote, without the
        biblatex ``date`` it wrote for a paper of no BibTeX source, and without the mark
        of a venue it spelled out."""
        fields = extra.get("bibtex")
        if not isinstance(fields, dict):
            return extra
        rest = dict(fields)
        if rest.get("@type") in self.kinds:
            del rest["@type"]
        if SPELLED in rest and SPELLED not in (self.paper.extra.get("bibtex") or {}):
            del rest[SPELLED]  # the export spelled out a venue the paper holds short
        for name in [n for n in rest if not bibtex_source(self.paper).get(n)]:
            variable = kept_as_written(name)
            if variable and rest[name] == self.paper.csl.get(variable):
                del rest[name]  # the field the export wrote for the variable, read back
            elif name in _DEFAULT_NAMES["container-title"] and self._preprint and (
                plain_field(str(rest[name])) == self.paper.venue
            ):
                del rest[name]  # the venue written for arXiv, which an import keeps aside
        aliases = rest.get("@fields")
        if isinstance(aliases, dict):
            # How an export names fields by default (biblatex's date, journaltitle,
            # location), not names a source gave them.
            named = {variable: name for variable, name in aliases.items()
                     if name not in _DEFAULT_NAMES.get(variable, ())}
            if named:
                rest["@fields"] = named
            else:
                del rest["@fields"]
        if rest == fields:
            return extra
        others = {fmt: value for fmt, value in extra.items() if fmt != "bibtex"}
        return {**others, "bibtex": rest} if rest else others


class ExportEcho:
    """What a stored paper (a merge's row of it) reads back as from its own export in
    ``fmt`` (``ris``, ``csljson``), made when first asked for.

    Rendering a TeX abstract as plain text is most of an export's work, and only a record
    whose abstract differs from the paper's needs it: the rest is read back from the
    paper exported without its abstract (unless its title is derived from it).
    """

    def __init__(
        self, current: dict[str, Any], fmt: str, renderings: Renderings | None = None
    ) -> None:
        self.current = current
        self.fmt = fmt
        self.renderings = renderings

    def _read_back(self, abstract: str) -> PaperRecord | None:
        """The paper with this abstract exported in the format and imported again (None
        if it reads as no record)."""
        paper = paper_of(self.current, abstract)
        # Compact: the spaces of an indented export are nothing to its reader.
        records = read_back(export([paper], self.fmt, compact=True), self.fmt)
        return records[0] if len(records) == 1 else None

    @cached_property
    def whole(self) -> PaperRecord | None:
        """The paper's export read back."""
        abstract = self.current["abstract"] or ""
        with rendered_as({abstract: self._plain(abstract)}):
            return self._read_back(abstract)

    def _plain(self, abstract: str) -> str:
        """The abstract rendered as plain text, as remembered if it was rendered before
        (the index build renders every abstract); one rendered now is noted."""
        if self.renderings is None:
            return to_plain(abstract)
        plain = self.renderings.recall(abstract)
        if plain is None:
            plain = to_plain(abstract)
            self.renderings.note(abstract, plain)
        return plain

    @cached_property
    def record(self) -> PaperRecord | None:
        """The paper's export read back, but for its abstract."""
        # The abstract changes nothing else an import reads back (so for every paper of the
        # ICLR 2026 list), so the whole export, once read back, serves.
        if self.current["title_derived"] or not self.current["abstract"] or "whole" in vars(self):
            return self.whole
        return self._read_back("")

    @property
    def title(self) -> str | None:
        """The title as an import of the export stores it."""
        return self.record.title if self.record else None

    @property
    def abstract(self) -> str | None:
        """The abstract as an import of the export stores it."""
        return self.whole.abstract if self.whole else None

    def implies(self, column: str, value: Any) -> bool:
        """Whether a record's value for a column the paper lacks is only what the export
        said for it."""
        return self.record is not None and value == getattr(self.record, column)

    def implies_variable(self, variable: str, value: Any) -> bool:
        """Whether a record's CSL variable is only what the export said for it."""
        return self.record is not None and value == self.record.csl.get(variable)

    def news(self, extra: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
        """A record's source fields without those the export wrote as they read back."""
        if self.record is None:
            return extra
        echoed = self.record.extra
        kept: dict[str, dict[str, Any]] = {}
        for fmt, fields in extra.items():
            own = echoed.get(fmt)
            if not isinstance(fields, dict) or not isinstance(own, dict):
                kept[fmt] = fields
                continue
            rest = {name: value for name, value in fields.items()
                    if name not in own or own[name] != value}
            if rest:
                kept[fmt] = rest
        return kept


def paper_of(current: dict[str, Any], abstract: str, **fields: Any) -> Paper:
    """The paper of a row of merge columns (with ``abstract``, and ``fields`` instead of
    the row's), as the exporters take it."""
    paper = Paper(
        id=0,
        title=current["title"] or "",
        title_derived=bool(current["title_derived"]),
        abstract=abstract,
        authors=json.loads(current["authors"] or "[]"),
        venue=current["venue"],
        year=current["year"],
        keywords=json.loads(current["keywords"] or "[]"),
        url=current["url"],
        doi=current["doi"],
        citekey=current["citekey"] or "",
        starred=False,
        note="",
        added_at="",
        arxiv_id=current["arxiv_id"],
        openreview_id=current["openreview_id"],
        date=current["date"],
        withdrawn=bool(current["withdrawn"]),
        tldr=current["tldr"],
        primary_area=current["primary_area"],
        kind=current["kind"],
        decision=current.get("decision"),
        csl=json.loads(current["csl"] or "{}"),
        extra=json.loads(current["extra"] or "{}"),
    )
    return structs.replace(paper, **fields) if fields else paper
