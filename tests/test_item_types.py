"""Item types beyond articles, as Zotero's RIS translator (RIS.js), EndNote and Zotero's CSV
write them: a patent's A2 is its issuing authority, C3 its country, SN its number, M1 its
application number and C1 its filing date; a program's ET is its version; a presentation's
T2 is the meeting it was given at; a video is one, from the site DB names. Read as the
standard's fields, the authority was an editor, the country the event, the number an ISBN."""

from __future__ import annotations

from pathlib import Path

from reader.cite.export import export
from reader.cite.formats import render
from reader.library import Library
from reader.models import Paper

ITEMS_RIS = """TY  - PAT
TI  - Distilling knowledge from ensembles of neural networks
AU  - Hinton, Geoffrey E.
A2  - United States Patent and Trademark Office
C3  - US
C6  - Active
M1  - US15/362,543
SN  - US10963786B2
PB  - Google LLC
C1  - 2016/11/28/
DA  - 2021/03/30/
PY  - 2021
ER  - 
TY  - COMP
TI  - scikit-learn: Machine Learning in Python
AU  - Pedregosa, Fabian
DA  - 2024/07/02/
PY  - 2024
ET  - 1.5.1
PB  - Zenodo
ER  - 
TY  - VIDEO
TI  - Let's build GPT: from scratch, in code, spelled out.
AU  - Karpathy, Andrej
DA  - 2023/01/17/
PY  - 2023
UR  - https://www.youtube.com/watch?v=kCc8FmEb1nY
DB  - YouTube
M3  - Video
ER  - 
TY  - SLIDE
TI  - On the Dangers of Stochastic Parrots
AU  - Bender, Emily M.
T2  - NAACL 2022
CY  - Seattle, WA
M3  - Keynote
DA  - 2022/07/12/
PY  - 2022
ER  - 
"""


def _papers(tmp_path: Path, name: str, text: str) -> dict[str, Paper]:
    """The papers a library makes of ``text``, by CSL type."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    library = Library(tmp_path / f"lib-{name}")
    try:
        library.import_files([path])
        return {str(p.csl["type"]): p for p in library.papers(library.all_ids())}
    finally:
        library.close()


def test_a_patents_tags_are_its_authority_number_country_and_filing(tmp_path: Path) -> None:
    patent = _papers(tmp_path, "items.ris", ITEMS_RIS)["patent"]
    assert patent.csl["authority"] == "United States Patent and Trademark Office"
    assert patent.csl["number"] == "US10963786B2"
    assert patent.csl["jurisdiction"] == "US"
    assert patent.csl["call-number"] == "US15/362,543"
    assert patent.csl["submitted"] == {"date-parts": [[2016, 11, 28]]}
    for wrong in ("editor", "event", "ISBN", "publisher"):
        assert wrong not in patent.csl, wrong
    apa = render([patent], "text", "apa")
    assert "Patent No. US10963786B2" in apa and "Google LLC" not in apa, apa
    chicago = render([patent], "text", "chicago-author-date")
    assert "filed November 28, 2016" in chicago, chicago


def test_software_video_and_presentation_cite_as_what_they_are(tmp_path: Path) -> None:
    papers = _papers(tmp_path, "items.ris", ITEMS_RIS)
    software = papers["software"]
    assert software.csl["version"] == "1.5.1" and "edition" not in software.csl
    assert "(Version 1.5.1) [Computer software]" in render([software], "text", "apa")
    video = papers["motion_picture"]
    assert video.csl["publisher"] == "YouTube"
    assert "[Video]. YouTube." in render([video], "text", "apa")
    talk = papers["speech"]
    assert talk.csl["event"] == "NAACL 2022"
    assert talk.csl["event-place"] == "Seattle, WA"
    apa = render([talk], "text", "apa")
    assert "[Keynote]. NAACL 2022, Seattle, WA." in apa and "In NAACL" not in apa, apa


def test_the_item_types_come_back_from_our_ris_and_csl_json(tmp_path: Path) -> None:
    first = _papers(tmp_path, "items.ris", ITEMS_RIS)
    for fmt, name in (("ris", "again.ris"), ("csljson", "again.json")):
        again = _papers(tmp_path, name, export(list(first.values()), fmt))
        assert sorted(again) == sorted(first)
        for kind, paper in first.items():
            assert again[kind].csl == paper.csl, (fmt, kind)


ITEMS_CSV = (
    '"Key","Item Type","Publication Year","Author","Title","Date","Place","Publisher",'
    '"Number","Filing Date","Application Number","Assignee","Issuing Authority","Country",'
    '"Version","Meeting Name","Type","Reviewed Author","Publication Title"\n'
    '"P1","patent","2021","Hinton, Geoffrey E.","Distilling knowledge","2021-03-30","","",'
    '"US10963786B2","2016-11-28","US15/362,543","Google LLC",'
    '"United States Patent and Trademark Office","US","","","","",""\n'
    '"C1","computerProgram","2019","Paszke, Adam","PyTorch","2019","","Meta AI","","","","",'
    '"","","1.3.0","","","",""\n'
    '"S1","presentation","2022","Bender, Emily M.","On the Dangers of Stochastic Parrots",'
    '"2022-07-12","Seattle, WA","","","","","","","","","NAACL 2022","Keynote","",""\n'
    '"R1","journalArticle","2020","Marcus, Gary","Review of Rebooting AI","2020-02","","",'
    '"","","","","","","","","","Davis, Ernest","Artificial Intelligence"\n'
)


def test_zoteros_csv_columns_of_these_types_are_their_variables(tmp_path: Path) -> None:
    """Zotero's CSV columns for a patent, a program, a talk and a review were kept only in
    the table: APA printed "(Patent Nos. US10963786B2)", no version and no meeting."""
    papers = _papers(tmp_path, "zotero.csv", ITEMS_CSV)
    patent = papers["patent"]
    assert patent.csl["authority"] == "United States Patent and Trademark Office"
    assert patent.csl["jurisdiction"] == "US"
    assert patent.csl["call-number"] == "US15/362,543"
    assert patent.csl["submitted"] == {"date-parts": [[2016, 11, 28]]}
    assert patent.extra["table"]["Assignee"] == "Google LLC"
    assert "(United States Patent and Trademark Office Patent No. US10963786B2)" in render(
        [patent], "text", "apa")
    assert "(Version 1.3.0)" in render([papers["software"]], "text", "apa")
    talk = render([papers["speech"]], "text", "apa")
    assert "[Keynote]. NAACL 2022, Seattle, WA." in talk, talk
    assert papers["article-journal"].csl["reviewed-author"] == [
        {"family": "Davis", "given": "Ernest"}]
    for fmt, name in (("ris", "again.ris"), ("csljson", "again.json")):
        again = _papers(tmp_path, name, export([patent, papers["speech"]], fmt))
        for variable in ("authority", "jurisdiction", "call-number", "number", "submitted"):
            assert again["patent"].csl[variable] == patent.csl[variable], (fmt, variable)
        assert again["speech"].csl["event-place"] == "Seattle, WA"
