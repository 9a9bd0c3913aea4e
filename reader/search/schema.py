"""What the index holds of a paper: the schema (fields, boosts, which are stemmed), a
paper as a document, and the digest that tells whether its searchable text changed."""

from __future__ import annotations

import hashlib
import json

from whoosh.fields import ID, KEYWORD, NUMERIC, STORED, TEXT, Schema

from reader.models import Paper
from reader.record import display_name
from reader.search.analysis import ANALYZER, STEMMED, words
from reader.text.greek import symbol_names
from reader.text.render import plain_line, to_plain
from reader.text.titles import title_words

SEARCH_FIELDS = (
    "title", "abstract", "keywords", "authors", "notes", "tags", "highlight", "key",
)
FIELD_BOOSTS = {"title": 3.0, "keywords": 1.5, "authors": 1.2}

STEMMED_FIELDS = frozenset({"title", "abstract", "keywords", "notes", "highlight"})
#: The fields that hold the name of each Greek letter standing alone in them beside the
#: letter (see :func:`_with_names`): there, a search for the letter is one for its name.
NAMED_FIELDS = frozenset({"title", "abstract"})


def make_schema() -> Schema:
    """The index schema."""
    return Schema(
        id=ID(stored=True, unique=True),
        # What the document was made of: a paper whose searchable text is unchanged by a
        # write (an import that fills in a URL, say) is not indexed again.
        digest=STORED(),
        title=TEXT(analyzer=STEMMED),
        abstract=TEXT(analyzer=STEMMED),
        keywords=TEXT(analyzer=STEMMED),
        authors=TEXT(analyzer=ANALYZER),
        notes=TEXT(analyzer=STEMMED),
        tags=TEXT(analyzer=ANALYZER),
        highlight=TEXT(analyzer=STEMMED),
        # The citation key and its aliases, as written (not stemmed): a key typed as a
        # word (`gdpval2026`) or as `key:gdpval2026` finds its paper.
        key=TEXT(analyzer=ANALYZER),
        flags=KEYWORD(lowercase=True),
        venue=KEYWORD(lowercase=True),
        year=NUMERIC(),
    )


#: The characters of a field that are indexed, at most: a hundred times a long abstract.
#: An 8 MB field of a million distinct words took 880 MB and half a minute to index (each
#: word's postings are built whole in memory); past this, the text is kept and shown,
#: not searched.
INDEXED_CHARS = 100_000
#: The same for the user's own words, which are searched further.
INDEXED_NOTE_CHARS = 400_000


def document(paper: Paper, abstract: str | None = None) -> dict[str, object]:
    """The index document of a paper (each field's first :data:`INDEXED_CHARS`);
    ``abstract``: its abstract's plain text, when the caller has rendered it already."""
    flags = []
    if paper.starred:
        flags.append("starred")
    if paper.note.strip():
        flags.append("notes")
    doc: dict[str, object] = {
        "id": str(paper.id),
        "title": indexed_title(paper.title)[:INDEXED_CHARS],
        "abstract": indexed_abstract(paper.abstract, abstract)[:INDEXED_CHARS],
        "keywords": " ".join(paper.keywords)[:INDEXED_CHARS],
        # The editors too (an edited book has no authors), as a reference manager's
        # "creator" search finds them.
        "authors": " ".join([*paper.authors, *_editors(paper)])[:INDEXED_CHARS],
        "notes": paper.note[:INDEXED_NOTE_CHARS],
        "tags": " ".join(paper.tags),
        "highlight": "\n".join(
            f"{h.quote}\n{h.note}" for h in paper.highlights)[:INDEXED_NOTE_CHARS],
        "flags": " ".join(flags),
        # The paper's OpenReview and arXiv ids and its DOI too: one pasted into the search
        # (or named, `arxiv:`, `doi:`) finds it.
        "key": " ".join([paper.citekey, *paper.aliases,
                         *(i for i in (paper.openreview_id, paper.arxiv_id, paper.doi) if i)]),
    }
    if paper.venue:
        doc["venue"] = paper.venue
    if paper.year:
        doc["year"] = paper.year
    doc["digest"] = digest(doc)
    return doc


def indexed_title(source: str) -> str:
    """A title's words as indexed: as the title is shown, its TeX rendered (``M$^3$E`` as
    ``M³E``, found by ``m3e`` as by ``M³E``); and where it holds math, the words of its
    source that the title shown lacks, after it, for the names a reader types:
    ``$\\lambda$-GRPO`` shows as ``λ-GRPO`` and is found by ``lambda`` too, as a ``λ`` written
    as such is (see :func:`_with_names`). Only those: a word indexed twice would rank the
    title higher for it."""
    if "$" not in source:
        return _with_names(title_words(source))
    shown = plain_line(source)
    have = {word.casefold() for word in words(shown)}
    extra = [word for word in words(source) if word.casefold() not in have]
    return _with_names("\n".join([shown, " ".join(extra)]) if extra else shown)


def indexed_abstract(source: str, plain: str | None = None) -> str:
    """An abstract's words as indexed: as it reads (TeX rendered, or ``plain`` when given),
    then the names of the Greek letters in it: ``$\\lambda$`` reads ``λ``, found by ``λ``
    and by ``lambda``."""
    return _with_names(to_plain(source) if plain is None else plain)


def _with_names(text: str) -> str:
    """``text``, then the names of the Greek letters that stand alone in it (each once,
    and none the text holds as a word already)."""
    names = symbol_names(text)
    if names:
        have = {word.casefold() for word in words(text)}
        names = [name for name in names if name not in have]
    return "\n".join([text, " ".join(names)]) if names else text


def _editors(paper: Paper) -> list[str]:
    """The display names of the paper's editors."""
    editors = paper.csl.get("editor")
    if not isinstance(editors, list):
        return []
    return [name for name in (display_name(n) for n in editors if isinstance(n, dict)) if name]


def digest(doc: dict[str, object]) -> str:
    """A short fingerprint of what a document indexes."""
    made_of = json.dumps(
        {k: v for k, v in doc.items() if k != "digest"}, sort_keys=True, ensure_ascii=False
    )
    return hashlib.blake2b(made_of.encode("utf-8"), digest_size=12).hexdigest()
