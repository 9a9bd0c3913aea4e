"""Property-based tests: no input makes an importer or a search fail other than cleanly.

Inputs are random text, and real sample files of every format mutated at random (slices cut,
duplicated or replaced, syntax characters and hostile characters inserted). Every importer
must give papers (with clean text) or an :class:`ImportFormatError`; every query must give
ids of papers in the library.

The normal suite runs a few dozen cases per property; a thorough run takes thousands::

    READER_HYPOTHESIS=thorough pytest tests/test_properties.py
"""

from __future__ import annotations

import gzip
import os
import re
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reader.library import Library
from reader.models import PaperRecord
from reader.search.query import parse_query
from reader.sources import FORMATS, ImportFormatError, detect_format, parse_text
from tests.conftest import SEEDS
from tests.parsing import parse_file

settings.register_profile(
    "default", max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "thorough", max_examples=3000, deadline=None, suppress_health_check=list(HealthCheck)
)
settings.load_profile(os.environ.get("READER_HYPOTHESIS", "default"))

DATA = Path(__file__).parent / "data"
#: A real file of every format, the material the mutations start from.
SAMPLES = {
    "seed": SEEDS[0],
    "openreview": DATA / "openreview-40.jsonl",
    "paperlists": DATA / "iclr2017-20.json",
    "arxiv-kaggle": DATA / "arxiv-kaggle-30.jsonl",
    "arxiv-atom": DATA / "api-atom-10-entries.xml",
    "csljson": DATA / "items-26.csl.json",
    "bibtex": DATA / "bibtexparser-features2.bib",
    "ris": DATA / "baseline-20.ris",
    "csv": DATA / "papers-semicolon.csv",
    "zotero": DATA / "zotero-2.json",
    "medline": DATA / "pubmed-3.nbib",
    "wos": DATA / "wos-2.txt",
    "json-table": DATA / "orals-8.json",
    "endnote-xml": DATA / "endnote-3.xml",
}
assert set(SAMPLES) == set(FORMATS), "every importer needs a sample to mutate"
# Only the first few kilobytes: mutations are what matter, and they stay fast.
SAMPLE_TEXT = {
    fmt: path.read_text(encoding="utf-8-sig")[:6000] for fmt, path in SAMPLES.items()
}

# Characters that mean something to one of the formats, and hostile ones.
SYNTAX = list('{}[]()@,;:="\'\\#%<>&/\n\r\t -') + [
    "TY  - ", "ER  - ", "@article{", "\\x", "{\\\"o}", "\\u0000", "&amp;", "<entry>",
    "</feed>", "\x1b[31m", "\x1b]52;c;eA==\x07", "\u202e", "\u200b", "\x00", "\x02",
    "[bold]", "[@click=app.quit]", "\ufeff", "𝔘", "İ", "ß", "\u0301",
]


@st.composite
def mutated(draw: st.DrawFn, text: str) -> str:
    """``text`` after a few random edits."""
    for _ in range(draw(st.integers(1, 6))):
        size = len(text)
        start = draw(st.integers(0, size))
        end = draw(st.integers(start, min(size, start + 400)))
        edit = draw(st.sampled_from(["cut", "insert", "replace", "duplicate", "truncate"]))
        if edit == "cut":
            text = text[:start] + text[end:]
        elif edit == "truncate":
            text = text[:start]
        elif edit == "duplicate":
            text = text[:end] + text[start:end] + text[end:]
        else:
            piece = draw(st.one_of(st.sampled_from(SYNTAX), st.text(max_size=20)))
            text = text[:start] + piece + text[end if edit == "replace" else start :]
    return text


def any_text_for(fmt: str) -> st.SearchStrategy[str]:
    """Random text, or a mutated sample of ``fmt``, or of another format."""
    return st.one_of(
        mutated(SAMPLE_TEXT[fmt]),
        st.sampled_from(sorted(SAMPLE_TEXT)).flatmap(lambda other: mutated(SAMPLE_TEXT[other])),
        st.text(max_size=300),
        st.lists(st.sampled_from(SYNTAX), max_size=40).map("".join),
    )


_FORBIDDEN = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b\u200c\u200d\u2060\ufeff]")


def check_records(records: list[PaperRecord]) -> None:
    """Each record is well-formed and its text was cleaned on the way in."""
    for record in records:
        assert isinstance(record, PaperRecord)
        assert isinstance(record.abstract, str) and isinstance(record.title, str)
        assert all(isinstance(a, str) for a in record.authors)
        assert all(isinstance(k, str) for k in record.keywords)
        assert record.year is None or isinstance(record.year, int)
        for text in (record.title, record.abstract, *record.authors, *record.keywords,
                     *_strings(record.csl)):
            assert not _FORBIDDEN.search(text), repr(text[:200])


def _strings(value: object) -> list[str]:
    """Every string inside a JSON-like value."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


@pytest.mark.parametrize("fmt", FORMATS)
@given(data=st.data())
def test_importer_gives_papers_or_a_clean_error(fmt: str, data: st.DataObject) -> None:
    text = data.draw(any_text_for(fmt), label="text")
    try:
        result = parse_text(text, "fuzz.txt", fmt)
    except ImportFormatError as exc:
        assert str(exc).strip()
        return
    check_records(result.records)
    assert all(isinstance(p, str) and p for p in result.problems)


@given(st.sampled_from(FORMATS).flatmap(any_text_for))
def test_detect_format_never_fails(text: str) -> None:
    assert detect_format(text) in (None, *FORMATS)


@pytest.fixture(scope="module")
def scratch() -> Iterator[Path]:
    """A directory for the files the file-level properties write."""
    with tempfile.TemporaryDirectory() as name:
        yield Path(name)


@given(
    data=st.one_of(
        st.sampled_from(FORMATS).flatmap(any_text_for).map(lambda t: t.encode("utf-8")),
        st.binary(max_size=400),
        st.sampled_from(sorted(SAMPLE_TEXT)).map(lambda f: SAMPLE_TEXT[f].encode("latin-1",
                                                                               "replace")),
    ),
    zipped=st.booleans(),
    fmt=st.one_of(st.none(), st.sampled_from(FORMATS)),
)
def test_parse_file_gives_papers_or_a_clean_error(
    scratch: Path, data: bytes, zipped: bool, fmt: str | None
) -> None:
    path = scratch / "fuzz.dat"
    path.write_bytes(gzip.compress(data) if zipped else data)
    try:
        parsed = parse_file(path, fmt)
    except ImportFormatError as exc:
        assert str(exc).strip()
        return
    assert parsed.format in FORMATS
    check_records(parsed.records)


@pytest.fixture(scope="module")
def small_library(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Library]:
    """The 38 sample abstracts, one starred and one annotated."""
    library = Library(tmp_path_factory.mktemp("props") / "lib")
    library.import_files(SEEDS)
    first, second = library.store.all_ids()[:2]
    library.set_starred(first, True)
    library.save_note(second, "a note about optimal transport")
    yield library
    library.close()


QUERY_PARTS = [
    "transport", "optimal", "graph", "benchm*", "spars*", "benchmrak~", "benchmrak~1", "x~9",
    '"optimal transport"', '"', "(", ")", "AND", "OR", "NOT", "and", "title:", "title:graph",
    "abstract:", "notes:transport", "authors:", "keywords:", "year:2026", "year:[2020 TO]",
    "venue:iclr", "is:starred", "-is:starred", "has:notes", "has:note", "is:new",
    "is:changed", "is:withdrawn", "is:bogus", "-", "*", "?", "~", "^", "^2", "[", "]",
    "{", "}", "TO", ":", "\\", "/", "+", "!", "&&", "||", "\x00", "\u202e", "\u200b", "𝔘",
]


@given(
    st.one_of(
        st.lists(st.sampled_from(QUERY_PARTS), max_size=8).map(" ".join),
        st.lists(st.sampled_from(QUERY_PARTS), max_size=8).map("".join),
        st.text(max_size=60),
    )
)
@settings(suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
def test_any_query_gives_papers_of_the_library(small_library: Library, query: str) -> None:
    parsed = parse_query(query)
    assert isinstance(parsed.text, str)
    outcome = small_library.search(query)
    known = set(small_library.store.all_ids())
    assert set(outcome.ids) <= known
    assert len(outcome.ids) == len(set(outcome.ids))
