"""Writing the search index quickly, with the postings Whoosh's own analysis gives.

Two things make a plain Whoosh build slow here. Each word of a text field goes through the
analyzer as a Token object, filter by filter, and is then grouped by word; and when a
segment is written, Whoosh reads every posting's field length back from the length column
it has just written. FastSegmentWriter analyses a text field in one pass over its words
(tokenize, lower-case, fold, stem, group positions) when the field's analyzer is a chain it
knows, and keeps the field lengths in memory for the segment's postings. Any other field or
analyzer goes through Whoosh's own path, so the postings are always the same; a test builds
the sample both ways and compares search results.

A large build runs in worker processes, each writing segments of growing size; the parent
publishes each segment as it arrives (a new table of contents, no merge), so a search can
run over what is indexed so far while the rest is written.
"""

from __future__ import annotations

import functools
import re
from array import array
from collections.abc import Callable
from pickle import dumps
from typing import Any

from whoosh.analysis import (
    CharsetFilter,
    CompositeAnalyzer,
    LowercaseFilter,
    RegexTokenizer,
    StemFilter,
)
from whoosh.fields import TEXT
from whoosh.formats import Positions
from whoosh.system import pack_uint
from whoosh.util.numeric import byte_to_length, length_to_byte
from whoosh.writing import SegmentWriter

from reader.search.analysis import FoldFilter, fold

#: A field's text → {word: [positions]}, or None where Whoosh must analyse it itself.
Plan = Callable[[str], dict[str, list[int]]]

PROGRESS_EVERY = 250


def _tokenizer(tokenizer: RegexTokenizer) -> Callable[[str], list[str]] | None:
    """The words RegexTokenizer yields for a text, as one findall, or None if it splits on
    gaps (a mode the fast path does not take)."""
    if tokenizer.gaps:
        return None
    expression = tokenizer.expression
    pattern = expression.pattern
    if "(" in pattern.replace("(?:", ""):
        # findall returns groups: make every group non-capturing, unless the pattern has
        # constructs where that would change its meaning.
        if "\\(" in pattern or "(?" in pattern.replace("(?:", ""):
            return lambda text: [m.group() for m in expression.finditer(text)]
        pattern = pattern.replace("(?:", "(").replace("(", "(?:")
    return re.compile(pattern, expression.flags).findall


def _translate(word: str, table: Any) -> str:
    return word.translate(table)


def plan_for(field: Any) -> Plan | None:
    """How to analyse ``field`` in one pass, or None if it is not a positional text field
    whose analyzer is a tokenizer followed by lower-casing, character folding and stemming
    (the filters whose effect on each word alone is known: Whoosh's lower-casing,
    charset folding and stemming, and reader's accent folding)."""
    if not isinstance(field, TEXT) or type(field.format) is not Positions:
        return None
    if field.vector or field.separate_spelling() or field.column_type:
        return None
    analyzer = field.analyzer
    items = list(analyzer.items) if isinstance(analyzer, CompositeAnalyzer) else [analyzer]
    if not items or type(items[0]) is not RegexTokenizer:
        return None
    split = _tokenizer(items[0])
    if split is None:
        return None
    steps: list[Callable[[str], str]] = []
    for item in items[1:]:
        kind = type(item)
        if kind is LowercaseFilter:
            steps.append(str.lower)
        elif kind is CharsetFilter:
            steps.append(functools.partial(_translate, table=item.charmap))
        elif kind is StemFilter and not item.ignore:
            steps.append(item.stemfn)
        elif kind is FoldFilter:
            steps.append(fold)
        else:
            return None

    def analyse(text: str) -> dict[str, list[int]]:
        words = split(text)
        for step in steps:
            words = list(map(step, words))
        positions: dict[str, list[int]] = {}
        for pos, word in enumerate(words):
            found = positions.get(word)
            if found is None:
                positions[word] = [pos]
            else:
                found.append(pos)
        return positions

    return analyse


def _encode_positions(poslist: list[int]) -> bytes:
    """Whoosh's Positions encoding of a word's positions (their deltas, pickled)."""
    if len(poslist) == 1:
        return _single_position(poslist[0])
    deltas = [poslist[0]]
    deltas += [b - a for a, b in zip(poslist, poslist[1:], strict=False)]
    encoded: bytes = pack_uint(len(deltas)) + dumps(deltas, 2)
    return encoded


@functools.lru_cache(maxsize=4096)
def _single_position(pos: int) -> bytes:
    """The encoding of a word met once, at ``pos`` (most words of an abstract)."""
    encoded: bytes = pack_uint(1) + dumps([pos], 2)
    return encoded


class _Lengths:
    """The field lengths of a segment's documents, as the segment stores them (quantised
    to a byte), kept in memory."""

    def __init__(self) -> None:
        self.by_field: dict[str, dict[int, int]] = {}

    def doc_field_length(self, docnum: int, fieldname: str, default: int = 0) -> int:
        """The stored length of a document's field."""
        return self.by_field.get(fieldname, {}).get(docnum, default)


#: What a term new to a segment costs in memory, counted in postings: its key, two arrays
#: and a list take about 350 bytes, a posting in them about 25. A list whose papers each
#: carry a few words of their own (identifiers, keys) holds more terms than postings'
#: worth: 300,000 small arXiv records made segments of 160,000 terms for 1.5 million
#: postings, and a worker of 205 MB where the postings alone bounded it.
TERM_POSTINGS = 14

#: A term's postings as a segment gathers them: documents, weights and encoded values, in
#: document order (documents are added in order, so nothing needs sorting but the terms).
_Postings = tuple["array[int]", "array[float]", list[bytes]]


def _write_postings(fieldwriter: Any, schema: Any, lengths: _Lengths,
                    terms: dict[tuple[str, bytes], _Postings]) -> None:
    """Write a segment's postings field by field and term by term, a block at a time.

    What FieldWriter.add_postings does with the sorted postings of Whoosh's pool, one
    ``add_posting`` call each (with each document's field length read back from the column
    just written); here each block of a term's postings is handed to Whoosh's postings
    writer whole, with the field lengths from memory, and Whoosh encodes and writes it."""
    lastfield: str | None = None
    field_lengths: dict[int, int] = {}
    writer: Any = None
    for fieldname, btext in sorted(terms):
        if fieldname != lastfield:
            if lastfield is not None:
                fieldwriter.finish_field()
            fieldwriter.start_field(fieldname, schema[fieldname])
            field_lengths = lengths.by_field.get(fieldname, {})
            lastfield = fieldname
        docs, weights, values = terms[fieldname, btext]
        fieldwriter.start_term(btext)
        writer = fieldwriter._postwriter
        limit = writer._blocklimit
        count = len(docs)
        for start in range(0, count, limit):
            end = start + limit
            block = docs[start:end]
            block_weights = weights[start:end]
            found = [n for n in map(field_lengths.get, block) if n]
            # The buffered block exactly as add_posting leaves it for these postings.
            writer._ids = block
            writer._weights = array("f", block_weights)
            writer._values = [v for v in values[start:end] if v]
            writer._maxweight = max(0, max(block_weights))
            writer._minlength = min(found) if found else None
            writer._maxlength = max(found) if found else 0
            if end < count:
                # add_posting writes a full block when the next posting comes; the last one
                # is left for finish_term, which inlines or writes it.
                writer._write_block()
        fieldwriter.finish_term()
    if lastfield is not None:
        fieldwriter.finish_field()


class FastSegmentWriter(SegmentWriter):  # type: ignore[misc]  # untyped base
    """A Whoosh segment writer that analyses known text fields in one pass, gathers the
    postings by term in memory and keeps the field lengths there: the same postings, in a
    fraction of the time.

    Whoosh's writer puts every posting in a pool that spills sorted runs to disk (each
    posting pickled, read back and merged) once its estimate passes ``limitmb``: for 4,000
    abstracts, more than half of the build. Gathered by term, a posting costs a few bytes,
    and a build in parts bounds a segment by its number of postings instead."""

    def __init__(self, ix: Any, **kwargs: Any) -> None:
        super().__init__(ix, **kwargs)
        self._plans = {name: plan_for(field) for name, field in self.schema.items()}
        # Vectors and spelling words are written by Whoosh's own add_document only.
        self._whoosh_only = any(
            field.vector or field.separate_spelling() for _, field in self.schema.items()
        )
        self._lengths: _Lengths | None = _Lengths()
        self._terms: dict[tuple[str, bytes], _Postings] = {}
        #: How many postings this segment holds so far, each of its terms counted as
        #: TERM_POSTINGS more: what bounds its memory.
        self.postings = 0

    def add_document(self, **fields: Any) -> None:
        """Add a document: known text fields analysed here, the others as Whoosh does."""
        if self._whoosh_only or any(name.startswith("_") for name in fields):
            self._lengths = None
            super().add_document(**fields)
            return
        self._check_state()
        schema = self.schema
        names = sorted(fields)
        self._check_fields(schema, names)
        docnum = self.docnum
        terms = self._terms
        perdoc = self.perdocwriter
        lengths = self._lengths
        added = 0
        perdoc.start_doc(docnum)
        try:
            for name in names:
                value = fields[name]
                if value is None:
                    continue
                field = schema[name]
                length = 0
                if field.indexed:
                    plan = self._plans[name]
                    if plan is not None and isinstance(value, str):
                        boost = field.format.field_boost
                        items: Any = (
                            (word.encode("utf-8"), len(poslist), len(poslist) * boost,
                             _encode_positions(poslist))
                            for word, poslist in plan(value).items()
                        )
                    else:
                        items = field.index(value)
                    scorable = field.scorable
                    for tbytes, freq, weight, vbytes in items:
                        if scorable:
                            length += freq
                        postings = terms.get((name, tbytes))
                        if postings is None:
                            postings = terms[name, tbytes] = (array("I"), array("d"), [])
                            added += TERM_POSTINGS
                        postings[0].append(docnum)
                        postings[1].append(weight)
                        postings[2].append(vbytes)
                        added += 1
                if not field.scorable:
                    length = 0
                perdoc.add_field(name, field, value if field.stored else None, length)
                if length and lengths is not None:
                    lengths.by_field.setdefault(name, {})[docnum] = byte_to_length(
                        length_to_byte(length)
                    )
                if field.column_type:
                    perdoc.add_column_value(name, field.column_type,
                                            field.to_column_value(value))
        except Exception:
            perdoc.cancel_doc()
            raise
        perdoc.finish_doc()
        self.postings += added
        self._added = True
        self.docnum += 1

    def _flush_segment(self) -> None:
        pool = self.pool
        if self._lengths is None or pool.current or pool.runs:
            # Some documents went Whoosh's own way, or a merge put other segments' postings
            # in the pool: the gathered postings join them there, and Whoosh writes them all.
            for (fieldname, btext), (docs, weights, values) in self._terms.items():
                for docnum, weight, vbytes in zip(docs, weights, values, strict=True):
                    pool.add((fieldname, btext, docnum, weight, vbytes))
            self._terms = {}
            super()._flush_segment()
            return
        self.perdocwriter.close()
        _write_postings(self.fieldwriter, self.schema, self._lengths, self._terms)
        self._terms = {}
        self.fieldwriter.close()


