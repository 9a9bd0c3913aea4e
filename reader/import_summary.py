"""What one import did, as the core tells the front ends: counts, summary lines, remarks."""

from __future__ import annotations

from dataclasses import dataclass, field, fields

__all__ = ["SAID_AS", "ImportSummary", "ReadRemark", "Remark"]

#: Names a merge says otherwise than the record's (a CSL "note" is the file's, not yours).
SAID_AS = {"page": "pages", "note": "file note", "container-title-short": "short journal title",
           "title-short": "short title"}


class Remark(str):
    """A line among an import's problems that is no skipped record (a reply kept for a
    paper not in the library, a rating kept as written): it is listed, not counted as
    read or skipped."""

    __slots__ = ()


class ReadRemark(Remark):
    """A remark on how a record was read that no count of the summary holds (braces
    flattened, a line read as Latin-1): the summary says how many there are."""

    __slots__ = ()


@dataclass(slots=True)
class ImportSummary:
    """What one import did (or, for a dry run, would do). Every record read is exactly one
    of new, merged (into a paper already there: richer fields, a new title or a revised
    abstract), unchanged, or skipped (a bad record)."""

    read: int = 0
    new: int = 0
    merged: int = 0
    unchanged: int = 0
    skipped: int = 0
    retitled: int = 0
    revised: int = 0
    withdrawn: int = 0
    problems: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    dry_run: bool = False
    #: When the same file was last imported before, if it was.
    previous: str | None = None
    #: The summaries of the files, for an import of several.
    reports: list[ImportSummary] = field(default_factory=list)
    #: Source keys that were taken, and the keys the papers got instead: (source, given).
    renamed_keys: list[tuple[str, str]] = field(default_factory=list)
    #: The file's tags written otherwise than the tags they became: (as written, tag).
    tags_rewritten: list[tuple[str, str]] = field(default_factory=list)
    #: New papers that share their title with a paper already there but not an id
    #: (DOI, arXiv, OpenReview), and were kept apart: (title, the other's key, the id).
    kept_apart: list[tuple[str, str, str]] = field(default_factory=list)
    #: Keys of entries merged into a paper with another key, kept as aliases: (alias, key).
    aliased_keys: list[tuple[str, str]] = field(default_factory=list)
    #: Conference signals: papers known before whose ratings moved, papers given a new
    #: decision, replies new to the library, later versions of replies already there,
    #: and replies kept for papers not in the library.
    ratings_changed: int = 0
    new_decisions: int = 0
    #: Of those, the papers whose decision was another before (an "oral" now "reject"):
    #: (citation key, before, now), named in the summary, as a change of mind is news.
    decisions_changed: list[tuple[str, str, str]] = field(default_factory=list)
    replies_new: int = 0
    reply_versions: int = 0
    replies_waiting: int = 0
    #: Reviews stored already whose ratings' words now read as other numbers (a label an
    #: older reader took for no number): read again, not edited.
    ratings_reread: int = 0
    #: Reviews whose rating holds no number ("N/A"): kept as written, named in problems.
    ratings_unreadable: int = 0
    #: Papers whose table gives a mean rating its own ratings contradict: the ratings'
    #: mean is the paper's, the table's kept as written, each named in problems.
    means_contradicted: int = 0
    #: Papers whose table's venue names a decision its decision column overrules ("ICLR
    #: 2026 Oral" beside "Reject"): the column's taken, the venue kept as written.
    venues_overruled: int = 0
    #: Papers withdrawn that the file gives an acceptance ("Accept (Poster)"): both kept.
    accepted_withdrawn: int = 0
    #: Texts of papers already there that the file had only in an older-dated version,
    #: kept as they were; and texts replaced where no date told which was newer, the old
    #: text kept as a revision (``reader revisions REF``).
    older_abstracts: int = 0
    older_titles: int = 0
    #: Texts of papers already there, dated, that the file had undated (a table's short
    #: name for the paper): kept as they were, nothing saying the file's are newer.
    undated_left_abstracts: int = 0
    undated_left_titles: int = 0
    revisions_kept: int = 0
    #: How many of those replaced undated were titles (the rest were abstracts).
    undated_titles: int = 0
    #: Texts of papers already there, undated (a table's short name), that the file's
    #: dated ones replaced, the old text kept as a revision: not among ``revisions_kept``.
    dated_over_abstracts: int = 0
    dated_over_titles: int = 0
    #: Texts the file's newer-dated ones replaced (a later OpenReview snapshot's revised
    #: titles), the old text kept as a revision too.
    newer_abstracts: int = 0
    newer_titles: int = 0
    #: And the TL;DRs and keyword lists a newer-dated record replaced, kept as revisions.
    newer_tldrs: int = 0
    newer_keywords: int = 0
    #: Papers already there whose record in the file carried the marks of a reader
    #: library (a star, a read mark, tags, a note, highlights): their own were kept.
    marks_kept: int = 0
    #: Records naming a paper an earlier record of the same file named (a list giving one
    #: paper twice): read as that paper, counted among the merged or unchanged.
    named_twice: int = 0
    #: Papers already there that the file gives otherwise (citation key, ["volume 1 (the
    #: file: 12)", …]), as :mod:`reader.intake.differing` finds them; the library kept its
    #: values, or with ``took_differing`` (import --update) took the file's.
    kept_differing: list[tuple[str, list[str]]] = field(default_factory=list)
    took_differing: bool = False
    #: Papers already there that took from the file fields they lacked: (citation key,
    #: ["doi 10.1/x", "issue 2"]).
    filled: list[tuple[str, list[str]]] = field(default_factory=list)
    #: Papers this import added that a later record of the same file filled in (Zotero's
    #: preprint, then its published version), as ``filled``: not "already in the library".
    filled_new: list[tuple[str, list[str]]] = field(default_factory=list)

    def __str__(self) -> str:
        return self.line()

    def line(self, where_skipped: str = "") -> str:
        """The counts on one line; ``where_skipped`` follows the skipped count when there
        are bad records (the CLI's " (see --verbose)")."""
        text = (
            f"{self.read:,} read: {self.new:,} new, {self.merged:,} merged, "
            f"{self.unchanged:,} unchanged, {self.skipped:,} skipped"
        )
        if self.skipped:
            text += where_skipped
        if self.dry_run:
            text += " — dry run, nothing was written"
        return text

    @property
    def all_skipped(self) -> bool:
        """Whether records were read and every one was skipped: nothing new, merged or
        unchanged came of them."""
        return bool(self.skipped) and not (self.new or self.merged or self.unchanged)

    def changes(self) -> str:
        """What changed in papers already there, e.g. ``2 retitled, 1 withdrawn``."""
        parts = [
            f"{n:,} {label}"
            for n, label in (
                (self.retitled, "retitled"),
                (self.revised, "with a revised abstract"),
                (self.withdrawn, "withdrawn"),
            )
            if n
        ]
        return ", ".join(parts)

    def signals_line(self) -> str:
        """What the import did of conference signals, e.g. ``300 papers whose reviewers
        changed a rating, 41 new decisions; 1,643 new replies and 23 edited replies; 2 replies kept
        for papers not in the library``, a part counting nothing left out; empty when it
        read none."""
        parts = []
        if self.ratings_changed:
            plural = "s" if self.ratings_changed != 1 else ""
            parts.append(f"{self.ratings_changed:,} paper{plural} whose reviewers changed a rating")
        if self.new_decisions:
            plural = "s" if self.new_decisions != 1 else ""
            changed = self.decisions_changed
            named = ", ".join(f"{key} {was} → {now}" for key, was, now in changed[:3])
            more = f" and {len(changed) - 3:,} more" if len(changed) > 3 else ""
            said = (f" ({len(changed):,} of them another than before: {named}{more})"
                    if changed else "")
            parts.append(f"{self.new_decisions:,} new decision{plural}{said}")
        text = ", ".join(parts)
        # Edited: later versions of replies the library held, or met earlier in the file.
        replies = " and ".join(
            f"{n:,} {what} repl{'y' if n == 1 else 'ies'}"
            for n, what in ((self.replies_new, "new"), (self.reply_versions, "edited"))
            if n
        )
        if replies:
            text = f"{text}; {replies}" if text else replies
        if self.replies_waiting:
            one = self.replies_waiting == 1
            waiting = (f"{self.replies_waiting:,} repl{'y' if one else 'ies'} kept for "
                       f"{'a paper' if one else 'papers'} not in the library")
            text = f"{text}; {waiting}" if text else waiting
        if self.ratings_reread:
            n = self.ratings_reread
            reread = ("1 review's rating re-read from its words" if n == 1 else
                      f"{n:,} reviews' ratings re-read from their words")
            reread += " (no review was edited)"
            text = f"{text}; {reread}" if text else reread
        if self.ratings_unreadable:
            n = self.ratings_unreadable
            unreadable = f"{n:,} rating{'s' if n != 1 else ''} not a number, kept as written"
            text = f"{text}; {unreadable}" if text else unreadable
        if self.means_contradicted:
            n = self.means_contradicted
            contradicted = (
                f"{n:,} paper{'s' * (n != 1)} whose mean rating in the file disagrees with "
                "the ratings it gives: the ratings' mean taken, the file's kept as written"
            )
            text = f"{text}; {contradicted}" if text else contradicted
        if self.venues_overruled:
            n = self.venues_overruled
            overruled = (
                f"{n:,} paper{'s' * (n != 1)} whose venue names another decision than the "
                "decision column: the column's decision taken, not the venue's (its words "
                "kept as written among the source fields)"
            )
            text = f"{text}; {overruled}" if text else overruled
        if self.accepted_withdrawn:
            n = self.accepted_withdrawn
            both = (f"{n:,} withdrawn paper{'s' * (n != 1)} given an acceptance by the file: "
                    "both kept, as the sources say them")
            text = f"{text}; {both}" if text else both
        return text

    def text_line(self) -> str:
        """What became of the texts the file would have replaced, e.g. ``3 abstracts left
        as they were: the file's text is dated before the one in the library; 2 abstracts
        replaced (no date said which text was newer), the old kept as revisions (reader
        revisions REF)``; empty when nothing was replaced."""
        kept = [
            f"{n:,} {what}{'s' * (n != 1)}"
            for n, what in ((self.older_abstracts, "abstract"), (self.older_titles, "title"))
            if n
        ]
        parts = []
        if kept:
            one = self.older_abstracts + self.older_titles == 1
            parts.append(f"{' and '.join(kept)} left as {'it was' if one else 'they were'}: "
                         "the file's text is dated before the one in the library")
        undated_left = [
            f"{n:,} {what}{'s' * (n != 1)}"
            for n, what in ((self.undated_left_abstracts, "abstract"),
                            (self.undated_left_titles, "title"))
            if n
        ]
        if undated_left:
            one = self.undated_left_abstracts + self.undated_left_titles == 1
            parts.append(f"{' and '.join(undated_left)} left as {'it was' if one else 'they were'}"
                         ": the file's text is undated, the library's dated")
        newer = [
            f"{n:,} {what}{'s' * (n != 1)}{after}"
            for n, what, after in (
                (self.newer_abstracts, "abstract", ""), (self.newer_titles, "title", ""),
                (self.newer_tldrs, "TL;DR", ""), (self.newer_keywords, "list", " of keywords"),
            )
            if n
        ]
        if newer:
            one = self.newer_abstracts + self.newer_titles + self.newer_tldrs + (
                self.newer_keywords) == 1
            listed = ", ".join(newer[:-1]) + " and " + newer[-1] if len(newer) > 1 else newer[0]
            parts.append(f"{listed} replaced by the file's newer text, the old "
                         f"kept as revision{'' if one else 's'} (reader revisions REF)")
        if self.revisions_kept:
            abstracts = self.revisions_kept - self.undated_titles
            undated = [
                f"{n:,} {what}{'s' * (n != 1)}"
                for n, what in ((abstracts, "abstract"), (self.undated_titles, "title")) if n
            ]
            parts.append(
                f"{' and '.join(undated)} replaced (no date said which text was newer), the "
                f"old kept as revision{'s' * (self.revisions_kept != 1)} (reader revisions REF)"
            )
        dated_over = [
            f"{n:,} {what}{'s' * (n != 1)}"
            for n, what in ((self.dated_over_abstracts, "abstract"),
                            (self.dated_over_titles, "title")) if n
        ]
        if dated_over:
            one = self.dated_over_abstracts + self.dated_over_titles == 1
            parts.append(f"{' and '.join(dated_over)} replaced: the file's text is dated, the "
                         f"library's undated, the old kept as revision{'' if one else 's'} "
                         "(reader revisions REF)")
        if self.marks_kept:
            one = self.marks_kept == 1
            parts.append(
                f"{self.marks_kept:,} paper{'s' * (not one)} already in the library kept "
                f"{'its' if one else 'their'} own stars, read marks, tags, notes and "
                "highlights (the file's were not applied)"
            )
        if self.named_twice:
            one = self.named_twice == 1
            parts.append(f"{self.named_twice:,} paper{'s' * (not one)} named twice in the "
                         f"file, read as {'one' if one else 'one each'}")
        return "; ".join(parts)

    def differing_line(self, *, each: bool = False) -> str:
        """Papers the file gives otherwise than the library: ``2 papers differ from the
        file in year, pages: the library's values were kept`` (or the file's taken);
        ``each``: a line per paper with the values; empty when none did."""
        return _per_paper(self.kept_differing, each, "differ{s} from the file in",
                          ": the file's values were taken (import --undo puts them back)"
                          if self.took_differing else ": the library's values were kept")

    def took(self, key: str, said: list[str], *, added_now: bool = False) -> None:
        """Note that the paper ``key`` took ``said`` from the file (added to its entry if
        the paper was named just before); ``added_now``: a paper this import added."""
        filled = self.filled_new if added_now else self.filled
        if filled and filled[-1][0] == key:
            filled[-1][1].extend(said)
        else:
            filled.append((key, list(said)))

    def filled_line(self, *, each: bool = False) -> str:
        """Papers that took from the file what they lacked (``1 paper already in the library
        took doi, issue from the file``), like :meth:`differing_line`."""
        return _per_paper(self.filled, each, "took", " from the file")

    def filled_new_line(self, *, each: bool = False) -> str:
        """Papers this import added that a later record of the file filled in (``1 paper
        this import added took venue, tags from a later record of it in the file``)."""
        return _per_paper(self.filled_new, each, "took", " from a later record of it in the "
                          "file", whose="this import added")

    def key_changes(self) -> str:
        """Source keys another paper already had (``Rame72 → Rame72a``), and keys of merged
        entries kept as aliases (``wooters07 → wootters07``), the file's tags written
        otherwise (``"health, digital" → health-digital``), and new papers kept apart from
        one of their title by another id, a line each."""
        lines = []
        for pairs, what in (
            (self.renamed_keys, "already taken, given a suffix"),
            (self.aliased_keys, "of merged entries, kept as aliases"),
        ):
            if not pairs:
                continue
            shown = [f"{old} → {new}" for old, new in pairs[:5]]
            more = len(pairs) - len(shown)
            text = ", ".join(shown) + (f" and {more:,} more" if more else "")
            plural = "s" if len(pairs) != 1 else ""
            lines.append(f"{len(pairs):,} key{plural} {what}: {text}")
        if self.tags_rewritten:
            pairs = list(dict.fromkeys(self.tags_rewritten))
            shown = [f"\"{old}\" → {new}" for old, new in pairs[:5]]
            more = len(pairs) - len(shown)
            text = ", ".join(shown) + (f" and {more:,} more" if more else "")
            plural = "s" if len(pairs) != 1 else ""
            lines.append(f"{len(pairs):,} tag{plural} written as tags are (lower case, one "
                         f"word): {text}")
        if self.kept_apart:
            apart = self.kept_apart
            named = [f"\"{title if len(title) <= 60 else title[:59] + '…'}\" (not {key}: "
                     f"another {kind} id)"
                     for title, key, kind in apart[:3]]
            rest = f" and {len(apart) - 3:,} more" if len(apart) > 3 else ""
            one = len(apart) == 1
            lines.append(
                f"{len(apart):,} new paper{'' if one else 's'} share{'s' if one else ''} "
                f"{'its' if one else 'their'} title with a paper already here but not an id, "
                f"and {'was' if one else 'were'} kept apart (a resubmission, or a mistyped "
                f"id): {'; '.join(named)}{rest}")
        return "\n".join(lines)

    def add(self, other: ImportSummary) -> None:
        """Add another file's counts and lists to these (not its own per-file reports)."""
        for item in fields(self):
            mine, theirs = getattr(self, item.name), getattr(other, item.name)
            if isinstance(mine, bool):
                setattr(self, item.name, mine or theirs)
            elif isinstance(mine, int):
                setattr(self, item.name, mine + theirs)
            elif isinstance(mine, list) and item.name != "reports":
                mine += theirs


def _field_name(said: str) -> str:
    """The field ``said`` (``doi 10.1/x``; in words, ``file note …``: no "file") is of."""
    names = ("other fields", *SAID_AS.values())  # a one-word name is its first word anyway
    return next((n for n in names if f"{said} ".startswith(f"{n} ")), said.split()[0])


def _per_paper(pairs: list[tuple[str, list[str]]], each: bool, verb: str, tail: str,
               whose: str = "already in the library") -> str:
    """A line naming the fields of papers (``2 papers … in year, pages …``), or with
    ``each`` a line per paper with its fields and values; empty for no papers."""
    if not pairs:
        return ""
    if each:
        return "\n".join(f"  {key}: {', '.join(said)}" for key, said in pairs)
    # Each field by its name; a value taken away ("doi 10.48550/… removed") said so.
    named: dict[str, int] = {}
    for _, said in pairs:
        for name in dict.fromkeys(_field_name(f) + " (removed)" * f.endswith(" removed")
                                  for f in said):
            named[name] = named.get(name, 0) + 1
    n = len(pairs)
    verb = verb.replace("{s}", "s" * (n == 1))
    # Fields only some of the papers took are counted, so that "6 papers … took other
    # fields, withdrawn" is not read as six withdrawals when one paper was withdrawn.
    listed = ", ".join(f"{name} ({count:,} paper{'s' * (count != 1)})" if count != n else name
                       for name, count in named.items())
    return f"{n:,} paper{'s' * (n != 1)} {whose} {verb} {listed}{tail}"
