"""What an import works out of a record alone, before the record meets the library.

Identifiers normalised, the identities of the abstract and the title, the abstract's
sketch, a digest for comparing records of one file and the citation key's base: none of it
depends on what the library holds, so it can be worked out in the process that parses the
file while another one writes (see :mod:`reader.library.read_ahead`), and the writer, the
one part that cannot run twice at once, does only what needs the library.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from operator import attrgetter
from typing import Any

from reader.cite.keys import citekey_base, key_names, usable_key
from reader.intake.identity import abstract_key, sketch, title_key
from reader.models import PaperRecord
from reader.record import NAME_VARIABLES, is_anonymous, keep_written_doi
from reader.store.reply_forms import ReplyForm
from reader.text.identifiers import doi_as_written, normalize_arxiv_id, normalize_doi
from reader.text.sanitize import normalize_for_identity

#: Abstracts shorter than this (normalised) are too short to tell a revision from a
#: coincidence, and are never matched approximately.
MIN_SIMILAR_LENGTH = 80


@dataclass(slots=True)
class Prepared:
    """A record and what was worked out of it for its import."""

    record: PaperRecord
    doi: str | None
    arxiv_id: str | None
    #: The abstract's identity (:func:`reader.intake.identity.abstract_key`).
    key: str | None
    #: The title's identity (:func:`reader.intake.identity.title_key`).
    by_title: str | None
    #: The abstract's near-duplicate sketch; empty when it is too short to match.
    sketch: list[int]
    #: A digest of everything the record says about its paper (see :func:`fingerprint`).
    fingerprint: int
    #: The source's key as the library can keep it, or None.
    wanted_key: str | None
    #: The base of a generated key, for a record without a usable key of its own.
    key_base: str
    #: The record's replies as the store writes them, one per reply.
    reply_forms: tuple[ReplyForm, ...] = ()


#: The prefix of the DOIs arXiv gives its papers, as DOIs are compared (lower case).
_ARXIV_DOI = "10.48550/arxiv."


def prepare(
    record: PaperRecord, forms: bool = True, papers: bool = True, sketches: bool = True
) -> Prepared:
    """Work out of ``record`` all its import needs that does not depend on the library
    (anonymous names are dropped from the record first); without ``forms``, not how its
    replies are stored (an import that writes its papers first, and their replies on a
    second reading of the file, leaves them to that reading); without ``papers``, only
    its digest and how its replies are stored (that second reading: which paper a
    record is was settled by the first, and the identities are left empty); without
    ``sketches``, no sketch of the abstract (an import into an empty library compares
    none: a sketch was a tenth of the CPU of 200,000 papers read into one)."""
    drop_anonymous(record)
    written_doi = doi_as_written(record.doi)
    doi = normalize_doi(written_doi)
    if doi and not record.arxiv_id and doi.startswith(_ARXIV_DOI):
        # arXiv's own DOI (10.48550/arXiv.2503.07777) names its id: the paper, wherever
        # else it is known by that id.
        record.arxiv_id = normalize_arxiv_id(doi[len(_ARXIV_DOI):])
    if "DOI" not in record.csl:
        # DOIs are compared in lower case; an export writes the one the source wrote.
        keep_written_doi(record.csl, written_doi, doi)
    replies = tuple(ReplyForm(reply) for reply in record.replies) if forms else ()
    if not papers:
        return Prepared(record, doi, None, None, None, [], fingerprint(record), None, "",
                        replies)
    norm = normalize_for_identity(record.abstract)
    wanted = usable_key(record.citekey)
    return Prepared(
        record=record,
        doi=doi,
        arxiv_id=normalize_arxiv_id(record.arxiv_id),
        key=abstract_key(record.abstract, norm),
        by_title=title_key(record.title, record.year, record.title_derived),
        sketch=sketch(norm) if sketches and len(norm) >= MIN_SIMILAR_LENGTH else [],
        fingerprint=fingerprint(record),
        wanted_key=wanted,
        key_base="" if wanted else citekey_base(
            record.title, key_names(record.authors, record.csl), record.year
        ),
        reply_forms=replies,
    )


def drop_anonymous(record: PaperRecord) -> None:
    """Remove "Anonymous" (no author at all) from the record's names."""
    if any(is_anonymous(a) for a in record.authors):
        record.authors = [a for a in record.authors if not is_anonymous(a)]
    if not record.csl:
        return  # most records (every OpenReview one) carry no names beyond the authors
    for variable in NAME_VARIABLES:
        names = record.csl.get(variable)
        if isinstance(names, list) and any(
            isinstance(n, dict) and is_anonymous(n) for n in names
        ):
            kept = [n for n in names if not (isinstance(n, dict) and is_anonymous(n))]
            if kept:
                record.csl[variable] = kept
            else:
                del record.csl[variable]


def fingerprint(record: PaperRecord) -> int:
    """A digest of everything a record says about its paper (not where it was read), for
    comparison within one import. Text, numbers and lists of text are hashed as they are;
    the dicts are written out, keys sorted.

    Python's string hash differs between processes unless forked from one another: a
    digest is compared only with digests made by the same process or its forks."""
    return hash((
        _scalars(record),
        *(tuple(getattr(record, name)) for name in _LISTS),
        *(_written(getattr(record, name)) for name in _DICTS),
        # (A first reading holds the versions of the replies a second one holds.)
        (*((reply.id, reply.modified) for reply in record.replies), *record.replies_to_come),
    ))


def _written(value: dict[str, Any]) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=str) if value else ""


#: The fields of a record that say something about its paper (all but where it was read),
#: by kind: a field getter in C for the plain ones, as every record of an import is
#: digested.
_LISTS = ("authors", "keywords", "aliases", "tags", "highlights")
_DICTS = ("csl", "extra")
_scalars = attrgetter(*(
    name for name in PaperRecord.__struct_fields__
    # (tags_rewritten says how the file wrote the tags: nothing of the paper.)
    if name not in (*_LISTS, *_DICTS, "source", "replies", "replies_to_come", "tags_rewritten")
))
