"""What of a record merges into the known paper it is: the title and abstract it knows
better (the replaced text kept as a revision), what the paper lacks (authors, keywords,
venue and year, CSL variables, source fields), its identifiers, its key and its aliases.

One :class:`FieldMerge` serves one import (:mod:`reader.intake.merge`, which decides
which paper each record is and hands this the known ones). It works on the import's own
caches, lent to it: the matcher's indexes of identifiers and abstracts, and the citation
keys taken, which it keeps current as it claims them, so that the next record of the same
transaction is matched against what this one wrote.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from reader.cite.bibtex_types import genre_of_kind
from reader.cite.keys import CitekeyAllocator, usable_key
from reader.import_summary import ImportSummary
from reader.intake.differing import completes, differing, in_full, in_full_names, taken
from reader.intake.echo import BibtexEcho, ExportEcho
from reader.intake.identity import Matcher, same_text, same_title
from reader.intake.merged_said import also_changed, gained_fields
from reader.intake.versions import as_published, preprint_of, publishes, without_publication
from reader.models import PaperRecord
from reader.record import csl_type_for_bibtex
from reader.store.import_rows import ImportRows, dumps
from reader.text.identifiers import normalize_doi

if TYPE_CHECKING:
    from reader.search.renderings import Renderings

__all__ = ["ACTIONS", "CHANGED_ACTIONS", "FieldMerge"]

#: What an import did to a paper, strongest first: the label a paper gets in import_items.
ACTIONS = ("new", "withdrawn", "retitled", "revised", "merged", "unchanged")
CHANGED_ACTIONS = ("withdrawn", "retitled", "revised")

# Formats the library exports and reads back, whose own export of a paper is no news.
_ECHOED = ("bibtex", "ris", "csljson", "csv")
# Formats whose keys a web site makes up afresh for each snapshot (OpenReview's _bibtex):
# they never rename a paper whose key the library gave before.
_SITE_KEYED = ("openreview",)
# Columns a richer record fills in when the library has nothing there yet.
_FILL_IN = ("venue", "year", "url", "date", "tldr", "primary_area", "kind")
# The summary's count of each text a newer-dated record replaced.
_NEWER_COUNTS = {"title": "newer_titles", "abstract": "newer_abstracts",
                 "tldr": "newer_tldrs", "keywords": "newer_keywords"}

def _whole_list(
    record: PaperRecord, current: dict[str, Any], updates: dict[str, Any]
) -> dict[str, Any]:
    """The updates that give a paper whose authors ended "and others" the record's whole
    list (or whose authors' given names were initials, the record's in full): its names,
    its CSL authors, and no "and others" for an export to write."""
    variables = json.loads(updates.get("csl") or current["csl"] or "{}")
    if record.csl.get("author"):
        variables["author"] = record.csl["author"]
    elif spelt := in_full_names(variables.get("author"), record.authors):
        variables["author"] = spelt  # (the library's structure, "Le Scao", kept)
    else:
        variables.pop("author", None)  # (the display names say it all)
    extra = json.loads(updates.get("extra") or current["extra"] or "{}")
    bibtex = extra.get("bibtex", {})
    others = [name for name in bibtex.get("@others", []) if name != "author"]
    if others:
        bibtex["@others"] = others
    else:
        bibtex.pop("@others", None)
    return {"authors": json.dumps(record.authors, ensure_ascii=False), "csl": dumps(variables),
            "extra": dumps(extra)}


def _newer_words(
    record: PaperRecord, current: dict[str, Any], updates: dict[str, Any]
) -> list[str]:
    """The TL;DR and keywords of a newer-dated record of the paper (a camera-ready
    snapshot's, over its blind submission's) that say otherwise than the paper's: put in
    ``updates``, as its title and abstract are, and named. A paper's own that no record
    dated them (a reference manager's keywords, its user's) are only filled in."""
    taken = []
    if record.tldr and current["tldr"] and not same_text(current["tldr"], record.tldr):
        updates["tldr"] = record.tldr
        taken.append("tldr")
    known = json.loads(current["keywords"] or "[]")
    if record.keywords and known and (
        {word.casefold() for word in known} != {word.casefold() for word in record.keywords}
    ):
        updates["keywords"] = json.dumps(record.keywords, ensure_ascii=False)
        taken.append("keywords")
    return taken


class FieldMerge:
    """Merges records into the known papers they are, for one import, in its transaction."""

    def __init__(
        self,
        rows: ImportRows,
        summary: ImportSummary,
        matcher: Matcher,
        citekeys: CitekeyAllocator,
        fmt: str,
        renderings: Renderings | None = None,
        take_differing: bool = False,
    ) -> None:
        self.rows = rows
        #: Whether the file's values replace the library's where they differ (--update).
        self.take_differing = take_differing
        self.summary = summary
        self.matcher = matcher
        self.citekeys = citekeys
        self.fmt = fmt
        #: Where the abstracts' plain renderings are remembered, for the echo.
        self.renderings = renderings

    @property
    def echoes(self) -> bool:
        """Whether the records are in a format the library exports (BibTeX, RIS,
        CSL-JSON, CSV): a paper's own entry read back is then no news."""
        return self.fmt in _ECHOED

    def merge(
        self,
        paper_id: int,
        record: PaperRecord,
        doi: str | None,
        arxiv_id: str | None,
        key: str | None,
        *,
        added_now: bool = False,
    ) -> str:
        """Fill in what the record knows better; returns the strongest action taken.
        ``added_now``: the paper is one this import added (its key not yet shown anyone)."""
        current = self.current("id", paper_id)
        assert current is not None
        updates: dict[str, Any] = {}
        done: set[str] = set()
        record, doi, published = self._versions(paper_id, record, current, doi)
        before = current
        if published:
            updates.update(published)
            current = {**current, **published}
        echo = self.echo(current)
        # A record dated before the text the paper has is an older version of it: its
        # title and abstract do not go back over newer ones.
        older = bool(
            record.modified and current["text_modified"]
            and record.modified < current["text_modified"]
        )
        # An undated record (a table, a hand-made file) does not go over text a date is
        # known for either: nothing says it is newer, and were it to win, the next import
        # of the dated record would win back, each import swapping the text again.
        undated = bool(not record.modified and current["text_modified"])
        replaced: list[str] = []
        if record.title and not record.title_derived:
            # The echo is asked last: making it is the costly part.
            if current["title_derived"] and not (echo and echo.title == record.title):
                updates.update(title=record.title, title_derived=0)
                done.add("merged")
            elif (
                not current["title_derived"]
                and not same_title(current["title"], record.title)
                and not (echo and echo.title == record.title)
            ):
                if older:
                    self.summary.older_titles += 1
                elif undated:
                    self.summary.undated_left_titles += 1
                else:
                    updates["title"] = record.title
                    replaced.append("title")
                    done.add("retitled")
        if (
            record.abstract
            and key
            and key != current["abstract_key"]
            and not (echo and echo.abstract == record.abstract)
            and self.matcher.by_key.get(key, paper_id) == paper_id
            and not same_text(current["abstract"], record.abstract)
        ):
            if older and current["abstract"]:  # (older text beats none)
                self.summary.older_abstracts += 1
            elif undated and current["abstract"]:
                self.summary.undated_left_abstracts += 1
            else:
                updates.update(abstract=record.abstract, abstract_key=key)
                self.matcher.by_key[key] = paper_id
                replaced.append("abstract")
                done.add("revised")
        if record.modified and current["text_modified"] and not older and (
            record.modified > current["text_modified"]
        ):
            replaced += _newer_words(record, current, updates)
        if replaced:
            self._keep_replaced(paper_id, record, current, replaced)
            updates["text_modified"] = record.modified
        if record.authors and current["authors"] in ("[]", "", None):
            updates["authors"] = json.dumps(record.authors, ensure_ascii=False)
        if record.keywords and current["keywords"] in ("[]", "", None):
            updates["keywords"] = json.dumps(record.keywords, ensure_ascii=False)
        for column in _FILL_IN:
            value = getattr(record, column)
            if value not in (None, "") and current[column] in (None, ""):
                if column == "date" and value == str(updates.get("year", current["year"])):
                    continue  # a date that is only the year the paper has says nothing
                if not (echo and echo.implies(column, value)):
                    updates[column] = value
        for column, value, index in (
            ("doi", doi, self.matcher.by_doi),
            ("arxiv_id", arxiv_id, self.matcher.by_arxiv),
            ("openreview_id", record.openreview_id, self.matcher.by_openreview),
        ):
            # An identifier another paper already holds stays with that paper.
            if value and not current[column] and index.get(value, paper_id) == paper_id:
                updates[column] = value
                index[value] = paper_id
        if record.withdrawn and not current["withdrawn"]:
            updates["withdrawn"] = 1
            done.add("withdrawn")
        csl = json.loads(current["csl"] or "{}")  # read once, for both
        updates.update(self._merge_record(record, current, csl, echo, added_now=added_now))
        completed = record.authors and completes(record, current)
        spelt = not completed and record.authors and in_full(record, current)
        if completed or spelt:
            updates.update(_whole_list(record, current, updates))
        found = differing(record, current, csl, echo)
        if found and self.take_differing:
            # The user asked for the file's values (import --update): taken, and said.
            columns, variables = taken(found, record, json.loads(updates.get("csl") or "{}")
                                       or csl)
            updates.update(columns, csl=dumps(variables))
            if "doi" in columns:
                self.matcher.by_doi[columns["doi"]] = paper_id
        if found:
            # What the library has stays unless asked (it may be the user's own correction):
            # said either way, so that a file's correction is not taken for nothing.
            self.summary.kept_differing.append((current["citekey"], [d.said for d in found]))
        citekey = updates.get("citekey", current["citekey"])
        aliased = 0
        if citekey != current["citekey"]:
            # The key the library made up may be cited already (copied, exported): it
            # keeps naming the paper, beside the source's own.
            self.rows.add_alias(current["citekey"], paper_id)
            self.summary.aliased_keys.append((current["citekey"], citekey))
            aliased += 1
        aliased += self.add_aliases(paper_id, [record.citekey or ""], citekey, merged=True)
        aliased += self.add_aliases(paper_id, record.aliases, citekey)
        gained = gained_fields(before, csl, updates)
        if completed:
            gained.append(f"authors {len(record.authors)} (the library's ended \"and others\")")
        elif spelt:
            gained.append("authors in full (the library's given names were initials)")
        gained += also_changed(before, csl, updates, gained)
        if gained:
            self.summary.took(current["citekey"], gained, added_now=added_now)
        if not updates and not aliased:
            return "unchanged"
        done.add("merged")
        self.rows.update_paper(paper_id, updates)
        return next(action for action in ACTIONS if action in done)

    def _versions(
        self, paper_id: int, record: PaperRecord, current: dict[str, Any], doi: str | None
    ) -> tuple[PaperRecord, str | None, dict[str, Any]]:
        """A preprint and its published version met as one paper (see
        :mod:`reader.intake.versions`): the record as it merges, its DOI, and the updates
        that make a preprint in the library the published version the record is."""
        csl = json.loads(current["csl"] or "{}")
        if preprint_of(record, current, csl, doi):
            # The preprint of a published paper: its arXiv id and text, not its archive.
            return without_publication(record), None, {}
        if publishes(record, current, csl, own_export=self.fmt == "bibtex" or self.echoes):
            if doi and self.matcher.by_doi.get(doi, paper_id) != paper_id:
                doi = None  # a DOI another paper holds stays with that paper
            if doi:
                self.matcher.by_doi[doi] = paper_id
            return record, doi, as_published(record, current, csl, doi)
        return record, doi, {}

    def _keep_replaced(
        self, paper_id: int, record: PaperRecord, current: dict[str, Any], fields: list[str]
    ) -> None:
        """Keep the title and abstract the record replaces as revisions (the user can put
        them back), and count those no date said were older."""
        undated = not (record.modified and current["text_modified"])
        for name in fields:
            if current[name]:
                self.rows.keep_revision(paper_id, name, current[name], current["text_modified"])
                if record.modified and not current["text_modified"]:
                    # The file's date decided it, over the library's undated text: said so,
                    # not as a replacement no date decided.
                    counted = "dated_over_titles" if name == "title" else "dated_over_abstracts"
                    setattr(self.summary, counted, getattr(self.summary, counted) + 1)
                elif undated:
                    self.summary.revisions_kept += 1
                    self.summary.undated_titles += name == "title"
                else:
                    counted = _NEWER_COUNTS[name]
                    setattr(self.summary, counted, getattr(self.summary, counted) + 1)

    def add_aliases(
        self, paper_id: int, keys: Iterable[str], citekey: str, *, merged: bool = False
    ) -> int:
        """Let the paper answer to ``keys`` too (a ``merged`` entry's key, a source's
        aliases), each that no paper has as its key or alias yet; returns how many were
        added. The import summary names the keys of merged entries."""
        added = 0
        for key in keys:
            alias = usable_key(key)
            if not alias or alias == citekey or alias in self.citekeys.taken:
                continue
            self.rows.add_alias(alias, paper_id)
            self.citekeys.taken.add(alias)
            if merged:
                self.summary.aliased_keys.append((alias, citekey))
            added += 1
        return added

    def current(self, column: str, value: object) -> dict[str, Any] | None:
        """The merge columns of the paper with this id or key."""
        return self.rows.current(column, value)

    def echo(self, current: dict[str, Any]) -> BibtexEcho | ExportEcho | None:
        """What the paper's own entry reads back as, when the record is in a format the
        library exports (BibTeX, RIS, CSL-JSON, CSV)."""
        if self.fmt == "bibtex":
            return BibtexEcho(current)
        return ExportEcho(current, self.fmt, self.renderings) if self.echoes else None

    def _merge_record(
        self,
        record: PaperRecord,
        current: dict[str, Any],
        csl: dict[str, Any],
        echo: BibtexEcho | ExportEcho | None = None,
        *,
        added_now: bool = False,
    ) -> dict[str, Any]:
        """Column updates that fill in the CSL variables, source fields and key the paper
        lacks (what the library has stays, and what its own export said is no news)."""
        updates: dict[str, Any] = {}
        added = {k: v for k, v in record.csl.items() if v not in (None, "", [], {}) and
                 k not in csl and not (echo and echo.implies_variable(k, v))}
        if current["kind"] and added.get("type") == csl_type_for_bibtex(current["kind"]):
            del added["type"]  # the type the paper's own kind says (a table's type column)
        if added.get("genre") and added["genre"] == genre_of_kind(current["kind"]):
            del added["genre"]  # what a @mastersthesis is, as a table's genre column says it
        if current["doi"] and normalize_doi(record.doi) != current["doi"]:
            added.pop("DOI", None)  # how the source wrote a DOI the paper does not have
        if csl.get("collection-title") and "collection-number" in added and (
            added["collection-number"] == csl.get("number")
        ):
            # A BibTeX number beside its series, as an export says it in CSL's word.
            del added["collection-number"]
        if added:
            updates["csl"] = dumps({**csl, **added})
        extra = json.loads(current["extra"] or "{}")
        news = echo.news(record.extra) if echo else record.extra
        merged_extra = {fmt: {**fields, **extra.get(fmt, {})} for fmt, fields in news.items()}
        if any(merged_extra[fmt] != extra.get(fmt) for fmt in merged_extra):
            updates["extra"] = dumps({**extra, **merged_extra})
        wanted = usable_key(record.citekey)
        if (
            wanted
            and (added_now or self.fmt not in _SITE_KEYED)
            and current["citekey_origin"] == "generated"
            and wanted != current["citekey"]
            and wanted not in self.citekeys.taken
        ):
            # The source's own key replaces one the library made up: it is the key the
            # user's documents cite. A site's key is no one's (OpenReview's _bibtex names
            # a paper sato2024a in one snapshot, anonymous2024a in the one before): it
            # renames only a paper this import added, whose key no one has seen yet; a
            # key given before stays, the site's an alias (reader rekey takes it).
            updates.update(citekey=self.citekeys.claim(wanted), citekey_origin="source")
        return updates
