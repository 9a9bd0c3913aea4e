"""The fast index build gives Whoosh's own postings and results, and a search during a
build runs over what is indexed so far and says so.

Real SQLite and Whoosh in a temporary directory; the parallel builds really start their
worker processes.
"""

from __future__ import annotations

import asyncio
import io
import json
import pickle
import re
import struct
import subprocess
import sys
import threading
import zlib
from pathlib import Path
from typing import Any

import pytest
from whoosh import index as whoosh_index

import reader.library.indexing as library_module
import reader.search.build_processes as build_processes
import reader.ui.index_status as index_status_module
import reader.ui.live as live_module
from reader.library import Library
from reader.resources import sample_files
from reader.search.index import SearchIndex
from reader.search.query import ParsedQuery
from reader.search.schema import document, make_schema
from reader.ui.app import ReaderApp
from tests.parsing import parse_file
from tests.test_index_build import write_openreview
from tests.waiting import until

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


def plain_whoosh(path: Path, library: Library, **options: Any) -> SearchIndex:
    """An index of the library's papers written by a stock Whoosh writer (Whoosh's own
    analysis, one process; ``options`` for the writer), searched through reader's
    SearchIndex."""
    path.mkdir()
    ix = whoosh_index.create_in(str(path), make_schema())
    writer = ix.writer(**options)
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


def test_a_search_during_a_build_runs_over_what_is_indexed(
    tmp_path: Path, empty_library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While a large list is indexed, each segment is searchable as it is written: a
    search finds the papers indexed so far and says how far the index is; at the end it
    finds them all and says nothing."""
    library = empty_library
    monkeypatch.setattr(library_module, "PARALLEL_MIN", 1)
    monkeypatch.setattr(library_module, "INDEX_PROCS", 2)
    monkeypatch.setattr(build_processes, "FIRST_SEGMENT", 10)
    library.imports.write_files([write_openreview(tmp_path / "a.jsonl", 80)])
    during: list[tuple[int, list[int], str | None]] = []
    publish = library.index._published

    def published(generation: int, total: int, indexed: int) -> None:
        publish(generation, total, indexed)
        if indexed:
            outcome = library.search("setting")
            during.append((indexed, outcome.ids, outcome.notice))

    monkeypatch.setattr(library.index, "_published", published)
    library.sync_index()
    first_count, first_ids, first_notice = during[0]
    assert first_count == 10
    assert first_notice == "partial: 10 of 80 indexed"
    assert len(first_ids) == 10
    # Each later search finds more, and the segments written end up all published.
    counts = [len(ids) for _, ids, _ in during]
    assert counts == sorted(counts) and counts[-1] == 80
    final = library.search("setting")
    assert final.notice is None
    assert sorted(final.ids) == library.store.all_ids() and len(final.ids) == 80
    assert library.index_state() == "ok"


def test_workers_forked_from_the_warmed_server_index_as_spawned_ones_do(
    library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The reader's import process starts a fork server while it waits for its file; a
    build then forks its workers from it, and they index every paper as before."""
    before = {q: library.search(q).ids for q in QUERIES}
    monkeypatch.setattr(build_processes, "_warm", None)
    build_processes.warm_up()
    assert build_processes._warm is not None
    monkeypatch.setattr(library_module, "PARALLEL_MIN", 1)
    monkeypatch.setattr(library_module, "INDEX_PROCS", 2)

    assert library.rebuild_index() == library.store.count()

    assert {q: library.search(q).ids for q in QUERIES} == before
    assert library.index_state() == "ok"


def test_a_large_import_onto_a_library_is_indexed_in_parts(
    tmp_path: Path, library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Importing many papers onto a library that has an index (the sample, one paper of
    it revised by the import) indexes them on two processes, and the index then ranks
    as one rebuilt from scratch: no paper twice, none missing."""
    monkeypatch.setattr(library_module, "PARALLEL_MIN", 20)
    monkeypatch.setattr(library_module, "INDEX_PROCS", 2)
    sample = parse_file(sample_files()[0]).records[0]
    path = write_openreview(tmp_path / "a.jsonl", 60)
    with path.open("a", encoding="utf-8") as out:  # a paper already there, now titled
        out.write(json.dumps({"id": "known", "content": {
            "title": "A real title for zqxj", "abstract": sample.abstract}}) + "\n")
    library.save_note(1, "a note that stays indexed")
    calls: list[str] = []
    in_parts = library.index.catch_up_in_parts
    monkeypatch.setattr(library.index, "catch_up_in_parts",
                        lambda *a, **k: calls.append("parts") or in_parts(*a, **k))
    summary = library.import_files([path])
    assert calls == ["parts"] and summary.new == 60 and summary.merged == 1
    assert library.index.count() == library.store.count() == 98
    caught_up = {q: library.search(q).ids for q in ("setting", "zqxj", "stays", "learning")}
    monkeypatch.setattr(library_module, "PARALLEL_MIN", 10**9)
    library.rebuild_index()
    assert {q: library.search(q).ids for q in caught_up} == caught_up
    assert caught_up["zqxj"] and caught_up["stays"] == [1]


async def test_the_reader_searches_a_partial_index_and_says_so(
    tmp_path: Path, empty_library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In the reader, a search typed while the index is built shows the papers indexed so
    far with "partial: N of M indexed", and all of them once the build is done."""
    library = empty_library
    monkeypatch.setattr(library_module, "PARALLEL_MIN", 1)
    monkeypatch.setattr(library_module, "INDEX_PROCS", 2)
    monkeypatch.setattr(build_processes, "FIRST_SEGMENT", 10)
    library.imports.write_files([write_openreview(tmp_path / "a.jsonl", 80)])
    first, go = threading.Event(), threading.Event()
    publish = library.index._published

    def published(generation: int, total: int, indexed: int) -> None:
        publish(generation, total, indexed)
        if indexed and not first.is_set():
            first.set()
            go.wait(30)  # hold the build here while the test searches

    monkeypatch.setattr(library.index, "_published", published)
    app = ReaderApp(library, load_sample=False)
    async with app.run_test(size=(120, 40)) as pilot:
        assert await asyncio.to_thread(first.wait, 30)
        await pilot.press("slash", *"setting")
        status = app.query_one("#status")
        await until(pilot, lambda: "partial" in str(status.render()))
        assert "partial: 10 of 80 indexed" in str(status.render())
        # The status line is told the outcome as the list is given its rows: under load
        # the list's refresh may come a message later (this failed once in a clean clone).
        await until(pilot, lambda: len(app.paper_list.ids) == 10)
        go.set()
        await app.workers.wait_for_complete()
        await until(pilot, lambda: len(app.paper_list.ids) == 80)
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert "partial" not in str(status.render())
        assert sorted(app.paper_list.ids) == library.store.all_ids()


@pytest.mark.parametrize("minimum", [10**9, 1], ids=["in this process", "in parts"])
def test_a_reimport_indexes_only_papers_whose_text_changed(
    tmp_path: Path, empty_library: Library, monkeypatch: pytest.MonkeyPatch, minimum: int
) -> None:
    """Importing a list again with TL;DRs filled in and two titles revised re-indexes the
    two papers whose searchable text changed, not the others the import merged."""
    library = empty_library
    monkeypatch.setattr(library_module, "INDEX_PROCS", 2)
    first = write_openreview(tmp_path / "a.jsonl", 40)
    library.import_files([first])
    before = {q: library.search(q).ids for q in ("setting", "graph", "zqxj")}
    again = tmp_path / "b.jsonl"
    with first.open(encoding="utf-8") as src, again.open("w", encoding="utf-8") as out:
        for n, line in enumerate(src):
            record = json.loads(line)
            record["content"]["tldr"] = f"In short, {n}."  # stored, not searched
            if n in (3, 30):
                record["content"]["title"] = f"Revised zqxj title {n}"
            out.write(json.dumps(record) + "\n")
    summary = library.imports.write_files([again])
    assert summary.merged == 40
    monkeypatch.setattr(library_module, "PARALLEL_MIN", minimum)
    assert library.sync_index() == 2
    assert library.index.count() == 40
    assert len(library.search("zqxj").ids) == 2
    # The same papers (a re-indexed one may move among equal scores).
    assert {q: set(library.search(q).ids) for q in before if q != "zqxj"} == {
        q: set(ids) for q, ids in before.items() if q != "zqxj"
    }
    assert library.index_state() == "ok"


def test_a_batched_import_commits_as_it_goes(tmp_path: Path, library: Library) -> None:
    """An import in batches is visible to another connection batch by batch, is one
    import in the history (undone as one), and the index catches up on every batch."""
    path = write_openreview(tmp_path / "a.jsonl", 50)
    before = library.store.count()
    other = Library(library.paths.root)
    seen: dict[int, int] = {}

    def progress(done: int, total: int) -> None:
        if done in (5, 25, 45):
            seen[done] = other.store.count() - before

    try:
        summary = library.import_files([path], progress=progress, batch=20)
    finally:
        other.close()
    assert seen == {5: 0, 25: 20, 45: 40}
    assert summary.new == 50
    assert library.index.count() == library.store.count() == before + 50
    imports = library.store.conn.execute(
        "SELECT new, read FROM imports ORDER BY id DESC LIMIT 1").fetchone()
    assert tuple(imports) == (50, 50)
    assert library.store.conn.execute(
        "SELECT count(*) FROM import_items WHERE import_id = "
        "(SELECT max(id) FROM imports)").fetchone()[0] == 50
    library.imports.undo_last_import()
    assert library.store.count() == before == library.index.count()


def blocks(path: Path) -> list[tuple[object, object]]:
    """Every block of every posting list of an index's segments, decoded: its header (count,
    last document, highest weight, field length bounds: what a top-N search skips by) and
    its documents, weights and positions. (The files themselves differ: the fast writer's
    encoded positions share objects, which pickle then writes once.)"""
    found = []
    for file in sorted(path.glob("*.pst")):
        data = io.BytesIO(file.read_bytes())
        while magic := data.read(4):
            assert magic == b"W3Bl"
            last = False
            while not last:
                (length,) = struct.unpack("!i", data.read(4))
                last, start = length < 0, data.tell()
                header = pickle.load(data)
                body = data.read(abs(length) - (data.tell() - start))
                found.append((header, pickle.loads(zlib.decompress(body) if header[3] else body)))
    return found


def test_fast_postings_of_many_papers_are_whooshs_own(
    tmp_path: Path, empty_library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With terms whose postings fill several blocks (300 papers share `setting`), the
    fast writer's blocks of postings are a stock Whoosh writer's, header and content, and
    a segment cut short at its bound on postings ranks as one segment does."""
    library = empty_library
    monkeypatch.setattr(library_module, "PARALLEL_MIN", 10**9)
    library.imports.write_files([write_openreview(tmp_path / "a.jsonl", 300)])
    library.rebuild_index()
    # Separate files, as the fast writer writes them, so that they compare.
    plain = plain_whoosh(tmp_path / "plain", library, compound=False)
    assert postings(library.paths.index) == postings(tmp_path / "plain")
    fast_blocks = blocks(library.paths.index)
    assert fast_blocks == blocks(tmp_path / "plain")
    assert sum(header[0] == 128 for header, _ in fast_blocks) > 10  # whole blocks
    expected = {q: plain.search(ParsedQuery(q)) for q in ("setting", "graph transport")}
    monkeypatch.setattr(library_module, "PARALLEL_MIN", 1)
    monkeypatch.setattr(library_module, "INDEX_PROCS", 2)
    monkeypatch.setattr(build_processes, "SEGMENT_POSTINGS", 2_000)
    library.rebuild_index()
    assert len(list(library.paths.index.glob("*.pst"))) > 2
    for query, hits in expected.items():
        got = library.index.search(ParsedQuery(query))
        assert got.ids == hits.ids
        assert got.scores == pytest.approx(hits.scores, rel=1e-9)
    plain.close()


async def test_the_reader_searches_as_another_processs_import_is_indexed(
    tmp_path: Path, library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A list imported by another process (`reader import` in another terminal) is indexed
    by the open reader once it notices the commit; a search shown meanwhile runs again as
    each part becomes searchable ("partial: 68 of 118 indexed": the sample and 30 of the
    80), and once all is indexed."""
    monkeypatch.setattr(library_module, "PARALLEL_MIN", 1)
    monkeypatch.setattr(library_module, "INDEX_PROCS", 2)
    monkeypatch.setattr(build_processes, "FIRST_SEGMENT", 10)
    first, go = threading.Event(), threading.Event()
    publish = library.index._published

    def published(generation: int, total: int, indexed: int) -> None:
        publish(generation, total, indexed)
        if indexed > 10 and not first.is_set():
            # Held at the second part published, the first one having been reported.
            first.set()
            go.wait(30)

    monkeypatch.setattr(library.index, "_published", published)
    app = ReaderApp(library, load_sample=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("slash", *"setting")
        await app.workers.wait_for_complete()
        sample = len(app.paper_list.ids)
        other = Library(library.paths.root)
        try:
            other.imports.write_files([write_openreview(tmp_path / "a.jsonl", 80)])
        finally:
            other.close()
        assert await asyncio.to_thread(first.wait, 30)
        status = app.query_one("#status")
        # The list shows the papers of the parts published before the one held.
        await until(pilot, lambda: len(app.paper_list.ids) > sample)
        # Counted out of the library's papers: the 38 indexed before, and the part.
        assert re.search(r"partial: (4|5|6|7|8|9|10)8 of 118 indexed", str(status.render()))
        assert len(app.paper_list.ids) < sample + 80
        go.set()
        await until(pilot, lambda: "partial" not in str(status.render())
                    and len(app.paper_list.ids) == sample + 80)


async def test_a_search_follows_another_processs_build_to_its_end(
    tmp_path: Path, library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While another process (the import process of a window that has quit) indexes a
    list, a search shown in this reader runs again as each part is published and once
    the build is over, though this reader indexed nothing itself."""
    # The reader notices the other's commit late, so that the other builds first.
    monkeypatch.setattr(live_module, "POLL_SECONDS", 2.0)
    monkeypatch.setattr(index_status_module, "INDEX_RETRY_SECONDS", 0.2)
    held, go = tmp_path / "held", tmp_path / "go"
    script = tmp_path / "elsewhere.py"
    script.write_text(ELSEWHERE, encoding="utf-8")
    source = write_openreview(tmp_path / "a.jsonl", 80)
    app = ReaderApp(library, load_sample=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("slash", *"setting")
        await app.workers.wait_for_complete()
        sample = len(app.paper_list.ids)
        other = subprocess.Popen(
            [sys.executable, str(script), str(library.paths.root), str(source), str(held),
             str(go)], cwd=Path(__file__).resolve().parent.parent,
        )
        try:
            await until(pilot, held.exists, "the other build held at its second part")
            status = app.query_one("#status")
            await until(pilot, lambda: re.search(r"partial: (4|5|6|7|8|9|10)8 of 118 indexed",
                                                 str(status.render())), "a part followed")
            assert sample < len(app.paper_list.ids) < sample + 80
            go.touch()
            await until(pilot, lambda: other.poll() is not None, "the other build ended")
            assert other.returncode == 0
            await until(pilot, lambda: "partial" not in str(status.render())
                        and len(app.paper_list.ids) == sample + 80, "the end followed")
        finally:
            if other.poll() is None:
                other.kill()
                other.wait()


# The other process: imports a list and indexes it in parts, holding at the second part
# published until told to go on.
ELSEWHERE = """
import sys, time
from pathlib import Path
import reader.library.indexing as library_module
import reader.search.build_processes as build_processes
from reader.library import Library

def main():
    root, source, held, go = map(Path, sys.argv[1:])
    library_module.PARALLEL_MIN = 1
    library_module.INDEX_PROCS = 2
    build_processes.FIRST_SEGMENT = 10
    library = Library(root)
    library.imports.write_files([source])
    publish = library.index._published

    def published(generation, total, indexed):
        publish(generation, total, indexed)
        if indexed > 10 and not held.exists():
            held.touch()
            while not go.exists():
                time.sleep(0.02)

    library.index._published = published
    library.sync_index()
    library.close()

if __name__ == "__main__":
    main()
"""


def test_a_segments_bound_counts_its_terms_as_well_as_its_postings(tmp_path: Path) -> None:
    """Papers that each carry words of their own (identifiers, keys) fill a segment's
    memory with terms: a term new to the segment counts as TERM_POSTINGS postings toward
    its bound, a word met again as one."""
    from reader.search.build import TERM_POSTINGS, FastSegmentWriter

    ix = whoosh_index.create_in(str(tmp_path), make_schema())
    writer = FastSegmentWriter(ix)
    try:
        writer.add_document(id="1", abstract="alpha beta gamma")
        first = writer.postings
        writer.add_document(id="2", abstract="alpha beta gamma")
        # The same three words: a posting each, and the new id's term.
        assert writer.postings - first == 3 + 1 + TERM_POSTINGS
        assert first == 4 * (1 + TERM_POSTINGS)
    finally:
        writer.cancel()
