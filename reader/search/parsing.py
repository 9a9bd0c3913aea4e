"""Queries as Whoosh queries: the parser (field names, operators, NOT and -word), and terms
that expand against the words of the index: prefixes, wildcards and typos (a Levenshtein
automaton over a field's words, with the forms a stem takes). The nearest word for a "did
you mean" is in reader.search.suggest."""

from __future__ import annotations

import bisect
import copy
import functools
import re
import threading
import weakref
from collections.abc import Iterable, Iterator
from itertools import islice, product
from typing import Any

from whoosh.analysis import STOP_WORDS
from whoosh.codec.base import Automata
from whoosh.fields import Schema
from whoosh.matching import NullMatcher
from whoosh.qparser import (
    FieldAliasPlugin,
    FuzzyTermPlugin,
    MultifieldPlugin,
    OperatorsPlugin,
    QueryParser,
)
from whoosh.query import FuzzyTerm, Or, Phrase, Prefix, Query, Term, Wildcard

from reader.search.analysis import stem_word
from reader.search.schema import FIELD_BOOSTS, NAMED_FIELDS, SEARCH_FIELDS, STEMMED_FIELDS
from reader.text.greek import NAMES, TEX_VARIANTS, printed_forms, spellings

#: The most typos a fuzzy word (``word~N``) forgives; and the shortest word forgiven any.
_MAX_EDITS = 2
_FUZZY_FROM = 3
# The most ways a phrase of symbols is looked for (each word as printed, or as typed).
_MOST_SPELLINGS = 16
# The letters at the start of a word given two typos that must be right: none (a typo in the
# first letter is found too; see Fuzzy._within).
FUZZY_PREFIX = 0
# Typed words this long are also matched against the forms of stems (see Fuzzy); the stems
# matched that way are this long at least (`l` + `ion` is not `lion`).
FORMS_FROM = 5
_SHORTEST_STEM = 3

#: Field names a query may also use (`author:lovelace`).
_FIELD_ALIASES = {
    "authors": ["author"], "keywords": ["keyword"], "notes": ["note"],
    # A paper's ids are in its key field: `arXiv:1706.03762` (as APA prints it) finds it.
    "key": ["citekey", "arxiv", "arXiv", "doi", "DOI", "openreview"],
}
# `NOT`, or a `-` at the start of a word (`-title:copy`, `-"a phrase"`, `-word`), as the
# filters take `-is:starred`; a hyphen inside a word (`state-of-the-art`) is no operator.
_NOT = r"(^|(?<=(\s|[()])))(NOT(?=\s)|-(?=[^\s\-)]))"
# The field names a query may use, and a space typed after one (`title: gdpval`).
_FIELD_NAMES = frozenset(
    {*SEARCH_FIELDS, "year", "venue", *(a for names in _FIELD_ALIASES.values() for a in names)}
)
FIELD_SPACE = re.compile(rf"(?<![\w:])({'|'.join(sorted(_FIELD_NAMES))}):\s+(?=\S)")
#: The stems of the stop words: common words say nothing about a paper's topic.
STOP_STEMS = frozenset(STOP_WORDS) | {stem_word(w) for w in STOP_WORDS}
# Endings a word typed as a prefix may go on with. The stem of such a word can be shorter
# than the prefix (`optimiz*`: optimization → optim), so a prefix also matches the stems of
# these completions that cut into it.
ENDINGS = (
    "", "e", "s", "es", "ed", "ing", "ion", "ions", "ation", "ations", "ate", "ates", "ative",
    "ive", "ity", "ities", "ize", "ized", "izes", "izing", "ization", "izations", "al", "ally",
    "er", "ers", "ness", "ment", "ments", "able", "ence", "ance", "ent", "ant", "ism", "ist",
    "ous", "ful", "ic", "ical", "or", "ors",
)

WORDS: weakref.WeakKeyDictionary[Any, dict[str, list[str]]] = weakref.WeakKeyDictionary()
_WORDS_LOCK = threading.Lock()


class Expanded:
    """A query of several indexed words (a prefix, a pattern, a typo) that remembers its
    expansion in each segment: the search expands it once and the highlighting reuses it."""

    def _btexts(self, ixreader: Any) -> list[Any]:
        if not ixreader.is_atomic():
            # The search expands the query in each segment: the union of those.
            return list(dict.fromkeys(
                word for leaf, _ in ixreader.leaf_readers() for word in self._btexts(leaf)
            ))
        memo: dict[int, tuple[Any, list[Any]]] = self.__dict__.setdefault("_expanded", {})
        found = memo.get(id(ixreader))
        if found is None or found[0] is not ixreader:
            found = memo[id(ixreader)] = (ixreader, list(self._expand(ixreader)))
        return found[1]

    def _expand(self, ixreader: Any) -> Iterable[Any]:
        """The words the query matches in one segment, as Whoosh's own query finds them."""
        words: Iterable[Any] = super()._btexts(ixreader)  # type: ignore[misc]
        return words

    def expansions(self) -> set[Any]:
        """The words (bytes or text) the expansions done so far found."""
        memo: dict[int, tuple[Any, list[Any]]] = self.__dict__.get("_expanded", {})
        return {word for _, words in memo.values() for word in words}


class _Prefix(Expanded, Prefix):  # type: ignore[misc]  # untyped base
    """Words starting with a prefix. In a stemmed field the prefix is not stemmed (`spars*`
    is not `spar*`): it matches the stems starting with it, and the stems of its completions
    that cut into it (`generat*` also matches `gener`, the stem of generation)."""

    def _expand(self, ixreader: Any) -> Iterator[Any]:
        yield from ixreader.expand_prefix(self.fieldname, self.text)
        prefix = self.text
        if self.fieldname not in STEMMED_FIELDS or not prefix:
            return
        for root in sorted({stem_word(prefix + ending) for ending in ENDINGS}):
            if (
                not root.startswith(prefix)
                and prefix.startswith(root[:-1])
                and (self.fieldname, root) in ixreader
            ):
                yield root.encode("utf-8")


class _Wildcard(Expanded, Wildcard):  # type: ignore[misc]  # untyped base
    """A glob pattern. In a stemmed field it matches the stems the pattern matches, as
    written or stemmed (`tran*former` matches `transform`)."""

    def _expand(self, ixreader: Any) -> list[Any]:
        words = list(Wildcard._btexts(self, ixreader))
        if self.fieldname in STEMMED_FIELDS:
            stemmed = stem_word(self.text)
            if stemmed != self.text:
                seen = set(words)
                other = Wildcard(self.fieldname, stemmed)._btexts(ixreader)
                words += [word for word in other if word not in seen]
        return words

    def normalize(self) -> Query:
        query = super().normalize()
        if type(query) is Prefix:  # a pattern whose only wildcard is a final `*`
            return _Prefix(query.fieldname, query.text, boost=query.boost)
        return query


class Fuzzy(Expanded, FuzzyTerm):  # type: ignore[misc]  # untyped base
    """A word with typos: the indexed words within a few edits of it. A stemmed field holds
    stems, so there a stem is found when the query's stem is within those edits of it, or
    when the word as typed (``typed``: lower-cased and folded, not stemmed) is within them
    of one of the stem's forms, the stem and an ending of ENDINGS: `unlearnign` is three
    edits from the stem `unlearn` but two from `unlearning`."""

    typed = ""

    def _expand(self, ixreader: Any) -> list[str]:
        words = self._within(ixreader, self.text, forms=False)
        if self.fieldname in STEMMED_FIELDS and len(self.typed) >= FORMS_FROM:
            seen = set(words)
            words += [
                word
                for word in self._within(ixreader, self.typed, forms=True)
                if word not in seen and len(word) >= _SHORTEST_STEM
            ]
        return words

    def _within(self, ixreader: Any, text: str, forms: bool) -> list[str]:
        """The field's words the automaton for ``text`` accepts."""
        # What SegmentReader.terms_within finds, faster: the automaton is built once for the
        # word, not again for each field of each segment, and when the words must share a
        # first letter they are read in order and each run through the automaton. Whoosh
        # skips through the term list instead, with a binary search of the term file per
        # skip: fifteen times slower for `benchmrak~` at 20,000 papers.
        if not self.prefixlength and not forms:
            # A typo in the first letter too: every word of the field is a candidate. The
            # automaton run over all of them in Python took seconds; rapidfuzz compares the
            # whole word list in C, read once per index reader.
            from rapidfuzz.distance import Levenshtein
            from rapidfuzz.process import extract

            found = extract(text, _field_words(ixreader, self.fieldname),
                            scorer=Levenshtein.distance, score_cutoff=self.maxdist, limit=None)
            return [word for word, _distance, _index in found]
        prefix = self.prefixlength or 1  # the forms of a stem are sought from its first letter
        dfa = _levenshtein_dfa(text, self.maxdist, prefix, forms)
        start = text[:prefix]
        # The words starting so, from the field's words in order (read once, as above).
        words = _field_words(ixreader, self.fieldname)
        first = bisect.bisect_left(words, start)
        last = bisect.bisect_left(words, start + "\U0010ffff", first)
        return [word for word in words[first:last] if _accepts(dfa, word)]

    def matcher(self, searcher: Any, context: Any = None) -> Any:
        # Whoosh scores every word a typo finds alike (constantscore): `machlr~` ranked a
        # paper by Machin above one by Mächler. Each word found is scored as a word is, and
        # weighed down by its edits from what was typed.
        words = [term_text(word) for word in self._btexts(searcher.reader()) if word]
        if not words:
            return NullMatcher()
        typed = self.typed or self.text
        terms = [
            Term(self.fieldname, word,
                 boost=1.0 / (1 + min(edit_distance(self.text, word), edit_distance(typed, word))))
            for word in words
        ]
        return Or(terms, boost=self.boost).matcher(searcher, context)

    def with_edits(self, maxdist: int, prefixlength: int) -> Fuzzy:
        """The same word with another number of edits allowed."""
        query = Fuzzy(
            self.fieldname, self.text, boost=self.boost, maxdist=maxdist,
            prefixlength=prefixlength,
        )
        query.typed = self.typed
        return query


def _field_words(ixreader: Any, fieldname: str) -> list[str]:
    """Every word a field holds, read once for each index reader (a write gives a new one)."""
    from reader.search.lexicon import field_words  # numpy: loaded with the first search

    with _WORDS_LOCK:
        per_field = WORDS.setdefault(ixreader, {})
        if fieldname not in per_field:
            words = field_words(ixreader, fieldname) if ixreader.is_atomic() else None
            if words is None:
                words = [word.decode("utf-8") for word in ixreader.lexicon(fieldname)]
            per_field[fieldname] = words
        return per_field[fieldname]


@functools.lru_cache(maxsize=32)
def _levenshtein_dfa(text: str, maxdist: int, prefix: int, forms: bool = False) -> Any:
    """The automaton accepting the words within ``maxdist`` edits of ``text``; with
    ``forms``, the words that are within them once one of ENDINGS is added."""
    dfa = Automata.levenshtein_dfa(text, maxdist, prefix)
    if not forms:
        return dfa
    states = {dfa.initial, *dfa.transitions, *dfa.defaults.values()}
    states.update(dest for moves in dfa.transitions.values() for dest in moves.values())
    finals = set(dfa.final_states)
    for state in states - finals:
        for ending in ENDINGS:
            reached = state
            for char in ending:
                reached = dfa.next_state(reached, char)
                if not reached:
                    break
            if reached and dfa.is_final(reached):
                finals.add(state)
                break
    extended = copy.copy(dfa)
    extended.final_states = finals
    extended.outlabels = {}
    return extended


def _accepts(dfa: Any, word: str) -> bool:
    """Whether the automaton accepts the word (a dead state is an empty one, or None)."""
    state = dfa.start()
    for char in word:
        state = dfa.next_state(state, char)
        if not state:
            return False
    return bool(dfa.is_final(state))


class _Phrase(Phrase):  # type: ignore[misc]  # untyped base
    """A phrase; one of one word is that word, with its field's boost (Whoosh's dropped
    it) and, for a Greek letter, by its name: `"τ"` finds what `τ` finds."""

    def normalize(self) -> Query:
        if len(self.words) != 1:
            # Each word as the index may hold it at its place: `"temperature tau_c"` finds
            # "temperature τ_c" (a few of the ways at most, the first of each word first).
            spelled = ([spellings(word) for word in self.words]
                       if self.fieldname in NAMED_FIELDS else [])
            if all(len(ways) == 1 for ways in spelled):
                return super().normalize()
            return Or([Phrase(self.fieldname, list(words), slop=self.slop, boost=self.boost)
                       for words in islice(product(*spelled), _MOST_SPELLINGS)])
        word = self.words[0]
        named = NAMES.get(word) if self.fieldname in NAMED_FIELDS else None
        forms = printed_forms(word) if self.fieldname in NAMED_FIELDS else []
        if forms:  # `"alpha_t"` finds `αₜ` as `alpha_t` does
            return Or([Term(self.fieldname, form, boost=self.boost) for form in (word, *forms)])
        return Term(self.fieldname, named or word, boost=self.boost)


class Parser(QueryParser):  # type: ignore[misc]  # untyped base
    """Whoosh's multi-field parser over reader's fields and boosts, with a typo's tolerance
    (``word~``) and field aliases (``author:``). Each word is analysed by its field's
    analyzer (stemmed or not), except prefixes and patterns, which are only lower-cased:
    Whoosh would stem them (`spars*` would become `spar*`)."""

    def __init__(
        self,
        schema: Schema,
        fields: tuple[str, ...] = SEARCH_FIELDS,
        boosts: dict[str, float] | None = None,
    ) -> None:
        super().__init__(None, schema, phraseclass=_Phrase)
        chosen = FIELD_BOOSTS if boosts is None else boosts
        self.add_plugin(MultifieldPlugin(list(fields), fieldboosts=chosen))
        self.add_plugin(FuzzyTermPlugin())
        self.add_plugin(FieldAliasPlugin(_FIELD_ALIASES))
        self.replace_plugin(OperatorsPlugin(Not=_NOT))

    def term_query(
        self, fieldname: str, text: str, termclass: type[Query], boost: float = 1.0,
        tokenize: bool = True, removestops: bool = True,
    ) -> Query | None:
        if termclass in (Prefix, Wildcard) and fieldname in self.schema:
            words = list(
                self.schema[fieldname].process_text(
                    text, mode="query", tokenize=False, removestops=False, no_morph=True
                )
            )
            if not words:
                return None
            kind = _Prefix if termclass is Prefix else _Wildcard
            forms = printed_forms(words[0]) if fieldname in NAMED_FIELDS else []
            if forms and termclass is Prefix:  # `tau_c*` finds `τ_c` as `tau_c` does
                return Or([kind(fieldname, form, boost) for form in (words[0], *forms)])
            return kind(fieldname, words[0], boost)
        if termclass is FuzzyTerm:
            query = super().term_query(fieldname, text, Fuzzy, boost, tokenize, removestops)
            if isinstance(query, Fuzzy) and fieldname in self.schema:
                typed = self.schema[fieldname].process_text(
                    text, mode="query", tokenize=False, removestops=False, no_morph=True
                )
                query.typed = next(iter(typed), "")
            return query
        named = NAMES.get(text) or TEX_VARIANTS.get(text.lstrip("\\").lower())
        if termclass is Term and fieldname in NAMED_FIELDS and named:
            # A Greek letter alone (or TeX's name of its variant form) is searched by its name,
            # which these fields hold beside every letter standing alone: `τ` finds what `tau`
            # finds, not only the papers printing it; `varphi` what `phi` finds.
            text = named
        forms = printed_forms(text) if termclass is Term and fieldname in NAMED_FIELDS else []
        if forms:
            # A symbol typed otherwise than printed (`tau_c`, `tau²`, `beta_1`) finds it as
            # printed (`τ_c`, `τ²`, `β₁`), as `tau` finds `τ`.
            queries = []
            for form in (text, *forms):
                query = super().term_query(fieldname, form, termclass, boost, tokenize,
                                           removestops)
                queries += [query] if query is not None else []
            return Or(queries)
        return super().term_query(fieldname, text, termclass, boost, tokenize, removestops)


def widen_fuzzy(query: Query) -> Query:
    """Let ``word~`` forgive two edits on longer words, so a swapped pair of letters
    (``benchmrak``) is found: Whoosh counts a transposition as two edits; and none on a word
    of one or two letters, a typo from which is nearly every short word (`τ~` found 3,346
    papers of 3,380, by `a`, `d`, `n`). More than two is capped at two: ``x~9`` would match
    every word, and building its automaton takes seconds (exponential in the distance)."""
    if isinstance(query, Fuzzy):
        # The length of the word as typed: in a stemmed field the query holds its stem.
        length = max(len(query.text), len(query.typed))
        if length < _FUZZY_FROM:
            named = NAMES.get(query.text) if query.fieldname in NAMED_FIELDS else None
            return Term(query.fieldname, named or query.text, boost=query.boost)
        if query.maxdist == 1 and length >= 5:
            return query.with_edits(2, prefixlength=FUZZY_PREFIX)
        if query.maxdist > _MAX_EDITS:
            return query.with_edits(_MAX_EDITS, query.prefixlength)
        return query
    if isinstance(query, FuzzyTerm):
        return query
    return query.apply(widen_fuzzy)


def edit_distance(a: str, b: str) -> int:
    """The edits (insertions, deletions, substitutions, swaps of two neighbours) that turn
    ``a`` into ``b``."""
    before: list[int] = []
    row = list(range(len(b) + 1))
    for i, char in enumerate(a, 1):
        earlier, before, row = before, row, [i] + [0] * len(b)
        for j, other in enumerate(b, 1):
            row[j] = min(before[j] + 1, row[j - 1] + 1, before[j - 1] + (char != other))
            if i > 1 and j > 1 and char == b[j - 2] and a[i - 2] == other:
                row[j] = min(row[j], earlier[j - 2] + 1)
    return row[-1]


def has_empty_terms(query: Query) -> bool:
    """Whether a parsed query holds a term with no text (what `title:` parses to)."""
    return any(getattr(leaf, "text", None) in ("", b"") for leaf in query.leaves())


def term_text(word: object) -> str:
    """An indexed word (bytes from a term list, or text) as text."""
    return word.decode("utf-8") if isinstance(word, bytes) else str(word)
