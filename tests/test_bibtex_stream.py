"""A .bib file read a stretch at a time gives what reading it whole gives: the same
entries, records and problem lines (with their line numbers), wherever the stretches end."""

from __future__ import annotations

import random
from pathlib import Path

import bibtexparser
import pytest
from bibtexparser.model import (
    DuplicateBlockKeyBlock,
    DuplicateFieldKeyBlock,
    Entry,
    ImplicitComment,
)

from reader.library import Library
from reader.sources import bibtex, stream_file
from reader.sources.bibtex_split import split_plain
from reader.text.sanitize import clean_imported

DATA = Path(__file__).resolve().parent / "data"
SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "bibtex"
FILES = sorted(DATA.glob("*.bib")) + sorted(DATA.glob("hostile/*.bib")) + (
    sorted(SHARED.rglob("*.bib")) if SHARED.is_dir() else []
)
# Broken blocks at stretch ends: an entry never closed, a field never closed, an @string
# never closed, each cut off by the next block at the start of a line.
BROKEN = """@article{open,
  title = {Never closed,
  year = 2020
@string{venue = {Proc.
@inproceedings{ok1,
  title = {Fine}, booktitle = venue
}
@article{nocomma
  title = {No comma}
}
  @book(ok2, title = "Paren {"}delimited", year = 1999)
@comment{stray
@misc{ok3, title = {Last}}
"""


def _whole_and_pieces(text: str, chunk: int) -> tuple[object, object]:
    text = clean_imported(text)
    whole: list[str] = []
    pieces: list[str] = []
    entries = list(bibtex._entries(text, "f.bib", whole, chunk=10**9))
    in_pieces = list(bibtex._entries(text, "f.bib", pieces, chunk=chunk))
    return (entries, whole), (in_pieces, pieces)


@pytest.mark.parametrize("chunk", [1, 40, 300])
def test_stretches_give_the_blocks_of_the_whole_text(chunk: int) -> None:
    texts = [BROKEN] + [
        path.read_text(encoding="utf-8", errors="replace") for path in FILES
    ]
    for text in texts:
        whole, pieces = _whole_and_pieces(text, chunk)
        assert pieces == whole


def test_broken_blocks_are_named_with_their_lines_when_streamed(tmp_path: Path) -> None:
    path = tmp_path / "broken.bib"
    path.write_text(BROKEN, encoding="utf-8")
    problems: list[str] = []
    records = list(bibtex._streamed(clean_imported(BROKEN), "broken.bib", problems, chunk=1))
    assert [r.title for r in records] == ["Fine", 'Paren {"}delimited', "Last"]
    assert sorted(problems) == sorted(bibtex.parse(BROKEN, "broken.bib").problems)
    assert problems[0].startswith("broken.bib:1: entry 'open' has no closing brace")
    assert any(p.startswith("broken.bib:8: entry 'nocomma'") for p in problems)


def test_a_file_is_imported_as_it_is_read(empty_library: Library, tmp_path: Path) -> None:
    path = tmp_path / "many.bib"
    path.write_text(
        "".join(f"@misc{{k{n},\n  title = {{Paper {n}}},\n  year = 2020\n}}\n" for n in range(5)),
        encoding="utf-8",
    )
    streamed = stream_file(path)
    # Nothing read yet: the records come as the import asks for them.
    assert streamed.count >= 5 and next(streamed.records).title == "Paper 0"
    summary = empty_library.imports.write_files([path])
    assert summary.new == 5


def test_a_file_with_crossrefs_still_gives_children_their_parents_fields(
    empty_library: Library, tmp_path: Path
) -> None:
    path = tmp_path / "x.bib"
    path.write_text(
        "@inproceedings{child, title = {Part}, crossref = {parent}}\n"
        "@proceedings{parent, title = {The Whole}, year = 1999}\n",
        encoding="utf-8",
    )
    empty_library.imports.write_files([path])
    papers = {p.title: p for p in empty_library.store.iter_papers()}
    assert papers["Part"].year == 1999 and papers["Part"].venue == "The Whole"


def _bibtexparser_entries(text: str) -> list[tuple[object, ...]] | None:
    """bibtexparser's entries of a text as plain tuples, or None when it found anything
    but entries (a failed block, an @string …)."""
    entries = []
    for block in bibtexparser.parse_string(text, parse_stack=[]).blocks:
        if isinstance(block, DuplicateBlockKeyBlock | DuplicateFieldKeyBlock):
            block = block.ignore_error_block
        if isinstance(block, ImplicitComment):
            continue
        if not isinstance(block, Entry):
            return None
        entries.append(_tuple(block))
    return entries


def _tuple(entry: Entry) -> tuple[object, ...]:
    return (
        entry.entry_type, entry.key, entry.start_line,
        [(f.key, f.value) for f in entry.fields],
    )


# Pieces random entries are made of: values with commas, quotes and equals signs inside
# braces, escaped braces and quotes, @-signs, and the syntax errors and shapes (quoted
# values, parentheses, @string, a block start at the beginning of a line) that only
# bibtexparser reads.
_PIECES = [
    "@article{", "@misc {", "@book(", "@string{", "@comment{", "k1", "k2", ",", ",\n  ",
    "title", " = ", "=", "{", "}", '"', "\\{", "\\}", '\\"', "a, b", "x = y", "2020",
    "jan", " # ", "\n", "\n@inproceedings{", "a@b{c}", "@", "(", ")", "  ", "%", "é",
]


@pytest.mark.parametrize("seed", range(4))
def test_plain_entries_split_as_bibtexparser_splits_them(seed: int) -> None:
    rng = random.Random(seed)
    agreed = 0
    texts = [path.read_text(encoding="utf-8", errors="replace") for path in FILES]
    texts += [
        "".join(rng.choice(_PIECES) for _ in range(rng.randint(1, 40))) for _ in range(3000)
    ]
    texts += [_entries_with_random_values(rng) for _ in range(1500)]
    for text in texts:
        text = clean_imported(text)
        mine = split_plain(text)
        if mine is None:
            continue
        assert [_tuple(e) for e in mine] == _bibtexparser_entries(text), text
        agreed += 1
    assert agreed > 300  # the plain shape is met, and read, often


_VALUES = ["x", "{y}", "a, {b}", "\\{", "q \\} r", "{a = b}", '{say "hi"}', "{{A}, {B}}",
           "2020", "jan", "{\n@misc{x,}", "{a@b.c}", "{}", "{x}}", "{{x}", "{\\}", "{é}",
           "{IH@vid (x)}", "{a \n\t @x{y}}", "{a @x{y}}"]


def _entries_with_random_values(rng: random.Random) -> str:
    """A few entries of the plain shape, with random values (some of them broken)."""
    entries = []
    for n in range(rng.randint(1, 3)):
        fields = ",\n  ".join(
            f"{rng.choice(['title', 'note', 'year', 'a_b'])} = {rng.choice(_VALUES)}"
            for _ in range(rng.randint(0, 4))
        )
        tail = rng.choice([",\n}", "\n}", "}", ", }"])
        kind = rng.choice(["article", "misc ", "InProceedings"])
        entries.append(f"@{kind}{{k{n},\n  {fields}{tail}")
    return rng.choice(["", "% a comment\n", "junk {"]).join(["", *entries])
