"""Tests for citation keys and BibTeX entries (reader.cite.citations)."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import bibtexparser
import pytest
from msgspec.structs import replace

from reader.cite.citations import bibtex_entry
from reader.cite.keys import make_citekey
from reader.library import Library, render_citation
from reader.models import Paper

GDPVAL_TITLE = "GDPval: a benchmark evaluating AI model capabilities on real-world tasks"


def never_taken(_key: str) -> bool:
    return False


def make_paper(**overrides: Any) -> Paper:
    fields: dict[str, Any] = {
        "id": 1,
        "title": GDPVAL_TITLE,
        "title_derived": False,
        "abstract": "We introduce GDPval, a benchmark evaluating AI model capabilities.",
        "authors": [],
        "venue": "ICLR",
        "year": 2026,
        "keywords": ["benchmarks", "evaluation"],
        "url": "https://openreview.net/forum?id=abc_123",
        "doi": None,
        "citekey": "gdpval2026",
        "starred": False,
        "note": "",
        "added_at": "2026-01-01T00:00:00",
    }
    fields.update(overrides)
    return Paper(**fields)


# --- helpers: read an entry back the way a BibTeX user would -------------------------

_UNESCAPES = {
    r"\textbackslash{}": "\\",
    r"\textasciitilde{}": "~",
    r"\textasciicircum{}": "^",
    r"\textbraceleft{}": "{",
    r"\textbraceright{}": "}",
    r"\&": "&",
    r"\%": "%",
    r"\_": "_",
    r"\#": "#",
    r"\$": "$",
    r"\{": "{",
    r"\}": "}",
}
_UNESCAPE_TOKEN = re.compile(
    "|".join(re.escape(k) for k in sorted(_UNESCAPES, key=len, reverse=True)) + r"|[{}]|."
)


def unescape(value: str) -> str:
    """The text a LaTeX reader sees: escapes undone, case-protecting braces dropped."""
    out = []
    for m in _UNESCAPE_TOKEN.finditer(value):
        token = m.group(0)
        if token in _UNESCAPES:
            out.append(_UNESCAPES[token])
        elif token not in "{}":
            out.append(token)
    return "".join(out)


def folded(text: str) -> str:
    """What the entry is expected to keep of a value: one line, single spaces."""
    return re.sub(r"[\s\x00-\x1f\x7f-\x9f]+", " ", text).strip()


def parse_one(entry: str) -> dict[str, str]:
    """The entry parsed by bibtexparser 2, which must find exactly one clean entry."""
    library = bibtexparser.parse_string(entry)
    assert library.failed_blocks == [], entry
    assert len(library.entries) == 1, entry
    assert len(library.blocks) == 1, entry
    parsed = library.entries[0]
    values = {f.key: f.value for f in parsed.fields}
    assert all(isinstance(v, str) for v in values.values())
    values["ID"] = parsed.key
    values["ENTRYTYPE"] = parsed.entry_type
    return values


def assert_bibtex_balanced(entry: str) -> None:
    """Braces nest the way classic BibTeX counts them: backslashes do not escape braces."""
    depth = 0
    for ch in entry:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            assert depth >= 0, entry
    assert depth == 0, entry
    # Each field value must close before the next field starts, or BibTeX would swallow
    # later fields (an abstract's paragraphs are the only values on several lines).
    body = entry.rstrip("\n")
    body = body[body.index("\n") + 1 : body.rindex("\n")]
    for value in re.split(r"\n(?=  [\w\-:.+]+ = )", body):
        value_depth = value.count("{") - value.count("}")
        assert value_depth == 0, value


# --- make_citekey --------------------------------------------------------------------


def test_key_without_authors_is_title_word_and_year() -> None:
    assert make_citekey(GDPVAL_TITLE, [], 2026, never_taken) == "gdpval2026"


def test_key_with_authors_is_family_year_title_word() -> None:
    assert make_citekey(GDPVAL_TITLE, ["Jane Smith", "Bo Li"], 2024, never_taken) == (
        "smith2024gdpval"
    )


def test_key_family_name_before_comma() -> None:
    assert make_citekey("Deep nets", ["van der Berg, Anna"], 2020, never_taken) == (
        "vanderberg2020deep"
    )


def test_key_family_name_skips_generational_suffix() -> None:
    assert make_citekey("Dreams", ["Martin Luther King Jr."], 1963, never_taken) == (
        "king1963dreams"
    )


def test_key_without_year_omits_it() -> None:
    assert make_citekey(GDPVAL_TITLE, [], None, never_taken) == "gdpval"
    assert make_citekey(GDPVAL_TITLE, ["Jane Smith"], None, never_taken) == "smithgdpval"


def test_key_transliterates_accents() -> None:
    key = make_citekey("Straße-Modelle über alles", ["Erwin Schrödinger"], 1935, never_taken)
    assert key == "schrodinger1935strassemodelle"
    assert make_citekey("Über alles", ["José Núñez"], None, never_taken) == "nunezuber"
    assert make_citekey("Ærøskøbing études", [], None, never_taken) == "aeroskobing"


def test_key_skips_stopwords() -> None:
    title = "On the Towards of a Via: How do LLMs reason?"
    assert make_citekey(title, [], 2025, never_taken) == "llms2025"
    assert make_citekey("The Attention Is All You Need", [], 2017, never_taken) == ("attention2017")


def test_key_all_stopwords_uses_first_word() -> None:
    assert make_citekey("What is it?", [], 2021, never_taken) == "what2021"


def test_key_empty_title_falls_back_to_paper() -> None:
    assert make_citekey("", [], 2026, never_taken) == "paper2026"
    assert make_citekey("   ", ["Jane Smith"], 2026, never_taken) == "smith2026paper"
    assert make_citekey("", [], None, never_taken) == "paper"


def test_key_non_latin_title_falls_back_to_paper() -> None:
    assert make_citekey("大型语言模型的评估", [], 2026, never_taken) == "paper2026"
    # Cyrillic is an alphabet: transliterated letter for letter, as Latin keys are made.
    assert make_citekey("Оценка моделей", [], None, never_taken) == "otsenka"
    # A Latin word later in the title is still preferred to the placeholder.
    assert make_citekey("大型语言模型 GDPval", [], 2026, never_taken) == "gdpval2026"


def test_key_non_latin_author_uses_authorless_form() -> None:
    assert make_citekey(GDPVAL_TITLE, ["王 伟"], 2026, never_taken) == "gdpval2026"


def test_key_title_word_is_capped() -> None:
    key = make_citekey("Pneumonoultramicroscopicsilicovolcanoconiosis", [], 2020, never_taken)
    assert key == "pneumonoultramicrosc2020"


def test_key_is_lowercase_ascii_alnum() -> None:
    rng = random.Random(7)
    alphabet = "abcXYZ 0123 -_:;,.{}\\\"'é漢ß\t\n"
    for _ in range(300):
        title = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 30)))
        author = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 15)))
        key = make_citekey(title, [author], rng.choice([None, 1999, 2026]), never_taken)
        assert re.fullmatch(r"[a-z0-9]+", key), (title, author, key)


def test_key_uniqueness_suffixes() -> None:
    taken: set[str] = set()
    keys = []
    for _ in range(30):
        key = make_citekey(GDPVAL_TITLE, [], 2026, taken.__contains__)
        taken.add(key)
        keys.append(key)
    assert keys[:4] == ["gdpval2026", "gdpval2026a", "gdpval2026b", "gdpval2026c"]
    assert keys[26] == "gdpval2026z"
    assert keys[27:] == ["gdpval2026aa", "gdpval2026ab", "gdpval2026ac"]
    assert len(set(keys)) == len(keys)


def test_key_is_deterministic() -> None:
    taken = {"smith2024gdpval", "smith2024gdpvala"}
    first = make_citekey(GDPVAL_TITLE, ["Jane Smith"], 2024, taken.__contains__)
    second = make_citekey(GDPVAL_TITLE, ["Jane Smith"], 2024, taken.__contains__)
    assert first == second == "smith2024gdpvalb"


# --- bibtex_entry: layout --------------------------------------------------------------


def test_entry_layout_and_field_order() -> None:
    paper = make_paper(authors=["Jane Smith", "Bo Li"], doi="10.1234/abc", citekey="smith2026x")
    entry = bibtex_entry(paper)
    lines = entry.splitlines()
    assert lines[0] == "@inproceedings{smith2026x,"
    assert lines[-1] == "}"
    names = [line.split(" = ", 1)[0] for line in lines[1:-1]]
    assert names == [
        "  title",
        "  author",
        "  booktitle",
        "  year",
        "  doi",
        "  url",
        "  keywords",
        "  abstract",
        "  plainfields",  # (the title's braces are the export's: read back, it is plain)
    ]
    assert all(re.fullmatch(r"  [a-z]+ = \{.*\},?", line) for line in lines[1:-1])
    values = parse_one(entry)
    assert values["author"] == "Jane Smith and Bo Li"
    assert values["year"] == "2026"
    assert values["keywords"] == "benchmarks, evaluation"
    assert values["doi"] == "10.1234/abc"
    assert "ICLR" in values["booktitle"]


def test_entry_without_venue_is_misc() -> None:
    values = parse_one(bibtex_entry(make_paper(venue=None)))
    assert values["ENTRYTYPE"] == "misc"
    assert "booktitle" not in values
    values = parse_one(bibtex_entry(make_paper(venue="   ")))
    assert values["ENTRYTYPE"] == "misc"


def test_entry_with_venue_is_inproceedings() -> None:
    values = parse_one(bibtex_entry(make_paper(venue="SomeWorkshop")))
    assert values["ENTRYTYPE"] == "inproceedings"
    assert values["booktitle"] == "SomeWorkshop"


def test_no_authors_means_no_author_field() -> None:
    entry = bibtex_entry(make_paper(authors=[]))
    assert "author" not in parse_one(entry)
    assert "author =" not in entry
    assert "None" not in entry
    # Blank names are no names either.
    assert "author" not in parse_one(bibtex_entry(make_paper(authors=["", "  \n"])))


def test_missing_optional_fields_are_omitted() -> None:
    paper = make_paper(venue=None, year=None, url=None, doi=None, keywords=[], abstract="")
    values = parse_one(bibtex_entry(paper))
    assert set(values) == {"ID", "ENTRYTYPE", "title", "plainfields"}


def test_title_protects_acronyms_and_mixed_case() -> None:
    title = "KaLM-Embedding-V2: LLMs for GDPval and Vitamin D, A study"
    values = parse_one(bibtex_entry(make_paper(title=title)))
    assert values["title"] == ("{KaLM-Embedding-V2}: {LLMs} for {GDPval} and Vitamin {D}, A study")
    assert unescape(values["title"]) == title


def test_derived_title_is_used_as_is() -> None:
    title = "We introduce GDPval, a benchmark evaluating AI model capabilities on…"
    values = parse_one(bibtex_entry(make_paper(title=title, title_derived=True)))
    assert unescape(values["title"]) == title


def test_non_ascii_stays_unicode() -> None:
    paper = make_paper(title="Schrödinger’s 大模型", authors=["Zoë Ærø"])
    values = parse_one(bibtex_entry(paper))
    assert values["title"] == "Schrödinger’s 大模型"
    assert values["author"] == "Zoë Ærø"


@pytest.mark.parametrize(
    ("raw", "escaped"),
    [
        ("R&D", r"{R\&D}"),
        ("100% sure", r"100\% sure"),
        ("snake_case", r"snake\_case"),
        ("#1", r"\#1"),
        ("$5", r"\$5"),
        ("a {b} c", r"a \{b\} c"),
        ("back\\slash", r"back\textbackslash{}slash"),
        ("~tilde", r"\textasciitilde{}tilde"),
        ("x^2", r"x\textasciicircum{}2"),
        ("}{", r"\textbraceright{}\textbraceleft{}"),
    ],
)
def test_title_special_characters_are_escaped(raw: str, escaped: str) -> None:
    values = parse_one(bibtex_entry(make_paper(title=raw)))
    assert values["title"] == escaped
    assert unescape(values["title"]) == raw


def test_abstract_and_keywords_escaped() -> None:
    paper = make_paper(abstract="Costs 5$ & 10% of_it {ok}", keywords=["a&b", "c_d"])
    values = parse_one(bibtex_entry(paper))
    assert values["abstract"] == r"Costs 5\$ \& 10\% of\_it \{ok\}"
    assert unescape(values["keywords"]) == "a&b, c_d"


def test_url_and_doi_are_verbatim_but_safe() -> None:
    url = "https://example.org/a_b?x=1&y=%20#frag~{evil}\\"
    paper = make_paper(url=url, doi="10.1000/x_y{z}%")
    entry = bibtex_entry(paper)
    values = parse_one(entry)
    assert values["url"] == r"https://example.org/a_b?x=1&y=\%20#frag~\%7Bevil\%7D\%5C"
    assert values["doi"] == r"10.1000/x_yz\%"
    assert_bibtex_balanced(entry)


def test_newlines_tabs_and_control_characters_fold_to_spaces() -> None:
    paper = make_paper(
        title="Line one\nline two\t\ttab\x1b[31mred\x00\r\n",
        abstract="Para one.\n\n\nPara two.\u2028Next",
        authors=["Jane\nSmith"],
    )
    entry = bibtex_entry(paper)
    assert "\x1b" not in entry and "\t" not in entry and "\x00" not in entry
    values = parse_one(entry)
    assert values["title"] == "Line one line two tab [31mred"
    assert values["abstract"] == "Para one.\n\nPara two. Next"
    assert values["author"] == "Jane Smith"


def test_author_names_stay_single_names() -> None:
    paper = make_paper(authors=["Smith, Jane", "Research and Development Team", "A, B, C, D"])
    values = parse_one(bibtex_entry(paper))
    # A group's name braced whole: BibTeX would read "Team" as a family name.
    assert values["author"] == (
        "Smith, Jane and {Research {and} Development Team} and {A, B, C, D}")


def test_venue_acronyms_expand_but_stay_recognisable() -> None:
    values = parse_one(bibtex_entry(make_paper(venue="ICLR")))
    assert values["booktitle"] == "International Conference on Learning Representations (ICLR)"
    values = parse_one(bibtex_entry(make_paper(venue="NeurIPS 2024")))
    assert values["booktitle"] == (
        "Advances in Neural Information Processing Systems (NeurIPS 2024)"
    )


def test_unsafe_stored_citekey_is_cleaned() -> None:
    values = parse_one(bibtex_entry(make_paper(citekey="bad key,{x}")))
    assert values["ID"] == "badkeyx"
    values = parse_one(bibtex_entry(make_paper(citekey=" ,{}", authors=[], year=2026)))
    assert values["ID"] == "gdpval2026"


# --- bibtex_entry: robustness ----------------------------------------------------------

HOSTILE = [
    "",
    " ",
    "{",
    "}",
    "}}}{{{",
    "{{{}}}",
    "{}" * 50,
    "\\",
    "\\}",
    "\\{",
    "a\\",
    "[bold]red[/bold]",
    "[link=https://x]y[/link]",
    "@misc{evil, title={x}}",
    "}\n@misc{evil,\n  title = {pwned}\n}",
    "\x1b[31mred\x1b[0m",
    '"quoted" and "more',
    "a, b = c",
    "%comment\n@comment{",
    "\u2028\u2029\x85\x0b\x0c",
    "\ud800 lone surrogate",
    "a and b and",
    "x" * 10_000,
    "GDPval " * 2000,
]


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_values_never_break_the_entry(text: str) -> None:
    paper = make_paper(
        title=text,
        abstract=text,
        authors=[text, text],
        venue=text,
        keywords=[text],
        url=text,
        doi=text,
        citekey=text,
    )
    entry = bibtex_entry(paper)
    entry.encode("utf-8")  # writable to a .bib file
    values = parse_one(entry)
    assert_bibtex_balanced(entry)
    if folded(text) and "\ud800" not in text:
        assert unescape(values["title"]) == folded(text)
        assert unescape(values["abstract"]) == folded(text)


def test_empty_paper_still_gives_an_entry() -> None:
    paper = make_paper(
        title="",
        abstract="",
        authors=[],
        venue=None,
        year=None,
        keywords=[],
        url=None,
        doi=None,
        citekey="",
    )
    values = parse_one(bibtex_entry(paper))
    assert values["ID"] == "paper"
    assert values["ENTRYTYPE"] == "misc"


def _random_text(rng: random.Random, max_len: int) -> str:
    alphabet = (
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
        " !\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"
        "{}{}\\\\@@==,,\n\t\r\x1b\x00"
        "éüßøÆ漢字ζ∑—“”…\u00a0\u200b"
    )
    return "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, max_len)))


def test_random_papers_always_parse_to_one_entry() -> None:
    rng = random.Random(20260101)
    taken: set[str] = set()
    for i in range(800):
        title = _random_text(rng, 80)
        authors = [_random_text(rng, 20) for _ in range(rng.randrange(0, 4))]
        year = rng.choice([None, 1999, 2026])
        key = make_citekey(title, authors, year, taken.__contains__)
        assert key not in taken
        taken.add(key)
        paper = make_paper(
            id=i,
            title=title,
            abstract=_random_text(rng, 200),
            authors=authors,
            venue=rng.choice([None, "ICLR", _random_text(rng, 10)]),
            year=year,
            keywords=[_random_text(rng, 10) for _ in range(rng.randrange(0, 3))],
            url=rng.choice([None, _random_text(rng, 40)]),
            doi=rng.choice([None, _random_text(rng, 20)]),
            citekey=key,
        )
        entry = bibtex_entry(paper)
        values = parse_one(entry)
        assert_bibtex_balanced(entry)
        assert values["ID"] == key
        if folded(title):
            assert unescape(values["title"]) == folded(title)
        if year is not None:
            assert values["year"] == str(year)
        names = [folded(a) for a in authors if folded(a)]
        if names:
            assert "author" in values
        else:
            assert "author" not in values


# --- bibtex_entry: options ---------------------------------------------------------------


def test_arxiv_id_gives_eprint_fields() -> None:
    values = parse_one(bibtex_entry(make_paper(arxiv_id="2401.00001v2")))
    assert values["eprint"] == "2401.00001v2"
    assert values["archivePrefix"] == "arXiv"
    values = parse_one(bibtex_entry(make_paper(arxiv_id="2401.00001"), biblatex=True))
    assert values["eprint"] == "2401.00001"
    assert values["eprinttype"] == "arxiv"


def test_journal_articles_are_articles() -> None:
    values = parse_one(bibtex_entry(make_paper(venue="Nature", kind="article")))
    assert values["ENTRYTYPE"] == "article"
    assert values["journal"] == "Nature"
    values = parse_one(bibtex_entry(make_paper(venue="Nature", kind="article"), biblatex=True))
    assert values["journaltitle"] == "Nature"


def test_biblatex_types_and_dates() -> None:
    values = parse_one(bibtex_entry(make_paper(date="2026-01-15"), biblatex=True))
    assert values["ENTRYTYPE"] == "inproceedings"
    assert values["date"] == "2026-01-15" and "year" not in values
    # A date from another year (a submission date) gives way to the year.
    assert parse_one(bibtex_entry(make_paper(date="2025-09-01"), biblatex=True))["date"] == "2026"
    online = make_paper(venue="arXiv preprint arXiv:2401.00001", arxiv_id="2401.00001")
    values = parse_one(bibtex_entry(online, biblatex=True))
    assert values["ENTRYTYPE"] == "online" and "booktitle" not in values
    values = parse_one(bibtex_entry(make_paper(venue=None, url=None), biblatex=True))
    assert values["ENTRYTYPE"] == "misc"


def test_latex_escapes_instead_of_unicode() -> None:
    paper = make_paper(
        title="Schrödinger’s 大模型 – α…",
        authors=["Zoë Ærø"],
        url="https://example.org/ü",
        keywords=["naïve"],
        abstract="Łódź",
    )
    entry = bibtex_entry(paper, unicode=False)
    assert entry.isascii()
    assert_bibtex_balanced(entry)
    values = parse_one(entry)
    assert values["author"] == r"Zo{\"e} {\AE}r{\o}"
    assert values["title"].startswith(r'Schr{\"o}dinger{\textquoteright}s {\symbol{"5927}}')
    assert values["url"] == r"https://example.org/\%C3\%BC"
    assert values["keywords"] == r"na{\"\i}ve"


def test_key_is_built_from_the_rendered_title_not_its_latex() -> None:
    assert make_citekey(r"\texttt{EditCast3D}: Editing Scenes", [], 2026, never_taken) == (
        "editcast3d2026"
    )
    assert make_citekey(r"$\mathbf{Li}_2$ Is Enough", [], 2026, never_taken) == "li22026"
    assert make_citekey("Deep nets", [r"Erwin Schr{\"o}dinger"], 1935, never_taken) == (
        "schrodinger1935deep"
    )


# --- an edited book: the editors stand in for the author, once -------------------------------


EDITED_BOOK = {
    "apa": "Smith, J., & Doe, J. (Eds.). (2020). Handbook of Causal Methods (2nd ed.). MIT Press.",
    "chicago-author-date": "Smith, Jane, and John Doe, eds. 2020. Handbook of Causal Methods. "
                           "2nd ed. MIT Press.",
    "mla": "Smith, Jane, and John Doe, editors. Handbook of Causal Methods. 2nd ed., MIT Press, "
           "2020.",
    "harvard": "Smith, J. and Doe, J. (eds.) (2020) Handbook of Causal Methods. 2nd ed. "
               "MIT Press.",
}


@pytest.mark.parametrize("style", sorted(EDITED_BOOK))
def test_an_edited_book_names_its_editors_once(style: str) -> None:
    from reader.cite.formats import render

    book = make_paper(
        title="Handbook of Causal Methods", venue=None, url=None, abstract="", keywords=[],
        csl={"type": "book", "editor": [{"family": "Smith", "given": "Jane"},
                                        {"family": "Doe", "given": "John"}],
             "publisher": "MIT Press", "edition": "2"},
        year=2020)
    assert render([book], "text", style) == EDITED_BOOK[style]
    # A chapter of it still names them as the book's editors.
    chapter = make_paper(
        title="Instrumental Variables", authors=["Ann Lee"], venue="Handbook of Causal Methods",
        url=None, abstract="", keywords=[], year=2020,
        csl={"type": "chapter", "editor": book.csl["editor"], "publisher": "MIT Press"})
    assert "Smith" in render([chapter], "text", style)


def test_a_title_in_another_language_keeps_its_case_in_title_case_styles() -> None:
    """CSL title-cases English titles only: Chicago and MLA wrote "Die Gegenwärtige
    Situation in Der Quantenmechanik"."""
    from reader.cite.formats import render

    title = "Die gegenwärtige Situation in der Quantenmechanik"
    german = make_paper(title=title, venue="Naturwissenschaften", year=1935,
                        csl={"type": "article-journal", "language": "de"})
    english = make_paper(title="the situation in quantum mechanics", venue="Naturwissenschaften",
                         year=1935, csl={"type": "article-journal", "language": "en-US"})
    for style in ("chicago-author-date", "mla"):
        assert f"“{title}.”" in render([german], "text", style)
        assert "“The Situation in Quantum Mechanics.”" in render([english], "text", style)


def test_east_asian_names_are_written_whole_family_first() -> None:
    """citeproc-py initialised and inverted them: APA "李. 雷 .", IEEE "[1]. 雷 . 李"."""
    from reader.cite.formats import render

    paper = make_paper(
        title="深度学习在自然语言处理中的应用研究", authors=["雷 李", "梅梅 韩"],
        venue="计算机学报", year=2019, url=None,
        csl={"type": "article-journal", "author": [{"family": "李", "given": "雷"},
                                                    {"family": "韩", "given": "梅梅"}]})
    assert render([paper], "text", "ieee").startswith("[1] 李雷 and 韩梅梅, “")
    assert render([paper], "text", "apa").startswith("李雷, & 韩梅梅. (2019).")
    # The record keeps them apart: a CSL-JSON export gives family and given.
    assert '"family": "李"' in render([paper], "csljson")


def test_mixed_script_names_are_printed_not_initialised_into_stray_periods() -> None:
    """A romanised name with its script's form in parentheses ("Wei (王伟)") printed
    "W. (王伟) ."; a script given name beside a romanised family name "Tanaka. 太郎 ."."""
    from reader.cite.formats import render

    paper = make_paper(
        title="Mixed Names", authors=["Wei (王伟) Wang", "太郎 Tanaka"], venue="J", year=2020,
        url=None,
        csl={"type": "article-journal", "author": [{"family": "Wang", "given": "Wei (王伟)"},
                                                    {"family": "Tanaka", "given": "太郎"}]})
    apa = render([paper], "text", "apa")
    assert apa.startswith("Wang, W., & Tanaka 太郎. (2020)."), apa
    assert render([paper], "text", "ieee").startswith("[1] W. Wang and Tanaka 太郎, “")
    # The record keeps them as written.
    assert '"given": "Wei (王伟)"' in render([paper], "csljson")


def test_page_ranges_with_a_longer_end_and_hyphenated_given_names() -> None:
    """MLA printed "1–20" as "pp. 1–0"; APA and IEEE initialised "Xiao-ming" as
    "X.-. ming ."."""
    from reader.cite.formats import render

    paper = make_paper(title="A title", authors=["Xiao-ming Wang"], venue="Journal",
                       year=2020, url=None,
                       csl={"type": "article-journal", "page": "1-20", "volume": "3",
                            "author": [{"family": "Wang", "given": "Xiao-ming"}]})
    assert "pp. 1–20." in render([paper], "text", "mla")
    assert render([paper], "text", "apa").startswith("Wang, X.-m. (2020).")
    assert render([paper], "text", "ieee").startswith("[1] X.-m. Wang, “")
    assert "Wang, Xiao-ming." in render([paper], "text", "mla")  # written out, as it is
    longer = replace(paper, csl={**paper.csl, "page": "101-130"})
    assert "pp. 101–30." in render([longer], "text", "mla")  # minimal-two, as before


def test_biblatex_langid_is_the_language_and_goes_out_as_it_came(tmp_path: Path) -> None:
    """Better BibLaTeX and JabRef write ``langid`` (babel's names): Chicago title-cased a
    German title so marked; "american" is English."""
    from reader.cite.formats import render
    from reader.library import Library

    bib = tmp_path / "langid.bib"
    bib.write_text(
        "@article{schr, title = {Die gegenwärtige Situation in der Quantenmechanik}, "
        "author = {Schrödinger, Erwin}, journal = {N}, year = {1935}, langid = {ngerman}}\n"
        "@article{us, title = {the situation in quantum mechanics}, author = {Doe, Jane}, "
        "journal = {P}, year = {1935}, langid = {american}}\n", encoding="utf-8")
    library = Library(tmp_path / "lib")
    try:
        library.imports.write_files([bib])
        papers = {p.citekey: p for p in library.store.iter_papers()}
        chicago = render([papers["schr"], papers["us"]], "text", "chicago-author-date")
        assert "“Die gegenwärtige Situation in der Quantenmechanik.”" in chicago
        assert "“The Situation in Quantum Mechanics.”" in chicago
        assert "langid = {ngerman}" in render([papers["schr"]], "bibtex")
    finally:
        library.close()


def test_a_medline_page_range_is_cited_whole() -> None:
    """MEDLINE abbreviates a range's end ("245-52"): APA and IEEE printed "245–52"."""
    from reader.cite.formats import render

    paper = make_paper(title="A title", authors=["Ann Lee"], venue="Journal", year=2020,
                       url=None, csl={"type": "article-journal", "page": "245-52",
                                      "author": [{"family": "Lee", "given": "Ann"}]})
    assert "245–252" in render([paper], "text", "apa")
    assert "245–252" in render([paper], "text", "ieee")


def test_chicago_presents_a_conference_paper_at_its_event(
    empty_library: Library, tmp_path: Path
) -> None:
    # CSL 1.0.2's event-title, which citeproc-py did not know: "Paper presented ICLR 2024".
    path = tmp_path / "conf.json"
    path.write_text(json.dumps([{
        "id": "x", "type": "paper-conference", "title": "Scaling Laws",
        "author": [{"family": "Li", "given": "Wei"}], "issued": {"date-parts": [[2024]]},
        "event": "ICLR 2024", "publisher-place": "Vienna, Austria",
    }]), encoding="utf-8")
    empty_library.import_files([path])
    paper = empty_library.paper(empty_library.all_ids()[0])
    assert paper is not None
    chicago = render_citation([paper], "text", "chicago-author-date")
    assert "Paper presented at ICLR 2024, Vienna, Austria." in chicago
