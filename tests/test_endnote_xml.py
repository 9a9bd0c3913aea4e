"""EndNote's XML export is read as EndNote's RIS export of the same references: the same
papers, field for field; the user's research notes are the paper's note; what no RIS tag
holds is named in the summary; a broken, hostile or foreign XML file is a clear message."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from reader.cli import cli
from reader.sources import detect_format


def _style(text: str) -> str:
    return f'<style face="normal" font="default" size="100%">{text}</style>'


def _record(number: int, kind: str, body: str) -> str:
    return (
        f'<record><database name="My Library.enl" path="C:\\My Library.enl">My Library.enl'
        f'</database><source-app name="EndNote" version="21.0">EndNote</source-app>'
        f"<rec-number>{number}</rec-number><ref-type name=\"{kind}\">0</ref-type>{body}</record>"
    )


ARTICLE = _record(1032, "Journal Article", (
    "<contributors><authors>"
    f"<author>{_style('Esteva, Andre')}</author><author>{_style('Thrun, Sebastian')}</author>"
    "</authors></contributors>"
    f"<auth-address>{_style('Stanford University, CA, USA')}</auth-address>"
    f"<titles><title>{_style('Dermatologist-level classification of skin cancer')}</title>"
    f"<secondary-title>{_style('Nature')}</secondary-title></titles>"
    f"<pages>{_style('115-118')}</pages><volume>{_style('542')}</volume>"
    f"<number>{_style('7639')}</number>"
    f"<keywords><keyword>{_style('Deep Learning')}</keyword>"
    f"<keyword>{_style('Humans')}</keyword></keywords>"
    f"<dates><year>{_style('2017')}</year><pub-dates><date>{_style('Feb')}</date></pub-dates>"
    f"</dates><isbn>{_style('0028-0836')}</isbn>"
    f"<electronic-resource-num>{_style('10.1038/nature21056')}</electronic-resource-num>"
    f"<abstract>{_style('Skin cancer is common.&#xD;&#xD;We train a CNN on 129,450 images.')}"
    "</abstract>"
    f"<research-notes>{_style('Read for the methods section.')}</research-notes>"
    f"<reviewed-item>{_style('Something EndNote alone keeps')}</reviewed-item>"
    f"<urls><related-urls><url>{_style('https://www.nature.com/articles/nature21056')}"
    "</url></related-urls></urls>"
    f"<remote-database-name>{_style('PubMed')}</remote-database-name>"
    f"<language>{_style('eng')}</language>"
))
CHAPTER = _record(7, "Book Section", (
    f"<contributors><authors><author>{_style('Hochreiter, Sepp')}</author></authors>"
    f"<secondary-authors><author>{_style('Kolen, John F.')}</author></secondary-authors>"
    "</contributors>"
    "<titles><title>Gradient flow in recurrent nets</title>"
    "<secondary-title>A Field Guide to Dynamical Recurrent Networks</secondary-title></titles>"
    "<pages>237-243</pages><dates><year>2001</year></dates>"
    "<pub-location>New York</pub-location><publisher>IEEE Press</publisher>"
))
RIS = """TY  - JOUR
AU  - Esteva, Andre
AU  - Thrun, Sebastian
AD  - Stanford University, CA, USA
TI  - Dermatologist-level classification of skin cancer
T2  - Nature
SP  - 115-118
VL  - 542
IS  - 7639
PY  - 2017
DA  - Feb
SN  - 0028-0836
DO  - 10.1038/nature21056
UR  - https://www.nature.com/articles/nature21056
AB  - Skin cancer is common.

We train a CNN on 129,450 images.
LA  - eng
KW  - Deep Learning
KW  - Humans
ID  - 1032
DB  - PubMed
ER  - 
"""


def _xml(*records: str) -> str:
    return ('<?xml version="1.0" encoding="UTF-8" ?><xml><records>'
            + "".join(records) + "</records></xml>")


def _invoke(root: Path, *args: str, code: int = 0) -> Any:
    result = CliRunner().invoke(cli, ["--library", str(root), *args], obj={})
    assert result.exit_code == code, result.output
    return result


def _papers(root: Path) -> dict[str, dict[str, Any]]:
    papers = json.loads(_invoke(root, "export", "--format", "json").stdout)
    return {p["title"]: p for p in papers}


def test_an_endnote_xml_export_is_recognised_and_read_as_its_ris_export(tmp_path: Path) -> None:
    xml = tmp_path / "My Library.xml"
    xml.write_text(_xml(ARTICLE, CHAPTER), encoding="utf-8")
    ris = tmp_path / "My Library.ris"
    ris.write_text(RIS, encoding="utf-8")
    assert detect_format(xml.read_text(encoding="utf-8")) == "endnote-xml"

    summary = _invoke(tmp_path / "a", "import", str(xml)).output
    assert "2 read: 2 new" in summary
    assert "reviewed-item (1)" in summary  # said, not silently dropped
    _invoke(tmp_path / "b", "import", str(ris))
    from_xml = _papers(tmp_path / "a")
    from_ris = _papers(tmp_path / "b")

    article = from_xml["Dermatologist-level classification of skin cancer"]
    expected = from_ris["Dermatologist-level classification of skin cancer"]
    for field in ("authors", "venue", "year", "date", "doi", "url", "keywords", "kind",
                  "citekey"):
        assert article[field] == expected[field], field
    assert article["abstract"] == expected["abstract"]
    assert "\n\n" in article["abstract"]  # (EndNote's carriage returns are paragraphs)
    for variable in ("volume", "issue", "page", "ISSN", "language"):
        assert article["csl"][variable] == expected["csl"][variable], variable
    assert article["note"] == "Read for the methods section."

    chapter = from_xml["Gradient flow in recurrent nets"]
    assert chapter["csl"]["type"] == "chapter"
    assert chapter["csl"]["editor"] == [{"family": "Kolen", "given": "John F."}]
    assert chapter["venue"] == "A Field Guide to Dynamical Recurrent Networks"
    cited = _invoke(tmp_path / "a", "cite", chapter["citekey"], "--format", "text",
                    "--style", "apa").output
    assert "In J. F. Kolen (Ed.), A Field Guide to Dynamical Recurrent Networks" in cited
    assert "IEEE Press" in cited


def test_a_broken_or_hostile_endnote_xml_file_is_a_clear_message(tmp_path: Path) -> None:
    cut = tmp_path / "cut.xml"
    cut.write_text(_xml(ARTICLE, CHAPTER)[:-40], encoding="utf-8")
    output = _invoke(tmp_path / "a", "import", "--verbose", str(cut)).output
    assert "1 new" in output and "1 skipped" in output  # the record before the cut is kept
    assert "records after this line were not read" in output

    hostile = tmp_path / "laughs.xml"
    hostile.write_text('<?xml version="1.0"?><!DOCTYPE xml [<!ENTITY a "aaaa">]>'
                       "<xml><records>" + ARTICLE + "</records></xml>", encoding="utf-8")
    output = _invoke(tmp_path / "b", "import", str(hostile), "--format", "endnote-xml",
                     code=1).output
    assert "DTD or entity declarations is refused" in output

    mods = tmp_path / "mods.xml"
    mods.write_text('<?xml version="1.0"?><modsCollection><mods/></modsCollection>',
                    encoding="utf-8")
    output = _invoke(tmp_path / "c", "import", str(mods), code=1).output
    assert "it is XML" in output and "export the records as RIS or BibTeX" in output


def test_an_endnote_thesis_has_no_editor_container_or_page(tmp_path: Path) -> None:
    # EndNote's Thesis type keeps its advisor, academic department, degree and number of
    # pages in the fields other types use for editors, a container, a volume and pages.
    thesis = _record(103, "Thesis", (
        f"<contributors><authors><author>{_style('Okonkwo, Chidi')}</author></authors>"
        f"<secondary-authors><author>{_style('Adeyemi, F.')}</author></secondary-authors>"
        "</contributors>"
        f"<titles><title>{_style('Speech recognition for tonal languages')}</title>"
        f"<secondary-title>{_style('Department of Computer Science')}</secondary-title>"
        f"</titles><pages>{_style('214')}</pages><volume>{_style('Doctor of Philosophy')}"
        f"</volume><dates><year>{_style('2022')}</year></dates>"
        f"<publisher>{_style('University of Lagos')}</publisher>"
        f"<work-type>{_style('Ph.D.')}</work-type>"
    ))
    path = tmp_path / "thesis.xml"
    path.write_text(_xml(thesis), encoding="utf-8")
    summary = _invoke(tmp_path / "a", "import", str(path)).output
    assert "academic department (1), advisor (1), degree (1)" in summary
    [paper] = _papers(tmp_path / "a").values()
    assert "editor" not in paper["csl"] and "page" not in paper["csl"]
    assert paper["csl"]["number-of-pages"] == "214"
    cited = _invoke(tmp_path / "a", "cite", paper["citekey"], "--format", "text",
                    "--style", "apa").output
    assert cited.startswith("Okonkwo, C. (2022). Speech recognition for tonal languages [Ph.D.")
    assert "University of Lagos" in cited
    assert "(Ed.)" not in cited and " In " not in cited and "p. 214" not in cited
