"""The words of a query found in a text, as spans to highlight, and the terms two papers
share ("more like this" says why)."""

from __future__ import annotations

from whoosh.query import Query
from whoosh.searching import Searcher

from reader.search.analysis import ANALYZER, stem_word
from reader.search.parsing import Expanded, term_text
from reader.text.greek import NAMES


def shared_terms(text: str, key_terms: list[tuple[str, float]], top: int = 6) -> list[str]:
    """The key terms of a "more like this" ranking that ``text`` contains, strongest
    first: why a paper ranks where it does. Each is given as the word ``text`` first writes
    it in (the key terms are stems: `capabilities`, not `capabl`)."""
    written: dict[str, str] = {}
    for token in ANALYZER(text, chars=True):
        written.setdefault(stem_word(token.text), text[token.startchar : token.endchar].lower())
    return [written[word] for word, _ in key_terms if word in written][:top]


def highlight_terms(query: Query, searcher: Searcher) -> frozenset[str]:
    """The indexed words a query matched (stems, in a stemmed field), with its prefixes,
    patterns and typos expanded to the words they found."""
    words: set[str] = set()
    reader = searcher.reader()
    # Leaf by leaf: Query.existing_terms reuses its `fieldname` argument as a loop variable
    # and so skips every field after the first one it meets.
    for leaf in query.leaves():
        try:
            found = leaf.expansions() if isinstance(leaf, Expanded) else None
            if found:  # what the search itself expanded it to: not expanded again
                words.update(term_text(word) for word in found)
                continue
            for fieldname, text in leaf.expanded_terms(reader):
                if (fieldname, text) in reader:
                    words.add(term_text(text))
        except Exception:  # noqa: BLE001 - highlighting is a nicety, never an error
            continue
    return frozenset(w for w in words if w)


def highlight_spans(text: str, terms: frozenset[str]) -> list[tuple[int, int]]:
    """Character spans of the words of ``text`` that are among ``terms``: a word is marked
    when its stem is (the query matched a stemmed field) or the word itself is (an author's
    name, a tag); a Greek letter standing alone, with its index or power or none, when
    its name is (`tau` found `τ`, `τ²`, `τ_c`)."""
    if not terms or not text:
        return []
    spans = []
    for token in ANALYZER(text, chars=True, mode="index"):
        word = token.text
        if word in terms or stem_word(word) in terms or _letter_name(word) in terms:
            spans.append((token.startchar, token.endchar))
    return spans


def _letter_name(word: str) -> str:
    """The name of the Greek letter ``word`` is, alone or with an index or a power (`τ`,
    `τ2` for τ², `τ_c`); "" for any other word (`σ2δ_fε` is more than one letter's)."""
    name = NAMES.get(word[:1], "")
    return name if name and NAMES.keys().isdisjoint(word[1:]) else ""
