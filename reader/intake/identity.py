"""Which paper a record is: by DOI, arXiv id, OpenReview id, then its abstract.

An abstract matches exactly after normalisation (NFKC, whitespace and case folded), or
approximately when a list carries a revised version of it. Measured on the ICLR 2026 sample
(``scripts/measure_merge_threshold.py``): a seed abstract and its revised OpenReview record
score 96.2–100 (rapidfuzz ratio on normalised text), while the closest two distinct papers
score under 50. MERGE_THRESHOLD sits between, well clear of both; the length guard keeps a
short abstract from matching a long one that merely shares its opening.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from reader.record import csl_type_for_bibtex
from reader.text.render import to_plain
from reader.text.sanitize import normalize_for_identity
from reader.text.titles import title_words

#: A dash of any length, as TeX (``--``) or Unicode, with the spaces around it: one mark.
DASHES = re.compile(r"\s*(?:--|[-–—])\s*")
# Typographic quotes and TeX's, each folded to the typewriter quote it stands for.
_QUOTES = str.maketrans({"“": '"', "”": '"', "„": '"', "‘": "'", "’": "'", "‚": "'"})
# Spaces beside a mark say nothing of a text: a renderer sets "H \to ZZ" as "H →ZZ".
_SPACED_MARK = re.compile(r"\s*([^\w\s])\s*")

MERGE_THRESHOLD = 90.0
#: Lengths of two versions of one abstract differ by less than this factor.
LENGTH_RATIO = 1.2
#: Shingles kept per abstract to find near-duplicate candidates (a bottom-k sketch), and how
#: many of them a known abstract must share with a record to be compared with it. Revisions
#: made until their ratio fell to 90 (the threshold) shared at least 4 of 16 in 1,500 trials
#: over the ICLR sample; distinct abstracts share one now and then, through a common phrase.
SKETCH_SIZE = 16
MIN_SHARED = 2
#: How much of a text its sketch is made of (far more than any abstract).
SKETCH_CHARS = 65_536
_MAX_CANDIDATES = 12
#: Odd multipliers that mix a shingle's two 8-byte halves into one well-spread integer.
_MIX = 0x9E3779B97F4A7C15
_SPREAD = 0xFF51AFD7ED558CCD


def abstract_key(abstract: str, norm: str | None = None) -> str | None:
    """The identity of a paper known only by its abstract, or None for an empty one
    (``norm``: the abstract already normalised, when the caller has it)."""
    if norm is None:
        norm = normalize_for_identity(abstract)
    if not norm:
        return None
    return hashlib.sha1(norm.encode("utf-8")).hexdigest()


def sketch(normalized: str) -> list[int]:
    """The smallest hashes of an abstract's 16-byte shingles (runs of its UTF-8 text): two
    versions of one abstract share most of their shingles, so they share many of these;
    distinct abstracts rarely share more than one.

    An import onto a library sketches every new abstract, so this runs in numpy: each
    8-byte run is read in place as an integer (overlapping, unaligned views of the bytes),
    two runs 8 bytes apart are mixed into a shingle's hash, and the smallest are found by
    a partial sort. Splitting into words and hashing pairs in Python took longer than all
    the rest of such an import.
    """
    # numpy is imported here, not with the module: the library's queries need this module's
    # abstract_key, and a window's first paint waited a tenth of a second for numpy.
    import numpy as np

    # Only the start of a text: an abstract is a few thousand bytes, and one of megabytes (a
    # file that is one long line) would take gigabytes of hashes.
    data = normalized[:SKETCH_CHARS].encode("utf-8")
    if len(data) < 16 + SKETCH_SIZE:
        return []
    runs = np.ndarray((len(data) - 7,), dtype="<u8", buffer=data, strides=(1,))
    hashes = (runs[:-8] * np.uint64(_MIX) ^ runs[8:]) * np.uint64(_SPREAD)
    # Twice the sketch's size, so that a repeated shingle cannot leave the sketch short.
    kept = min(2 * SKETCH_SIZE, len(hashes) - 1)
    smallest = np.partition(hashes, kept)[: kept + 1].tolist()
    # A set, not np.unique: for so few values numpy's call costs more than the work.
    return sorted(set(smallest))[:SKETCH_SIZE]


def title_key(title: str, year: int | None, derived: bool) -> str | None:
    """The identity of a paper known by its real title and year (a BibTeX entry without
    abstract or DOI, say); a derived title identifies nothing."""
    if derived or not title:
        return None
    norm = normalize_for_identity(title_words(title))
    return f"{norm}|{year or ''}" if len(norm) >= 8 else None


def other_part(
    record: tuple[str | None, str | None, str | None],
    paper: tuple[str | None, str | None, str | None],
) -> bool:
    """Whether two chapters of one title are in different books, each given as (venue,
    CSL type, kind): an editor's "Introduction" to each volume of a handbook is a paper of
    its own, though title, first author and year agree."""
    (venue, csl_type, kind), (their_venue, their_type, their_kind) = record, paper
    chapters = all(
        (t or csl_type_for_bibtex(k or "")) == "chapter"
        for t, k in ((csl_type, kind), (their_type, their_kind))
    )
    return chapters and bool(venue and their_venue) and not same_title(venue, their_venue)


def same_title(one: str | None, other: str | None) -> bool:
    """Whether two titles are one title once rendered and normalised (case, spacing,
    markup and accents aside)."""
    return one == other or _comparable(title_words(one or "")) == _comparable(
        title_words(other or "")
    )


def same_text(one: str | None, other: str | None) -> bool:
    """Whether two abstracts say the same once both are read as text: TeX rendered,
    dashes and quotes as one mark each, case and spacing aside (a BibTeX export's
    ``--`` and ``\\'e`` and a table's ``–`` and ``é``)."""
    return one == other or _comparable(to_plain(one or "")) == _comparable(
        to_plain(other or "")
    )


def _comparable(text: str) -> str:
    text = DASHES.sub("-", text.translate(_QUOTES).replace("``", '"').replace("''", '"'))
    return normalize_for_identity(_SPACED_MARK.sub(r"\1", text))


@dataclass(slots=True)
class Known:
    """The identifying fields of one paper in the library."""

    id: int
    doi: str | None
    arxiv_id: str | None
    openreview_id: str | None
    abstract_key: str | None
    title_key: str | None = None


class Matcher:
    """Finds the library paper a record is, and learns the papers added as it goes."""

    def __init__(self, known: Iterable[Known], abstracts: Iterable[tuple[int, str]]) -> None:
        self.by_doi: dict[str, int] = {}
        self.by_arxiv: dict[str, int] = {}
        self.by_openreview: dict[str, int] = {}
        self.by_key: dict[str, int] = {}
        self.by_title: dict[str, int] = {}
        #: The papers after the first of a title and year (two books' "Introduction"s).
        self.also_titled: dict[str, list[int]] = {}
        for paper in known:
            self.add(paper)
        # Approximate matching looks only at papers that were in the library before this
        # import, and its sketch index is built on first need: most imports never need it.
        self._abstracts = abstracts
        self._buckets: dict[int, list[int]] | None = None
        self._keys: frozenset[int] = frozenset()
        self._texts: dict[int, str] = {}

    def add(self, paper: Known) -> None:
        """Remember a paper (one already there, or one just added)."""
        for index, value in (
            (self.by_doi, paper.doi),
            (self.by_arxiv, paper.arxiv_id),
            (self.by_openreview, paper.openreview_id),
            (self.by_key, paper.abstract_key),
            (self.by_title, paper.title_key),
        ):
            if value:
                index.setdefault(value, paper.id)
        if paper.title_key and self.by_title[paper.title_key] != paper.id:
            self.also_titled.setdefault(paper.title_key, []).append(paper.id)

    def titled(self, title: str | None) -> list[int]:
        """Every paper of this title key, the first known first."""
        if not title or title not in self.by_title:
            return []
        return [self.by_title[title], *self.also_titled.get(title, [])]

    def exact(
        self,
        doi: str | None,
        arxiv_id: str | None,
        openreview_id: str | None,
        key: str | None,
        title: str | None = None,
    ) -> int | None:
        """The paper with one of these identifiers, in order of trust (title last)."""
        for index, value in (
            (self.by_doi, doi),
            (self.by_arxiv, arxiv_id),
            (self.by_openreview, openreview_id),
            (self.by_key, key),
            (self.by_title, title),
        ):
            if value and value in index:
                return index[value]
        return None

    def similar(self, abstract: str, norm: str | None = None) -> int | None:
        """The paper whose abstract is a revision of this one, if any (``norm``: the
        abstract already normalised, when the caller has it)."""
        if norm is None:
            norm = normalize_for_identity(abstract)
        if len(norm) < 80:
            return None  # too short to tell a revision from a coincidence
        return self.similar_by_sketch(sketch(norm), abstract, norm)

    def similar_by_sketch(
        self, mine: list[int], abstract: str, norm: str | None = None
    ) -> int | None:
        """As :meth:`similar`, given the abstract's sketch (made where the record was
        read); the abstract is normalised only when a known one shares enough of it."""
        buckets = self._buckets if self._buckets is not None else self._build()
        # No known abstract can share MIN_SHARED of these unless as many are known at all:
        # most records of a list share one or none (a common phrase), and stop here.
        if len(self._keys.intersection(mine)) < MIN_SHARED:
            return None
        votes: Counter[int] = Counter()
        for h in mine:
            voters = buckets.get(h)
            if voters:
                votes.update(voters)
        # Imported when first needed, as numpy is in sketch(): not with the library.
        from rapidfuzz import fuzz

        best_id, best_score = None, MERGE_THRESHOLD
        for paper_id, shared in votes.most_common(_MAX_CANDIDATES):
            if shared < MIN_SHARED:
                break
            if norm is None:
                norm = normalize_for_identity(abstract)
            text = self._texts[paper_id]
            longer, shorter = max(len(text), len(norm)), min(len(text), len(norm))
            if longer > shorter * LENGTH_RATIO:
                continue
            score = fuzz.ratio(norm, text, score_cutoff=best_score)
            if score >= best_score:
                best_id, best_score = paper_id, score
        return best_id

    def _build(self) -> dict[int, list[int]]:
        """Index the sketches of the library's abstracts: sketch hash → paper ids."""
        buckets: dict[int, list[int]] = {}
        for paper_id, abstract in self._abstracts:
            norm = normalize_for_identity(abstract)
            if len(norm) < 80:
                continue
            self._texts[paper_id] = norm
            for h in sketch(norm):
                buckets.setdefault(h, []).append(paper_id)
        self._buckets = buckets
        self._keys = frozenset(buckets)
        return buckets
