"""The plain-text seed format: both ICLR 2026 lists, idempotent re-import, headers."""

from __future__ import annotations

from pathlib import Path

import pytest

from reader.library import Library
from reader.sources import ImportFormatError
from reader.sources.seed import parse_header, records
from tests.conftest import SEEDS
from tests.parsing import parse_file


@pytest.mark.parametrize("path", SEEDS, ids=lambda p: p.name)
def test_each_seed_file_gives_19_iclr_2026_papers(path: Path) -> None:
    parsed = parse_file(path)
    assert len(parsed.records) == 19
    assert {(r.venue, r.year) for r in parsed.records} == {("ICLR", 2026)}
    assert all(r.title and r.title_derived for r in parsed.records)
    assert all(r.abstract and "\n" not in r.abstract for r in parsed.records)


def test_importing_both_files_gives_38_papers(empty_library: Library) -> None:
    summary = empty_library.import_files(SEEDS)
    assert str(summary) == "38 read: 38 new, 0 merged, 0 unchanged, 0 skipped"
    assert empty_library.store.count() == 38


def test_reimport_adds_nothing(library: Library) -> None:
    summary = library.import_files(SEEDS[:1])
    assert (summary.read, summary.new, summary.unchanged) == (19, 0, 19)
    assert library.store.count() == 38


def test_identity_ignores_case_width_and_whitespace(empty_library: Library, tmp_path: Path) -> None:
    a = tmp_path / "a.txt"
    b = tmp_path / "b.txt"
    a.write_text("ICLR 2026\n\nWe study  graphs.\nThey are nice.\n", encoding="utf-8")
    b.write_text("ICLR 2026\n\nWE STUDY GRAPHS. THEY ARE ＮＩＣＥ.\n", encoding="utf-8")
    empty_library.import_files([a])
    summary = empty_library.import_files([b])
    assert (summary.new, summary.unchanged) == (0, 1)


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("ICLR 2026 论文列表", ("ICLR", 2026)),
        ("NeurIPS 2025 accepted papers", ("NeurIPS", 2025)),
        ("Accepted papers of ACL 2024", ("ACL", 2024)),
        ("2023年 CVPR 论文", ("CVPR", 2023)),
        ("no year here", (None, None)),
    ],
)
def test_header_names_venue_and_year(line: str, expected: tuple[str | None, int | None]) -> None:
    assert parse_header(line) == expected


def test_file_without_header_still_imports() -> None:
    found = list(records("An abstract about graphs.\n\nAnother about words.\n", "x.txt"))
    assert len(found) == 2
    assert found[0].venue is None


def test_empty_and_binary_files_are_clear_errors(tmp_path: Path) -> None:
    empty = tmp_path / "empty.txt"
    empty.write_text("  \n\n", encoding="utf-8")
    with pytest.raises(ImportFormatError, match="empty"):
        parse_file(empty)
    binary = tmp_path / "bin.txt"
    binary.write_bytes(b"\xff\xfe\x00garbage\x80")
    with pytest.raises(ImportFormatError, match="binary"):
        parse_file(binary)
    with pytest.raises(ImportFormatError, match="cannot read"):
        parse_file(tmp_path / "missing.txt")
    # A PDF of text with no NUL byte in its start was taken for "Markdown or code".
    pdf = tmp_path / "paper.pdf"
    pdf.write_bytes(b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n" + b"text " * 200)
    with pytest.raises(ImportFormatError, match="paper.pdf: a PDF, not a list of papers"):
        parse_file(pdf)


def test_failed_file_imports_nothing(empty_library: Library, tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"\xff\xfe")
    with pytest.raises(ImportFormatError):
        empty_library.import_files([SEEDS[0], bad])
    assert empty_library.store.count() == 0


def test_derived_titles_name_the_contribution(library: Library) -> None:
    titles = {p.title for p in library.store.iter_papers()}
    for name in ("GDPval", "CIMemories", "VisCodex", "KaLM-Embedding-V2"):
        assert any(t.startswith(name) for t in titles), name
    assert not any(t.startswith(("GNNs", "LLMs", "GPT-5")) for t in titles)


def test_data_of_no_known_format_is_refused(empty_library: Library, tmp_path: Path) -> None:
    path = tmp_path / "numbers.data"
    path.write_text("x;y;z\n1;2;3\n4;5;6\n", encoding="utf-8")
    with pytest.raises(ImportFormatError, match="not a format reader knows"):
        empty_library.import_files([path])
    assert empty_library.store.count() == 0


def test_a_directory_is_refused(empty_library: Library, tmp_path: Path) -> None:
    with pytest.raises(ImportFormatError, match="directory"):
        empty_library.import_files([tmp_path])


def test_latin1_is_read_with_a_warning(empty_library: Library, tmp_path: Path) -> None:
    path = tmp_path / "latin1.txt"
    path.write_bytes(
        "ICLR 2026\n\nWe study Schrödinger bridges for café networks in detail.\n".encode(
            "latin-1"
        )
    )
    summary = empty_library.import_files([path])
    assert summary.new == 1
    assert summary.warnings and "Latin-1" in summary.warnings[0]
    (paper,) = empty_library.store.iter_papers()
    assert "Schrödinger" in paper.abstract


def test_gzip_files_are_unpacked(empty_library: Library, tmp_path: Path) -> None:
    import gzip

    path = tmp_path / "list.txt.gz"
    path.write_bytes(gzip.compress(SEEDS[0].read_bytes()))
    assert empty_library.import_files([path]).new == 19


# --- text that is not an abstract list ----------------------------------------------------

ROOT = Path(__file__).resolve().parents[1]
SHARED_SEEDS = sorted((ROOT.parent / "shared" / "data" / "seeds").glob("*.txt"))

MARKDOWN_NOTES = """# NeurIPS 2024 reading notes

Papers to read before the deadline, with a line or two about each one of them.

## Setup

```sh
pip install reader
```

- sparse attention, worth a second look
- diffusion for tables
"""

HEADED_MARKDOWN = MARKDOWN_NOTES.removeprefix("# ")

PYTHON_SOURCE = '''"""Helpers for the ICLR 2026 experiments."""

import json
from pathlib import Path


def load(path: Path) -> dict:
    """Read one run's results."""
    return json.loads(path.read_text())
'''


@pytest.mark.parametrize("path", SHARED_SEEDS, ids=lambda p: p.name)
def test_each_shared_seed_file_is_still_an_abstract_list(path: Path) -> None:
    parsed = parse_file(path)
    assert (parsed.format, len(parsed.records)) == ("seed", 19)


def test_the_projects_readme_is_refused_and_nothing_is_stored(empty_library: Library) -> None:
    with pytest.raises(ImportFormatError) as caught:
        empty_library.import_files([SEEDS[0], ROOT / "README.md"])
    message = str(caught.value)
    assert message.startswith(f"{ROOT / 'README.md'}: not a format reader knows: ")
    # Why, what is accepted, and how to force it: on one line.
    assert "its first line ('# reader') is Markdown or code" in message
    assert "a header line naming venue and year" in message and "BibTeX" in message
    assert "--format seed" in message and "\n" not in message
    assert "papers in a Markdown export come back from its BibTeX or CSL-JSON export" in message
    assert empty_library.store.count() == 0


def test_a_list_of_links_is_sent_to_reader_add(tmp_path: Path) -> None:
    """Read as abstracts (the advice for other text), each link would become a paper."""
    links = tmp_path / "links.txt"
    links.write_text("https://openreview.net/forum?id=2sNrnTTEcv\n\narXiv:2401.01234\n"
                     "https://doi.org/10.1145/3292500.3330701\n", encoding="utf-8")
    with pytest.raises(ImportFormatError) as caught:
        parse_file(links)
    assert str(caught.value) == (
        f"{links}: a list of 3 paper ids and links (OpenReview, arXiv, DOI), which an import "
        "does not fetch: 'reader add' fetches them, given as its arguments"
    )
    # Under an abstract list's header, a paragraph of links is skipped, said, not a paper.
    links.write_text("ICLR 2026 reading list\n\nhttps://openreview.net/forum?id=2sNrnTTEcv\n\n"
                     "An abstract about graphs: trees, see https://example.org/x for code.\n")
    parsed = parse_file(links)
    assert [r.abstract for r in parsed.records] == [
        "An abstract about graphs: trees, see https://example.org/x for code."]
    assert parsed.problems == [f"{links.name}:3: paper links, not an abstract ('reader add' "
                               "fetches papers by their links); skipped"]
    # One line that is no link: the file is refused as other text is.
    links.write_text("https://openreview.net/forum?id=2sNrnTTEcv\nA sentence.\n")
    with pytest.raises(ImportFormatError, match="--format seed"):
        parse_file(links)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        (MARKDOWN_NOTES, "its first line ('# NeurIPS 2024 reading notes') is Markdown or code"),
        (HEADED_MARKDOWN, "line 5 ('## Setup') is Markdown or code, not an abstract"),
        (PYTHON_SOURCE, "its first line ('\"\"\"Helpers for the ICLR 2026 experiments.\"\"\"')"),
        ("We study graphs. They are nice.\n\nAnother abstract.\n", "names no venue and year"),
    ],
    ids=["markdown", "markdown-with-a-plain-header", "python", "no-header"],
)
def test_markdown_and_source_files_are_refused_saying_why(
    empty_library: Library, tmp_path: Path, text: str, reason: str
) -> None:
    path = tmp_path / "notes.txt"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ImportFormatError, match="not a format reader knows") as caught:
        empty_library.import_files([path])
    assert reason in str(caught.value)
    assert empty_library.store.count() == 0


def test_format_seed_reads_any_text_as_an_abstract_list(empty_library: Library) -> None:
    summary = empty_library.import_files([ROOT / "README.md"], "seed")
    assert summary.new > 10


@pytest.mark.parametrize(("encoding", "name"), [
    ("utf-16", "notepad.txt"), ("utf-16", "excel.csv"), ("utf-16-be", "list.ris"),
    ("utf-32", "list.txt"),
])
def test_a_file_saved_as_utf16_or_utf32_is_read_as_its_text(
    empty_library: Library, tmp_path: Path, encoding: str, name: str
) -> None:
    """Windows' "Unicode" (Notepad, Excel's Unicode Text, PowerShell's redirections) is
    UTF-16 with a byte order mark: refused as a binary file for its NUL bytes."""
    seed = SEEDS[0]
    csv = 'Title,Abstract\r\n"Öl auf “Leinwand”","Ein Abstract: α ≤ β, 机器学习."\r\n'
    ris = "TY  - JOUR\nTI  - Öl auf “Leinwand”\nAB  - Ein Abstract: α ≤ β, 机器学习.\nER  - \n"
    text = {".txt": seed.read_text(encoding="utf-8"), ".csv": csv, ".ris": ris}[Path(name).suffix]
    path = tmp_path / name
    mark = b"\xfe\xff" if encoding == "utf-16-be" else b""
    path.write_bytes(mark + text.encode(encoding))
    summary = empty_library.import_files([path])
    assert summary.skipped == 0 and summary.new >= 1
    if name.endswith(".txt"):
        again = empty_library.import_files([seed])  # the same papers, read as UTF-8
        assert again.new == 0 and again.read == summary.new
    else:
        [paper] = empty_library.store.iter_papers()
        assert paper.title == "Öl auf “Leinwand”"
        assert paper.abstract == "Ein Abstract: α ≤ β, 机器学习."


def test_a_file_saved_by_windows_keeps_its_quotes_dashes_and_euro(
    empty_library: Library, tmp_path: Path
) -> None:
    # Excel's CSV in Windows-1252: bytes Latin-1 gives to control characters are its
    # curly quotes, dashes, euro sign and ellipsis; read as controls, they were deleted.
    path = tmp_path / "excel.csv"
    path.write_bytes("Title,Abstract\n\"The “quoted” title – with dash\",\"It costs 5 € … "
                     "in a café.\"\n".encode("cp1252"))
    summary = empty_library.import_files([path])
    [paper] = empty_library.store.iter_papers()
    assert paper.title == "The “quoted” title – with dash"
    assert paper.abstract == "It costs 5 € … in a café."
    assert "Windows-1252" in summary.warnings[0]
