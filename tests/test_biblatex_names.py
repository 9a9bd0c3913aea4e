"""biblatex's extended name format (``family=Werra, given=Leandro, prefix=von,
useprefix=true``), as Better BibTeX writes names with particles or suffixes: read part by
part, not as one garbled name ("prefix=von useprefix=true family=Werra given=Leandro")."""

from __future__ import annotations

import json

from reader.cite.formats import render
from reader.models import Paper, PaperRecord
from reader.sources import parse_text
from reader.sources.bibtex_names import parse_names

BBT_ENTRY = """\
@book{tunstall2022natural,
  title = {Natural {{Language Processing}} with {{Transformers}}},
  author = {Tunstall, Lewis and family=Werra, given=Leandro, prefix=von, useprefix=true
            and Wolf, Thomas},
  date = {2022},
  publisher = {O'Reilly Media},
}
"""


def _paper(record: PaperRecord) -> Paper:
    return Paper(
        id=1, title=record.title, title_derived=False, abstract="", authors=record.authors,
        venue=record.venue, year=record.year, keywords=[], url=None, doi=None,
        citekey=record.citekey, starred=False, note="", added_at="", csl=record.csl,
        extra=record.extra,
    )


def test_better_biblatex_names_are_read_part_by_part() -> None:
    [record] = parse_text(BBT_ENTRY, "bbt.bib", "bibtex").records
    assert record.csl["author"][1] == {
        "family": "Werra", "given": "Leandro", "non-dropping-particle": "von"}
    assert record.authors == ["Lewis Tunstall", "Leandro von Werra", "Thomas Wolf"]
    cited = render([_paper(record)], "text", "apa")
    assert cited.startswith("Tunstall, L., von Werra, L., & Wolf, T. (2022)."), cited
    assert "prefix" not in render([_paper(record)], "text", "ieee")


def test_the_parts_of_an_extended_name() -> None:
    names, _ = parse_names(
        "family=Beethoven, given=Ludwig, prefix=van, useprefix=false and "
        "family={Luther King}, given={Martin}, suffix={Jr.} and "
        'family="M{\\"u}ller", given-i=J, given={Jean, Paul}'
    )
    assert names == [
        {"family": "Beethoven", "given": "Ludwig", "dropping-particle": "van"},
        {"family": "Luther King", "given": "Martin", "suffix": "Jr."},
        {"family": "Müller", "given": "Jean, Paul"},
    ]


def test_names_with_an_equals_sign_are_not_extended_names() -> None:
    names, _ = parse_names("{A=B Consortium} and Doe, John")
    assert names == [{"literal": "A=B Consortium"}, {"given": "John", "family": "Doe"}]


def test_a_family_name_braced_whole_is_written_braced_and_read_back_the_same() -> None:
    """``{van der Berg}, Anna`` is a family name of three words with no particle: written
    back without its braces, it was read again as the particle "van der" and "Berg", and
    sorted and cited otherwise. A real particle is written as one, and a family name of
    words in capitals needs no braces."""
    entry = (
        "@article{b2020, title = {Names}, year = {2020}, author = {{van der Berg}, Anna and "
        "Ludwig {van Beethoven} and van Dijk, Jan and Curry Rogers, Kristina}}\n"
    )
    [record] = parse_text(entry, "names.bib", "bibtex").records
    written = render([_paper(record)], "bibtex")
    assert ("{van der Berg}, Anna and {van Beethoven}, Ludwig and van Dijk, Jan and "
            "Curry Rogers, Kristina") in written
    [again] = parse_text(written, "export.bib", "bibtex").records
    assert again.csl["author"] == record.csl["author"]
    assert record.csl["author"][0] == {"given": "Anna", "family": "van der Berg"}


def test_an_organisation_given_as_a_family_name_alone_stays_one_name() -> None:
    """A CSL-JSON author ``{"family": "World Health Organization"}`` was written unbraced,
    and read back as a person: given "World Health", family "Organization", cited
    "Organization, W. H."."""
    item = {"id": "who2020", "type": "report", "title": "Report", "author": [
        {"family": "World Health Organization"}, {"family": "Smith", "given": "J"},
        {"family": "Plato"}], "issued": {"date-parts": [[2020]]}}
    [record] = parse_text(json.dumps([item]), "who.json", "csljson").records
    written = render([_paper(record)], "bibtex")
    assert "author = {{World Health Organization} and Smith, J and Plato}" in written
    [again] = parse_text(written, "export.bib", "bibtex").records
    assert render([_paper(again)], "text", "apa").startswith("World Health Organization, ")
