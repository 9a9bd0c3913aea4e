"""The fast index build gives Whoosh's own postings and results.

Real SQLite and Whoosh in a temporary directory; the parallel build really starts its
worker processes.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from whoosh import index as whoosh_index

import reader.library as library_module
from reader.library import Library
from reader.query import ParsedQuery
from reader.search import SearchIndex, document, make_schema

QUERIES = [
    "transport", "optimal transport", '"optimal transport"', '"language models"',
    "spars*", "generat*", "tran*former", "benchmrak~", "title:learning", "keywords:agents",
    "reasoning OR memory", "graph NOT neural", "large language model reasoning benchmark",
    "café", "naïve", "über", "x²", "co-training", "3d", "gpt-4", "e.g", "u.s.a",
]
#: Words the bundled sample lacks: accents, dotted abbreviations, digits, odd Unicode.
ODD = (
    "Café naïve Über façade Ünïcödé rôle coöperate déjà-vu x² ½ ÆON İstanbul ΣΊΣΥΦΟΣ "
    "e.g. U.S.A. gpt-4 3D co-training A.I. ß straße ǅemal ﬁne-tuning ０１２ naïve café"
)


def plain_whoosh(path: Path, library: Library) -> SearchIndex:
    """An index of the library's papers written by a stock Whoosh writer (Whoosh's own
    analysis, one process), searched through reader's SearchIndex."""
    path.mkdir()
    ix = whoosh_index.create_in(str(path), make_schema())
    writer = ix.writer()
    for paper in library.store.iter_papers():
        writer.add_document(**document(paper))
    writer.commit()
    ix.close()
    return SearchIndex(path)


def postings(path: Path) -> dict[tuple[str, bytes], list[tuple[int, object]]]:
    """Every term of an index with each posting's document and positions (or weight)."""
    ix = whoosh_index.open_dir(str(path))
    out = {}
    with ix.reader() as reader:
        for fieldname, text in reader.all_terms():
            kind = "positions" if reader.schema[fieldname].format.supports("positions") else (
                "weight"
            )
            info = reader.term_info(fieldname, text)
            # The length bounds of each term feed the block-skipping of a top-N search.
            bounds = (info.min_length(), info.max_length(), info.max_weight())
            out[fieldname, text] = [bounds, *reader.postings(fieldname, text).items_as(kind)]
        lengths = {
            (name, doc): reader.doc_field_length(doc, name)
            for name in reader.indexed_field_names()
            for doc in range(reader.doc_count_all())
        }
    ix.close()
    out["lengths", b""] = sorted(lengths.items())  # type: ignore[assignment]
    return out


@pytest.fixture
def odd_library(library: Library, tmp_path: Path) -> Library:
    """The bundled sample and a few papers of odd words, in titles, abstracts, keywords,
    authors, notes and tags."""
    path = tmp_path / "odd.jsonl"
    with path.open("w", encoding="utf-8") as out:
        for i in range(3):
            out.write(json.dumps({
                "id": f"odd{i}",
                "content": {
                    "title": f"Ünïcödé {ODD[i * 20:]}", "abstract": f"{ODD} number {i}",
                    "keywords": ["Café", "x²", "co-training"],
                    "authors": ["Zoë Ça", "İlker Ñandú"],
                },
            }) + "\n")
    library.import_files([path])
    ids = library.search("odd1 OR ünïcödé").ids or library.store.all_ids()[-3:]
    library.save_note(ids[0], "A note: café *naïve* über `code` — déjà-vu")
    library.set_tags(ids[-1], ["straße", "3d"])
    return library


def test_fast_postings_are_whooshs_own(odd_library: Library, tmp_path: Path) -> None:
    """Every term, posting, position and field length the fast writer stores is what a
    stock Whoosh writer stores for the same papers."""
    odd_library.rebuild_index()
    plain_whoosh(tmp_path / "plain", odd_library).close()
    fast, plain = postings(odd_library.paths.index), postings(tmp_path / "plain")
    assert fast.keys() == plain.keys()
    assert fast == plain


def test_fast_index_ranks_as_plain_whoosh(odd_library: Library, tmp_path: Path) -> None:
    """Every query finds the same papers, in the same order with the same scores, over
    the fast index (built in one process, and in two) as over a stock Whoosh index."""
    plain = plain_whoosh(tmp_path / "plain", odd_library)
    expected = {q: plain.search(ParsedQuery(q)) for q in QUERIES}
    assert sum(bool(hits.ids) for hits in expected.values()) >= len(QUERIES) - 4
    for procs, minimum in ((1, 10**9), (2, 1)):
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(library_module, "PARALLEL_MIN", minimum)
            patch.setattr(library_module, "INDEX_PROCS", procs)
            odd_library.rebuild_index()
        for query, hits in expected.items():
            got = odd_library.index.search(ParsedQuery(query))
            assert got.ids == hits.ids, (procs, query)
            assert got.scores == pytest.approx(hits.scores, rel=1e-9), (procs, query)
            assert got.terms == hits.terms, (procs, query)
            top = odd_library.index.search(ParsedQuery(query), limit=3)
            assert top.ids == plain.search(ParsedQuery(query), limit=3).ids, (procs, query)
    plain.close()
